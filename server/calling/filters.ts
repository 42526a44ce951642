import { or, sql, type SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../contract/common';
import { QUEUE_FILTER_FIELDS, QUEUE_SORT_FIELDS, QUEUE_STATUSES, type QueueFilterField } from '../../contract/calling';
import { exams, queueEntries } from '../db/schema';
import { compileListFilters, containsPattern, oneOf, orderOf as listOrder, valueKinds, type ListOrder, type ListQuery, type ValueKind } from '../http/pageQuery';
import { filterDay } from '../http/filterValues';

/** Queue entries on the shared page-query engine: the whitelist is contract/calling.ts (the query joins exams). */
const day: ValueKind = { read: (v) => filterDay(v) ?? undefined, expects: 'a day YYYY-MM-DD' };

const LIST: ListQuery<QueueFilterField> = {
  resource: 'queue-exams',
  fields: QUEUE_FILTER_FIELDS,
  kinds: { int: valueKinds.int, time: valueKinds.time, text: valueKinds.text, status: oneOf(QUEUE_STATUSES), day },
  columns: { queueTypeId: queueEntries.queueTypeId, status: queueEntries.status, day: queueEntries.day, checkInTime: queueEntries.checkInTime },
};

const ORDER: ListOrder<(typeof QUEUE_SORT_FIELDS)[number]> = {
  resource: 'queue-exams', fields: QUEUE_SORT_FIELDS,
  columns: { position: queueEntries.position, checkInTime: queueEntries.checkInTime, id: queueEntries.id },
  defaultSort: { field: 'position', direction: 'asc' }, tieBreak: 'id',
};

export function compileFilters(filters: readonly Filter[]): SQL[] {
  return compileListFilters(LIST, filters, {
    search: ({ values }) => {
      const pattern = containsPattern(String(values[0]).trim());
      return or(sql`${exams.patientName} ilike ${pattern}`, sql`${exams.patientId} ilike ${pattern}`, sql`${queueEntries.queueNo} ilike ${pattern}`)!;
    },
  });
}

export function orderOf(sorts: readonly Sort[]): SQL[] {
  return listOrder(ORDER, sorts);
}
