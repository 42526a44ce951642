import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { LifecycleStatus } from '../../contract/reports';
import { presentedStatus } from '../../machines/reportTransitions';
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
    const [current] = await tx
      .select({ id: reports.id, status: reports.status, lockedById: reports.lockedById, creatorId: reports.creatorId, deletedTime: reports.deletedTime })
      .from(reports)
      .where(coversExam(examId))
      .orderBy(sql`(${reports.status} <> 'none') desc`, desc(reports.id))
      .limit(1);
    await tx.update(exams).set(current
      ? {
        reportId: current.id,
        reportStatus: presentedStatus({ status: current.status as LifecycleStatus, lockedById: current.lockedById, deleted: false }),
        reportCreatorId: current.creatorId,
      }
      : { reportId: null, reportStatus: null, reportCreatorId: null })
      .where(eq(exams.id, examId));
  }
}
