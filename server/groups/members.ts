import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pageQuerySchema, type Page } from '../../contract/common';
import {
  createMemberAccountInput, groupMemberParams, groupParams, inviteMemberInput, patchMemberInput, type GroupMember,
} from '../../contract/groups';
import { checkPassword } from '../../contract/password';
import { authOf } from '../auth/plugin';
import { hashPassword } from '../auth/password';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { accounts, assignRules, bucketMembers, buckets, groupMembers, notificationSettings, roleUsers, roles } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { assertBucketsInGroup, assertGroupAdmin, assertGroupMember, groupBucketIds, isAdminOf, lockedAdminIds, membershipOf } from './access';
import { memberFilters, memberOrder } from './filters';

/** Members of a group (areas §6: only admins see the whole list; §8: "the member may already exist"). */
const memberColumns = {
  accountId: accounts.id, username: accounts.username, name: accounts.name, techTitle: accounts.techTitle,
  accessLevel: groupMembers.accessLevel, status: accounts.status, lastLoginAt: accounts.lastLoginAt,
};
interface MemberRow {
  accountId: number; username: string; name: string; techTitle: string | null; accessLevel: number; status: number; lastLoginAt: Date | null;
}

function selectMembers(db: Db, groupId: number, ...where: (SQL | undefined)[]) {
  return db.select(memberColumns).from(groupMembers).innerJoin(accounts, eq(accounts.id, groupMembers.accountId))
    .where(and(eq(groupMembers.groupId, groupId), ...where));
}

async function present(db: Db, groupId: number, rows: MemberRow[]): Promise<GroupMember[]> {
  const ids = rows.map((r) => r.accountId);
  const orgs = ids.length === 0 ? [] : await db.select({ accountId: bucketMembers.accountId, bucketId: bucketMembers.bucketId, accessLevel: bucketMembers.accessLevel })
    .from(bucketMembers).innerJoin(buckets, eq(buckets.id, bucketMembers.bucketId))
    .where(and(eq(buckets.groupId, groupId), inArray(bucketMembers.accountId, ids))).orderBy(asc(bucketMembers.bucketId));
  return rows.map((r) => ({
    accountId: r.accountId, username: r.username, name: r.name, techTitle: r.techTitle, accessLevel: r.accessLevel === 1 ? 1 : 0,
    status: r.status, lastLoginAt: r.lastLoginAt ? r.lastLoginAt.toISOString() : null,
    organizations: orgs.filter((o) => o.accountId === r.accountId).map((o) => ({ bucketId: o.bucketId, accessLevel: o.accessLevel })),
  }));
}

async function oneMember(db: Db, groupId: number, accountId: number): Promise<GroupMember> {
  const rows = await selectMembers(db, groupId, eq(groupMembers.accountId, accountId));
  if (rows.length === 0) throw new ApiError('NotFound');
  return (await present(db, groupId, rows))[0]!;
}

/** Refuses when `accountId` is the group's only admin (the admin rows stay locked until the transaction ends). */
async function assertNotLastAdmin(tx: Db, groupId: number, accountId: number): Promise<void> {
  const admins = await lockedAdminIds(tx, groupId);
  if (admins.length === 1 && admins[0] === accountId) throw new ApiError('LastGroupAdmin');
}

/**
 * Takes an account out of the group: its membership, its memberships and role mappings in the group's organisations,
 * and its place in the group's assign rules and notification settings. Inside the caller's transaction.
 */
async function removeFromGroup(tx: Db, groupId: number, accountId: number): Promise<number[]> {
  const bucketIds = await groupBucketIds(tx, groupId);
  if (bucketIds.length > 0) {
    await tx.delete(roleUsers).where(and(eq(roleUsers.accountId, accountId),
      inArray(roleUsers.roleId, tx.select({ id: roles.id }).from(roles).where(inArray(roles.bucketId, bucketIds)))));
    await tx.delete(bucketMembers).where(and(eq(bucketMembers.accountId, accountId), inArray(bucketMembers.bucketId, bucketIds)));
  }
  const without = (column: typeof assignRules.memberIds | typeof notificationSettings.accountIds) =>
    sql`(select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(${column}) e where e <> to_jsonb(${accountId}::int))`;
  await tx.update(assignRules).set({ memberIds: without(assignRules.memberIds) })
    .where(and(eq(assignRules.groupId, groupId), sql`${assignRules.memberIds} @> to_jsonb(array[${accountId}::int])`));
  await tx.update(assignRules).set({ reporterId: null }).where(and(eq(assignRules.groupId, groupId), eq(assignRules.reporterId, accountId)));
  await tx.update(notificationSettings).set({ accountIds: without(notificationSettings.accountIds) })
    .where(and(eq(notificationSettings.groupId, groupId), sql`${notificationSettings.accountIds} @> to_jsonb(array[${accountId}::int])`));
  await tx.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accountId, accountId)));
  return bucketIds;
}

