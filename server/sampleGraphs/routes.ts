import multipart from '@fastify/multipart';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { EXTENSIONS, sniffType } from '../../contract/files';
import {
  SAMPLE_GRAPH_TYPES, sampleGraphCreateFields, sampleGraphListQuery, sampleGraphResortInput, sampleGraphUpdateInput, type SampleGraph,
} from '../../contract/sampleGraphs';
import { can, type Access } from '../access/access';
import { groupOfBucket, isBucketAdmin } from '../access/admin';
import { recordAudit } from '../audit/record';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { sampleGraphs } from '../db/schema';
import type { Deps } from '../deps';
import { readGlobalConfigs } from '../globalConfigs/routes';
import { ApiError } from '../http/errors';
import { assertImageWithinLimits } from '../http/imageLimits';
import { fileBytes, formFile } from '../http/multipart';
import { resortList, type OrderedList } from '../http/order';
import { parse } from '../http/validate';
import type { Storage } from '../storage/types';
import { storedName } from '../storage/types';

type Row = typeof sampleGraphs.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Read links of drawings live an hour; the screen fetches the list again when it opens. */
const URL_TTL_SECONDS = 3600;
const LIST: OrderedList = { table: sampleGraphs, id: sampleGraphs.id, bucketId: sampleGraphs.bucketId, sortOrder: sampleGraphs.sortIndex };

async function toGraph(storage: Storage, row: Row, index: number): Promise<SampleGraph> {
  const ext = row.url.split('.').pop();
  return {
    id: row.id, bucketId: row.bucketId, name: row.name, origin: row.origin, points: row.points, index,
    url: await storage.readUrl(row.url, { expiresInSeconds: URL_TTL_SECONDS, contentType: ext === 'jpg' ? 'image/jpeg' : 'image/png' }),
    created: row.created.toISOString(),
  };
}

/**
 * Who reads: the organisation's members, and its group's admins (who administer every organisation of the group).
 * Anyone else: 404, so ids reveal nothing.
 */
async function assertReader(db: Db, access: Access, bucketId: number): Promise<void> {
  if (access.buckets.has(bucketId)) return;
  const groupId = await groupOfBucket(db, bucketId);
  if (!isBucketAdmin(access, bucketId, groupId)) throw new ApiError('NotFound');
}

/**
 * Who writes (areas §6 manage_sample_graph): holders of the action in that organisation, and its administrators
 * (organisation admin, group admin). Members without it 403; anyone else 404 (they cannot read the list either).
 */
async function assertManager(db: Db, access: Access, bucketId: number): Promise<void> {
  if (can(access, 'manage_sample_graph', bucketId)) return;
  const groupId = await groupOfBucket(db, bucketId);
  if (isBucketAdmin(access, bucketId, groupId)) return;
  if (access.buckets.has(bucketId)) throw new ApiError('Forbidden');
  throw new ApiError('NotFound');
}

async function orderedIds(tx: Tx | Db, bucketId: number, lock: boolean): Promise<number[]> {
  const q = tx.select({ id: sampleGraphs.id }).from(sampleGraphs).where(eq(sampleGraphs.bucketId, bucketId)).orderBy(asc(sampleGraphs.sortIndex), asc(sampleGraphs.id));
  return (lock ? await q.for('update') : await q).map((r) => r.id);
}

