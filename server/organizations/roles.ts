import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ACTIONS, isAction, type Action } from '../../contract/actions';
import { roleInput, roleUsersInput, type ActionCategory, type Role } from '../../contract/organizations';
import type { Db } from '../db/client';
import { bucketMembers, buckets, roles, roleUsers } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { adminWrite, orgOf, type Tx } from './resource';
import { idValue } from '../../contract/common';

/**
 * Custom roles (areas §6): a name unique in the organisation (any case) and actions from the catalogue
 * (contract/actions.ts; others: 400 UnknownAction), mapped to members of the organisation only (400 NotBucketMember).
 * Access is read per request (server/access/access.ts), so a change applies from the member's next request.
 */
const roleParams = z.object({ id: idValue, roleId: idValue });

export const ACTION_CATALOGUE: ActionCategory[] = (Object.keys(ACTIONS) as (keyof typeof ACTIONS)[])
  .map((category) => ({ category, actions: [...ACTIONS[category]] as Action[] }));

async function listRoles(db: Db | Tx, bucketId: number, roleId?: number): Promise<Role[]> {
  const rows = await db.select().from(roles).where(and(eq(roles.bucketId, bucketId), roleId === undefined ? undefined : eq(roles.id, roleId))).orderBy(asc(roles.id));
  const users = rows.length === 0 ? [] : await db.select().from(roleUsers).where(inArray(roleUsers.roleId, rows.map((r) => r.id))).orderBy(asc(roleUsers.accountId));
  return rows.map((r) => ({
    id: r.id, bucketId: r.bucketId, name: r.name, actions: r.actions.filter(isAction),
    accountIds: users.filter((u) => u.roleId === r.id).map((u) => u.accountId),
  }));
}

function checkedActions(actions: string[]): Action[] {
  const unknown = actions.filter((a) => !isAction(a));
  if (unknown.length > 0) throw new ApiError('UnknownAction', undefined, { actions: unknown });
  return [...new Set(actions as Action[])];
}

/** Role writes of one organisation take turns (its row locked), so the any-case name check cannot race. */
async function checkName(tx: Tx, bucketId: number, name: string, roleId: number | null): Promise<void> {
  await tx.select({ id: buckets.id }).from(buckets).where(eq(buckets.id, bucketId)).for('update');
  const [dup] = await tx.select({ id: roles.id }).from(roles)
    .where(and(eq(roles.bucketId, bucketId), sql`lower(${roles.name}) = lower(${name})`, roleId === null ? undefined : ne(roles.id, roleId)));
  if (dup) throw new ApiError('DuplicateName', undefined, { field: 'name' });
}

export function roleRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;
  const roleOf = (req: FastifyRequest) => parse(roleParams, req.params).roleId;
  const existing = async (tx: Tx, bucketId: number, roleId: number) => {
    const [role] = await listRoles(tx, bucketId, roleId);
    if (!role) throw new ApiError('NotFound');
    return role;
  };

  app.get('/buckets/:id/actions', async (req): Promise<ActionCategory[]> => {
    await orgOf(deps, req, 'read');
    return ACTION_CATALOGUE;
  });
  app.get('/buckets/:id/roles', async (req) => listRoles(db, (await orgOf(deps, req, 'read')).bucketId));

  app.post('/buckets/:id/roles', async (req) => adminWrite(deps, req, async (tx, { bucketId }, audit) => {
    const input = parse(roleInput, req.body);
    const actions = checkedActions(input.actions);
    await checkName(tx, bucketId, input.name, null);
    const [row] = await tx.insert(roles).values({ bucketId, name: input.name, actions }).returning({ id: roles.id });
    await audit({ action: 'role-create', objectType: 'role', objectId: row!.id, after: { name: input.name, actions } });
    return (await listRoles(tx, bucketId, row!.id))[0]!;
  }));

  app.put('/buckets/:id/roles/:roleId', async (req) => {
    const roleId = roleOf(req);
    return adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const input = parse(roleInput, req.body);
      const actions = checkedActions(input.actions);
      const before = await existing(tx, bucketId, roleId);
      await checkName(tx, bucketId, input.name, roleId);
      await tx.update(roles).set({ name: input.name, actions }).where(and(eq(roles.bucketId, bucketId), eq(roles.id, roleId)));
      await audit({ action: 'role-update', objectType: 'role', objectId: roleId, before: { name: before.name, actions: before.actions }, after: { name: input.name, actions } });
      return (await listRoles(tx, bucketId, roleId))[0]!;
    });
  });

  app.delete('/buckets/:id/roles/:roleId', async (req, reply) => {
    const roleId = roleOf(req);
    await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const before = await existing(tx, bucketId, roleId);
      await tx.delete(roles).where(and(eq(roles.bucketId, bucketId), eq(roles.id, roleId)));
      await audit({ action: 'role-delete', objectType: 'role', objectId: roleId, before: { name: before.name, actions: before.actions, accountIds: before.accountIds } });
    });
    return reply.status(204).send();
  });

  app.get('/buckets/:id/roles/:roleId/users', async (req) => {
    const roleId = roleOf(req);
    const { bucketId } = await orgOf(deps, req, 'read');
    const [role] = await listRoles(db, bucketId, roleId);
    if (!role) throw new ApiError('NotFound');
    return { roleId, accountIds: role.accountIds };
  });

  app.put('/buckets/:id/roles/:roleId/users', async (req) => {
    const roleId = roleOf(req);
    return adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const accountIds = [...new Set(parse(roleUsersInput, req.body).accountIds)];
      const before = await existing(tx, bucketId, roleId);
      const members = accountIds.length === 0 ? [] : await tx.select({ accountId: bucketMembers.accountId }).from(bucketMembers)
        .where(and(eq(bucketMembers.bucketId, bucketId), inArray(bucketMembers.accountId, accountIds)));
      const outside = accountIds.filter((a) => !members.some((m) => m.accountId === a));
      if (outside.length > 0) throw new ApiError('NotBucketMember', undefined, { accountIds: outside });
      await tx.delete(roleUsers).where(eq(roleUsers.roleId, roleId));
      if (accountIds.length > 0) await tx.insert(roleUsers).values(accountIds.map((accountId) => ({ roleId, accountId })));
      await audit({ action: 'role-users', objectType: 'role', objectId: roleId, before: { accountIds: before.accountIds }, after: { accountIds: [...accountIds].sort((a, b) => a - b) } });
      return { roleId, accountIds: [...accountIds].sort((a, b) => a - b) };
    });
  });
}
