import { eq } from 'drizzle-orm';
import type { Action } from '../../contract/actions';
import type { Language } from '../../contract/constants';
import { assertCan, assertMember, type Access } from '../access/access';
import type { Db } from '../db/client';
import { buckets, callingSettings, groups, queueTypes } from '../db/schema';
import { ApiError } from '../http/errors';
import type { OrderedList } from '../http/order';

/** Who may work an organisation's call queue: a member (404 otherwise), of a group with enableCalling (403), with the action (403). */
export type CallingRight = Extract<Action, 'calling_manage_queue' | 'calling_call'>;
const RIGHTS: CallingRight[] = ['calling_manage_queue', 'calling_call'];

export interface CallingDesk {
  bucketId: number;
  bucketName: string;
  timeZone: string;
  privacy: boolean;
  language: Language;
  rights: CallingRight[];
}

export async function settingsOf(db: Db, bucketId: number) {
  const [row] = await db.select({ name: buckets.name, timeZone: buckets.timeZone, enabled: groups.enableCalling, privacy: callingSettings.privacy, language: callingSettings.language })
    .from(buckets).innerJoin(groups, eq(groups.id, buckets.groupId)).leftJoin(callingSettings, eq(callingSettings.bucketId, buckets.id))
    .where(eq(buckets.id, bucketId));
  if (!row) return null;
  const language = (['chs', 'en', 'tib'].includes(row.language ?? '') ? row.language : 'chs') as Language;
  return { bucketName: row.name, timeZone: row.timeZone, enabled: row.enabled, privacy: row.privacy ?? false, language };
}

export async function callingDesk(db: Db, access: Access, bucketId: number, action?: CallingRight): Promise<CallingDesk> {
  assertMember(access, bucketId);
  const settings = await settingsOf(db, bucketId);
  if (!settings) throw new ApiError('NotFound');
  if (!settings.enabled) throw new ApiError('Forbidden', 'Calling is not enabled for this group');
  const grant = access.buckets.get(bucketId)!;
  const rights = RIGHTS.filter((a) => grant.actions.has(a));
  if (action) assertCan(access, action, bucketId);
  else if (rights.length === 0) throw new ApiError('Forbidden');
  return { bucketId, bucketName: settings.bucketName, timeZone: settings.timeZone, privacy: settings.privacy, language: settings.language, rights };
}

/** Queue types are ordered per organisation (sortOrder, then id); re-sorted by the shared rule. */
export const QUEUE_TYPE_ORDER: OrderedList = { table: queueTypes, id: queueTypes.id, bucketId: queueTypes.bucketId, sortOrder: queueTypes.sortOrder };
