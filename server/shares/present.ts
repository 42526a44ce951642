import { and, eq, gt, inArray } from 'drizzle-orm';
import { APPROVED_STATUSES, type SharedExamHeader, type SharedReportContent, type SharedReportState } from '../../contract/shares';
import type { Db } from '../db/client';
import type { exams, reports } from '../db/schema';
import { accounts, buckets, reportTraces } from '../db/schema';

type ExamRow = typeof exams.$inferSelect;
type ReportRow = typeof reports.$inferSelect;

export const isApproved = (report: Pick<ReportRow, 'status' | 'deletedTime'>) =>
  report.deletedTime === null && (APPROVED_STATUSES as readonly string[]).includes(report.status);

export async function organisationNames(db: Db, bucketIds: number[]): Promise<Map<number, string>> {
  if (bucketIds.length === 0) return new Map();
  const rows = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(inArray(buckets.id, [...new Set(bucketIds)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function examHeader(exam: ExamRow, organisation: string): SharedExamHeader {
  return {
    patientName: exam.patientName, patientGender: exam.patientGender, visitAge: exam.visitAge, modality: exam.modality,
    bodyPart: exam.bodyPart, studyDescription: exam.studyDescription, examTime: exam.examTime.toISOString(), organisation,
  };
}

export async function reportContents(db: Db, rows: ReportRow[]): Promise<Map<number, SharedReportContent>> {
  const issuerIds = [...new Set(rows.map((r) => r.issuerId).filter((id): id is number => id !== null))];
  const names = issuerIds.length
    ? new Map((await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, issuerIds))).map((a) => [a.id, a.name]))
    : new Map<number, string>();
  return new Map(rows.map((r) => [r.id, {
    finding: r.finding, diagnosis: r.diagnosis, positive: r.positive, approvedTime: r.approvedTime?.toISOString() ?? null,
    issuer: r.issuerId === null ? null : names.get(r.issuerId) ?? null,
  }]));
}

/**
 * What a link made at `sharedAt` may show of `report` now. Only an approved report is shown, always as it
 * is now; a recall after the link (a trace, or an approval newer than the one the link saw) is flagged, and
 * while the report is recalled nothing is shown: a stale result is never passed off as final.
 */
export async function sharedView(db: Db, report: ReportRow, since: { sharedAt: Date; approvedTimeAtShare: Date | null }): Promise<{ state: SharedReportState; changedSinceShared: boolean }> {
  const [recall] = await db.select({ id: reportTraces.id }).from(reportTraces)
    .where(and(eq(reportTraces.reportId, report.id), eq(reportTraces.action, 'recall'), gt(reportTraces.created, since.sharedAt))).limit(1);
  const reapproved = since.approvedTimeAtShare !== null && report.approvedTime !== null && report.approvedTime > since.approvedTimeAtShare;
  const changedSinceShared = Boolean(recall) || reapproved || (since.approvedTimeAtShare !== null && !isApproved(report));
  if (isApproved(report)) return { state: 'final', changedSinceShared };
  const wasApproved = since.approvedTimeAtShare !== null || report.status === 'cancelled' || Boolean(recall);
  return { state: wasApproved ? 'recalled' : 'pending', changedSinceShared };
}
