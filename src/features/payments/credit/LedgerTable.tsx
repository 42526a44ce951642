import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CreditLedgerEntry } from '../../../../contract/payments';
import { formatDateTime } from '@/lib/format';
import { yuan } from '../common/money';
import { orderDetailPath } from '../orders/paths';

const KIND_TONE: Record<CreditLedgerEntry['kind'], string> = {
  recharge: 'text-ok',
  charge: 'text-fg',
  refund: 'text-accent',
  adjust: 'text-warn',
};

/** The group's credit movements, newest first: signed amounts and the balance right after each. */
export function LedgerTable({ rows, stale, tableRef }: { rows: CreditLedgerEntry[]; stale: boolean; tableRef: RefObject<HTMLTableElement | null> }) {
  const { t } = useTranslation();
  const th = 'border-b border-line-strong px-2 py-1.5 text-left font-medium whitespace-nowrap';
  const td = 'border-b border-line/60 px-2 py-1 align-middle whitespace-nowrap';
  const column = (name: string) => t(`payments.credit.columns.${name}` as 'payments.credit.columns.time');
  return (
    <table ref={tableRef} tabIndex={-1} className={`w-full table-fixed border-separate border-spacing-0 text-[13px] outline-none focus-visible:ring-2 focus-visible:ring-accent ${stale ? 'opacity-60' : ''}`}
      aria-busy={stale || undefined} data-testid="ledger-table">
      <caption className="sr-only">{t('payments.credit.ledger')}</caption>
      <colgroup>
        <col className="w-36" />
        <col className="w-20" />
        <col className="w-28" />
        <col className="w-28" />
        <col className="w-40" />
        <col className="w-24" />
        <col />
      </colgroup>
      <thead className="sticky top-0 z-10 bg-sunken text-xs text-fg-muted">
        <tr>
          {['time', 'kind', 'amount', 'balance', 'order', 'account', 'note'].map((name) => (
            <th key={name} scope="col" className={`${th} ${name === 'amount' || name === 'balance' ? 'text-right' : ''}`}>{column(name)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-ledger-id={row.id} data-kind={row.kind}>
            <td className={`${td} tabular-nums`}>{formatDateTime(row.created)}</td>
            <td className={`${td} ${KIND_TONE[row.kind]}`}>{t(`payments.credit.kind.${row.kind}`)}</td>
            <td className={`${td} text-right font-medium tabular-nums ${row.amountFen < 0 ? 'text-danger' : 'text-ok'}`}>
              {row.amountFen > 0 ? '+' : row.amountFen < 0 ? '−' : ''}{yuan(t, Math.abs(row.amountFen))}
            </td>
            <td className={`${td} text-right tabular-nums`}>{yuan(t, row.balanceAfterFen)}</td>
            <td className={`${td} truncate font-mono text-xs`}>
              {row.orderId !== null ? <Link href={orderDetailPath(row.orderId)} className="text-accent hover:underline">{row.requestNo ?? `#${row.orderId}`}</Link> : '—'}
            </td>
            <td className={`${td} truncate`}>{row.accountName ?? '—'}</td>
            <td className={`${td} truncate text-fg-muted`} title={row.note ?? ''}>{row.note ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
