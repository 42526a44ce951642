import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Access } from '../access/access';
import type { Db } from '../db/client';
import { consultationBuckets, consultations, groups } from '../db/schema';
import { ApiError } from '../http/errors';

/**
 * The organisations whose consultations the account may list: its organisations in groups that have consultations
 * switched on (areas §6: the group flag gates the feature). An account none of whose groups has them is refused
 * (403), as the navbar hides the entry for it; an account of such a group without organisations lists nothing.
 */
export async function consultationScope(db: Db, access: Access): Promise<number[]> {
  const groupIds = [...new Set([...access.groups.keys(), ...[...access.buckets.values()].map((g) => g.groupId)])];
  const enabled = groupIds.length === 0 ? [] : await db.select({ id: groups.id }).from(groups)
    .where(and(inArray(groups.id, groupIds), eq(groups.enableConsultation, true)));
  if (enabled.length === 0) throw new ApiError('Forbidden', 'Consultations are not enabled for this group');
  const on = new Set(enabled.map((g) => g.id));
  return [...access.buckets.values()].filter((g) => on.has(g.groupId)).map((g) => g.bucketId).sort((a, b) => a - b);
}

/**
 * Seen by members of the applicant organisation and of every joined one (membership is enough: areas §6 names no
 * action for reading a consultation). The target organisation takes part as a joined one.
 */
export function visibleIn(bucketIds: readonly number[]): SQL {
  const ids = sql.join(bucketIds.map((id) => sql`${id}`), sql`, `);
  // The target is always one of the joined (create and seed write it there); naming it first answers the target
  // side's rows from the row itself. Otherwise the planner hashes every consultation id of the scope's organisations
  // (100,000 for an expert centre) on each query, though the page needs twenty.
  return sql`(${consultations.appliedBucketId} in (${ids}) or ${consultations.targetBucketId} in (${ids}) or exists (select 1 from ${consultationBuckets}
    where ${consultationBuckets.consultationId} = ${consultations.id} and ${consultationBuckets.bucketId} in (${ids})))`;
}
