import { and, eq, sql } from 'drizzle-orm';
import type { PageQuery } from '../../contract/common';
import type { QueueEntry } from '../../contract/calling';
import type { Db } from '../db/client';
import { exams, queueEntries } from '../db/schema';
import { compileFilters, orderOf } from './filters';
import { presentEntry, selectEntries } from './present';

/** POST buckets/{id}/queue-exams/query: one organisation's entries, any day, by the whitelist of filters.ts. */
export async function queryEntries(db: Db, bucketId: number, input: PageQuery): Promise<{ items: QueueEntry[]; total: number }> {
  const where = and(eq(queueEntries.bucketId, bucketId), ...compileFilters(input.filters))!;
  const rows = await selectEntries(db).where(where).orderBy(...orderOf(input.sorts)).limit(input.limit).offset(input.skip);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(queueEntries).innerJoin(exams, eq(exams.id, queueEntries.examId)).where(where);
  return { items: rows.map(presentEntry), total: Number(count?.n ?? 0) };
}
