import { and, eq, inArray } from 'drizzle-orm';
import {
  ACTIONS, ALL_ACTIONS, COLLABORATOR_ACTIONS, CONTENT_MANAGER_ACTIONS, isAction, type Action, type BucketAccess,
} from '../../contract/actions';
import type { Db } from '../db/client';
import { bucketMembers, buckets, groupMembers, roleUsers, roles } from '../db/schema';
import { ApiError } from '../http/errors';

export interface BucketGrant {
  bucketId: number;
  groupId: number;
  accessLevel: BucketAccess;
  actions: ReadonlySet<Action>;
}

/** What one account may do where: the single source every endpoint asks (core §6). */
export interface Access {
  accountId: number;
  buckets: ReadonlyMap<number, BucketGrant>;
  /** groupId → accessLevel (1 = admin). */
  groups: ReadonlyMap<number, number>;
}

export async function loadAccess(db: Db, accountId: number): Promise<Access> {
  const [memberships, groupRows, roleRows] = await Promise.all([
    db.select({ bucketId: bucketMembers.bucketId, accessLevel: bucketMembers.accessLevel, groupId: buckets.groupId })
      .from(bucketMembers).innerJoin(buckets, eq(buckets.id, bucketMembers.bucketId))
      .where(eq(bucketMembers.accountId, accountId)),
    db.select({ groupId: groupMembers.groupId, accessLevel: groupMembers.accessLevel })
      .from(groupMembers).where(eq(groupMembers.accountId, accountId)),
    db.select({ bucketId: roles.bucketId, actions: roles.actions })
      .from(roleUsers).innerJoin(roles, eq(roles.id, roleUsers.roleId))
      .where(eq(roleUsers.accountId, accountId)),
  ]);
  return accessFromRows(accountId, memberships, groupRows, roleRows);
}

/** The rows loadAccess reads (also read in one statement with the account: server/access/snapshot.ts). */
export interface AccessRows {
  memberships: readonly { bucketId: number; accessLevel: string; groupId: number }[];
  groupRows: readonly { groupId: number; accessLevel: number }[];
  roleRows: readonly { bucketId: number; actions: readonly string[] }[];
}

/** Access made of its rows: a pure function, so the same rows always give the same answer. */
export function accessFromRows(accountId: number, memberships: AccessRows['memberships'], groupRows: AccessRows['groupRows'], roleRows: AccessRows['roleRows']): Access {
  const roleActions = new Map<number, Set<Action>>();
  for (const r of roleRows) {
    const set = roleActions.get(r.bucketId) ?? new Set<Action>();
    for (const a of r.actions) if (isAction(a)) set.add(a);
    roleActions.set(r.bucketId, set);
  }
  const grants = new Map<number, BucketGrant>();
  for (const m of memberships) {
    const level = m.accessLevel as BucketAccess;
    const fromRoles = roleActions.get(m.bucketId) ?? new Set<Action>();
    grants.set(m.bucketId, { bucketId: m.bucketId, groupId: m.groupId, accessLevel: level, actions: actionsFor(level, fromRoles) });
  }
  return { accountId, buckets: grants, groups: new Map(groupRows.map((g) => [g.groupId, g.accessLevel])) };
}

/** core §6: admin all; contentManager full exam and report access plus roles; collaborator report actions only. */
export function actionsFor(level: BucketAccess, fromRoles: ReadonlySet<Action>): Set<Action> {
  switch (level) {
    case 'admin': return new Set(ALL_ACTIONS);
    case 'contentManager': return new Set([...CONTENT_MANAGER_ACTIONS, ...fromRoles]);
    case 'collaborator': return new Set([...fromRoles].filter((a) => (COLLABORATOR_ACTIONS as readonly string[]).includes(a)));
    default: return new Set(fromRoles);
  }
}

/**
 * The actions each of `accountIds` holds in organisation `bucketId`, by the same rule as loadAccess (access
 * level, then roles); accounts that are not members are absent from the answer.
 */
export async function memberActions(db: Db, bucketId: number, accountIds: readonly number[]): Promise<Map<number, Set<Action>>> {
  if (accountIds.length === 0) return new Map();
  // One query at a time: callers may run inside a transaction (one connection).
  const members = await db.select({ accountId: bucketMembers.accountId, accessLevel: bucketMembers.accessLevel }).from(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), inArray(bucketMembers.accountId, [...accountIds])));
  const roleRows = members.length === 0 ? [] : await db.select({ accountId: roleUsers.accountId, actions: roles.actions })
    .from(roleUsers).innerJoin(roles, eq(roles.id, roleUsers.roleId))
    .where(and(eq(roles.bucketId, bucketId), inArray(roleUsers.accountId, members.map((m) => m.accountId))));
  const out = new Map<number, Set<Action>>();
  for (const m of members) {
    const fromRoles = new Set(roleRows.filter((r) => r.accountId === m.accountId).flatMap((r) => r.actions).filter(isAction));
    out.set(m.accountId, actionsFor(m.accessLevel as BucketAccess, fromRoles));
  }
  return out;
}

export function can(access: Access, action: Action, bucketId: number): boolean {
  return access.buckets.get(bucketId)?.actions.has(action) ?? false;
}

/** The buckets where the account may do `action`: the scope of every list query. */
export function bucketsWith(access: Access, action: Action): number[] {
  return [...access.buckets.values()].filter((g) => g.actions.has(action)).map((g) => g.bucketId);
}

export function isGroupAdmin(access: Access, groupId: number): boolean {
  return access.groups.get(groupId) === 1;
}

/**
 * The object-level check: an object of an organisation the account does not belong to is answered
 * 404, so ids from elsewhere reveal nothing; inside a visible organisation a missing action is 403.
 */
export function assertCan(access: Access, action: Action, bucketId: number): void {
  if (!access.buckets.has(bucketId)) throw new ApiError('NotFound');
  if (!can(access, action, bucketId)) throw new ApiError('Forbidden');
}

export function assertMember(access: Access, bucketId: number): void {
  if (!access.buckets.has(bucketId)) throw new ApiError('NotFound');
}

export function hasAnyAction(access: Access, actions: readonly Action[]): boolean {
  return [...access.buckets.values()].some((g) => actions.some((a) => g.actions.has(a)));
}

export async function bucketGroupIds(db: Db, bucketIds: number[]): Promise<Map<number, number>> {
  if (bucketIds.length === 0) return new Map();
  const rows = await db.select({ id: buckets.id, groupId: buckets.groupId }).from(buckets).where(inArray(buckets.id, bucketIds));
  return new Map(rows.map((r) => [r.id, r.groupId]));
}

export const REPORT_ACTIONS = ACTIONS.report;
