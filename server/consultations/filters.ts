import type { SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../contract/common';
import { CONSULTATION_FILTER_FIELDS, CONSULTATION_SORT_FIELDS, CONSULTATION_STATUSES, type ConsultationFilterField } from '../../contract/consultations';
import { consultations } from '../db/schema';
import { compileListFilters, oneOf, orderOf as listOrder, valueKinds, type ListOrder, type ListQuery } from '../http/pageQuery';

/** The consultation list on the shared page-query engine: the whitelist is contract/consultations.ts. */
const LIST: ListQuery<ConsultationFilterField> = {
  resource: 'consultations',
  fields: CONSULTATION_FILTER_FIELDS,
  kinds: { int: valueKinds.int, time: valueKinds.time, status: oneOf(CONSULTATION_STATUSES) },
  columns: { id: consultations.id, status: consultations.status, created: consultations.created },
};

const ORDER: ListOrder<(typeof CONSULTATION_SORT_FIELDS)[number]> = {
  resource: 'consultations',
  fields: CONSULTATION_SORT_FIELDS,
  columns: { id: consultations.id, created: consultations.created },
  defaultSort: { field: 'id', direction: 'desc' },
  tieBreak: 'id',
};

export function compileFilters(filters: readonly Filter[]): SQL[] {
  return compileListFilters(LIST, filters);
}

/** The sorts asked for (default: newest id first), then the id in the first sort's direction so pages are stable. */
export function orderOf(sorts: readonly Sort[]): SQL[] {
  return listOrder(ORDER, sorts);
}
