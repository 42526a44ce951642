import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KEY_IMAGES_MAX } from '../../../contract/constants';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { removeKeyImage, refreshKeyImages, useKeyImages } from './keyImages';

/**
 * A report's key images (at most 6) for the report workspace: thumbnails in capture order, the count,
 * and removal while the report may be edited. Light on purpose: it does not load the viewer's chunk.
 */
export function KeyImages({ reportId, editable = false }: { reportId: number; editable?: boolean }) {
  const { t } = useTranslation();
  const { items, loading, error } = useKeyImages(reportId);
  const [removing, setRemoving] = useState<number | null>(null);

  async function remove(imageId: number) {
    setRemoving(imageId);
    try {
      await removeKeyImage(reportId, imageId);
    } catch (err) {
      if (!isSessionEndingError(err)) toasts.show({ message: errorText(t, err), kind: 'error' });
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby={`key-images-${reportId}`} className="min-w-0">
      <div className="mb-1.5 flex items-baseline justify-between">
        <h3 id={`key-images-${reportId}`} className="text-xs font-medium text-fg-muted">{t('viewer.keyImages.title')}</h3>
        <span data-testid="key-image-count" className="text-xs tabular-nums text-fg-subtle">{t('viewer.keyImages.count', { count: items.length, max: KEY_IMAGES_MAX })}</span>
      </div>
      {error && !isSessionEndingError(error) ? (
        <Alert>{errorText(t, error)} <button type="button" className="link" onClick={() => void refreshKeyImages(reportId).catch(() => undefined)}>{t('common.retry')}</button></Alert>
      ) : items.length === 0 ? (
        <p className="rounded-md border border-dashed border-line px-3 py-3 text-center text-xs text-fg-subtle">{loading ? t('common.loading') : t('viewer.keyImages.empty')}</p>
      ) : (
        <ul className="grid grid-cols-3 gap-1.5">
          {items.map((image, index) => (
            <li key={image.id} className="group relative overflow-hidden rounded border border-line bg-black">
              <a href={image.url} target="_blank" rel="noopener noreferrer" className="block focus-visible:outline-offset-[-2px]">
                <img src={image.url} alt={image.description || t('viewer.keyImages.alt', { index: index + 1 })} className="aspect-square w-full object-contain" loading="lazy" />
              </a>
              <p className="truncate bg-surface px-1 py-0.5 text-[11px] text-fg-muted" title={image.description ?? undefined}>{image.description || t('viewer.keyImages.alt', { index: index + 1 })}</p>
              {editable && (
                <button type="button" disabled={removing === image.id} onClick={() => void remove(image.id)}
                  aria-label={t('viewer.keyImages.remove', { index: index + 1 })}
                  className="icon-button absolute right-0.5 top-0.5 size-6 bg-surface/90 text-xs opacity-80 hover:opacity-100 focus-visible:opacity-100">
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
