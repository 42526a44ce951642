import { and, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { exams, reports } from '../db/schema';

/** A live report covering the exam: its own, or one that reports it jointly (core §5). */
export function coversExam(examId: number) {
  return and(isNull(reports.deletedTime), or(eq(reports.examId, examId), sql`${reports.jointExamIds} @> ${JSON.stringify([examId])}::jsonb`));
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

/** A report's facts the exam copy is made of, as the statement writing the report leaves them. */
export interface WrittenFacts {
  id: number;
  examId: number;
  jointExamIds: readonly number[];
  status: string;
  lockedById: number | null;
  creatorId: number | null;
  deletedTime: Date | null;
}

/**
 * syncExams for one exam as a CTE of the statement that writes report `w` (issue 18: one round trip less on every
 * save, submit and approve). Every CTE reads the snapshot from before the statement, so the report being written is
 * not read from the table: its new facts come in as values, and the other reports covering the exam (which this
 * statement does not change) come from the table, exactly as syncExams would read them after the write.
 */
export function syncExamCte(tx: Db, examId: number, w: WrittenFacts) {
  const covers = w.deletedTime === null && (w.examId === examId || w.jointExamIds.includes(examId));
  const others = tx
    .select({
      id: reports.id,
      status: sql`${copyStatus}`.as('status'),
      creatorId: sql`${reports.creatorId}`.as('creator_id'),
      written: sql`${isWritten}`.as('written'),
    })
    .from(reports)
    .where(and(coversExam(examId), ne(reports.id, w.id)));
  // The report being written, by the same two rules in values: copyStatus and isWritten.
  const self = covers
    ? sql` union all select ${w.id}::int, ${w.lockedById !== null ? 'locked' : w.status}::varchar, ${w.creatorId}::int, ${w.status !== 'none'}::boolean`
    : sql``;
  return tx.$with('exam_sync', { examId: sql<number>`exam_id` }).as(sql`update ${exams}
    set (report_id, report_status, report_creator_id) = (select c.id, c.status, c.creator_id from (${others}${self}) c
      order by c.written desc, c.id desc limit 1)
    where ${exams.id} = ${examId} returning ${exams.id} as exam_id`);
}
