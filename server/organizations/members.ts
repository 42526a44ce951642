import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { BucketAccess } from '../../contract/actions';
import { memberInput, memberPatch, type OrganizationMember } from '../../contract/organizations';
import type { Db } from '../db/client';
import { accounts, bucketMembers, groupMembers, roles, roleUsers } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { adminWrite, orgOf, type Tx } from './resource';
import { idValue } from '../../contract/common';

/**
 * The organisation's members (areas §6): only members of its group can join; levels are BUCKET_ACCESS. The last
 * organisation admin cannot be demoted or removed by an organisation admin (409 LastOrganizationAdmin), so an
 * organisation never locks its own admins out; a group admin may (they administer every organisation of the group).
 * Removing a member also drops their role mappings there. A change counts from the member's next request
 * (server/access/access.ts reads memberships and roles per request).
 */
const memberParams = z.object({ id: idValue, accountId: idValue });

export async function listMembers(db: Db | Tx, bucketId: number, accountId?: number): Promise<OrganizationMember[]> {
  const rows = await db.select({
    accountId: accounts.id, username: accounts.username, name: accounts.name, accessLevel: bucketMembers.accessLevel,
    lastLoginAt: accounts.lastLoginAt, lastLoginIp: accounts.lastLoginIp,
  }).from(bucketMembers).innerJoin(accounts, eq(accounts.id, bucketMembers.accountId))
    .where(and(eq(bucketMembers.bucketId, bucketId), accountId === undefined ? undefined : eq(bucketMembers.accountId, accountId)))
    .orderBy(asc(accounts.id));
  const ids = rows.map((r) => r.accountId);
  const mappings = ids.length === 0 ? [] : await db.select({ accountId: roleUsers.accountId, roleId: roleUsers.roleId })
    .from(roleUsers).innerJoin(roles, eq(roles.id, roleUsers.roleId))
    .where(and(eq(roles.bucketId, bucketId), inArray(roleUsers.accountId, ids))).orderBy(asc(roleUsers.roleId));
  return rows.map((r) => ({
    accountId: r.accountId, username: r.username, name: r.name, accessLevel: r.accessLevel as BucketAccess,
    roleIds: mappings.filter((m) => m.accountId === r.accountId).map((m) => m.roleId),
    lastLoginAt: r.lastLoginAt ? r.lastLoginAt.toISOString() : null, lastLoginIp: r.lastLoginIp,
  }));
}

/** Refuses to take away the organisation's last admin unless the caller is a group admin. Locks the admins' rows. */
async function keepAnAdmin(tx: Tx, bucketId: number, accountId: number, groupAdmin: boolean): Promise<void> {
  if (groupAdmin) return;
  const admins = await tx.select({ accountId: bucketMembers.accountId }).from(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accessLevel, 'admin'))).for('update');
  if (admins.length === 1 && admins[0]!.accountId === accountId) throw new ApiError('LastOrganizationAdmin');
}

export function memberRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;
  const target = (req: FastifyRequest) => parse(memberParams, req.params).accountId;

  app.get('/buckets/:id/members', async (req) => listMembers(db, (await orgOf(deps, req, 'read')).bucketId));

  app.post('/buckets/:id/members', async (req) => adminWrite(deps, req, async (tx, { bucketId, org }, audit) => {
    const input = parse(memberInput, req.body);
    const [account] = await tx.select({ id: accounts.id }).from(accounts).innerJoin(groupMembers, and(eq(groupMembers.accountId, accounts.id), eq(groupMembers.groupId, org.groupId)))
      .where(input.accountId !== undefined ? eq(accounts.id, input.accountId) : sql`lower(${accounts.username}) = lower(${input.username!})`);
    // An unknown account and one of another group get the same answer: ids and names reveal nothing outside the group.
    if (!account) throw new ApiError('NotGroupMember');
    const inserted = await tx.insert(bucketMembers).values({ bucketId, accountId: account.id, accessLevel: input.accessLevel })
      .onConflictDoNothing().returning({ accountId: bucketMembers.accountId });
    if (inserted.length === 0) throw new ApiError('MemberExists');
    await audit({ action: 'member-add', objectType: 'account', objectId: account.id, after: { accessLevel: input.accessLevel } });
    return (await listMembers(tx, bucketId, account.id))[0]!;
  }, 'MemberExists'));

  app.patch('/buckets/:id/members/:accountId', async (req) => {
    const accountId = target(req);
    return adminWrite(deps, req, async (tx, { bucketId, org }, audit) => {
      const { accessLevel } = parse(memberPatch, req.body);
      const [current] = await tx.select({ accessLevel: bucketMembers.accessLevel }).from(bucketMembers)
        .where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId))).for('update');
      if (!current) throw new ApiError('NotFound');
      if (current.accessLevel === 'admin' && accessLevel !== 'admin') await keepAnAdmin(tx, bucketId, accountId, org.groupAdmin);
      await tx.update(bucketMembers).set({ accessLevel }).where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId)));
      await audit({ action: 'member-level', objectType: 'account', objectId: accountId, before: { accessLevel: current.accessLevel }, after: { accessLevel } });
      return (await listMembers(tx, bucketId, accountId))[0]!;
    });
  });

  app.delete('/buckets/:id/members/:accountId', async (req, reply) => {
    const accountId = target(req);
    await adminWrite(deps, req, async (tx, { bucketId, org }, audit) => {
      const [current] = await tx.select({ accessLevel: bucketMembers.accessLevel }).from(bucketMembers)
        .where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId))).for('update');
      if (!current) throw new ApiError('NotFound');
      if (current.accessLevel === 'admin') await keepAnAdmin(tx, bucketId, accountId, org.groupAdmin);
      const mine = tx.select({ id: roles.id }).from(roles).where(eq(roles.bucketId, bucketId));
      const dropped = await tx.delete(roleUsers).where(and(eq(roleUsers.accountId, accountId), inArray(roleUsers.roleId, mine))).returning({ roleId: roleUsers.roleId });
      await tx.delete(bucketMembers).where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId)));
      await audit({ action: 'member-remove', objectType: 'account', objectId: accountId, before: { accessLevel: current.accessLevel, roleIds: dropped.map((d) => d.roleId) } });
    });
    return reply.status(204).send();
  });
}
