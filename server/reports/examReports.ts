import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Page } from '../../contract/common';
import type { ReportView } from '../../contract/reports';
import type { Access } from '../access/access';
import type { Db } from '../db/client';
import { exams, reportTraces, reports } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { syncExams } from './examSync';
import { actorIn, assertCanRead, examFacts, stateFromRow } from './load';
import { traceSnapshot } from './traceSnapshot';
import { namesFor, toView } from './view';

/** GET exams/{id}/reports: the exam's reports (its own and those covering it jointly), each with its transitions. */
export async function listExamReports(db: Db, access: Access, examId: number, deleted: boolean): Promise<Page<ReportView>> {
  const [exam] = await db.select(examFacts).from(exams).where(eq(exams.id, examId));
  if (!exam) throw new ApiError('NotFound');
  assertCanRead(access, exam.bucketId);
  const rows = await db.select().from(reports).where(and(
    sql`(${reports.examId} = ${examId} or ${reports.jointExamIds} @> ${JSON.stringify([examId])}::jsonb)`,
    deleted ? isNotNull(reports.deletedTime) : isNull(reports.deletedTime),
  )).orderBy(asc(reports.id));
  const names = await namesFor(db, rows);
  // A joint report belongs to another exam: its facts (images, upload target) are that exam's.
  const otherIds = [...new Set(rows.map((r) => r.examId).filter((id) => id !== examId))];
  const others = otherIds.length ? await db.select(examFacts).from(exams).where(inArray(exams.id, otherIds)) : [];
  const factsOf = new Map([[exam.id, exam], ...others.map((e) => [e.id, e] as const)]);
  const items = rows.map((row) => {
    const facts = factsOf.get(row.examId) ?? exam;
    return toView({ row, exam: facts, state: stateFromRow(row, facts) }, actorIn(access, row.bucketId), names);
  });
  return { items, total: items.length };
}

/**
 * POST exams/{id}/reports: the exam's draft report, created (status none) when it has none, so the workspace
 * URL always carries a report id. The exam row is locked so two first visits create one report, not two.
 */
export async function ensureExamReport(deps: Deps, access: Access, examId: number): Promise<{ view: ReportView; created: boolean }> {
  return deps.db.transaction(async (tx) => {
    const [exam] = await tx.select(examFacts).from(exams).where(eq(exams.id, examId)).for('update');
    if (!exam || exam.deletedTime !== null) throw new ApiError('NotFound');
    const grant = access.buckets.get(exam.bucketId);
    if (!grant) throw new ApiError('NotFound');
    if (!grant.actions.has('report_upsert') && !grant.actions.has('report_assign')) throw new ApiError('Forbidden');
    const actor = actorIn(access, exam.bucketId);

    const [existing] = await tx.select().from(reports)
      .where(and(eq(reports.examId, examId), isNull(reports.deletedTime)))
      .orderBy(sql`(${reports.status} <> 'none') desc`, asc(reports.id)).limit(1);
    if (existing) {
      return { view: toView({ row: existing, exam, state: stateFromRow(existing, exam) }, actor, await namesFor(tx, [existing])), created: false };
    }
    const now = deps.clock.now();
    const [row] = await tx.insert(reports).values({
      examId, bucketId: exam.bucketId, sourceBucketId: exam.bucketId, status: 'none', created: now, lastOperationTime: now,
    }).returning();
    await tx.insert(reportTraces).values({
      reportId: row!.id, accountId: access.accountId, action: 'create', fromStatus: null, toStatus: 'none', snapshot: traceSnapshot(row!), created: now,
    });
    await syncExams(tx, [examId]);
    return { view: toView({ row: row!, exam, state: stateFromRow(row!, exam) }, actor, await namesFor(tx, [row!])), created: true };
  });
}
