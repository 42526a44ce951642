import { useTranslation } from 'react-i18next';
import type { Stack } from './stack';

/**
 * The study's series down the left side, each by the preview of its first image (GET instances/{id}/preview: a series
 * is recognised at a glance, also on a film share page); '[' and ']' move through them too.
 */
export function SeriesList({ stacks, selected, onSelect, previewOf }: { stacks: Stack[]; selected: number; onSelect: (index: number) => void; previewOf?: (instanceId: number) => string }) {
  const { t } = useTranslation();
  if (stacks.length === 0) return null;
  return (
    <nav aria-label={t('viewer.series.title')} className="flex w-40 shrink-0 flex-col border-r border-line bg-sunken">
      <h3 className="px-2.5 pb-1 pt-2 text-xs font-medium text-fg-muted">{t('viewer.series.count', { count: stacks.length })}</h3>
      <ul className="min-h-0 flex-1 overflow-y-auto pb-1">
        {stacks.map((stack, index) => {
          const s = stack.series;
          const active = index === selected;
          const first = stack.images[0];
          return (
            <li key={s.seriesInstanceUid}>
              <button
                type="button"
                aria-current={active ? 'true' : undefined}
                onClick={() => onSelect(index)}
                className={`block w-full border-l-2 px-2.5 py-1.5 text-left text-xs focus-visible:outline-offset-[-2px] ${active ? 'border-accent bg-accent-soft text-fg' : 'border-transparent text-fg-muted hover:bg-surface hover:text-fg'}`}
              >
                {previewOf && first && (
                  // Decorative: the button's text names the series; a preview that cannot be made simply stays dark.
                  <img src={previewOf(first.instanceId)} alt="" loading="lazy" data-testid="series-preview" className="mb-1 aspect-square w-full rounded-sm bg-black object-contain" />
                )}
                <span className="flex items-baseline justify-between gap-2">
                  <span className="font-medium">{s.seriesNumber !== null ? t('viewer.overlay.series', { number: s.seriesNumber }) : t('viewer.series.unnumbered')}</span>
                  <span className="tabular-nums text-fg-subtle">{s.modality ?? ''}</span>
                </span>
                <span className="block truncate" title={s.seriesDescription ?? undefined}>{s.seriesDescription || '—'}</span>
                <span className="block text-fg-subtle">{t('viewer.series.images', { count: stack.images.length })}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
