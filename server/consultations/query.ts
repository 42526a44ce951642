import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Filter, PageQuery, Sort } from '../../contract/common';
import {
  CONSULTATION_COUNT_EXACT_LIMIT,
  type ConsultationBucketRef, type ConsultationListItem, type ConsultationPage, type ConsultationStatus, type PaymentStatus,
} from '../../contract/consultations';
import type { Db } from '../db/client';
import { buckets, consultationBuckets, consultations } from '../db/schema';
import { cappedCount, type CappedCount } from '../http/estimate';
import { compileFilters, orderOf, type FilterContext } from './filters';
import { visibleIn } from './scope';

const applied = alias(buckets, 'applied_bucket');
const target = alias(buckets, 'target_bucket');

/** The list's filters within `scope`, checked (400 before anything is read); null when the scope is empty. */
export function whereOf(scope: readonly number[], filters: readonly Filter[], ctx: FilterContext): SQL | null {
  // Checked before the empty scope answers: a bad filter is a 400 also for an account without organisations.
  const conditions = compileFilters(filters, ctx);
  if (scope.length === 0) return null;
  return and(visibleIn(scope), ...conditions)!;
}

/** The rows of one page, each as the list shows it. */
export async function listRows(db: Db, where: SQL, sorts: readonly Sort[], limit: number, skip: number): Promise<ConsultationListItem[]> {
  const rows = await db.select({ c: consultations, appliedBucketName: applied.name, targetBucketName: target.name }).from(consultations)
    .leftJoin(applied, eq(applied.id, consultations.appliedBucketId))
    .leftJoin(target, eq(target.id, consultations.targetBucketId))
    .where(where).orderBy(...orderOf(sorts)).limit(limit).offset(skip);
  const joined = await joinedBuckets(db, rows.map((r) => r.c.id));
  return rows.map(({ c, appliedBucketName, targetBucketName }): ConsultationListItem => ({
    id: c.id,
    patientName: c.patientName,
    created: c.created.toISOString(),
    reason: c.reason,
    // The table's check constraints hold status and payment to areas §4's numbers.
    status: c.status as ConsultationStatus,
    appliedBucketName: appliedBucketName ?? '',
    joinedBuckets: joined.get(c.id) ?? [],
    scheduledTime: c.scheduledTime ? c.scheduledTime.toISOString() : null,
    targetBucketName: targetBucketName ?? '',
    paymentStatus: c.paymentStatus as PaymentStatus,
    ratingScore: c.rating,
  }));
}

export type ConsultationCount = CappedCount;

/** The total of `where`: exact up to `exactLimit`, else the planner's estimate (server/http/estimate.ts cappedCount). */
export function countRows(db: Db, where: SQL, exactLimit = CONSULTATION_COUNT_EXACT_LIMIT): Promise<ConsultationCount> {
  return cappedCount(db, consultations, where, exactLimit);
}

/** One page of the consultations visible in `scope`, with the total of the same filters. */
export async function queryPage(db: Db, scope: readonly number[], input: PageQuery, ctx: FilterContext): Promise<ConsultationPage> {
  // A bad sort is a 400 also for an empty scope, as a bad filter is.
  orderOf(input.sorts);
  const where = whereOf(scope, input.filters, ctx);
  if (!where) return { items: [], total: 0 };
  const [items, count] = await Promise.all([listRows(db, where, input.sorts, input.limit, input.skip), countRows(db, where)]);
  if (!count.totalIsEstimate) return { items, total: count.total };
  // A page that is not full ends the list, so the total is exact after all; a full one proves at least skip + limit + 1.
  if (items.length < input.limit && (items.length > 0 || input.skip === 0)) return { items, total: input.skip + items.length };
  return { items, total: Math.max(count.total, input.skip + items.length + 1), totalIsEstimate: true };
}

/** The joined organisations of the page's consultations, in one query, each list by organisation id. */
async function joinedBuckets(db: Db, ids: number[]): Promise<Map<number, ConsultationBucketRef[]>> {
  const out = new Map<number, ConsultationBucketRef[]>();
  if (ids.length === 0) return out;
  const rows = await db.select({ consultationId: consultationBuckets.consultationId, id: buckets.id, name: buckets.name })
    .from(consultationBuckets).innerJoin(buckets, eq(buckets.id, consultationBuckets.bucketId))
    .where(inArray(consultationBuckets.consultationId, ids))
    .orderBy(asc(consultationBuckets.consultationId), asc(buckets.id));
  for (const r of rows) {
    const list = out.get(r.consultationId) ?? [];
    list.push({ id: r.id, name: r.name });
    out.set(r.consultationId, list);
  }
  return out;
}
