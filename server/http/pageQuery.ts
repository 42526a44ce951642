import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Filter, Operator, Sort } from '../../contract/common';
import { ApiError } from './errors';
import { filterId, filterTime } from './filterValues';

/**
 * The one page-query engine every list uses (exams, consultations, and the registry, queue, orders, payments and
 * statistics lists to come). An area declares its whitelist in contract/ (fields with their value kind, operators and
 * whether null is a value; the sort fields) and hands the engine its columns here; the engine checks each filter
 * (field, operator, number of values, each value by its kind: 400 ParamsError naming `filters.N.part`), builds the
 * conditions, and the order with the tie-breaking id. A field whose meaning is not a plain column comparison gets a
 * handler of the area's own (`custom`), which sees the checked values.
 */
export type Scalar = Filter['values'][number];
export type Value = string | number | boolean | Date | null;

/** How one kind of value is read: the value, or undefined when it is not one (`expects` says what is). */
export interface ValueKind {
  read(v: Exclude<Scalar, null>): Exclude<Value, null> | undefined;
  expects: string;
}

export const valueKinds = {
  int: { read: (v) => filterId(v) ?? undefined, expects: 'an integer id is expected' },
  time: { read: (v) => filterTime(v) ?? undefined, expects: 'an ISO date-time with offset is expected' },
  bool: { read: (v) => (typeof v === 'boolean' ? v : undefined), expects: 'true or false is expected' },
  text: { read: (v) => (typeof v === 'string' ? v : undefined), expects: 'a string is expected' },
} satisfies Record<string, ValueKind>;

/** A kind whose values are one of a fixed list (statuses, sources...). */
export function oneOf(values: readonly (string | number)[]): ValueKind {
  return { read: (v) => (values.includes(v as string | number) ? (v as string | number) : undefined), expects: `one of ${values.join(', ')}` };
}

export interface ListFieldSpec {
  kind: string;
  operators: readonly Operator[];
  /** A value may be null (equal/notEqual/in: "absent"). */
  nullable?: boolean;
}

export interface ListQuery<F extends string> {
  /** The resource's name in messages: 'exams', 'consultations'. */
  resource: string;
  /** The whitelist, as contract/ declares it. */
  fields: Readonly<Record<F, ListFieldSpec>>;
  /** How each kind the whitelist names is read. */
  kinds: Readonly<Record<string, ValueKind>>;
  /** The column (or expression) of each plain field. */
  columns: Readonly<Partial<Record<F, AnyPgColumn | SQL>>>;
}

export interface CheckedFilter<F extends string> {
  field: F;
  operator: Operator;
  values: Value[];
  index: number;
}

export function refuseFilter(index: number, part: 'field' | 'operator' | 'values', message: string): never {
  throw new ApiError('ParamsError', undefined, { fields: [{ path: `filters.${index}.${part}`, message }] });
}

/** One filter against the whitelist; its values read by their kind. */
export function checkFilter<F extends string>(list: ListQuery<F>, f: Filter, index: number): CheckedFilter<F> {
  if (!Object.hasOwn(list.fields, f.field)) refuseFilter(index, 'field', `not a filter of ${list.resource}: ${f.field}`);
  const field = f.field as F;
  const spec = list.fields[field];
  if (!spec.operators.includes(f.operator)) refuseFilter(index, 'operator', `${field} takes ${spec.operators.join(', ')}`);
  if (f.values.length === 0) refuseFilter(index, 'values', 'at least one value');
  if (f.operator !== 'in' && f.values.length !== 1) refuseFilter(index, 'values', 'exactly one value');
  // null means "absent", which only equal, notEqual and in can ask about.
  const nullable = spec.nullable === true && ['equal', 'notEqual', 'in'].includes(f.operator);
  const kind = list.kinds[spec.kind];
  if (!kind) throw new Error(`${list.resource}: no reader for the value kind ${spec.kind}`);
  const values = f.values.map((v): Value => {
    if (v === null) return nullable ? null : refuseFilter(index, 'values', 'null is not a value of this field');
    const value = kind.read(v);
    return value === undefined ? refuseFilter(index, 'values', kind.expects) : value;
  });
  if (f.operator === 'like' && String(values[0]).trim() === '') refuseFilter(index, 'values', 'an empty search');
  return { field, operator: f.operator, values, index };
}

