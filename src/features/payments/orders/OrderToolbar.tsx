import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_STATUS_NAMES, PAYMENT_STATUSES, REPORT_REQUEST_TYPES } from '../../../../contract/payments';
import type { OrderView } from './filters';

export const chip = (active: boolean) =>
  `inline-flex h-7 items-center rounded-full border px-2.5 text-[13px] whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent ${active ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line text-fg-muted hover:bg-sunken'}`;

/** The order list's filters: payment status chips (0–4), side and type (s, t), the created range (d). */
export function OrderToolbar({ view, dateRef, onView }: {
  view: OrderView;
  dateRef: RefObject<HTMLInputElement | null>;
  onView: (view: OrderView) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-2 text-[13px]">
      <div className="flex items-center gap-1" role="group" aria-label={t('payments.orders.filters.status')}>
        <button type="button" className={chip(view.status === null)} aria-pressed={view.status === null} onClick={() => onView({ ...view, status: null })}
          title={`${t('payments.orders.commands.status.all')} (0)`}>
          {t('payments.orders.filters.allStatuses')}
        </button>
        {PAYMENT_STATUSES.map((status, i) => {
          const name = PAYMENT_STATUS_NAMES[status];
          return (
            <button key={status} type="button" className={chip(view.status === status)} aria-pressed={view.status === status} data-status-chip={name}
              onClick={() => onView({ ...view, status: view.status === status ? null : status })} title={`${t(`payments.common.paymentStatus.${name}`)} (${i + 1})`}>
              {t(`payments.common.paymentStatus.${name}`)}
            </button>
          );
        })}
      </div>
      <label className="flex items-center gap-1">
        <span className="text-xs text-fg-muted">{t('payments.orders.filters.side')}</span>
        <select className="input h-7 w-auto py-0 pr-6 text-[13px]" value={view.side ?? ''} data-filter="side" title={`${t('payments.orders.commands.side')} (S)`}
          onChange={(e) => onView({ ...view, side: e.target.value === 'out' || e.target.value === 'in' ? e.target.value : null })}>
          <option value="">{t('payments.orders.filters.anySide')}</option>
          <option value="out">{t('payments.orders.filters.out')}</option>
          <option value="in">{t('payments.orders.filters.in')}</option>
        </select>
      </label>
      <label className="flex items-center gap-1">
        <span className="text-xs text-fg-muted">{t('payments.orders.filters.type')}</span>
        <select className="input h-7 w-auto py-0 pr-6 text-[13px]" value={view.type ?? ''} data-filter="type" title={`${t('payments.orders.commands.type')} (T)`}
          onChange={(e) => onView({ ...view, type: REPORT_REQUEST_TYPES.find((type) => type === e.target.value) ?? null })}>
          <option value="">{t('payments.orders.filters.anyType')}</option>
          {REPORT_REQUEST_TYPES.map((type) => <option key={type} value={type}>{t(`payments.common.type.${type}`)}</option>)}
        </select>
      </label>
      <DateRange label={t('payments.orders.filters.created')} from={view.from} to={view.to} dateRef={dateRef} idBase={ids} onChange={(from, to) => onView({ ...view, from, to })} />
    </div>
  );
}

/** A created-date range (two local days); the order list and the credit ledger share it. */
export function DateRange({ label, from, to, dateRef, idBase, onChange }: {
  label: string;
  from: string;
  to: string;
  dateRef: RefObject<HTMLInputElement | null>;
  idBase: string;
  onChange: (from: string, to: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-1" role="group" aria-label={label}>
      <label htmlFor={`${idBase}-from`} className="text-xs text-fg-muted">{label}</label>
      <input id={`${idBase}-from`} ref={dateRef} type="date" className="input h-7 w-36 text-[13px] tabular-nums" value={from} max={to || undefined}
        aria-label={t('payments.orders.filters.from')} data-filter="from" onChange={(e) => onChange(e.target.value, to)} />
      <span aria-hidden="true" className="text-fg-subtle">–</span>
      <input type="date" className="input h-7 w-36 text-[13px] tabular-nums" value={to} min={from || undefined}
        aria-label={t('payments.orders.filters.to')} data-filter="to" onChange={(e) => onChange(from, e.target.value)} />
    </div>
  );
}
