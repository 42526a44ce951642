import { useTranslation } from 'react-i18next';
import { Spinner } from '@/ui/Spinner';

/** Where a list stands (range, pages, refresh) and its export; the order list and the ledger share it. */
export function Pager({ loading, range, canPrevious, canNext, canExport, exportBusy, onPage, onRefresh, onExport, testId }: {
  loading: boolean;
  range: { from: number; to: number; total: number } | null;
  canPrevious: boolean;
  canNext: boolean;
  canExport: boolean;
  exportBusy: boolean;
  onPage: (step: 1 | -1) => void;
  onRefresh: () => void;
  onExport: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-1.5 text-[13px]">
      {loading && <Spinner label={t('common.loading')} />}
      <span className="whitespace-nowrap text-fg-muted tabular-nums" aria-live="polite" data-testid={`${testId}-range`}>{range ? t('payments.orders.range', range) : ''}</span>
      <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(-1)} disabled={!canPrevious} aria-label={t('payments.orders.commands.previousPage')}
        title={`${t('payments.orders.commands.previousPage')} ([)`}><span aria-hidden="true">‹</span></button>
      <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(1)} disabled={!canNext} aria-label={t('payments.orders.commands.nextPage')}
        title={`${t('payments.orders.commands.nextPage')} (])`}><span aria-hidden="true">›</span></button>
      <button type="button" className="icon-button" onClick={onRefresh} aria-label={t('payments.orders.commands.refresh')} title={`${t('payments.orders.commands.refresh')} (Shift+R)`}>
        <span aria-hidden="true">↻</span>
      </button>
      <button type="button" className="btn h-7 px-2.5 text-[13px]" onClick={onExport} disabled={!canExport || exportBusy} data-testid={`${testId}-export`}>
        {t('payments.orders.export')}<span className="key-hint ml-1">E</span>
      </button>
    </div>
  );
}
