import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Publication } from '../../../contract/shares';
import { formatDateTime } from '@/lib/format';
import { navigate } from '@/lib/session';
import { StatusBadge } from '@/ui/StatusBadge';
import { asReportStatus, isApprovedStatus } from './format';
import { publishDetailPath } from './paths';

/** The published reports of one page: a row opens on a click, its Open link holds the keyboard, Unpublish asks first. */
export function Table({ rows, stale, active, rowLinks, onFocusRow, onUnpublish, busy }: {
  rows: Publication[];
  stale: boolean;
  active: number | null;
  rowLinks: RefObject<(HTMLAnchorElement | null)[]>;
  onFocusRow: (index: number) => void;
  onUnpublish: (row: Publication) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const hiddenNoteId = useId();
  // Data columns take the width of their content and sit together on the left; the spacer before the row's
  // buttons takes what is left, so a wide screen does not pull a row's facts apart.
  const th = 'w-px border-b border-line-strong px-3 py-1.5 text-left font-medium whitespace-nowrap';
  const td = 'w-px border-b border-line/60 px-3 py-1.5 align-middle whitespace-nowrap';
  const spacer = 'border-b border-line/60';
  return (
    <div className="min-h-0 flex-1 overflow-auto bg-surface">
      <p id={hiddenNoteId} className="sr-only">{t('publish.list.hiddenHint')}</p>
      <table className={`w-full border-separate border-spacing-0 text-[13px] ${stale ? 'opacity-60' : ''}`} aria-busy={stale || undefined} data-testid="publish-table">
        <caption className="sr-only">{t('publish.list.caption')}</caption>
        <thead className="sticky top-0 z-10 bg-sunken text-xs text-fg-muted">
          <tr>
            <th scope="col" className={th}>{t('publish.columns.patient')}</th>
            <th scope="col" className={th}>{t('publish.columns.modality')}</th>
            <th scope="col" className={th}>{t('publish.columns.examTime')}</th>
            <th scope="col" className={th}>{t('publish.columns.status')}</th>
            <th scope="col" className={th}>{t('publish.columns.publishedAt')}</th>
            <th scope="col" className={th}>{t('publish.columns.publishedBy')}</th>
            <td aria-hidden="true" className="border-b border-line-strong" />
            <th scope="col" className={`${th} text-right`}><span className="sr-only">{t('publish.columns.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const shown = isApprovedStatus(row.status);
            return (
              <tr
                key={row.reportId}
                data-report-id={row.reportId}
                onFocus={() => onFocusRow(index)}
                // A click anywhere on the row opens it, as the worklist does; the keyboard has the row's Open link.
                onClick={(event) => {
                  if (!(event.target as Element).closest('a, button')) navigate(publishDetailPath(row.examId, row.reportId));
                }}
                className={`cursor-pointer ${active === index ? 'bg-accent-soft' : 'hover:bg-sunken/60'}`}
              >
                <td className={`${td} max-w-64 min-w-32 truncate font-medium`} title={row.patientName}>{row.patientName}</td>
                <td className={`${td} font-medium`}>{row.modality}</td>
                <td className={`${td} tabular-nums`}>{formatDateTime(row.examTime)}</td>
                <td className={td}>
                  <span className="inline-flex items-center gap-2">
                    <StatusBadge status={asReportStatus(row.status)} label={t(`report.status.${asReportStatus(row.status)}`, { defaultValue: row.status })} />
                    {!shown && (
                      <span className="inline-flex items-center gap-1 text-xs text-warn" data-testid="hidden-note" aria-describedby={hiddenNoteId} title={t('publish.list.hiddenHint')}>
                        <span aria-hidden="true">⚠</span>
                        {t('publish.list.hidden')}
                      </span>
                    )}
                  </span>
                </td>
                <td className={`${td} tabular-nums`}>{formatDateTime(row.publishedAt)}</td>
                <td className={`${td} max-w-40 truncate`}>{row.publishedByName ?? <span className="text-fg-subtle">{t('publish.list.unknownPublisher')}</span>}</td>
                <td aria-hidden="true" className={spacer} />
                <td className={`${td} text-right`}>
                  <span className="inline-flex items-center gap-1.5">
                    <Link
                      ref={(el: HTMLAnchorElement | null) => { rowLinks.current[index] = el; }}
                      href={publishDetailPath(row.examId, row.reportId)}
                      className="btn h-6 px-2 text-xs"
                      aria-label={t('publish.list.openOf', { name: row.patientName })}
                    >
                      {t('publish.list.open')}
                    </Link>
                    <button type="button" className="btn h-6 px-2 text-xs text-danger" disabled={busy}
                      aria-label={t('publish.list.unpublishOf', { name: row.patientName })}
                      title={`${t('publish.commands.unpublishRow')} (U)`}
                      onClick={() => onUnpublish(row)}>
                      {t('publish.list.unpublish')}
                    </button>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="px-4 py-2 text-xs text-fg-subtle">{t('publish.list.keys')}</p>
    </div>
  );
}
