import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportOrder } from '../../../../contract/payments';
import { formatDateTime, patientNameText } from '@/lib/format';
import { PaymentBadge, ProgressBadge } from '../common/badges';
import { yuan } from '../common/money';

/**
 * One page of applications, dense like the worklist: the row in hand has the keyboard (roving tabindex), a click
 * takes it, a double click or Enter opens the order.
 */
export function OrderTable({ rows, stale, active, rowRefs, onFocusRow, onOpen }: {
  rows: ReportOrder[];
  stale: boolean;
  active: number | null;
  rowRefs: RefObject<(HTMLTableRowElement | null)[]>;
  onFocusRow: (index: number) => void;
  onOpen: (row: ReportOrder) => void;
}) {
  const { t } = useTranslation();
  const th = 'border-b border-line-strong px-2 py-1.5 text-left font-medium whitespace-nowrap';
  const td = 'border-b border-line/60 px-2 py-1 align-middle whitespace-nowrap';
  const column = (name: string) => t(`payments.orders.columns.${name}` as 'payments.orders.columns.requestNo');
  return (
    <table className={`w-full table-fixed border-separate border-spacing-0 text-[13px] ${stale ? 'opacity-60' : ''}`} aria-busy={stale || undefined} data-testid="order-table">
      <caption className="sr-only">{t('payments.orders.caption')}</caption>
      {/* Sized to the longest label of the three languages (a Tibetan payment badge, "WeChat Pay" in Tibetan): the two
          organisations share what is left, cut with their title. */}
      <colgroup>
        <col className="w-32" />
        <col className="w-24" />
        <col className="w-32" />
        <col />
        <col />
        <col className="w-24" />
        <col className="w-28" />
        <col className="w-36" />
        <col className="w-36" />
        <col className="w-36" />
      </colgroup>
      <thead className="sticky top-0 z-10 bg-sunken text-xs text-fg-muted">
        <tr>
          {['requestNo', 'patient', 'type', 'from', 'to', 'amount', 'payment', 'channel', 'progress', 'created'].map((name) => (
            <th key={name} scope="col" className={`${th} ${name === 'amount' ? 'text-right' : ''}`}>{column(name)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr
            key={row.id}
            ref={(el) => { rowRefs.current[index] = el; }}
            tabIndex={active === index || (active === null && index === 0) ? 0 : -1}
            aria-selected={active === index}
            data-order-id={row.id}
            data-payment={row.paymentStatus}
            data-channel={row.channel ?? ''}
            onFocus={() => onFocusRow(index)}
            onClick={() => rowRefs.current[index]?.focus()}
            onDoubleClick={() => onOpen(row)}
            className={`cursor-default outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-inset ${active === index ? 'bg-accent-soft' : 'hover:bg-sunken/60'}`}
          >
            <td className={`${td} font-mono text-xs tabular-nums`}>{row.requestNo}</td>
            <td className={`${td} truncate font-medium`} title={patientNameText(row.patientName)}>{patientNameText(row.patientName)}</td>
            <td className={`${td} truncate`} title={t(`payments.common.type.${row.type}`)}>{t(`payments.common.type.${row.type}`)}</td>
            <td className={`${td} truncate`} title={row.fromBucketName}>{row.fromBucketName}</td>
            <td className={`${td} truncate`} title={row.toBucketName}>{row.toBucketName}</td>
            <td className={`${td} text-right tabular-nums`}>{yuan(t, row.amountFen)}</td>
            <td className={td}><PaymentBadge status={row.paymentStatus} /></td>
            <td className={`${td} truncate text-fg-muted`} title={row.channel ? t(`payments.common.channel.${row.channel}`) : undefined}>{row.channel ? t(`payments.common.channel.${row.channel}`) : '—'}</td>
            <td className={td}><ProgressBadge progress={row.progress} /></td>
            <td className={`${td} tabular-nums`}>{formatDateTime(row.created)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
