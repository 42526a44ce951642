import type { Filter } from '../../../../contract/common';
import { CONSULTATION_FILTER_FIELDS, type ConsultationStatus } from '../../../../contract/consultations';

/** What the list's bar chooses; `mine` is the /consultations/my page. */
export interface ListView {
  mine: boolean;
  status: ConsultationStatus | null;
  /** YYYY-MM-DD in the browser's zone, or ''. */
  from: string;
  to: string;
  /** The applicant organisation, or null. */
  appliedBucketId: number | null;
  /** The target organisation, or null. */
  targetBucketId: number | null;
  text: string;
}

export const emptyView = (mine: boolean): ListView => ({ mine, status: null, from: '', to: '', appliedBucketId: null, targetBucketId: null, text: '' });

/** Whether the server's whitelist has a field (it grows by adding; the bar offers only what the server takes). */
export function hasField(field: string): boolean {
  return Object.hasOwn(CONSULTATION_FILTER_FIELDS, field);
}

/** The first instant of a local day, and the last, as ISO date-times (the whitelist's `created` kind). */
function dayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toISOString();
}
function dayEnd(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + 1, 0, 0, 0, -1).toISOString();
}

/** The page query's filters for a view; fields the server does not know yet are left out. */
export function filtersOf(view: ListView): Filter[] {
  const filters: Filter[] = [];
  if (view.mine && hasField('mine')) filters.push({ field: 'mine', operator: 'equal', values: [true] });
  if (view.status !== null) filters.push({ field: 'status', operator: 'equal', values: [view.status] });
  if (view.from) filters.push({ field: 'created', operator: 'gte', values: [dayStart(view.from)] });
  if (view.to) filters.push({ field: 'created', operator: 'lte', values: [dayEnd(view.to)] });
  if (view.appliedBucketId !== null && hasField('appliedBucketId')) filters.push({ field: 'appliedBucketId', operator: 'equal', values: [view.appliedBucketId] });
  if (view.targetBucketId !== null && hasField('targetBucketId')) filters.push({ field: 'targetBucketId', operator: 'equal', values: [view.targetBucketId] });
  const text = view.text.trim();
  if (text && hasField('patientName')) filters.push({ field: 'patientName', operator: 'like', values: [text] });
  return filters;
}
