import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createGroupInput, groupAvailableQuery, groupParams, patchGroupInput,
  type GroupAvailable, type GroupDetail, type GroupQuality, type GroupView,
} from '../../contract/groups';
import { authOf } from '../auth/plugin';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { buckets, exams, groupMembers, groups, reportQuality } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { assertBucketsInGroup, assertGroupAdmin, assertGroupMember, isAdminOf } from './access';
import { presentGroup, type GroupRow } from './present';
import { readsStatistics } from '../statistics/scope';

const pgCode = (err: unknown): string | undefined => {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
};

export async function loadGroup(db: Db, groupId: number): Promise<GroupRow> {
  const [row] = await db.select().from(groups).where(eq(groups.id, groupId));
  if (!row) throw new ApiError('NotFound');
  return row;
}

async function nameTaken(db: Db, name: string): Promise<boolean> {
  const [row] = await db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.name}) = lower(${name})`).limit(1);
  return Boolean(row);
}

async function detail(db: Db, g: GroupRow, accessLevel: number, readsStats: boolean): Promise<GroupDetail> {
  const out: GroupDetail = { ...presentGroup(g, accessLevel, readsStats), name: g.name };
  if (accessLevel === 1) {
    const [[members], [orgs]] = [
      await db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, g.id)),
      await db.select({ n: count() }).from(buckets).where(eq(buckets.groupId, g.id)),
    ];
    out.admin = { createdBy: g.createdBy, created: g.created.toISOString(), memberCount: Number(members?.n ?? 0), organizationCount: Number(orgs?.n ?? 0) };
  }
  return out;
}

/** The group itself (areas §7 "Groups"): name availability, create, read, settings, delete, mine, quality. */
export async function groupCoreRoutes(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const access = (req: FastifyRequest) => authOf(req).access();

  app.get('/groups/available', async (req): Promise<GroupAvailable> => {
    const { name } = parse(groupAvailableQuery, req.query);
    return { available: !(await nameTaken(db, name)) };
  });

  app.post('/groups', async (req, reply): Promise<GroupDetail> => {
    const { account } = authOf(req);
    const input = parse(createGroupInput, req.body);
    if (!account.canCreateGroup) throw new ApiError('Forbidden', 'This account may not create groups');
    const created = await db.transaction(async (tx) => {
      // One group per creator (areas §5): two creates of one account run one after the other.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`group-create:${account.id}`}))`);
      const [member] = await tx.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.accountId, account.id)).limit(1);
      const [own] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.createdBy, account.id)).limit(1);
      if (member || own) throw new ApiError('AlreadyInGroup');
      if (await nameTaken(tx, input.name)) throw new ApiError('GroupNameTaken', undefined, { name: input.name });
      let row: GroupRow | undefined;
      try {
        [row] = await tx.insert(groups).values({ name: input.name, displayName: input.displayName, createdBy: account.id, created: deps.clock.now() }).returning();
      } catch (err) {
        if (pgCode(err) === '23505') throw new ApiError('GroupNameTaken', undefined, { name: input.name });
        throw err;
      }
      await tx.insert(groupMembers).values({ groupId: row!.id, accountId: account.id, accessLevel: 1 });
      await recordAudit(tx, { at: deps.clock.now(), actorId: account.id, area: 'groups', action: 'create', objectType: 'group', objectId: row!.id, after: input });
      return row!;
    });
    reply.status(201);
    // The creator administers the new group: its statistics are theirs once switched on.
    return detail(db, created, 1, created.enableStat);
  });

  app.get('/groups/mine', async (req): Promise<GroupView[]> => {
    const { account } = authOf(req);
    const [a, rows] = await Promise.all([access(req), db.select({ g: groups, accessLevel: groupMembers.accessLevel })
      .from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId))
      .where(eq(groupMembers.accountId, account.id)).orderBy(groups.id)]);
    return rows.map(({ g, accessLevel }) => presentGroup(g, accessLevel, readsStatistics(a, g)));
  });

  app.get('/groups/:id', async (req): Promise<GroupDetail> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupMember(a, id);
    const g = await loadGroup(db, id);
    return detail(db, g, isAdminOf(a, id) ? 1 : 0, readsStatistics(a, g));
  });

  app.patch('/groups/:id', async (req): Promise<GroupDetail> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = parse(patchGroupInput, req.body);
    const defaults = [input.defaultConsultationBucketId, input.defaultExpertBucketId].filter((v): v is number => typeof v === 'number');
    await assertBucketsInGroup(db, id, defaults);
    const row = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(groups).where(eq(groups.id, id)).for('update');
      if (!before) throw new ApiError('NotFound');
      const keys = Object.keys(input) as (keyof typeof input)[];
      if (keys.length === 0) return before;
      const [after] = await tx.update(groups).set(input).where(eq(groups.id, id)).returning();
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: a.accountId, area: 'groups', action: 'update', objectType: 'group', objectId: id,
        before: Object.fromEntries(keys.map((k) => [k, before[k]])), after: input,
      });
      return after!;
    });
    return detail(db, row, 1, readsStatistics(a, row));
  });

  app.delete('/groups/:id', async (req, reply) => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    await db.transaction(async (tx) => {
      const [g] = await tx.select().from(groups).where(eq(groups.id, id)).for('update');
      if (!g) throw new ApiError('NotFound');
      const withExams = await tx.selectDistinct({ bucketId: exams.bucketId }).from(exams)
        .innerJoin(buckets, eq(buckets.id, exams.bucketId)).where(eq(buckets.groupId, id));
      if (withExams.length > 0) throw new ApiError('GroupNotEmpty', undefined, { bucketIds: withExams.map((r) => r.bucketId) });
      await recordAudit(tx, { at: deps.clock.now(), actorId: a.accountId, area: 'groups', action: 'delete', objectType: 'group', objectId: id, before: { name: g.name, displayName: g.displayName } });
      try {
        await tx.delete(groups).where(eq(groups.id, id));
      } catch (err) {
        // Records without exams that still name an organisation (consultations, registrations...) keep the group.
        if (pgCode(err) === '23503') throw new ApiError('GroupNotEmpty', 'The group\'s organisations still hold records');
        throw err;
      }
    });
    return reply.status(204).send();
  });

  app.get('/groups/:id/quality', async (req): Promise<GroupQuality> => {
    const { id } = parse(groupParams, req.params);
    assertGroupMember(await access(req), id);
    const orgs = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(eq(buckets.groupId, id)).orderBy(buckets.id);
    const rows = orgs.length === 0 ? [] : await db.select({ bucketId: reportQuality.bucketId, grade: reportQuality.grade, n: count() })
      .from(reportQuality).where(and(inArray(reportQuality.bucketId, orgs.map((o) => o.id))))
      .groupBy(reportQuality.bucketId, reportQuality.grade).orderBy(reportQuality.grade);
    const sum = (list: { grade: string; n: number }[]) => {
      const byGrade = new Map<string, number>();
      for (const r of list) byGrade.set(r.grade, (byGrade.get(r.grade) ?? 0) + Number(r.n));
      return [...byGrade].sort(([x], [y]) => x.localeCompare(y)).map(([grade, c]) => ({ grade, count: c }));
    };
    const grades = sum(rows);
    return {
      total: grades.reduce((t, g) => t + g.count, 0),
      grades,
      organizations: orgs.map((o) => {
        const own = sum(rows.filter((r) => r.bucketId === o.id));
        return { bucketId: o.id, name: o.name, total: own.reduce((t, g) => t + g.count, 0), grades: own };
      }),
    };
  });
}