/** Sample graphs (areas §7 "Sample-graphs"; docs/api.md "Sample graphs"). */
export async function sampleGraphRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;
  await app.register(multipart);

  /** The drawing of `id` once the caller may manage it (404 when absent or out of sight). */
  async function managed(access: Access, id: number): Promise<Row> {
    const [row] = await db.select().from(sampleGraphs).where(eq(sampleGraphs.id, id));
    if (!row) throw new ApiError('NotFound');
    await assertManager(db, access, row.bucketId);
    return row;
  }

  app.get('/sample-graphs/query', async (req): Promise<SampleGraph[]> => {
    const access = await authOf(req).access();
    const { bucketId } = parse(sampleGraphListQuery, req.query);
    await assertReader(db, access, bucketId);
    const rows = await db.select().from(sampleGraphs).where(eq(sampleGraphs.bucketId, bucketId)).orderBy(asc(sampleGraphs.sortIndex), asc(sampleGraphs.id));
    return Promise.all(rows.map((row, i) => toGraph(storage, row, i)));
  });

  app.post('/sample-graphs', async (req, reply): Promise<SampleGraph> => {
    const auth = authOf(req);
    const { sampleGraphMaxMb } = await readGlobalConfigs(db, ['sampleGraphMaxMb']);
    const maxBytes = sampleGraphMaxMb * 1024 * 1024;
    const { fields, file } = await formFile(req, maxBytes);
    const input = parse(sampleGraphCreateFields, fields);
    const access = await auth.access();
    await assertManager(db, access, input.bucketId);
    const bytes = await fileBytes(file, () => new ApiError('UploadTooLarge', undefined, { maxBytes }));
    const type = sniffType(bytes);
    if (type !== 'image/png' && type !== 'image/jpeg') throw new ApiError('UnsupportedFileType', undefined, { accepted: SAMPLE_GRAPH_TYPES });
    assertImageWithinLimits(bytes);
    const key = `sample-graphs/${input.bucketId}/${storedName(EXTENSIONS[type])}`;
    await storage.put(key, bytes, { contentType: type });
    try {
      const { row, index } = await db.transaction(async (tx) => {
        const ids = await orderedIds(tx, input.bucketId, true);
        const [inserted] = await tx.insert(sampleGraphs).values({
          bucketId: input.bucketId, name: input.name, origin: input.origin, url: key, points: [], sortIndex: ids.length + 1,
          createdBy: auth.account.id, created: deps.clock.now(),
        }).returning();
        await recordAudit(tx, {
          at: deps.clock.now(), actorId: auth.account.id, bucketId: input.bucketId, area: 'sampleGraphs', action: 'create',
          objectType: 'sampleGraph', objectId: inserted!.id, after: { name: input.name, origin: input.origin, type, size: bytes.length },
        });
        return { row: inserted!, index: ids.length };
      });
      reply.status(201);
      return await toGraph(storage, row, index);
    } catch (err) {
      await storage.delete(key).catch(() => undefined);
      throw err;
    }
  });

  app.patch('/sample-graphs/:id', async (req): Promise<SampleGraph> => {
    const { id } = parse(idParam, req.params);
    const input = parse(sampleGraphUpdateInput, req.body);
    const access = await authOf(req).access();
    const found = await managed(access, id);
    const { row, index } = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(sampleGraphs).where(eq(sampleGraphs.id, id)).for('update');
      if (!before) throw new ApiError('NotFound');
      const [updated] = await tx.update(sampleGraphs).set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.origin !== undefined && { origin: input.origin }),
        ...(input.points !== undefined && { points: input.points }),
      }).where(eq(sampleGraphs.id, id)).returning();
      const pick = (r: Row) => ({
        ...(input.name !== undefined && { name: r.name }), ...(input.origin !== undefined && { origin: r.origin }),
        ...(input.points !== undefined && { points: r.points.length }),
      });
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId: found.bucketId, area: 'sampleGraphs', action: 'update',
        objectType: 'sampleGraph', objectId: id, before: pick(before), after: pick(updated!),
      });
      return { row: updated!, index: (await orderedIds(tx, found.bucketId, false)).indexOf(id) };
    });
    return toGraph(storage, row, index);
  });

  app.delete('/sample-graphs/:id', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const found = await managed(access, id);
    const deleted = await db.transaction(async (tx) => {
      const [row] = await tx.delete(sampleGraphs).where(and(eq(sampleGraphs.id, id), eq(sampleGraphs.bucketId, found.bucketId))).returning();
      if (!row) throw new ApiError('NotFound');
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId: row.bucketId, area: 'sampleGraphs', action: 'delete',
        objectType: 'sampleGraph', objectId: id, before: { name: row.name, origin: row.origin, points: row.points.length },
      });
      return row;
    });
    // The file goes once the row is gone; a failure here leaves an orphan file, never a row without its drawing.
    await storage.delete(deleted.url).catch(() => undefined);
    return reply.status(204).send();
  });

  app.post('/sample-graphs/:id/resort', async (req): Promise<{ ids: number[] }> => {
    const { id } = parse(idParam, req.params);
    const { preId } = parse(sampleGraphResortInput, req.body);
    const access = await authOf(req).access();
    const found = await managed(access, id);
    if (preId === id) throw new ApiError('InvalidOrder', 'A drawing cannot follow itself', { preId });
    const ids = await db.transaction(async (tx) => {
      const current = await orderedIds(tx, found.bucketId, true);
      if (!current.includes(id)) throw new ApiError('NotFound');
      if (preId !== null && !current.includes(preId)) throw new ApiError('InvalidOrder', 'preId is not a drawing of this organisation', { preId });
      const rest = current.filter((x) => x !== id);
      const next = preId === null ? [id, ...rest] : rest.flatMap((x) => (x === preId ? [x, id] : [x]));
      await resortList(tx as unknown as Db, LIST, found.bucketId, next);
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, bucketId: found.bucketId, area: 'sampleGraphs', action: 'resort',
        objectType: 'sampleGraph', objectId: id, before: { index: current.indexOf(id) }, after: { index: next.indexOf(id), preId },
      });
      return next;
    });
    return { ids };
  });
}
