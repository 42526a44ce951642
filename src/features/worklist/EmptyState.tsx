import { useTranslation } from 'react-i18next';

/** The grid with no rows: why (nothing, nothing under these filters, nothing deleted), and the way out of the filters. */
export function EmptyState({ filtered, deleted, onClear }: { filtered: boolean; deleted: boolean; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="absolute inset-x-0 top-20 flex flex-col items-center gap-3 text-sm text-fg-muted">
      <p>{deleted ? t('worklist.empty.deleted') : filtered ? t('worklist.empty.filtered') : t('worklist.empty.none')}</p>
      {filtered && (
        <button type="button" className="btn" onClick={onClear}>
          {t('worklist.clearFilters')}
        </button>
      )}
    </div>
  );
}
