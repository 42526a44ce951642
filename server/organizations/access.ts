import { eq } from 'drizzle-orm';
import { isGroupAdmin, type Access } from '../access/access';
import { isBucketAdmin, isGroupMember } from '../access/admin';
import type { Db } from '../db/client';
import { buckets } from '../db/schema';
import { ApiError } from '../http/errors';

export type BucketRow = typeof buckets.$inferSelect;

/**
 * Who reaches an organisation's administration (areas §6):
 * - `see` (GET buckets/:id): its members, its group's admins, and its group's members unless it is private;
 * - `read` (members, roles, dictionaries, ordered lists): its members and its group's admins;
 * - `admin` (every write, the upload token): its admins and its group's admins.
 * Whoever cannot see it gets 404 (a private organisation is invisible to the group's other members, also for writes);
 * whoever sees it without the needed level gets 403.
 */
export type Need = 'see' | 'read' | 'admin';

export interface OrgContext {
  bucket: BucketRow;
  groupId: number;
  /** The caller administers it (organisation admin or group admin). */
  canAdmin: boolean;
  /** The caller is an admin of its group. */
  groupAdmin: boolean;
}

export async function organizationFor(db: Db, access: Access, bucketId: number, need: Need): Promise<OrgContext> {
  const [bucket] = await db.select().from(buckets).where(eq(buckets.id, bucketId));
  if (!bucket) throw new ApiError('NotFound');
  const member = access.buckets.has(bucketId);
  const groupAdmin = isGroupAdmin(access, bucket.groupId);
  const visible = member || groupAdmin || (isGroupMember(access, bucket.groupId) && !bucket.isPrivate);
  if (!visible) throw new ApiError('NotFound');
  const canAdmin = isBucketAdmin(access, bucketId, bucket.groupId);
  if (need === 'read' && !member && !groupAdmin) throw new ApiError('Forbidden');
  if (need === 'admin' && !canAdmin) throw new ApiError('Forbidden');
  return { bucket, groupId: bucket.groupId, canAdmin, groupAdmin };
}
