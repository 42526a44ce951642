import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/ui/ConfirmDialog';

export interface UnpublishTarget {
  reportId: number;
  patientName: string;
}

/**
 * Asks before a report leaves the patients' list. The confirm button has the focus, so `u` then Enter (or a click
 * and Enter) unpublishes; Esc or Cancel keeps it. Publishing again is one click away, so this is a check, not a wall.
 */
export function UnpublishDialog({ target, busy, onConfirm, onCancel }: {
  target: UnpublishTarget | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog open={target !== null} title={t('publish.unpublish.title')} busy={busy} onConfirm={onConfirm} onCancel={onCancel}
      tone="primary" confirmLabel={t('publish.unpublish.confirm')} busyLabel={t('publish.unpublish.working')} testId="confirm-unpublish">
      <p>{t('publish.unpublish.body', { name: target?.patientName ?? '' })}</p>
      <p className="mt-1 text-xs text-fg-muted">{t('publish.unpublish.hint')}</p>
    </ConfirmDialog>
  );
}
