import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { resortIdsInput } from '../../contract/organizations';
import type { ErrorCode } from '../../contract/errors';
import { authOf } from '../auth/plugin';
import { recordAudit, type AuditEvent } from '../audit/record';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { organizationFor, type Need, type OrgContext } from './access';
import { nextSortOrder, resortList, type OrderedList } from '../http/order';
import { idValue } from '../../contract/common';

/**
 * The plumbing every organisation endpoint shares: the caller's level (./access), parsing, one transaction per write
 * with its audit event, unique-index violations turned into the resource's own code, and the CRUD (+ re-sort) route
 * set of a list the organisation keeps (dictionaries, procedures, steps, devices).
 */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const INT = idValue;
export const bucketParam = z.object({ id: INT });
export const itemParams = (name: string) => z.object({ id: INT, [name]: INT }) as unknown as z.ZodType<{ id: number } & Record<string, number>>;

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export type Audit = (event: Pick<AuditEvent, 'action' | 'objectType' | 'objectId' | 'before' | 'after'>) => Promise<void>;

export interface OrgRequest {
  org: OrgContext;
  actorId: number;
}

export async function orgOf(deps: Deps, req: FastifyRequest, need: Need): Promise<OrgRequest & { bucketId: number }> {
  const access = await authOf(req).access();
  const { id } = parse(bucketParam, req.params);
  const org = await organizationFor(deps.db, access, id, need);
  return { org, actorId: access.accountId, bucketId: id };
}

/** Runs `fn` as an organisation admin in one transaction with its audit; a unique violation becomes `onDuplicate`. */
export async function adminWrite<T>(
  deps: Deps, req: FastifyRequest, fn: (tx: Tx, ctx: OrgRequest & { bucketId: number }, audit: Audit) => Promise<T>, onDuplicate: ErrorCode = 'DuplicateName',
): Promise<T> {
  const ctx = await orgOf(deps, req, 'admin');
  try {
    return await deps.db.transaction(async (tx) => fn(tx, ctx, (e) => recordAudit(tx, {
      at: deps.clock.now(), actorId: ctx.actorId, bucketId: ctx.bucketId, area: 'organizations', ...e,
    })));
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(onDuplicate);
    throw err;
  }
}

/** One list an organisation keeps, with the functions that read and write its rows (each scoped to the organisation). */
export interface Resource<Row extends { id: number }, In> {
  /** The path under buckets/:id (`departments`). */
  path: string;
  /** The item's route param (`itemId`, `procedureId`). */
  param: string;
  objectType: string;
  input: z.ZodType<In, unknown>;
  /** The code of a unique-index violation (a name or code used already). */
  onDuplicate?: ErrorCode;
  list(db: Db | Tx, bucketId: number): Promise<Row[]>;
  /** Rules beyond the schema (uniqueness, ids of this organisation); `itemId` is null on create. */
  check?(tx: Tx, bucketId: number, input: In, itemId: number | null): Promise<void>;
  insert(tx: Tx, bucketId: number, input: In, sortOrder: number): Promise<Row>;
  update(tx: Tx, bucketId: number, itemId: number, input: In): Promise<Row | undefined>;
  find(tx: Tx, bucketId: number, itemId: number): Promise<Row | undefined>;
  /** Refuses a delete of something still used (InUse). */
  beforeDelete?(tx: Tx, bucketId: number, itemId: number): Promise<void>;
  remove(tx: Tx, bucketId: number, itemId: number): Promise<void>;
  /** Ordered lists get POST …/resort and new items go last. */
  ordered?: OrderedList;
}

export function registerResource<Row extends { id: number }, In>(app: FastifyInstance, deps: Deps, r: Resource<Row, In>): void {
  const base = `/buckets/:id/${r.path}`;
  const params = itemParams(r.param);
  const itemOf = (req: FastifyRequest) => parse(params, req.params)[r.param]!;
  const plain = (row: Row) => ({ ...row }) as Record<string, unknown>;

  app.get(base, async (req) => {
    const { bucketId } = await orgOf(deps, req, 'read');
    return r.list(deps.db, bucketId);
  });
  app.post(base, async (req) => {
    return adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const input = parse(r.input, req.body);
      await r.check?.(tx, bucketId, input, null);
      const row = await r.insert(tx, bucketId, input, r.ordered ? await nextSortOrder(tx, r.ordered, bucketId) : 0);
      await audit({ action: `${r.objectType}-create`, objectType: r.objectType, objectId: row.id, after: plain(row) });
      return row;
    }, r.onDuplicate);
  });
  app.put(`${base}/:${r.param}`, async (req) => {
    const itemId = itemOf(req);
    return adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const input = parse(r.input, req.body);
      const before = await r.find(tx, bucketId, itemId);
      if (!before) throw new ApiError('NotFound');
      await r.check?.(tx, bucketId, input, itemId);
      const row = await r.update(tx, bucketId, itemId, input);
      if (!row) throw new ApiError('NotFound');
      await audit({ action: `${r.objectType}-update`, objectType: r.objectType, objectId: itemId, before: plain(before), after: plain(row) });
      return row;
    }, r.onDuplicate);
  });
  app.delete(`${base}/:${r.param}`, async (req, reply) => {
    const itemId = itemOf(req);
    await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const before = await r.find(tx, bucketId, itemId);
      if (!before) throw new ApiError('NotFound');
      await r.beforeDelete?.(tx, bucketId, itemId);
      await r.remove(tx, bucketId, itemId);
      await audit({ action: `${r.objectType}-delete`, objectType: r.objectType, objectId: itemId, before: plain(before) });
    });
    return reply.status(204).send();
  });
  const ordered = r.ordered;
  if (ordered) {
    app.post(`${base}/resort`, async (req) => {
      return adminWrite(deps, req, async (tx, { bucketId }, audit) => {
        const { ids } = parse(resortIdsInput, req.body);
        await resortList(tx, ordered, bucketId, ids);
        await audit({ action: `${r.objectType}-resort`, objectType: 'bucket', objectId: bucketId, after: { [`${r.objectType}Ids`]: ids } });
        return r.list(tx, bucketId);
      });
    });
  }
}
