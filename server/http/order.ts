import { asc, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { ApiError } from './errors';

/**
 * The one re-sort rule of every ordered list of an organisation (procedures, steps, device groups, devices, queue
 * types): the new order names exactly the list's present ids, each once, and is written in one statement inside the
 * caller's transaction, under a lock on the list's rows so two re-sorts cannot interleave. Anything else is 400
 * InvalidOrder and nothing is written. New items go last (`nextSortOrder`); lists read by sortOrder, then id.
 */
export interface OrderedList {
  table: PgTable;
  id: PgColumn;
  bucketId: PgColumn;
  sortOrder: PgColumn;
}

type Tx = Pick<Db, 'select' | 'execute'>;

export async function resortList(tx: Tx, list: OrderedList, bucketId: number, ids: readonly number[]): Promise<void> {
  const rows = await tx.select({ id: list.id }).from(list.table).where(eq(list.bucketId, bucketId)).orderBy(asc(list.id)).for('update');
  const present = new Set(rows.map((r) => r.id as number));
  const given = new Set(ids);
  const missing = [...present].filter((id) => !given.has(id));
  const unknown = [...given].filter((id) => !present.has(id));
  if (given.size !== ids.length || missing.length > 0 || unknown.length > 0) {
    throw new ApiError('InvalidOrder', undefined, { missing, unknown, repeated: given.size !== ids.length });
  }
  if (ids.length === 0) return;
  const cases = sql.join(ids.map((id, i) => sql`when ${id}::int then ${i + 1}::int`), sql` `);
  // Every row of the list is named (checked above), so the organisation's rows are exactly the ones updated.
  await tx.execute(sql`update ${list.table} set ${sql.identifier(list.sortOrder.name)} = case ${sql.identifier(list.id.name)} ${cases} end
    where ${sql.identifier(list.bucketId.name)} = ${bucketId}::int`);
}

/** The sortOrder that puts a new item last. */
export async function nextSortOrder(tx: Tx, list: OrderedList, bucketId: number): Promise<number> {
  const [row] = await tx.select({ max: sql<number | null>`max(${list.sortOrder})` }).from(list.table).where(eq(list.bucketId, bucketId));
  return Number(row?.max ?? 0) + 1;
}
