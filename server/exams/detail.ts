import { and, asc, count, countDistinct, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ExamDetail, ExamListItem, ExamReportSummary } from '../../contract/exams';
import type { LifecycleStatus } from '../../contract/reports';
import { presentedStatus } from '../../machines/reportTransitions';
import type { Db } from '../db/client';
import { accounts, dicomInstances, keyImages, reportAttachments, reportTraces, reports } from '../db/schema';
import { ApiError } from '../http/errors';
import { coExamCount, pastCount } from './related';

/**
 * GET exams/{id}/detail?reportId: the exam, its live reports (its own and those covering it jointly), and the
 * counts the drawer shows on its tabs. `reportId` picks the report whose key images, attachments and traces are
 * counted; it must be one of the exam's reports (404 otherwise).
 */
export async function examDetail(db: Db, exam: ExamListItem, reportId: number | undefined): Promise<ExamDetail> {
  const rows = await db.select({
    id: reports.id, examId: reports.examId, status: reports.status, lockedById: reports.lockedById, type: reports.type,
    creatorId: reports.creatorId, issuerId: reports.issuerId, positive: reports.positive,
    savedTime: reports.savedTime, approvedTime: reports.approvedTime, created: reports.created,
  }).from(reports).where(and(
    isNull(reports.deletedTime),
    or(eq(reports.examId, exam.id), sql`${reports.jointExamIds} @> ${JSON.stringify([exam.id])}::jsonb`),
  )).orderBy(asc(reports.id));

  if (reportId !== undefined && !rows.some((r) => r.id === reportId)) throw new ApiError('NotFound');
  const shown = reportId ?? exam.reportId ?? null;

  const people = [...new Set(rows.flatMap((r) => [r.creatorId, r.issuerId]).filter((id): id is number => id !== null))];
  const names = new Map(people.length === 0 ? [] : (await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, people))).map((a) => [a.id, a.name]));
  const person = (id: number | null) => (id === null ? null : { id, name: names.get(id) ?? '' });

  const [[images], [files], [traces], [instances], past, co] = await Promise.all([
    shown === null ? Promise.resolve([{ n: 0 }]) : db.select({ n: count() }).from(keyImages).where(eq(keyImages.reportId, shown)),
    shown === null ? Promise.resolve([{ n: 0 }]) : db.select({ n: count() }).from(reportAttachments).where(eq(reportAttachments.reportId, shown)),
    shown === null ? Promise.resolve([{ n: 0 }]) : db.select({ n: count() }).from(reportTraces).where(eq(reportTraces.reportId, shown)),
    db.select({ n: count(), series: countDistinct(dicomInstances.seriesInstanceUid) }).from(dicomInstances).where(eq(dicomInstances.examId, exam.id)),
    pastCount(db, exam),
    coExamCount(db, exam),
  ]);

  const summaries: ExamReportSummary[] = rows.map((r) => ({
    id: r.id,
    examId: r.examId,
    status: presentedStatus({ status: r.status as LifecycleStatus, lockedById: r.lockedById, deleted: false }),
    type: r.type,
    creator: person(r.creatorId),
    issuer: person(r.issuerId),
    positive: r.positive,
    joint: r.examId !== exam.id,
    savedTime: r.savedTime?.toISOString() ?? null,
    approvedTime: r.approvedTime?.toISOString() ?? null,
    created: r.created.toISOString(),
  }));

  return {
    exam,
    reports: summaries,
    reportId: shown,
    counts: {
      reports: summaries.length,
      pastExams: past,
      coExams: co,
      series: instances?.series ?? 0,
      instances: instances?.n ?? 0,
      keyImages: images?.n ?? 0,
      attachments: files?.n ?? 0,
      traces: traces?.n ?? 0,
    },
  };
}