/** `%`, `_` and `\` are literal in a like filter (docs/api.md "List queries"). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A comparison of a column (or expression) with one value, or with a set for `in`; null means "absent". */
export function compare(column: AnyPgColumn | SQL, op: Operator, values: readonly Value[]): SQL {
  const [first] = values;
  const nonNull = values.filter((v): v is Exclude<Value, null> => v !== null);
  switch (op) {
    case 'equal': return first === null ? sql`${column} is null` : sql`${column} = ${first}`;
    case 'notEqual': return first === null ? sql`${column} is not null` : sql`(${column} <> ${first} or ${column} is null)`;
    case 'in': {
      const parts: SQL[] = [];
      if (nonNull.length === 1) parts.push(sql`${column} = ${nonNull[0]}`);
      else if (nonNull.length > 1) parts.push(sql`${column} in (${sql.join(nonNull.map((v) => sql`${v}`), sql`, `)})`);
      if (values.includes(null)) parts.push(sql`${column} is null`);
      return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
    }
    case 'gt': return sql`${column} > ${first}`;
    case 'gte': return sql`${column} >= ${first}`;
    case 'lt': return sql`${column} < ${first}`;
    case 'lte': return sql`${column} <= ${first}`;
    case 'like': return sql`${column} ilike ${containsPattern(String(first))}`;
  }
}

/** A field's own meaning: a condition, or nothing (the handler kept what it learnt, e.g. "the deleted view"). */
export type CustomFilter<F extends string> = (filter: CheckedFilter<F>) => SQL | void;

/** The whitelist applied: each filter checked and turned into a condition (its own handler's, else a comparison). */
export function compileListFilters<F extends string>(list: ListQuery<F>, filters: readonly Filter[], custom: Partial<Record<F, CustomFilter<F>>> = {}): SQL[] {
  const conditions: SQL[] = [];
  filters.forEach((f, index) => {
    const checked = checkFilter(list, f, index);
    const own = custom[checked.field];
    if (own) {
      const condition = own(checked);
      if (condition) conditions.push(condition);
      return;
    }
    const column = list.columns[checked.field];
    if (!column) throw new Error(`${list.resource}: no column or handler for ${checked.field}`);
    conditions.push(compare(column, checked.operator, checked.values));
  });
  return conditions;
}

export interface ListOrder<S extends string> {
  resource: string;
  fields: readonly S[];
  columns: Readonly<Record<S, AnyPgColumn | SQL>>;
  /** The order when none is asked for. */
  defaultSort: { field: S; direction: 'asc' | 'desc' };
  /** Unique, last in every order (in the first sort's direction) so pages are stable. */
  tieBreak: S;
  /** A field that stands for another in some views (exams: deletedTime outside the deleted view is created). */
  rewrite?: (field: S) => S;
}

/** The sorts asked for, each field once, then the tie-breaker. Unknown fields are 400 naming `sorts.N.field`. */
export function orderOf<S extends string>(order: ListOrder<S>, sorts: readonly Sort[]): SQL[] {
  const chosen: { field: S; direction: 'asc' | 'desc' }[] = [];
  sorts.forEach((s, index) => {
    if (!(order.fields as readonly string[]).includes(s.field)) {
      throw new ApiError('ParamsError', undefined, { fields: [{ path: `sorts.${index}.field`, message: `not a sort of ${order.resource}: ${s.field}` }] });
    }
    const field = order.rewrite ? order.rewrite(s.field as S) : (s.field as S);
    if (!chosen.some((c) => c.field === field)) chosen.push({ field, direction: s.direction });
  });
  if (chosen.length === 0) chosen.push(order.defaultSort);
  if (!chosen.some((c) => c.field === order.tieBreak)) chosen.push({ field: order.tieBreak, direction: chosen[0]!.direction });
  return chosen.map((c) => (c.direction === 'asc' ? asc(order.columns[c.field]) : desc(order.columns[c.field])));
}
