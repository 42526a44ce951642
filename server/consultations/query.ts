import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PageQuery } from '../../contract/common';
import type { ConsultationBucketRef, ConsultationListItem, ConsultationPage, ConsultationStatus } from '../../contract/consultations';
import type { Db } from '../db/client';
import { buckets, consultationBuckets, consultations } from '../db/schema';
import { compileFilters, orderOf } from './filters';
import { visibleIn } from './scope';

/** One page of the consultations visible in `scope`, with the total of the same filters. */
export async function queryPage(db: Db, scope: readonly number[], input: PageQuery): Promise<ConsultationPage> {
  // Checked before the empty scope answers: a bad filter is a 400 also for an account without organisations.
  const conditions = compileFilters(input.filters);
  const orderBy = orderOf(input.sorts);
  if (scope.length === 0) return { items: [], total: 0 };
  const where = and(visibleIn(scope), ...conditions)!;
  const [rows, [count]] = await Promise.all([
    db.select({ c: consultations, appliedBucketName: buckets.name }).from(consultations)
      .leftJoin(buckets, eq(buckets.id, consultations.appliedBucketId))
      .where(where).orderBy(...orderBy).limit(input.limit).offset(input.skip),
    db.select({ n: sql<number>`count(*)::int` }).from(consultations).where(where),
  ]);
  const joined = await joinedBuckets(db, rows.map((r) => r.c.id));
  const items = rows.map(({ c, appliedBucketName }): ConsultationListItem => ({
    id: c.id,
    patientName: c.patientName,
    created: c.created.toISOString(),
    reason: c.reason,
    // The table's check constraint holds it to areas §4's five numbers.
    status: c.status as ConsultationStatus,
    appliedBucketName: appliedBucketName ?? '',
    joinedBuckets: joined.get(c.id) ?? [],
    scheduledTime: c.scheduledTime ? c.scheduledTime.toISOString() : null,
  }));
  return { items, total: Number(count?.n ?? 0) };
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
