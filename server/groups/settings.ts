import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  bucketIdsInput, expertBucketsInput, groupParams, NOTIFICATION_USERS_MAX, notificationsInput,
  type ExpertBucket, type GroupBucketRef, type GroupRad, type NotificationSetting, type NotificationType,
} from '../../contract/groups';
import { memberActions } from '../access/access';
import { authOf } from '../auth/plugin';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import {
  accounts, bucketMembers, buckets, groupConsultationTargets, groupExpertBuckets, groupMembers, groupRegistryBuckets, notificationSettings,
} from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { assertBucketMembers, assertBucketsInGroup, assertGroupAdmin, assertGroupMember, groupBucketIds } from './access';

/** Two entries naming one thing: 400 ParamsError naming the second. */
function refuseDuplicates<T>(items: readonly T[], key: (item: T) => string, field: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) throw new ApiError('ParamsError', undefined, { fields: [{ path: `${i}.${field}`, message: 'listed twice' }] });
    seen.add(k);
  });
}

/**
 * The organisations and accounts a group's settings name (areas §3, §7 "rads, expert-buckets, consultation-targets,
 * registry-buckets, notifications"). Members read the lists their work needs; only group admins change them (and read
 * the notification settings). Every organisation named must be one of the group's (BucketNotInGroup).
 */
