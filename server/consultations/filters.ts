import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Filter, Operator, Sort } from '../../contract/common';
import {
  CONSULTATION_FILTER_FIELDS, CONSULTATION_SORT_FIELDS, CONSULTATION_STATUSES, isConsultationStatus,
  type ConsultationFilterField, type ConsultationFilterKind, type ConsultationSortField,
} from '../../contract/consultations';
import { consultations } from '../db/schema';
import { ApiError } from '../http/errors';
import { filterId, filterTime } from '../http/filterValues';

type Scalar = Filter['values'][number];
type Value = number | Date;

const bad = (path: string, message: string): never => {
  throw new ApiError('ParamsError', undefined, { fields: [{ path, message }] });
};

const COLUMNS: Record<ConsultationFilterField, AnyPgColumn> = {
  id: consultations.id,
  status: consultations.status,
  created: consultations.created,
};

const SORT_COLUMNS: Record<ConsultationSortField, AnyPgColumn> = {
  id: consultations.id,
  created: consultations.created,
};

function valueOf(kind: ConsultationFilterKind, v: Scalar, path: string): Value {
  switch (kind) {
    case 'int':
      return filterId(v) ?? bad(path, 'an integer id is expected');
    case 'status':
      return isConsultationStatus(v) ? v : bad(path, `one of ${CONSULTATION_STATUSES.join(', ')}`);
    case 'time':
      return filterTime(v) ?? bad(path, 'an ISO date-time with offset is expected');
  }
}

function compare(column: AnyPgColumn, op: Operator, values: Value[], path: string): SQL {
  const [first] = values;
  switch (op) {
    case 'equal': return sql`${column} = ${first}`;
    case 'in': return values.length === 1 ? sql`${column} = ${first}` : sql`${column} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;
    case 'gt': return sql`${column} > ${first}`;
    case 'gte': return sql`${column} >= ${first}`;
    case 'lt': return sql`${column} < ${first}`;
    case 'lte': return sql`${column} <= ${first}`;
    // notEqual and like: no consultation field lists them (the whitelist refused them already).
    default: return bad(path, `${op} is not an operator of consultations`);
  }
}

/** The whitelist applied: each filter checked (field, operator, values) and turned into a condition. */
export function compileFilters(filters: readonly Filter[]): SQL[] {
  return filters.map((f, index) => {
    if (!Object.hasOwn(CONSULTATION_FILTER_FIELDS, f.field)) bad(`filters.${index}.field`, `not a filter of consultations: ${f.field}`);
    const field = f.field as ConsultationFilterField;
    const spec = CONSULTATION_FILTER_FIELDS[field];
    if (!(spec.operators as readonly Operator[]).includes(f.operator)) bad(`filters.${index}.operator`, `${field} takes ${spec.operators.join(', ')}`);
    if (f.values.length === 0) bad(`filters.${index}.values`, 'at least one value');
    if (f.operator !== 'in' && f.values.length !== 1) bad(`filters.${index}.values`, 'exactly one value');
    const values = f.values.map((v) => valueOf(spec.kind, v, `filters.${index}.values`));
    return compare(COLUMNS[field], f.operator, values, `filters.${index}.operator`);
  });
}

/** The sorts asked for (default: newest id first), then the id in the first sort's direction so pages are stable. */
export function orderOf(sorts: readonly Sort[]): SQL[] {
  const order: { field: ConsultationSortField; direction: 'asc' | 'desc' }[] = [];
  sorts.forEach((s, index) => {
    if (!(CONSULTATION_SORT_FIELDS as readonly string[]).includes(s.field)) bad(`sorts.${index}.field`, `not a sort of consultations: ${s.field}`);
    const field = s.field as ConsultationSortField;
    if (!order.some((o) => o.field === field)) order.push({ field, direction: s.direction });
  });
  if (order.length === 0) order.push({ field: 'id', direction: 'desc' });
  if (!order.some((o) => o.field === 'id')) order.push({ field: 'id', direction: order[0]!.direction });
  return order.map((o) => (o.direction === 'asc' ? asc(SORT_COLUMNS[o.field]) : desc(SORT_COLUMNS[o.field])));
}
