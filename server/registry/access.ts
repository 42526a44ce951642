import { eq, sql } from 'drizzle-orm';
import type { Action } from '../../contract/actions';
import type { MatchDob } from '../../contract/registry';
import { assertCan, assertMember, type Access } from '../access/access';
import type { Db } from '../db/client';
import { buckets, domains, groupRegistryBuckets, groups } from '../db/schema';
import { ApiError } from '../http/errors';

/**
 * Who may use an organisation's registry desk (areas §6, §7 "Registry"): a member (404 otherwise, so ids from
 * elsewhere reveal nothing), in a group with enableRegistry (403 RegistryDisabled otherwise, on every registry call,
 * the list's query too), of an organisation that is one of its group's registry organisations (403 otherwise),
 * holding the action the call needs (403).
 */
export const REGISTRY_ACTIONS_ALL = ['registry_create', 'registry_update', 'registry_delete'] as const satisfies readonly Action[];
export type RegistryRight = (typeof REGISTRY_ACTIONS_ALL)[number];

export interface RegistryDesk {
  bucketId: number;
  bucketName: string;
  groupId: number;
  timeZone: string;
  matchDob: MatchDob;
  isPet: boolean;
  /** The caller's registry_* actions here. */
  rights: RegistryRight[];
}

/**
 * The desk of `bucketId` for `access`, with `action` required (or any registry action when absent). `notADesk` is what
 * a bucket that is not one of the caller's registry desks answers instead of 404/403 (the list's 'params error').
 */
export async function registryDesk(db: Db, access: Access, bucketId: number, action?: RegistryRight, notADesk?: () => ApiError): Promise<RegistryDesk> {
  if (notADesk && !access.buckets.has(bucketId)) throw notADesk();
  assertMember(access, bucketId);
  const [row] = await db.select({
    bucketName: buckets.name, groupId: buckets.groupId, timeZone: buckets.timeZone, matchDob: groups.matchDob, enabled: groups.enableRegistry,
    desk: sql<boolean>`exists (select 1 from ${groupRegistryBuckets} where ${groupRegistryBuckets.groupId} = ${buckets.groupId}
      and ${groupRegistryBuckets.bucketId} = ${buckets.id})`,
    isPet: sql<boolean>`coalesce((select ${domains.isPet} from ${domains} order by ${domains.id} limit 1), false)`,
  }).from(buckets).innerJoin(groups, eq(groups.id, buckets.groupId)).where(eq(buckets.id, bucketId));
  if (!row) throw notADesk ? notADesk() : new ApiError('NotFound');
  // The switch is the group's answer, the same whoever asks: docs/api.md "Groups" promises 403 when it is off.
  if (!row.enabled) throw new ApiError('RegistryDisabled');
  if (!row.desk) throw notADesk ? notADesk() : new ApiError('Forbidden', 'This organisation has no registry desk');
  const grant = access.buckets.get(bucketId)!;
  const rights = REGISTRY_ACTIONS_ALL.filter((a) => grant.actions.has(a));
  if (action) assertCan(access, action, bucketId);
  else if (rights.length === 0) throw new ApiError('Forbidden');
  return {
    bucketId, bucketName: row.bucketName, groupId: row.groupId, timeZone: row.timeZone,
    matchDob: (['disabled', 'shift_on', 'shift_off'].includes(row.matchDob) ? row.matchDob : 'shift_off') as MatchDob,
    isPet: Boolean(row.isPet), rights,
  };
}
