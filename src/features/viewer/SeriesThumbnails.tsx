import { useTranslation } from 'react-i18next';
import { previewUrl } from './stack';
import { useSeries } from './useSeries';

const MAX = 8;

/**
 * A strip of the exam's series, each by the preview of its first image (GET instances/{id}/preview, with the view
 * token the series list came with: an <img> sends no bearer), so a case is recognised without opening the viewer.
 * Each opens the viewer. Nothing is drawn while loading or when the exam has no images.
 */
export function SeriesThumbnails({ examId }: { examId: number }) {
  const { t } = useTranslation();
  const { data, token } = useSeries(examId);
  if (!data || !token) return null;
  const firsts = data.list.series.filter((s) => s.instances.length > 0).slice(0, MAX);
  if (firsts.length === 0) return null;
  return (
    <ul aria-label={t('viewer.series.title')} data-testid="series-thumbnails" className="mt-3 grid grid-cols-4 gap-1.5">
      {firsts.map((series) => {
        const instance = series.instances[0]!;
        const label = [series.seriesNumber !== null ? t('viewer.overlay.series', { number: series.seriesNumber }) : null, series.seriesDescription].filter(Boolean).join(' ');
        return (
          <li key={series.seriesInstanceUid}>
            <a href={`/viewer/${examId}`} target="_blank" rel="noopener" title={label} className="block overflow-hidden rounded border border-line bg-black focus-visible:outline-offset-[-2px]">
              <img src={previewUrl(data.base, instance.id, token)} alt={label} loading="lazy" className="aspect-square w-full object-contain" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
