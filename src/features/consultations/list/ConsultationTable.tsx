import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, patientNameText } from '@/lib/format';
import type { ConsultationRow } from '../api';
import { ConsultationStatusBadge, PaymentStatusText } from './badges';

/**
 * One page of consultations, dense like the worklist: the row in hand has the keyboard (roving tabindex), a click
 * takes it, a double click or Enter opens the consultation.
 */
export function ConsultationTable({ rows, stale, active, rowRefs, onFocusRow, onOpen }: {
  rows: ConsultationRow[];
  stale: boolean;
  active: number | null;
  rowRefs: RefObject<(HTMLTableRowElement | null)[]>;
  onFocusRow: (index: number) => void;
  onOpen: (row: ConsultationRow) => void;
}) {
  const { t } = useTranslation();
  const th = 'border-b border-line-strong px-2 py-1.5 text-left font-medium whitespace-nowrap';
  const td = 'border-b border-line/60 px-2 py-1 align-middle whitespace-nowrap';
  return (
    <table className={`w-full table-fixed border-separate border-spacing-0 text-[13px] ${stale ? 'opacity-60' : ''}`} aria-busy={stale || undefined} data-testid="consultation-table">
      <caption className="sr-only">{t('consultations.list.caption')}</caption>
      <colgroup>
        <col className="w-28" />
        <col />
        <col className="w-52" />
        <col className="w-44" />
        <col className="w-36" />
        <col className="w-36" />
        <col className="w-36" />
        <col className="w-20" />
      </colgroup>
      <thead className="sticky top-0 z-10 bg-sunken text-xs text-fg-muted">
        <tr>
          <th scope="col" className={th}>{t('consultations.list.columns.patient')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.reason')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.applicant')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.joined')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.created')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.scheduled')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.status')}</th>
          <th scope="col" className={th}>{t('consultations.list.columns.payment')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => {
          const joined = row.joinedBuckets.map((b) => b.name).join(t('consultations.list.separator'));
          // The target first and marked, when the row names it; then the other organisations taking part.
          const target = row.targetBucketName ?? null;
          const others = (target ? row.joinedBuckets.filter((b) => (row.targetBucketId !== undefined ? b.id !== row.targetBucketId : b.name !== target)) : row.joinedBuckets).map((b) => b.name).join(t('consultations.list.separator'));
          return (
            <tr
              key={row.id}
              ref={(el) => { rowRefs.current[index] = el; }}
              tabIndex={active === index || (active === null && index === 0) ? 0 : -1}
              aria-selected={active === index}
              data-consultation-id={row.id}
              data-status={row.status}
              onFocus={() => onFocusRow(index)}
              onClick={() => rowRefs.current[index]?.focus()}
              onDoubleClick={() => onOpen(row)}
              className={`cursor-default outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-inset ${active === index ? 'bg-accent-soft' : 'hover:bg-sunken/60'}`}
            >
              <td className={`${td} truncate font-medium`} title={patientNameText(row.patientName)}>{patientNameText(row.patientName)}</td>
              <td className={`${td} truncate`} title={row.reason}>{row.reason}</td>
              <td className={`${td} truncate`} title={row.appliedBucketName}>{row.appliedBucketName}</td>
              <td className={`${td} truncate text-fg-muted`} title={joined}>
                {target && <span className="font-medium text-fg" data-target>{target}</span>}
                {target && others ? t('consultations.list.separator') : ''}
                {others}
              </td>
              <td className={`${td} tabular-nums`}>{formatDateTime(row.created)}</td>
              <td className={`${td} tabular-nums`}>{row.scheduledTime ? formatDateTime(row.scheduledTime) : <span className="text-fg-subtle">—</span>}</td>
              <td className={td}><ConsultationStatusBadge status={row.status} /></td>
              <td className={td}><PaymentStatusText status={row.paymentStatus} /></td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
