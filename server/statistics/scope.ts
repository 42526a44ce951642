import { and, eq, inArray } from 'drizzle-orm';
import type { StatGroupsAnswer } from '../../contract/statistics';
import { type Access, isGroupAdmin } from '../access/access';
import type { Db } from '../db/client';
import { buckets, groups } from '../db/schema';
import { ApiError } from '../http/errors';

/**
 * Whose figures a statistics question may count (areas §6: the statistics_report action, "statistics are limited to
 * allowed buckets", the group's enableStat and, for the overview, allowOverview):
 *  - a group the account is not in (neither a member of the group nor of one of its organisations): 404;
 *  - a group with statistics off: 403; the overview of a group without allowOverview: 403;
 *  - the group's administrators count every organisation of the group; anyone else the organisations where they
 *    hold statistics_report (none: 403);
 *  - `bucketIds` narrows to some of those: an organisation the account is not in answers 404, one where it lacks
 *    the action 403.
 */
export interface StatScope {
  groupId: number;
  groupName: string;
  allowOverview: boolean;
  /** The organisations counted, ascending. */
  bucketIds: number[];
  names: Map<number, string>;
  /** Each counted organisation's time zone: every row is put in its period by its own organisation's clock. */
  zones: Map<number, string>;
  /** The zone "today" and the quick ranges are read in, and the answer names: the first counted organisation's. */
  timeZone: string;
}

export async function statScope(db: Db, access: Access, groupId: number, narrowTo?: readonly number[]): Promise<StatScope> {
  const inGroup = access.groups.has(groupId) || [...access.buckets.values()].some((g) => g.groupId === groupId);
  if (!inGroup) throw new ApiError('NotFound');
  const [group] = await db.select({ id: groups.id, name: groups.displayName, enableStat: groups.enableStat, allowOverview: groups.allowOverview })
    .from(groups).where(eq(groups.id, groupId));
  if (!group) throw new ApiError('NotFound');
  if (!group.enableStat) throw new ApiError('Forbidden', 'Statistics are not enabled for this group');
  const admin = isGroupAdmin(access, groupId);
  const rows = await db.select({ id: buckets.id, name: buckets.name, timeZone: buckets.timeZone }).from(buckets)
    .where(eq(buckets.groupId, groupId)).orderBy(buckets.id);
  const allowed = rows.filter((b) => admin || (access.buckets.get(b.id)?.actions.has('statistics_report') ?? false));
  if (allowed.length === 0) throw new ApiError('Forbidden', 'No organisation of this group allows statistics to this account');
  let counted = allowed;
  if (narrowTo && narrowTo.length > 0) {
    const allowedIds = new Set(allowed.map((b) => b.id));
    for (const id of narrowTo) {
      if (allowedIds.has(id)) continue;
      const visible = admin ? rows.some((b) => b.id === id) : access.buckets.has(id) && rows.some((b) => b.id === id);
      throw new ApiError(visible ? 'Forbidden' : 'NotFound');
    }
    const wanted = new Set(narrowTo);
    counted = allowed.filter((b) => wanted.has(b.id));
  }
  return {
    groupId, groupName: group.name, allowOverview: group.allowOverview,
    bucketIds: counted.map((b) => b.id),
    names: new Map(counted.map((b) => [b.id, b.name])),
    zones: new Map(counted.map((b) => [b.id, b.timeZone])),
    timeZone: counted[0]!.timeZone,
  };
}

/** The groups whose statistics the account may open, whatever their statistics switch: it administers them or holds statistics_report in one of their organisations. */
function statCandidates(access: Access): Set<number> {
  const withAction = [...access.buckets.values()].filter((g) => g.actions.has('statistics_report')).map((g) => g.groupId);
  const adminOf = [...access.groups.entries()].filter(([, level]) => level === 1).map(([id]) => id);
  return new Set([...withAction, ...adminOf]);
}

/** Whether the account may open this group's statistics (groups/mine's `readsStatistics`; the same rule as statGroups). */
export function readsStatistics(access: Access, group: { id: number; enableStat: boolean }): boolean {
  return group.enableStat && statCandidates(access).has(group.id);
}

/** The groups whose statistics the account may open: statistics on, and admin of the group or statistics_report in one of its organisations. */
export async function statGroups(db: Db, access: Access): Promise<StatGroupsAnswer> {
  const ids = [...statCandidates(access)];
  if (ids.length === 0) return { groups: [] };
  const rows = await db.select({ id: groups.id, name: groups.displayName }).from(groups)
    .where(and(inArray(groups.id, ids), eq(groups.enableStat, true))).orderBy(groups.id);
  return { groups: rows };
}
