import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import {
  colourRuleCreateInput, colourRuleGroupQuery, colourRuleUpdateInput, type ColourRule, type ColourRuleColumn,
} from '../../contract/exams';
import { isGroupAdmin, type Access } from '../access/access';
import { recordAudit } from '../audit/record';
import { authOf } from '../auth/plugin';
import { reportTableColourRules as rules } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';

type RuleRow = typeof rules.$inferSelect;

function toRule(r: RuleRow): ColourRule {
  return {
    id: r.id, groupId: r.groupId, name: r.name, priority: r.priority, index: r.ruleIndex,
    column: r.matchColumn as ColourRuleColumn, value: r.value, gte: r.gte, lte: r.lte,
    foreColor: r.foreColor, backColor: r.backColor, created: r.created.toISOString(),
  };
}

/** What the audit trail keeps of a rule (areas §3's fields, with its group). */
function audited(r: RuleRow) {
  return { groupId: r.groupId, name: r.name, priority: r.priority, column: r.matchColumn, value: r.value, gte: r.gte, lte: r.lte, foreColor: r.foreColor, backColor: r.backColor };
}

/** Members of the group read its rules; a group it is not in is 404. */
function assertGroupMember(access: Access, groupId: number): void {
  if (!access.groups.has(groupId)) throw new ApiError('NotFound');
}

/** The group administrator manages the rules (areas §6: group admin configures the group); members 403. */
function assertGroupAdmin(access: Access, groupId: number): void {
  assertGroupMember(access, groupId);
  if (!isGroupAdmin(access, groupId)) throw new ApiError('Forbidden');
}

/** Report-table colour rules (core §7 "Report-table-colour: find-by-group, create, update, delete"). */
export async function colourRuleRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.get('/report-table-colour/find-by-group', async (req): Promise<ColourRule[]> => {
    const { groupId } = parse(colourRuleGroupQuery, req.query);
    assertGroupMember(await authOf(req).access(), groupId);
    const rows = await deps.db.select().from(rules).where(eq(rules.groupId, groupId))
      .orderBy(asc(rules.priority), asc(rules.ruleIndex), asc(rules.id));
    return rows.map(toRule);
  });

  app.post('/report-table-colour/create', async (req, reply) => {
    const input = parse(colourRuleCreateInput, req.body);
    const auth = authOf(req);
    assertGroupAdmin(await auth.access(), input.groupId);
    const row = await deps.db.transaction(async (tx) => {
      const [inserted] = await tx.insert(rules).values({
        groupId: input.groupId, name: input.name, priority: input.priority, ruleIndex: input.index, matchColumn: input.column,
        value: input.value, gte: input.gte, lte: input.lte, foreColor: input.foreColor, backColor: input.backColor,
        createdBy: auth.account.id, created: deps.clock.now(),
      }).returning();
      await recordAudit(tx, { at: deps.clock.now(), actorId: auth.account.id, area: 'colourRules', action: 'create', objectType: 'colourRule', objectId: inserted!.id, after: audited(inserted!) });
      return inserted!;
    });
    return reply.status(201).send(toRule(row));
  });

  app.post('/report-table-colour/update', async (req): Promise<ColourRule> => {
    const input = parse(colourRuleUpdateInput, req.body);
    const access = await authOf(req).access();
    const [existing] = await deps.db.select({ groupId: rules.groupId }).from(rules).where(eq(rules.id, input.id));
    if (!existing) throw new ApiError('NotFound');
    assertGroupAdmin(access, existing.groupId);
    const row = await deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(rules).where(eq(rules.id, input.id)).for('update');
      if (!before) throw new ApiError('NotFound');
      const [updated] = await tx.update(rules).set({
        name: input.name, priority: input.priority, ruleIndex: input.index, matchColumn: input.column,
        value: input.value, gte: input.gte, lte: input.lte, foreColor: input.foreColor, backColor: input.backColor,
      }).where(eq(rules.id, input.id)).returning();
      await recordAudit(tx, { at: deps.clock.now(), actorId: access.accountId, area: 'colourRules', action: 'update', objectType: 'colourRule', objectId: input.id, before: audited(before), after: audited(updated!) });
      return updated!;
    });
    return toRule(row);
  });

  app.delete('/report-table-colour/:id', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const [existing] = await deps.db.select({ groupId: rules.groupId }).from(rules).where(eq(rules.id, id));
    if (!existing) throw new ApiError('NotFound');
    assertGroupAdmin(access, existing.groupId);
    await deps.db.transaction(async (tx) => {
      const [row] = await tx.delete(rules).where(eq(rules.id, id)).returning();
      if (!row) throw new ApiError('NotFound');
      await recordAudit(tx, { at: deps.clock.now(), actorId: access.accountId, area: 'colourRules', action: 'delete', objectType: 'colourRule', objectId: id, before: audited(row) });
    });
    return reply.status(204).send();
  });
}
