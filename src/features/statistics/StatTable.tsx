import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { StatColumn, StatResult } from '../../../contract/statistics';
import { cellText, figureText } from './format';

const numeric = (c: StatColumn) => c.kind !== 'text' && c.kind !== 'code';
const columnTitle = (t: TFunction, key: string): string => t(`statistics.columns.${key}`, { defaultValue: key });

/**
 * The table beside the chart: the answer's rows and a total row (the range's figures, `totals`). Every cell also
 * carries its raw value (data-value), so a test compares numbers, not their formatting.
 */
export function StatTable({ result, caption }: { result: StatResult; caption: string }) {
  const { t } = useTranslation();
  const { columns, rows, totals } = result;
  return (
    <div className="min-h-0 overflow-auto rounded-md border border-line bg-surface">
      <table className="w-full border-collapse text-[13px]" data-testid="stat-table">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-10 bg-sunken">
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" data-col={c.key}
                className={`whitespace-nowrap border-b border-line px-2 py-1.5 font-medium text-fg-muted ${numeric(c) ? 'text-right' : 'text-left'}`}>
                {columnTitle(t, c.key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr><td colSpan={columns.length} className="px-2 py-6 text-center text-fg-muted">{t('statistics.page.empty')}</td></tr>
          )}
          {rows.map((row, i) => (
            <tr key={i} className="border-b border-line last:border-b-0 hover:bg-sunken/60" data-testid="stat-row">
              {columns.map((c) => (
                <td key={c.key} data-col={c.key} data-value={row[c.key] ?? ''}
                  className={`px-2 py-1 ${numeric(c) ? 'whitespace-nowrap text-right tabular-nums' : 'max-w-56 truncate text-left'}`}
                  title={numeric(c) ? undefined : cellText(t, c, row[c.key] ?? null)}>
                  {cellText(t, c, row[c.key] ?? null)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {rows.length > 0 && (
          <tfoot className="sticky bottom-0 bg-sunken font-semibold">
            <tr data-testid="stat-total">
              {columns.map((c, i) => (
                <td key={c.key} data-col={c.key} data-value={numeric(c) ? (totals[c.key] ?? '') : ''}
                  className={`border-t border-line-strong px-2 py-1.5 ${numeric(c) ? 'whitespace-nowrap text-right tabular-nums' : 'whitespace-nowrap text-left'}`}>
                  {i === 0 ? t('statistics.export.total') : numeric(c) ? figureText(t, c.kind, totals[c.key]) : ''}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** The overview's range figures as cards above its chart. */
export function TotalCards({ result }: { result: StatResult }) {
  const { t } = useTranslation();
  const cards = result.columns.filter(numeric);
  return (
    <ul className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-2" data-testid="stat-cards">
      {cards.map((c) => (
        <li key={c.key} className="flex flex-col gap-0.5 rounded-md border border-line bg-raised px-3 py-2" data-col={c.key} data-value={result.totals[c.key] ?? ''}>
          <span className="truncate text-xs text-fg-muted">{columnTitle(t, c.key)}</span>
          <span className="text-lg font-semibold tabular-nums">{figureText(t, c.kind, result.totals[c.key])}</span>
        </li>
      ))}
    </ul>
  );
}
