import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { exams, reports } from '../db/schema';

/** A live report covering the exam: its own, or one that reports it jointly (core §5). */
export function coversExam(examId: number) {
  return and(isNull(reports.deletedTime), or(eq(reports.examId, examId), sql`${reports.jointExamIds} @> ${JSON.stringify([examId])}::jsonb`));
}

/**
 * Keeps exams.report_id / report_status / report_creator_id (the worklist's copy) equal to the exam's current
 * report: the written one before an empty shell, the newest first. Called inside every report write;
 * exams are updated in id order so two writers touching the same exams cannot deadlock.
 */
export async function syncExams(tx: Db, examIds: Iterable<number>): Promise<void> {
  for (const examId of [...new Set(examIds)].sort((a, b) => a - b)) {
    // One statement per exam (it was a read, then a write): the current report is a row subquery, which gives
    // nulls when no report covers the exam. The status is presentedStatus in SQL: a covering report is never deleted,
    // so it reads 'locked' exactly when someone holds the lock.
    const current = tx
      .select({
        id: reports.id,
        status: sql`case when ${reports.lockedById} is not null then 'locked' else ${reports.status} end`,
        creatorId: reports.creatorId,
      })
      .from(reports)
      .where(coversExam(examId))
      .orderBy(sql`(${reports.status} <> 'none') desc`, desc(reports.id))
      .limit(1);
    await tx.execute(sql`update ${exams} set (report_id, report_status, report_creator_id) = (${current}) where ${exams.id} = ${examId}`);
  }
}
