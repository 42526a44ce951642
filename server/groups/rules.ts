import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assignRuleInput, groupParams, groupRuleParams, type AssignRule } from '../../contract/groups';
import { authOf } from '../auth/plugin';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { assignRules } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { assertBucketMembers, assertBucketsInGroup, assertGroupAdmin } from './access';

type RuleRow = typeof assignRules.$inferSelect;
const present = (r: RuleRow): AssignRule => ({
  id: r.id, groupId: r.groupId, name: r.name, bucketId: r.bucketId, reporterId: r.reporterId, modality: r.modality, memberIds: r.memberIds, priority: r.priority,
});

/** Assign rules of a group (group admins only); server/groups/assign.ts applies them to arriving exams. */
export async function ruleRoutes(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const access = (req: FastifyRequest) => authOf(req).access();

  /** The rule's organisation is the group's, its reporter and members belong to that organisation. */
  async function checked(groupId: number, body: unknown) {
    const input = parse(assignRuleInput, body);
    const memberIds = [...new Set(input.memberIds)];
    await assertBucketsInGroup(db, groupId, [input.bucketId]);
    await assertBucketMembers(db, input.bucketId, [...(input.reporterId !== null ? [input.reporterId] : []), ...memberIds]);
    return { ...input, memberIds };
  }
  const audit = (tx: Db, actorId: number, action: string, rule: RuleRow, before?: RuleRow) => recordAudit(tx, {
    at: deps.clock.now(), actorId, bucketId: rule.bucketId, area: 'groups', action, objectType: 'assign-rule', objectId: rule.id,
    before: before ? present(before) as unknown as Record<string, unknown> : null, after: action === 'rule-delete' ? null : present(rule) as unknown as Record<string, unknown>,
  });

  app.get('/groups/:id/rules', async (req): Promise<AssignRule[]> => {
    const { id } = parse(groupParams, req.params);
    assertGroupAdmin(await access(req), id);
    return (await db.select().from(assignRules).where(eq(assignRules.groupId, id)).orderBy(asc(assignRules.priority), asc(assignRules.id))).map(present);
  });

  app.post('/groups/:id/rules', async (req, reply): Promise<AssignRule> => {
    const { id } = parse(groupParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = await checked(id, req.body);
    const row = await db.transaction(async (tx) => {
      const [created] = await tx.insert(assignRules).values({ groupId: id, ...input, created: deps.clock.now() }).returning();
      await audit(tx, a.accountId, 'rule-create', created!);
      return created!;
    });
    reply.status(201);
    return present(row);
  });

  app.put('/groups/:id/rules/:ruleId', async (req): Promise<AssignRule> => {
    const { id, ruleId } = parse(groupRuleParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    const input = await checked(id, req.body);
    return present(await db.transaction(async (tx) => {
      const [before] = await tx.select().from(assignRules).where(and(eq(assignRules.id, ruleId), eq(assignRules.groupId, id))).for('update');
      if (!before) throw new ApiError('NotFound');
      const [after] = await tx.update(assignRules).set(input).where(eq(assignRules.id, ruleId)).returning();
      await audit(tx, a.accountId, 'rule-update', after!, before);
      return after!;
    }));
  });

  app.delete('/groups/:id/rules/:ruleId', async (req, reply) => {
    const { id, ruleId } = parse(groupRuleParams, req.params);
    const a = await access(req);
    assertGroupAdmin(a, id);
    await db.transaction(async (tx) => {
      const [before] = await tx.delete(assignRules).where(and(eq(assignRules.id, ruleId), eq(assignRules.groupId, id))).returning();
      if (!before) throw new ApiError('NotFound');
      await audit(tx, a.accountId, 'rule-delete', before, before);
    });
    return reply.status(204).send();
  });
}