export async function settingsRoutes(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const access = (req: FastifyRequest) => authOf(req).access();
  const audit = (tx: Db, actorId: number, groupId: number, action: string, before: unknown, after: unknown) => recordAudit(tx, {
    at: deps.clock.now(), actorId, area: 'groups', action, objectType: 'group', objectId: groupId, before: { value: before }, after: { value: after },
  });

  app.get('/groups/:id/rads', async (req): Promise<GroupRad[]> => {
    const { id } = parse(groupParams, req.params);
    assertGroupMember(await access(req), id);
    const rows = await db.select({ bucketId: bucketMembers.bucketId, accountId: bucketMembers.accountId }).from(bucketMembers)
      .innerJoin(buckets, eq(buckets.id, bucketMembers.bucketId))
      .innerJoin(groupMembers, and(eq(groupMembers.groupId, buckets.groupId), eq(groupMembers.accountId, bucketMembers.accountId)))
      .where(eq(buckets.groupId, id));
    const rads = new Set<number>();
    for (const bucketId of new Set(rows.map((r) => r.bucketId))) {
      const actions = await memberActions(db, bucketId, rows.filter((r) => r.bucketId === bucketId).map((r) => r.accountId));
      for (const [accountId, set] of actions) if (set.has('report_upsert')) rads.add(accountId);
    }
    if (rads.size === 0) return [];
    return db.select({ id: accounts.id, name: accounts.name, title: accounts.techTitle }).from(accounts)
      .where(inArray(accounts.id, [...rads])).orderBy(asc(accounts.name), asc(accounts.id));
  });

  // Expert organisations, with their free flag.
  const expertList = (groupId: number): Promise<ExpertBucket[]> => db.select({ bucketId: groupExpertBuckets.bucketId, name: buckets.name, free: groupExpertBuckets.free })
    .from(groupExpertBuckets).innerJoin(buckets, eq(buckets.id, groupExpertBuckets.bucketId))
    .where(eq(groupExpertBuckets.groupId, groupId)).orderBy(asc(groupExpertBuckets.bucketId));
  app.get('/groups/:id/expert-buckets', async (req) => {
    const { id } = parse(groupParams, req.params);
    assertGroupMember(await access(req), id);
    return expertList(id);
  });
  app.put('/groups/:id/expert-buckets', async (req) => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(expertBucketsInput, req.body);
    refuseDuplicates(input, (e) => String(e.bucketId), 'bucketId');
    await assertBucketsInGroup(db, id, input.map((e) => e.bucketId));
    await db.transaction(async (tx) => {
      const before = await tx.delete(groupExpertBuckets).where(eq(groupExpertBuckets.groupId, id)).returning();
      if (input.length > 0) await tx.insert(groupExpertBuckets).values(input.map((e) => ({ groupId: id, bucketId: e.bucketId, free: e.free })));
      await audit(tx, a.accountId, id, 'expert-buckets', before.map((b) => ({ bucketId: b.bucketId, free: b.free })), input);
    });
    return expertList(id);
  });

  // Plain organisation lists: consultation targets and registry desks.
  const bucketList = (table: typeof groupConsultationTargets | typeof groupRegistryBuckets, action: string) => {
    const list = (groupId: number): Promise<GroupBucketRef[]> => db.select({ bucketId: table.bucketId, name: buckets.name })
      .from(table).innerJoin(buckets, eq(buckets.id, table.bucketId)).where(eq(table.groupId, groupId)).orderBy(asc(table.bucketId));
    return {
      get: async (req: FastifyRequest) => {
        const { id } = parse(groupParams, req.params);
        assertGroupMember(await access(req), id);
        return list(id);
      },
      put: async (req: FastifyRequest) => {
        const { id } = parse(groupParams, req.params);
        const a = await access(req);
        assertGroupAdmin(a, id);
        const input = parse(bucketIdsInput, req.body);
        refuseDuplicates(input, String, 'bucketId');
        await assertBucketsInGroup(db, id, input);
        await db.transaction(async (tx) => {
          const before = await tx.delete(table).where(eq(table.groupId, id)).returning({ bucketId: table.bucketId });
          if (input.length > 0) await tx.insert(table).values(input.map((bucketId) => ({ groupId: id, bucketId })));
          await audit(tx, a.accountId, id, action, before.map((b) => b.bucketId), input);
        });
        return list(id);
      },
    };
  };
  const targets = bucketList(groupConsultationTargets, 'consultation-targets');
  app.get('/groups/:id/consultation-targets', targets.get);
  app.put('/groups/:id/consultation-targets', targets.put);
  const desks = bucketList(groupRegistryBuckets, 'registry-buckets');
  app.get('/groups/:id/registry-buckets', desks.get);
  app.put('/groups/:id/registry-buckets', desks.put);

  // Notification settings: at most 2 accounts per organisation and type, members of that organisation.
  const notifications = async (groupId: number): Promise<NotificationSetting[]> => (await db.select().from(notificationSettings)
    .where(eq(notificationSettings.groupId, groupId)).orderBy(asc(notificationSettings.bucketId), asc(notificationSettings.type)))
    .map((n) => ({ bucketId: n.bucketId, type: n.type as NotificationType, accountIds: n.accountIds }));
  app.get('/groups/:id/notifications', async (req) => {
    const { id } = parse(groupParams, req.params);
    assertGroupAdmin(await access(req), id);
    return notifications(id);
  });
  app.put('/groups/:id/notifications', async (req) => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(notificationsInput, req.body).map((n) => ({ ...n, accountIds: [...new Set(n.accountIds)] }));
    refuseDuplicates(input, (n) => `${n.bucketId}:${n.type}`, 'type');
    for (const n of input) {
      if (n.accountIds.length > NOTIFICATION_USERS_MAX) {
        throw new ApiError('NotificationLimit', undefined, { bucketId: n.bucketId, type: n.type, max: NOTIFICATION_USERS_MAX });
      }
    }
    await assertBucketsInGroup(db, id, input.map((n) => n.bucketId));
    for (const n of input) await assertBucketMembers(db, n.bucketId, n.accountIds);
    const inGroup = await groupBucketIds(db, id);
    await db.transaction(async (tx) => {
      const before = inGroup.length === 0 ? [] : await tx.delete(notificationSettings)
        .where(inArray(notificationSettings.bucketId, inGroup)).returning();
      if (input.length > 0) await tx.insert(notificationSettings).values(input.map((n) => ({ groupId: id, ...n })));
      await audit(tx, a.accountId, id, 'notifications', before.map((b) => ({ bucketId: b.bucketId, type: b.type, accountIds: b.accountIds })), input);
    });
    return notifications(id);
  });
}
