import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pageQuerySchema, type Page } from '../../contract/common';
import { createOrganizationInput, groupBucketParams, groupParams, type GroupOrganization } from '../../contract/groups';
import { isOrganizationCode } from '../../contract/organizations';
import type { Access } from '../access/access';
import { authOf } from '../auth/plugin';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { bucketMembers, buckets, exams, groups } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { assertGroupAdmin, assertGroupMember, isAdminOf } from './access';
import { organizationFilters, organizationOrder } from './filters';

const pgCode = (err: unknown): string | undefined => {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
};

/** Areas §6: private organisations are seen only by the group's admins and the organisation's own members ("owners"). */
function visible(access: Access, groupId: number): SQL | undefined {
  if (isAdminOf(access, groupId)) return undefined;
  const own = [...access.buckets.keys()];
  return own.length === 0 ? eq(buckets.isPrivate, false) : or(eq(buckets.isPrivate, false), inArray(buckets.id, own));
}

const memberCount = sql<number>`(select count(*)::int from ${bucketMembers} where ${bucketMembers.bucketId} = ${buckets.id})`;
const columns = {
  id: buckets.id, groupId: buckets.groupId, name: buckets.name, code: buckets.code, isPrivate: buckets.isPrivate, isFocused: buckets.isFocused,
  freeEfilm: buckets.freeEfilm, codeBound: buckets.codeBound, memberCount,
};
const present = (r: GroupOrganization): GroupOrganization => ({ ...r, memberCount: Number(r.memberCount) });

async function codeTaken(db: Db, code: string): Promise<boolean> {
  const [row] = await db.select({ id: buckets.id }).from(buckets).where(sql`lower(${buckets.code}) = lower(${code})`).limit(1);
  return Boolean(row);
}

/** A group's organisations (areas §7 "Organisations: list, query, add, delete"). */
export async function organizationRoutes(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const access = (req: FastifyRequest) => authOf(req).access();

  app.get('/groups/:id/organizations', async (req): Promise<GroupOrganization[]> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupMember(a, id);
    const rows = await db.select(columns).from(buckets).where(and(eq(buckets.groupId, id), visible(a, id))).orderBy(buckets.name, buckets.id);
    return rows.map(present);
  });

  app.post('/groups/:id/organizations/query', async (req): Promise<Page<GroupOrganization>> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupMember(a, id);
    const input = parse(pageQuerySchema, req.body ?? {});
    const where = and(eq(buckets.groupId, id), visible(a, id), ...organizationFilters(input.filters));
    const rows = await db.select(columns).from(buckets).where(where).orderBy(...organizationOrder(input.sorts)).limit(input.limit).offset(input.skip);
    const [total] = await db.select({ n: count() }).from(buckets).where(where);
    return { items: rows.map(present), total: Number(total?.n ?? 0) };
  });

  app.post('/groups/:id/organizations', async (req, reply): Promise<GroupOrganization> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(createOrganizationInput, req.body);
    if (!isOrganizationCode(input.code)) throw new ApiError('OrganizationCodeInvalid', undefined, { code: input.code });
    if (await codeTaken(db, input.code)) throw new ApiError('OrganizationCodeTaken', undefined, { code: input.code });
    const bucketId = await db.transaction(async (tx) => {
      let row: { id: number } | undefined;
      try {
        [row] = await tx.insert(buckets).values({
          groupId: id, name: input.name, code: input.code, isPrivate: input.isPrivate,
          publicUploadToken: randomBytes(24).toString('base64url'), created: deps.clock.now(),
        }).returning({ id: buckets.id });
      } catch (err) {
        if (pgCode(err) === '23505') throw new ApiError('OrganizationCodeTaken', undefined, { code: input.code });
        throw err;
      }
      // The creator administers it from the start (and the group's admins do by their level).
      await tx.insert(bucketMembers).values({ bucketId: row!.id, accountId: a.accountId, accessLevel: 'admin' });
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: a.accountId, bucketId: row!.id, area: 'groups', action: 'organization-create', objectType: 'bucket', objectId: row!.id,
        after: { groupId: id, name: input.name, code: input.code, isPrivate: input.isPrivate },
      });
      return row!.id;
    });
    reply.status(201);
    const [row] = await db.select(columns).from(buckets).where(eq(buckets.id, bucketId));
    return present(row!);
  });

  app.delete('/groups/:id/organizations/:bucketId', async (req, reply) => {
    const { id, bucketId } = parse(groupBucketParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    await db.transaction(async (tx) => {
      const [bucket] = await tx.select().from(buckets).where(and(eq(buckets.id, bucketId), eq(buckets.groupId, id))).for('update');
      if (!bucket) throw new ApiError('NotFound');
      const [withExams] = await tx.select({ n: count() }).from(exams).where(eq(exams.bucketId, bucketId));
      if (Number(withExams?.n ?? 0) > 0) throw new ApiError('BucketHasExams', undefined, { bucketId, reason: 'exams', exams: Number(withExams!.n) });
      await tx.update(groups).set({ defaultExpertBucketId: null }).where(and(eq(groups.id, id), eq(groups.defaultExpertBucketId, bucketId)));
      await tx.update(groups).set({ defaultConsultationBucketId: null }).where(and(eq(groups.id, id), eq(groups.defaultConsultationBucketId, bucketId)));
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: a.accountId, bucketId, area: 'groups', action: 'organization-delete', objectType: 'bucket', objectId: bucketId,
        before: { groupId: id, name: bucket.name, code: bucket.code },
      });
      try {
        await tx.delete(buckets).where(eq(buckets.id, bucketId));
      } catch (err) {
        // Consultations, registrations or reports that still name the organisation keep it.
        if (pgCode(err) === '23503') throw new ApiError('BucketHasExams', 'The organisation still holds records', { bucketId, reason: 'records' });
        throw err;
      }
    });
    return reply.status(204).send();
  });
}
