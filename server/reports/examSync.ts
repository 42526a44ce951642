import { and, desc, eq, isNull, ne, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { exams, reports } from '../db/schema';

/** An exam's id in a prepared statement: the id and `[id]` as JSON text, both placeholders. */
export interface ExamPlaceholders { id: Placeholder; asJson: Placeholder }

/** A live report covering the exam: its own, or one that reports it jointly (core §5). */
export function coversExam(exam: number | ExamPlaceholders) {
  const [id, asJson] = typeof exam === 'number' ? [exam, JSON.stringify([exam])] : [exam.id, exam.asJson];
  return and(isNull(reports.deletedTime), or(eq(reports.examId, id), sql`${reports.jointExamIds} @> ${asJson}::jsonb`));
}

/**
 * The exam copy's status of a covering report: presentedStatus in SQL (a covering report is never deleted, so it
 * reads 'locked' exactly when someone holds the lock).
 */
const copyStatus = sql`case when ${reports.lockedById} is not null then 'locked' else ${reports.status} end`;
/** The current report is a written one before an empty shell, then the newest: this, descending, then the id. */
const isWritten = sql`${reports.status} <> 'none'`;

/**
 * Keeps exams.report_id / report_status / report_creator_id (the worklist's copy) equal to the exam's current
 * report: the written one before an empty shell, the newest first. Called inside every report write;
 * exams are updated in id order so two writers touching the same exams cannot deadlock.
 */
export async function syncExams(tx: Db, examIds: Iterable<number>): Promise<void> {
  for (const examId of [...new Set(examIds)].sort((a, b) => a - b)) {
    // One statement per exam (it was a read, then a write): the current report is a row subquery, which gives
    // nulls when no report covers the exam.
    const current = tx
      .select({ id: reports.id, status: copyStatus, creatorId: reports.creatorId })
      .from(reports)
      .where(coversExam(examId))
      .orderBy(sql`(${isWritten}) desc`, desc(reports.id))
      .limit(1);
    await tx.execute(sql`update ${exams} set (report_id, report_status, report_creator_id) = (${current}) where ${exams.id} = ${examId}`);
  }
}

/** The facts of the report being written that the exam copy reads: values, or placeholders of a prepared statement. */
export interface SelfFacts {
  id: number | Placeholder;
  /** copyStatus of the row as written: 'locked' while someone holds the lock, else its status. */
  status: string | Placeholder;
  creatorId: number | null | Placeholder;
  /** isWritten of the row as written. */
  written: boolean | Placeholder;
}

/** The exam copy's facts of a report as a write leaves it, or null when it no longer covers the exam. */
export function selfFacts(examId: number, w: { id: number; examId: number; jointExamIds: readonly number[]; status: string; lockedById: number | null; creatorId: number | null; deletedTime: Date | null }): SelfFacts | null {
  const covers = w.deletedTime === null && (w.examId === examId || w.jointExamIds.includes(examId));
  return covers ? { id: w.id, status: w.lockedById !== null ? 'locked' : w.status, creatorId: w.creatorId, written: w.status !== 'none' } : null;
}

/**
 * syncExams for one exam as a CTE of the statement that writes report `reportId` (issue 18: one round trip less on
 * every save, submit and approve). Every CTE reads the snapshot from before the statement, so the report being written
 * is not read from the table: its new facts (`self`, null when it no longer covers the exam) come in as values, and the
 * other reports covering the exam (which this statement does not change) come from the table, exactly as syncExams
 * would read them after the write. `only` is the condition the update waits for (that the report's write happened).
 */
export function syncExamCte(tx: Db, exam: ExamPlaceholders, reportId: Placeholder, self: SelfFacts | null, only: SQL) {
  const others = tx
    .select({
      id: reports.id,
      status: sql`${copyStatus}`.as('status'),
      creatorId: sql`${reports.creatorId}`.as('creator_id'),
      written: sql`${isWritten}`.as('written'),
    })
    .from(reports)
    .where(and(coversExam(exam), ne(reports.id, reportId)));
  // The report being written, by the same two rules in values: copyStatus and isWritten.
  const selfRow = self ? sql` union all select ${self.id}::int, ${self.status}::varchar, ${self.creatorId}::int, ${self.written}::boolean` : sql``;
  return tx.$with('exam_sync', { examId: sql<number>`exam_id` }).as(sql`update ${exams}
    set (report_id, report_status, report_creator_id) = (select c.id, c.status, c.creator_id from (${others}${selfRow}) c
      order by c.written desc, c.id desc limit 1)
    where ${exams.id} = ${exam.id} and ${only} returning ${exams.id} as exam_id`);
}
