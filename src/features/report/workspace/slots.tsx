import { Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyImage } from '../../../../contract/images';
import { KEY_IMAGES_MAX } from '../../../../contract/constants';
import { http } from '@/lib/http';
import { Spinner } from '@/ui/Spinner';

/**
 * The workspace's slots for the image viewer and key-image capture, which the viewer feature provides. The app
 * fills them (src/app/slots.ts), so the report feature never imports the viewer, e.g.
 *   workspaceSlots.keyImages = lazy(() => import('@/features/viewer/KeyImagesPanel'));
 * The component gets the report and exam ids and whether the report may change now (key images follow the
 * report machine's save rule on the server). Unfilled, the key-image slot lists the report's key images
 * read-only from GET reports/{id}/images, and the viewer slot takes no room at all.
 */
export interface WorkspaceSlotProps {
  examId: number;
  reportId: number;
  editable: boolean;
}

type Slot = LazyExoticComponent<ComponentType<WorkspaceSlotProps>> | ComponentType<WorkspaceSlotProps>;

/** Another feature's actions on the exam in the header (the consultation request); the app fills it. */
export interface ExamActionsSlotProps {
  examId: number;
  reportId: number;
  /** The exam's organisation (rights are asked there). */
  bucketId: number;
}

export const workspaceSlots: {
  viewer?: Slot;
  keyImages?: Slot;
  examActions?: LazyExoticComponent<ComponentType<ExamActionsSlotProps>> | ComponentType<ExamActionsSlotProps>;
} = {};

/** Unfilled, nothing; while its chunk loads, nothing either (it is an extra, not the page). */
export function ExamActionsSlot(props: ExamActionsSlotProps) {
  const Actions = workspaceSlots.examActions;
  if (!Actions) return null;
  return (
    <Suspense fallback={null}>
      <Actions {...props} />
    </Suspense>
  );
}

export function ViewerSlot(props: WorkspaceSlotProps) {
  const { t } = useTranslation();
  const Viewer = workspaceSlots.viewer;
  if (!Viewer) return null;
  return (
    <Suspense fallback={<Spinner label={t('common.loading')} />}>
      <Viewer {...props} />
    </Suspense>
  );
}

export function KeyImagesSlot(props: WorkspaceSlotProps) {
  const { t } = useTranslation();
  const Panel = workspaceSlots.keyImages;
  if (Panel) {
    return (
      <Suspense fallback={<Spinner label={t('common.loading')} />}>
        <Panel {...props} />
      </Suspense>
    );
  }
  return <KeyImageList reportId={props.reportId} />;
}

/** The report's key images as the server lists them (read links live an hour; the list is asked on opening). */
function KeyImageList({ reportId }: { reportId: number }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<KeyImage[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    http.get<KeyImage[]>(`reports/${reportId}/images`, { signal: controller.signal }).then(setItems, () => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [reportId]);
  if (failed) return <p className="text-sm text-fg-muted">{t('report.keyImages.failed')}</p>;
  if (!items) return <Spinner label={t('common.loading')} />;
  if (items.length === 0) return <p className="text-sm text-fg-muted">{t('report.keyImages.none')}</p>;
  return (
    <div>
      <p className="mb-2 text-xs text-fg-muted">{t('report.keyImages.count', { count: items.length, max: KEY_IMAGES_MAX })}</p>
      <ul className="grid grid-cols-3 gap-2">
        {items.map((image) => (
          <li key={image.id} className="overflow-hidden rounded-md border border-line bg-sunken">
            <img src={image.url} alt={image.description ?? t('report.keyImages.image', { n: image.sort + 1 })} className="aspect-square w-full object-contain" loading="lazy" />
          </li>
        ))}
      </ul>
    </div>
  );
}
