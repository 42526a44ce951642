import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { KB_READ_ACTIONS, KB_WRITE_ACTION, kbCreateInput, kbPatchInput, kbQuery, kbResortInput, type KbDeleteResult, type KbPage } from '../../contract/kb';
import { assertCan, type Access } from '../access/access';
import { authOf } from '../auth/plugin';
import { recordAudit } from '../audit/record';
import { kbItems } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { createItem, deleteItem, lockTree, patchItem, resortItem } from './write';
import { loadItems, presentItems } from './read';

/**
 * The knowledge base (areas §3, §4, §7; docs/decisions.md "Knowledge base"). One tree per organisation. Read by the
 * organisation's members who hold any report action or template_upsert (the people who write reports, and the
 * template editors); written by template_upsert. Outside the account's organisations 404, without the action 403.
 * Every write takes the organisation's knowledge-base lock first, so moves, re-sorts and deletes of one tree run one
 * after another (a level's numbers stay 1…n, and two crossing moves cannot both pass the cycle check).
 */
const READERS = KB_READ_ACTIONS;
const WRITER = KB_WRITE_ACTION;

function assertCanRead(access: Access, bucketId: number): void {
  const grant = access.buckets.get(bucketId);
  if (!grant) throw new ApiError('NotFound');
  if (!READERS.some((a) => grant.actions.has(a))) throw new ApiError('Forbidden');
}

export async function kbRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/kb-items/query', async (req): Promise<KbPage> => {
    const { bucketId } = parse(kbQuery, req.query);
    assertCanRead(await authOf(req).access(), bucketId);
    const items = await presentItems(db, bucketId, await loadItems(db, bucketId));
    return { items, total: items.length };
  });

  app.post('/kb-items', async (req) => {
    const input = parse(kbCreateInput, req.body);
    const access = await authOf(req).access();
    assertCan(access, WRITER, input.bucketId);
    return db.transaction(async (tx) => {
      await lockTree(tx, input.bucketId);
      const row = await createItem(tx, input, access.accountId, deps.clock.now());
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId: row.bucketId, area: 'kb', action: 'kb-create', objectType: 'kb-item', objectId: row.id,
        after: { type: row.type, name: row.name, parentId: row.parentId, referenceId: row.referenceId, sort: row.sort },
      });
      return (await presentItems(tx, row.bucketId, [row]))[0]!;
    });
  });

  /** The item's organisation, checked against the caller before anything else is said about it. */
  const writableItem = async (access: Access, id: number) => {
    const [row] = await db.select({ bucketId: kbItems.bucketId }).from(kbItems).where(eq(kbItems.id, id));
    if (!row) throw new ApiError('NotFound');
    assertCan(access, WRITER, row.bucketId);
    return row.bucketId;
  };

  app.patch('/kb-items/:id', async (req) => {
    const { id } = parse(idParam, req.params);
    const input = parse(kbPatchInput, req.body);
    const access = await authOf(req).access();
    const bucketId = await writableItem(access, id);
    return db.transaction(async (tx) => {
      await lockTree(tx, bucketId);
      const { before, after } = await patchItem(tx, bucketId, id, input, deps.clock.now());
      const changed = (keys: readonly (keyof typeof before)[]) => Object.fromEntries(keys.filter((k) => before[k] !== after[k]).map((k) => [k, before[k]]));
      const keys = ['name', 'parentId', 'sort', 'content'] as const;
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId, area: 'kb', action: input.parentId !== undefined && before.parentId !== after.parentId ? 'kb-move' : 'kb-update',
        objectType: 'kb-item', objectId: id, before: changed(keys),
        after: Object.fromEntries(keys.filter((k) => before[k] !== after[k]).map((k) => [k, after[k]])),
      });
      return (await presentItems(tx, bucketId, [after]))[0]!;
    });
  });

  app.delete('/kb-items/:id', async (req): Promise<KbDeleteResult> => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const bucketId = await writableItem(access, id);
    return db.transaction(async (tx) => {
      await lockTree(tx, bucketId);
      const { row, ids } = await deleteItem(tx, bucketId, id);
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId, area: 'kb', action: 'kb-delete', objectType: 'kb-item', objectId: id,
        before: { type: row.type, name: row.name, parentId: row.parentId, removedIds: ids },
      });
      return { removed: ids.length, ids };
    });
  });

  app.post('/kb-items/:id/resort', async (req) => {
    const { id } = parse(idParam, req.params);
    const { preId } = parse(kbResortInput, req.body);
    const access = await authOf(req).access();
    const bucketId = await writableItem(access, id);
    return db.transaction(async (tx) => {
      await lockTree(tx, bucketId);
      const { parentId, order } = await resortItem(tx, bucketId, id, preId);
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId, area: 'kb', action: 'kb-resort', objectType: 'kb-item', objectId: id,
        after: { preId, parentId, order },
      });
      return { parentId, order };
    });
  });
}
