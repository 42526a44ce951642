import { and, eq, inArray } from 'drizzle-orm';
import { assertGroupAdmin, assertGroupMember } from '../access/admin';
import { isGroupAdmin, type Access } from '../access/access';
import type { Db } from '../db/client';
import { bucketMembers, buckets, groupMembers } from '../db/schema';
import { ApiError } from '../http/errors';

/**
 * Who may do what in a group (areas §6): anonymous callers never get here (401 by the auth hook); outside the group
 * the answer is 404 (ids reveal nothing); a member where the group's admin is needed gets 403.
 */
export { assertGroupAdmin, assertGroupMember };

export const isAdminOf = (access: Access, groupId: number): boolean => isGroupAdmin(access, groupId);

/** The group's organisations. */
export async function groupBucketIds(db: Db, groupId: number): Promise<number[]> {
  return (await db.select({ id: buckets.id }).from(buckets).where(eq(buckets.groupId, groupId))).map((r) => r.id);
}

/** Every id must be an organisation of this group: BucketNotInGroup (details.bucketIds) otherwise. */
export async function assertBucketsInGroup(db: Db, groupId: number, bucketIds: readonly number[]): Promise<void> {
  const wanted = [...new Set(bucketIds)];
  if (wanted.length === 0) return;
  const found = new Set((await db.select({ id: buckets.id }).from(buckets)
    .where(and(eq(buckets.groupId, groupId), inArray(buckets.id, wanted)))).map((r) => r.id));
  const outside = wanted.filter((id) => !found.has(id));
  if (outside.length > 0) throw new ApiError('BucketNotInGroup', undefined, { bucketIds: outside });
}

/** Every account must be a member of the organisation: NotBucketMember (details.accountIds) otherwise. */
export async function assertBucketMembers(db: Db, bucketId: number, accountIds: readonly number[]): Promise<void> {
  const wanted = [...new Set(accountIds)];
  if (wanted.length === 0) return;
  const found = new Set((await db.select({ id: bucketMembers.accountId }).from(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), inArray(bucketMembers.accountId, wanted)))).map((r) => r.id));
  const outside = wanted.filter((id) => !found.has(id));
  if (outside.length > 0) throw new ApiError('NotBucketMember', undefined, { bucketId, accountIds: outside });
}

/** The membership row of one account, or undefined. */
export async function membershipOf(db: Db, groupId: number, accountId: number) {
  const [row] = await db.select().from(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accountId, accountId)));
  return row;
}

/** Group admins, locked for the rest of the transaction so two admins cannot both step down at once. */
export async function lockedAdminIds(tx: Db, groupId: number): Promise<number[]> {
  const rows = await tx.select({ id: groupMembers.accountId }).from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.accessLevel, 1))).for('update');
  return rows.map((r) => r.id);
}
