import { and, eq, sql } from 'drizzle-orm';
import type { PageQuery } from '../../contract/common';
import type { RegistryPage } from '../../contract/registry';
import type { Db } from '../db/client';
import { exams, registrations } from '../db/schema';
import type { RegistryDesk } from './access';
import { compileFilters, orderOf } from './filters';
import { liveLine, presentLine, selectLines } from './present';

/** One page of an organisation's registry lines (page size 10, newest registration first), with the total. */
export async function queryRegistry(db: Db, desk: RegistryDesk, input: PageQuery): Promise<RegistryPage> {
  const where = and(eq(exams.bucketId, desk.bucketId), liveLine, ...compileFilters(input.filters))!;
  const orderBy = orderOf(input.sorts);
  // One at a time: the same connection may be a transaction's.
  const rows = await selectLines(db).where(where).orderBy(...orderBy).limit(input.limit).offset(input.skip);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(exams)
    .innerJoin(registrations, eq(registrations.id, exams.registrationId)).where(where);
  return { items: rows.map((r) => presentLine(r, desk.rights)), total: Number(count?.n ?? 0) };
}
