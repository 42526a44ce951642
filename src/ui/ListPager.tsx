import { useTranslation } from 'react-i18next';
import { Spinner } from '@/ui/Spinner';

export type PageRange = { from: number; to: number; total: number };

/** The words of one list's pager (each list names its own pages and keys). */
export interface PagerWords {
  range: (range: PageRange) => string;
  previous: string;
  next: string;
  refresh: string;
  /** The key shown in the refresh button's title. */
  refreshKey: string;
  exportLabel: string;
  /** The key hint drawn in the export button, if the list shows one. */
  exportKey?: string;
}

/**
 * Where a list stands (range, pages, refresh) and its export, beside its search: the range is said politely to a
 * screen reader, the spinner shows while a page is on its way. `testId` prefixes the range and export test ids.
 */
export function ListPager({ loading, range, canPrevious, canNext, canExport, exportBusy, onPage, onRefresh, onExport, testId, words, className = 'flex items-center gap-1.5 text-[13px]' }: {
  loading: boolean;
  range: PageRange | null;
  canPrevious: boolean;
  canNext: boolean;
  canExport: boolean;
  exportBusy: boolean;
  onPage: (step: 1 | -1) => void;
  onRefresh: () => void;
  onExport: () => void;
  testId: string;
  words: PagerWords;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      {loading && <Spinner label={t('common.loading')} />}
      <span className="whitespace-nowrap text-fg-muted tabular-nums" aria-live="polite" data-testid={`${testId}-range`}>{range ? words.range(range) : ''}</span>
      <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(-1)} disabled={!canPrevious} aria-label={words.previous}
        title={`${words.previous} ([)`}><span aria-hidden="true">‹</span></button>
      <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(1)} disabled={!canNext} aria-label={words.next}
        title={`${words.next} (])`}><span aria-hidden="true">›</span></button>
      <button type="button" className="icon-button" onClick={onRefresh} aria-label={words.refresh} title={`${words.refresh} (${words.refreshKey})`}>
        <span aria-hidden="true">↻</span>
      </button>
      <button type="button" className="btn h-7 px-2.5 text-[13px]" onClick={onExport} disabled={!canExport || exportBusy} data-testid={`${testId}-export`}>
        {words.exportLabel}{words.exportKey !== undefined && <span className="key-hint ml-1">{words.exportKey}</span>}
      </button>
    </div>
  );
}
