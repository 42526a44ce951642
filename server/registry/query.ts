import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PageQuery } from '../../contract/common';
import type { RegistryPage } from '../../contract/registry';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import type { RegistryDesk } from './access';
import { compileFilters, orderOf } from './filters';
import { liveLine, presentLine, selectLines } from './present';

/**
 * One page of an organisation's registry lines (page size 10, newest registration first), with the total. The page's
 * ids come first from the exams' ordered index alone (the line carries its registration's order id), then their rows with the joins: a deep page (skip 100,000) no longer
 * joins every skipped row (bench/registry.ts).
 */
export async function queryRegistry(db: Db, desk: RegistryDesk, input: PageQuery): Promise<RegistryPage> {
  const where = and(eq(exams.bucketId, desk.bucketId), liveLine, ...compileFilters(input.filters))!;
  const orderBy = orderOf(input.sorts);
  // One at a time: the same connection may be a transaction's.
  const ids = (await db.select({ id: exams.id }).from(exams)
    .where(where).orderBy(...orderBy).limit(input.limit).offset(input.skip)).map((r) => r.id);
  const rows = ids.length === 0 ? [] : await selectLines(db).where(inArray(exams.id, ids));
  const byId = new Map(rows.map((r) => [r.exam.id, r]));
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(exams).where(where);
  return { items: ids.map((id) => presentLine(byId.get(id)!, desk.rights)), total: Number(count?.n ?? 0) };
}
