import { and, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Filter, Page, PageQuery, Sort } from '../../../contract/common';
import {
  ORDER_FILTER_FIELDS, ORDER_SORT_FIELDS, PAYMENT_CHANNELS, PAYMENT_STATUSES, REPORT_REQUEST_TYPES, type OrderFilterField, type ReportOrder,
} from '../../../contract/payments';
import type { Access } from '../../access/access';
import type { Db } from '../../db/client';
import { reportOrderTargets, reportOrders } from '../../db/schema';
import { cappedCount, type CappedCount } from '../../http/estimate';
import {
  compare, compileListFilters, oneOf, orderOf as listOrder, refuseFilter, valueKinds, type ListOrder, type ListQuery,
} from '../../http/pageQuery';
import { ORDER_ACTIONS, ORDER_READ_ACTIONS, presentOrders } from './load';

/**
 * The order list (payments/page-query = orders/page-query, payments/export-excel) on the shared page-query engine:
 * the whitelist is contract/payments.ts ORDER_FILTER_FIELDS. Side 'out': applications of organisations where the
 * account has an order action or exam_get; side 'in': those sent to organisations where it has an order action.
 */

const SIDES = ['in', 'out'] as const;

const LIST: ListQuery<OrderFilterField> = {
  resource: 'orders',
  fields: ORDER_FILTER_FIELDS,
  kinds: {
    int: valueKinds.int, time: valueKinds.time, text: valueKinds.text,
    // type, channel and side share the kind 'enum': each field's own handler narrows it to its values.
    enum: oneOf([...REPORT_REQUEST_TYPES, ...PAYMENT_CHANNELS, ...SIDES]),
    payment: oneOf(PAYMENT_STATUSES),
  },
  columns: {
    id: reportOrders.id, requestNo: reportOrders.requestNo, patientName: reportOrders.patientName, paymentStatus: reportOrders.paymentStatus,
    fromBucketId: reportOrders.fromBucketId, examId: reportOrders.examId, created: reportOrders.created,
  },
};

const ORDER: ListOrder<(typeof ORDER_SORT_FIELDS)[number]> = {
  resource: 'orders',
  fields: ORDER_SORT_FIELDS,
  columns: { id: reportOrders.id, created: reportOrders.created, amountFen: reportOrders.amountFen, paidAt: reportOrders.paidAt },
  defaultSort: { field: 'id', direction: 'desc' },
  tieBreak: 'id',
};

/** Above this many matches the total is the planner's estimate (as the other lists). */
export const ORDER_COUNT_EXACT_LIMIT = 1000;

export interface OrderScope {
  out: number[];
  in: number[];
}

export function orderScope(access: Access): OrderScope {
  const grants = [...access.buckets.values()];
  return {
    out: grants.filter((g) => ORDER_READ_ACTIONS.some((a) => g.actions.has(a))).map((g) => g.bucketId).sort((a, b) => a - b),
    in: grants.filter((g) => ORDER_ACTIONS.some((a) => g.actions.has(a))).map((g) => g.bucketId).sort((a, b) => a - b),
  };
}

const sentTo = (bucketIds: readonly number[]): SQL => sql`exists (select 1 from ${reportOrderTargets}
  where ${reportOrderTargets.orderId} = ${reportOrders.id} and ${inArray(reportOrderTargets.bucketId, [...bucketIds])})`;

function sideCondition(scope: OrderScope, side: 'in' | 'out'): SQL {
  const buckets = scope[side];
  if (buckets.length === 0) return sql`false`;
  return side === 'out' ? inArray(reportOrders.fromBucketId, buckets) : sentTo(buckets);
}

function narrowed<T extends string>(values: readonly unknown[], allowed: readonly T[], index: number): T[] {
  for (const v of values) if (!allowed.includes(v as T)) refuseFilter(index, 'values', `one of ${allowed.join(', ')}`);
  return values as T[];
}

/** The list's filters within the account's scope, checked (400 before anything is read); null when nothing is visible. */
export function whereOf(scope: OrderScope, filters: readonly Filter[]): SQL | null {
  const conditions = compileListFilters(LIST, filters, {
    type: (f) => compare(reportOrders.type, f.operator, narrowed(f.values, REPORT_REQUEST_TYPES, f.index)),
    channel: (f) => compare(reportOrders.channel, f.operator, narrowed(f.values, PAYMENT_CHANNELS, f.index)),
    side: (f) => sideCondition(scope, narrowed(f.values, SIDES, f.index)[0]!),
    toBucketId: (f) => sentTo(f.values as number[]),
  });
  if (scope.out.length === 0 && scope.in.length === 0) return null;
  const visible = or(sideCondition(scope, 'out'), sideCondition(scope, 'in'))!;
  return and(visible, ...conditions)!;
}

export function orderOf(sorts: readonly Sort[]): SQL[] {
  return listOrder(ORDER, sorts);
}

export async function listOrders(db: Db, where: SQL, sorts: readonly Sort[], limit: number, skip: number): Promise<ReportOrder[]> {
  const rows = await db.select().from(reportOrders).where(where).orderBy(...orderOf(sorts)).limit(limit).offset(skip);
  return (await presentOrders(db, rows)).orders;
}

/** Exact up to `exactLimit`, else the planner's estimate (server/http/estimate.ts cappedCount). */
export function countOrders(db: Db, where: SQL, exactLimit = ORDER_COUNT_EXACT_LIMIT): Promise<CappedCount> {
  return cappedCount(db, reportOrders, where, exactLimit);
}

export async function orderPage(db: Db, access: Access, input: PageQuery): Promise<Page<ReportOrder> & { totalIsEstimate?: boolean }> {
  orderOf(input.sorts);
  const where = whereOf(orderScope(access), input.filters);
  if (!where) return { items: [], total: 0 };
  const [items, count] = await Promise.all([listOrders(db, where, input.sorts, input.limit, input.skip), countOrders(db, where)]);
  if (!count.totalIsEstimate) return { items, total: count.total };
  if (items.length < input.limit && (items.length > 0 || input.skip === 0)) return { items, total: input.skip + items.length };
  return { items, total: Math.max(count.total, input.skip + items.length + 1), totalIsEstimate: true };
}
