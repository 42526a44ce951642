import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { sanitizeReportHtml } from '../../contract/reportHtml';
import {
  KB_DEPTH_MAX, childrenMap, depthOf, descendantIds, resortPlan, wouldCycle, type KbCreate, type KbPatch,
} from '../../contract/kb';
import type { Db } from '../db/client';
import { kbItems, reportTemplates } from '../db/schema';
import { ApiError } from '../http/errors';
import type { KbRow } from './read';

/**
 * The knowledge base's writes. Each runs inside the caller's transaction after `lockTree`, reads the organisation's
 * whole tree once (a tree is small: folders and texts people write by hand) and decides with the rules of
 * contract/kb.ts. A level's numbers are 1…n after every write: a new or moved item goes last, a removed one closes
 * its gap, a re-sort renumbers the level.
 */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The organisation's knowledge-base write lock, held to the end of the transaction. */
export async function lockTree(tx: Pick<Db, 'execute'>, bucketId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`kb-tree:${bucketId}`}))`);
}

/** The tree's shape without the texts: what the rules need (a write never reads every text of the organisation). */
const tree = (tx: Tx, bucketId: number) => tx.select({ id: kbItems.id, parentId: kbItems.parentId, sort: kbItems.sort, type: kbItems.type, name: kbItems.name })
  .from(kbItems).where(eq(kbItems.bucketId, bucketId));
type Node = Awaited<ReturnType<typeof tree>>[number];

const paramsError = (path: string, message: string) => new ApiError('ParamsError', undefined, { fields: [{ path, message }] });

/** The new parent must be a folder of the same organisation (null = the top level). */
function assertFolder(rows: readonly Node[], parentId: number | null): void {
  if (parentId === null) return;
  const parent = rows.find((r) => r.id === parentId);
  if (!parent || parent.type !== 'folder') throw new ApiError('UnknownReference', undefined, { field: 'parentId' });
}

/** The sort that puts an item last in a level. */
function lastIn(rows: readonly Node[], parentId: number | null, except?: number): number {
  return (childrenMap(rows.filter((r) => r.id !== except)).get(parentId) ?? []).reduce((max, r) => Math.max(max, r.sort), 0) + 1;
}

/** Writes sort 1…n in the given order (ids of one level of the organisation). */
async function renumber(tx: Tx, bucketId: number, order: readonly number[]): Promise<void> {
  if (order.length === 0) return;
  const cases = sql.join(order.map((id, i) => sql`when ${id}::int then ${i + 1}::int`), sql` `);
  await tx.update(kbItems).set({ sort: sql`case ${kbItems.id} ${cases} end` })
    .where(and(eq(kbItems.bucketId, bucketId), inArray(kbItems.id, [...order])));
}

/** The level `parentId` without `except`, in its order: what is left when an item moves out or is deleted. */
function levelWithout(rows: readonly Node[], parentId: number | null, except: readonly number[]): number[] {
  const gone = new Set(except);
  return (childrenMap(rows).get(parentId) ?? []).filter((r) => !gone.has(r.id)).map((r) => r.id);
}

export async function createItem(tx: Tx, input: KbCreate, actorId: number, now: Date): Promise<KbRow> {
  const rows = await tree(tx, input.bucketId);
  assertFolder(rows, input.parentId);
  if (depthOf(rows, input.parentId) + 1 > KB_DEPTH_MAX) throw paramsError('parentId', `at most ${KB_DEPTH_MAX} levels`);
  let name = input.name;
  let referenceId: number | null = null;
  let content = '';
  if (input.type === 'template') {
    const [template] = await tx.select({ id: reportTemplates.id, name: reportTemplates.name }).from(reportTemplates)
      .where(and(eq(reportTemplates.id, input.referenceId), eq(reportTemplates.bucketId, input.bucketId), eq(reportTemplates.isFolder, false)));
    if (!template) throw new ApiError('UnknownReference', undefined, { field: 'referenceId' });
    referenceId = template.id;
    name ??= template.name;
  } else if (input.type === 'text') {
    content = sanitizeReportHtml(input.content);
  }
  const [row] = await tx.insert(kbItems).values({
    bucketId: input.bucketId, parentId: input.parentId, type: input.type, name: name!, referenceId, content,
    sort: lastIn(rows, input.parentId), createdBy: actorId, updated: now,
  }).returning();
  return row!;
}

export async function patchItem(tx: Tx, bucketId: number, id: number, input: KbPatch, now: Date): Promise<{ before: KbRow; after: KbRow }> {
  const rows = await tree(tx, bucketId);
  const [before] = await tx.select().from(kbItems).where(and(eq(kbItems.bucketId, bucketId), eq(kbItems.id, id)));
  if (!before) throw new ApiError('NotFound');
  if (input.content !== undefined && before.type !== 'text') throw paramsError('content', 'only a text item has content');
  const values: Partial<typeof kbItems.$inferInsert> = { updated: now };
  if (input.name !== undefined) values.name = input.name;
  if (input.content !== undefined) values.content = sanitizeReportHtml(input.content);
  const moving = input.parentId !== undefined && input.parentId !== before.parentId;
  if (moving) {
    const parentId = input.parentId ?? null;
    if (wouldCycle(rows, id, parentId)) throw new ApiError('KbMoveIntoItself', undefined, { parentId });
    assertFolder(rows, parentId);
    const below = descendantIds(rows, id).reduce((max, d) => Math.max(max, depthOf(rows, d)), depthOf(rows, id)) - depthOf(rows, id);
    if (depthOf(rows, parentId) + 1 + below > KB_DEPTH_MAX) throw paramsError('parentId', `at most ${KB_DEPTH_MAX} levels`);
    values.parentId = parentId;
    values.sort = lastIn(rows, parentId, id);
  }
  const [after] = await tx.update(kbItems).set(values).where(and(eq(kbItems.bucketId, bucketId), eq(kbItems.id, id))).returning();
  if (moving) await renumber(tx, bucketId, levelWithout(rows, before.parentId, [id]));
  return { before, after: after! };
}

/** Deletes the item and every item under it in one statement (the caller's transaction); the level closes the gap. */
export async function deleteItem(tx: Tx, bucketId: number, id: number): Promise<{ row: Node; ids: number[] }> {
  const rows = await tree(tx, bucketId);
  const row = rows.find((r) => r.id === id);
  if (!row) throw new ApiError('NotFound');
  const ids = [id, ...descendantIds(rows, id)];
  await tx.delete(kbItems).where(and(eq(kbItems.bucketId, bucketId), inArray(kbItems.id, ids)));
  await renumber(tx, bucketId, levelWithout(rows, row.parentId, [id]));
  return { row, ids };
}

/** Puts the item right after `preId` in its own level (null: first); a preId anywhere else is KbResortOtherLevel. */
export async function resortItem(tx: Tx, bucketId: number, id: number, preId: number | null): Promise<{ parentId: number | null; order: number[] }> {
  // Only the item's own level is read: a preId anywhere else is simply not among the siblings.
  const [item] = await tx.select({ parentId: kbItems.parentId }).from(kbItems).where(and(eq(kbItems.bucketId, bucketId), eq(kbItems.id, id)));
  if (!item) throw new ApiError('NotFound');
  const level = await tx.select({ id: kbItems.id, parentId: kbItems.parentId, sort: kbItems.sort }).from(kbItems)
    .where(and(eq(kbItems.bucketId, bucketId), item.parentId === null ? isNull(kbItems.parentId) : eq(kbItems.parentId, item.parentId)));
  const plan = resortPlan(level, id, preId);
  if (!plan.ok) throw plan.reason === 'notFound' ? new ApiError('NotFound') : new ApiError('KbResortOtherLevel', undefined, { preId });
  await renumber(tx, bucketId, plan.order);
  return { parentId: item.parentId, order: plan.order };
}