export async function memberRoutes(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const access = (req: FastifyRequest) => authOf(req).access();
  const audit = (tx: Db, actorId: number, groupId: number, action: string, accountId: number, before?: Record<string, unknown> | null, after?: Record<string, unknown> | null) =>
    recordAudit(tx, { at: deps.clock.now(), actorId, area: 'groups', action, objectType: 'group-member', objectId: `${groupId}:${accountId}`, before, after });

  app.get('/groups/:id/members', async (req): Promise<GroupMember[]> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupMember(a, id);
    // A plain member sees the admins (whom to ask) and themself.
    const scope = isAdminOf(a, id) ? undefined : or(eq(groupMembers.accessLevel, 1), eq(groupMembers.accountId, a.accountId));
    return present(db, id, await selectMembers(db, id, scope).orderBy(asc(accounts.username), asc(accounts.id)));
  });

  app.post('/groups/:id/members/query', async (req): Promise<Page<GroupMember>> => {
    const { id } = parse(groupParams, req.params);
    assertGroupAdmin(await access(req), id);
    const input = parse(pageQuerySchema, req.body ?? {});
    const filters = memberFilters(input.filters);
    const rows = await selectMembers(db, id, ...filters).orderBy(...memberOrder(input.sorts)).limit(input.limit).offset(input.skip);
    const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(groupMembers).innerJoin(accounts, eq(accounts.id, groupMembers.accountId))
      .where(and(eq(groupMembers.groupId, id), ...filters));
    return { items: await present(db, id, rows), total: Number(total?.n ?? 0) };
  });

  app.post('/groups/:id/members/invite', async (req): Promise<GroupMember> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(inviteMemberInput, req.body);
    const [account] = await db.select({ id: accounts.id }).from(accounts).where(sql`lower(${accounts.username}) = lower(${input.username})`);
    if (!account) throw new ApiError('UnknownAccount', undefined, { username: input.username });
    await db.transaction(async (tx) => {
      const added = await tx.insert(groupMembers).values({ groupId: id, accountId: account.id, accessLevel: input.accessLevel }).onConflictDoNothing().returning();
      if (added.length === 0) throw new ApiError('MemberExists', undefined, { accountId: account.id });
      await audit(tx, a.accountId, id, 'member-invite', account.id, null, { accessLevel: input.accessLevel });
    });
    return oneMember(db, id, account.id);
  });

  app.post('/groups/:id/members/create-account', async (req, reply): Promise<GroupMember> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(createMemberAccountInput, req.body);
    if (checkPassword(input.password) !== null) throw new ApiError('PasswordTooSimple', undefined, { reason: checkPassword(input.password) });
    const bucketIds = [...new Set(input.bucketIds)];
    await assertBucketsInGroup(db, id, bucketIds);
    const [taken] = await db.select({ id: accounts.id }).from(accounts).where(sql`lower(${accounts.username}) = lower(${input.username})`);
    if (taken) throw new ApiError('UsernameTaken');
    const passwordHash = await hashPassword(input.password, deps.config.scryptCost);
    const accountId = await db.transaction(async (tx) => {
      const [account] = await tx.insert(accounts).values({ username: input.username, name: input.name, passwordHash, created: deps.clock.now() })
        .onConflictDoNothing().returning({ id: accounts.id });
      if (!account) throw new ApiError('UsernameTaken');
      await tx.insert(groupMembers).values({ groupId: id, accountId: account.id, accessLevel: input.accessLevel });
      if (bucketIds.length > 0) await tx.insert(bucketMembers).values(bucketIds.map((bucketId) => ({ bucketId, accountId: account.id, accessLevel: 'member' })));
      await audit(tx, a.accountId, id, 'member-create-account', account.id, null, { username: input.username, name: input.name, accessLevel: input.accessLevel, bucketIds });
      return account.id;
    });
    reply.status(201);
    return oneMember(db, id, accountId);
  });

  app.patch('/groups/:id/members/:accountId', async (req): Promise<GroupMember> => {
    const { id, accountId } = parse(groupMemberParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(patchMemberInput, req.body);
    await db.transaction(async (tx) => {
      const before = await membershipOf(tx, id, accountId);
      if (!before) throw new ApiError('NotFound');
      if (before.accessLevel === input.accessLevel) return;
      if (input.accessLevel !== 1) await assertNotLastAdmin(tx, id, accountId);
      await tx.update(groupMembers).set({ accessLevel: input.accessLevel }).where(and(eq(groupMembers.groupId, id), eq(groupMembers.accountId, accountId)));
      await audit(tx, a.accountId, id, 'member-update', accountId, { accessLevel: before.accessLevel }, { accessLevel: input.accessLevel });
    });
    return oneMember(db, id, accountId);
  });

  app.delete('/groups/:id/members/:accountId', async (req, reply) => {
    const { id, accountId } = parse(groupMemberParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    await db.transaction(async (tx) => {
      const before = await membershipOf(tx, id, accountId);
      if (!before) throw new ApiError('NotFound');
      await assertNotLastAdmin(tx, id, accountId);
      const bucketIds = await removeFromGroup(tx, id, accountId);
      await audit(tx, a.accountId, id, 'member-remove', accountId, { accessLevel: before.accessLevel, bucketIds }, null);
    });
    return reply.status(204).send();
  });

  app.post('/groups/:id/quit', async (req, reply) => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupMember(a, id);
    await db.transaction(async (tx) => {
      const before = await membershipOf(tx, id, a.accountId);
      if (!before) throw new ApiError('NotFound');
      await assertNotLastAdmin(tx, id, a.accountId);
      const bucketIds = await removeFromGroup(tx, id, a.accountId);
      await audit(tx, a.accountId, id, 'member-quit', a.accountId, { accessLevel: before.accessLevel, bucketIds }, null);
    });
    return reply.status(204).send();
  });
}
