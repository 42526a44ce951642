import { and, asc, count, eq, inArray, isNull, or } from 'drizzle-orm';
import { UNREPORTED_STATUSES } from '../../contract/constants';
import type { Db } from '../db/client';
import { assignRules, bucketMembers, exams } from '../db/schema';

/**
 * Assign rules at work (areas §3 "assign rules (name, organisation, reporter, modality, members, priority)"): when an
 * exam arrives, the first rule of its organisation (smallest priority, then oldest) whose modality matches (null =
 * every modality) gives the exam its assignee: the rule's reporter, or else the least loaded of its members (fewest
 * live exams assigned and not yet reported; ties by the members' order). Accounts that left the organisation are
 * skipped. The selection is pure (`pickRule`, `pickAssignee`); `assigneeForNewExam` reads the facts.
 */
export interface RuleFacts {
  id: number;
  bucketId: number;
  modality: string | null;
  priority: number;
  reporterId: number | null;
  memberIds: readonly number[];
}

export function pickRule<R extends RuleFacts>(rules: readonly R[], exam: { bucketId: number; modality: string | null }): R | null {
  const modality = exam.modality?.trim().toUpperCase() ?? null;
  const matching = rules.filter((r) => r.bucketId === exam.bucketId && (r.modality === null || r.modality.toUpperCase() === modality));
  matching.sort((x, y) => x.priority - y.priority || x.id - y.id);
  return matching[0] ?? null;
}

/** The rule's reporter when it is still a member, else the member with the smallest load; null when nobody is left. */
export function pickAssignee(rule: RuleFacts, members: ReadonlySet<number>, load: ReadonlyMap<number, number>): number | null {
  if (rule.reporterId !== null && members.has(rule.reporterId)) return rule.reporterId;
  let best: number | null = null;
  for (const id of rule.memberIds) {
    if (!members.has(id)) continue;
    if (best === null || (load.get(id) ?? 0) < (load.get(best) ?? 0)) best = id;
  }
  return best;
}

/** The assignee the organisation's rules give a new exam of `modality`, or null (no rule, nobody left). */
export async function assigneeForNewExam(db: Db, bucketId: number, modality: string | null): Promise<number | null> {
  const rules = await db.select().from(assignRules).where(eq(assignRules.bucketId, bucketId)).orderBy(asc(assignRules.priority), asc(assignRules.id));
  const rule = pickRule(rules, { bucketId, modality });
  if (!rule) return null;
  const candidates = [...new Set([...(rule.reporterId !== null ? [rule.reporterId] : []), ...rule.memberIds])];
  if (candidates.length === 0) return null;
  const members = new Set((await db.select({ id: bucketMembers.accountId }).from(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), inArray(bucketMembers.accountId, candidates)))).map((r) => r.id));
  const loadRows = rule.reporterId !== null && members.has(rule.reporterId) ? [] : await db.select({ id: exams.assigneeId, n: count() }).from(exams)
    .where(and(inArray(exams.assigneeId, candidates), isNull(exams.deletedTime), or(isNull(exams.reportStatus), inArray(exams.reportStatus, [...UNREPORTED_STATUSES]))))
    .groupBy(exams.assigneeId);
  return pickAssignee(rule, members, new Map(loadRows.map((r) => [r.id!, Number(r.n)])));
}
