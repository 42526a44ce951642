import type { Filter } from '../../../../contract/common';
import { ORDER_FILTER_FIELDS, type PaymentStatus, type ReportRequestType } from '../../../../contract/payments';

/** What the order list's bar chooses. */
export interface OrderView {
  status: PaymentStatus | null;
  /** out: the applications of my organisations; in: those sent to my expert organisations; null: both. */
  side: 'out' | 'in' | null;
  type: ReportRequestType | null;
  /** YYYY-MM-DD in the browser's zone, or ''. */
  from: string;
  to: string;
  /** Patient name or request number. */
  text: string;
}

export const emptyOrderView = (): OrderView => ({ status: null, side: null, type: null, from: '', to: '', text: '' });

const hasField = (field: string) => Object.hasOwn(ORDER_FILTER_FIELDS, field);

/** The first instant of a local day, and the last, as ISO date-times (the whitelist's `created` kind). */
export function dayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toISOString();
}
export function dayEnd(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + 1, 0, 0, 0, -1).toISOString();
}

/**
 * The page query's filters for a view. The search box takes a request number (R + digits, matched as its start)
 * or else a patient's name (a `like`).
 */
export function orderFiltersOf(view: OrderView): Filter[] {
  const filters: Filter[] = [];
  if (view.status !== null) filters.push({ field: 'paymentStatus', operator: 'equal', values: [view.status] });
  if (view.side !== null && hasField('side')) filters.push({ field: 'side', operator: 'equal', values: [view.side] });
  if (view.type !== null) filters.push({ field: 'type', operator: 'equal', values: [view.type] });
  if (view.from) filters.push({ field: 'created', operator: 'gte', values: [dayStart(view.from)] });
  if (view.to) filters.push({ field: 'created', operator: 'lte', values: [dayEnd(view.to)] });
  const text = view.text.trim();
  if (/^R\d{4,}$/i.test(text)) filters.push({ field: 'requestNo', operator: 'like', values: [text.toUpperCase()] });
  else if (text) filters.push({ field: 'patientName', operator: 'like', values: [text] });
  return filters;
}
