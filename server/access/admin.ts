import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buckets } from '../db/schema';
import { ApiError } from '../http/errors';
import { isGroupAdmin, type Access } from './access';

/**
 * Who may administer what (areas §6): a group admin manages the group and every organisation in it; an organisation
 * admin manages that organisation. Outside the caller's group (or an organisation it cannot see) the answer is 404,
 * so ids reveal nothing; seen but not administered is 403.
 */

export function isGroupMember(access: Access, groupId: number): boolean {
  return access.groups.has(groupId);
}

/** 404 outside the group, 403 for a member who is not its admin. */
export function assertGroupAdmin(access: Access, groupId: number): void {
  if (!isGroupMember(access, groupId)) throw new ApiError('NotFound');
  if (!isGroupAdmin(access, groupId)) throw new ApiError('Forbidden');
}

export function assertGroupMember(access: Access, groupId: number): void {
  if (!isGroupMember(access, groupId)) throw new ApiError('NotFound');
}

/** The organisation's group, or 404 when there is no such organisation. */
export async function groupOfBucket(db: Db, bucketId: number): Promise<number> {
  const [row] = await db.select({ groupId: buckets.groupId }).from(buckets).where(eq(buckets.id, bucketId));
  if (!row) throw new ApiError('NotFound');
  return row.groupId;
}

export function isBucketAdmin(access: Access, bucketId: number, groupId: number): boolean {
  return access.buckets.get(bucketId)?.accessLevel === 'admin' || isGroupAdmin(access, groupId);
}

/**
 * An organisation's administration: its admins and its group's admins. Others who can see it (members, or members
 * of its group) get 403; the rest 404. Returns the organisation's group.
 */
export async function assertBucketAdmin(db: Db, access: Access, bucketId: number): Promise<number> {
  const groupId = await groupOfBucket(db, bucketId);
  if (isBucketAdmin(access, bucketId, groupId)) return groupId;
  if (access.buckets.has(bucketId) || isGroupMember(access, groupId)) throw new ApiError('Forbidden');
  throw new ApiError('NotFound');
}
