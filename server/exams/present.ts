import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ExamListItem, ReportSource } from '../../contract/exams';
import type { RegistrationStatus } from '../../contract/registry';
import type { ReportStatus } from '../../contract/reports';
import type { Access } from '../access/access';
import { accounts, buckets, exams, reports } from '../db/schema';
import type { ReportFacts } from '../reports/load';
import { canWriteFacts } from './canWrite';

export const reportCreator = alias(accounts, 'report_creator');
export const assignee = alias(accounts, 'assignee');

type ExamRow = typeof exams.$inferSelect;

/**
 * The exam columns a worklist row is made of (toListItem and canWriteRow read no others): 46 of the table's 57. Every
 * column costs on every row of every page, in PostgreSQL, on the wire, in the driver and in the mapping.
 */
const LIST_EXAM_FIELDS = [
  'id', 'bucketId', 'targetBucketId', 'orderId', 'patientKeyId', 'patientName', 'patientId', 'patientGender', 'patientDob',
  'visitAge', 'weight', 'height', 'patientClass', 'patientSource', 'inpatientId', 'bedNum', 'outpatientId',
  'physicalExamId', 'serviceRequestId', 'accessionNumber', 'modality', 'bodyPart', 'bodyPartCount', 'studyDescription',
  'clinicImpression', 'applyDept', 'urgentFlag', 'teleMedFlag', 'isRemoteReportRequested', 'storeUid', 'openPath',
  'hasImage', 'examStatus', 'showVideo', 'formImgUrls', 'extensions', 'aiStatus', 'assigneeId', 'reportType', 'reportId',
  'reportStatus', 'reportCreatorId', 'examTime', 'uploadTime', 'created', 'deletedTime', 'version',
] as const satisfies readonly (keyof ExamRow)[];
type ListExamField = (typeof LIST_EXAM_FIELDS)[number];
const listExamColumns = Object.fromEntries(LIST_EXAM_FIELDS.map((k) => [k, exams[k]])) as { [K in ListExamField]: (typeof exams)[K] };

/** The columns of a worklist row: the exam, its organisation's name, the current report's creator, assignee and positive flag. */
export const listColumns = {
  exam: listExamColumns,
  bucketName: buckets.name,
  reportCreatorName: reportCreator.name,
  assigneeName: assignee.name,
  reportPositive: reports.positive,
  /** The current report's facts the machine reads, to say whether the caller can write it. */
  report: {
    status: reports.status, deletedTime: reports.deletedTime, creatorId: reports.creatorId, assigneeId: reports.assigneeId,
    lockedById: reports.lockedById, allowAdvisorEdit: reports.allowAdvisorEdit, syncPending: reports.syncPending,
    syncStopped: reports.syncStopped, sourceBucketId: reports.sourceBucketId, bucketId: reports.bucketId,
  },
};

export interface ListRow {
  exam: Pick<ExamRow, ListExamField>;
  bucketName: string | null;
  reportCreatorName: string | null;
  assigneeName: string | null;
  reportPositive: boolean | null;
  /** Null, or a record of nulls, when the exam has no report. */
  report: { [K in keyof ReportFacts]: ReportFacts[K] | null } | null;
}

/** The joins that go with listColumns; every one is by primary key, so they cost a few lookups per row. */
export const joins = {
  bucket: eq(buckets.id, exams.bucketId),
  reportCreator: eq(reportCreator.id, exams.reportCreatorId),
  assignee: eq(assignee.id, exams.assigneeId),
  report: eq(reports.id, exams.reportId),
};

export function reportSourceOf(e: Pick<ExamRow, 'teleMedFlag' | 'isRemoteReportRequested'>): ReportSource {
  if (e.teleMedFlag) return 'expert';
  return e.isRemoteReportRequested ? 'remote' : 'inhouse';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The report machine's answer to "can this account write this exam's report now" (save allowed), or with no report,
 * whether it may start one (report_upsert, as POST exams/{id}/reports asks). Deleted exams are never writable.
 * The machine's answers come from a table filled from the machine (server/exams/canWrite.ts), not a snapshot per row.
 */
export function canWriteRow(row: Pick<ListRow, 'exam' | 'report'>, access: Access | null): boolean {
  const e = row.exam;
  if (!access || e.deletedTime) return false;
  return canWriteFacts(access, e.bucketId, e, row.report);
}

/** A worklist row; `access` is the asking account's, for `canWrite` (false without it). */
export function toListItem(row: ListRow, access: Access | null = null): ExamListItem {
  const e = row.exam;
  return {
    id: e.id,
    bucketId: e.bucketId,
    bucketName: row.bucketName ?? '',
    targetBucketId: e.targetBucketId,
    orderId: e.orderId,
    patientKeyId: e.patientKeyId,
    patientName: e.patientName,
    patientId: e.patientId,
    patientGender: e.patientGender,
    patientDob: e.patientDob,
    visitAge: e.visitAge,
    weight: e.weight,
    height: e.height,
    patientClass: e.patientClass,
    patientSource: e.patientSource,
    inpatientId: e.inpatientId,
    bedNum: e.bedNum,
    outpatientId: e.outpatientId,
    physicalExamId: e.physicalExamId,
    serviceRequestId: e.serviceRequestId,
    accessionNumber: e.accessionNumber,
    modality: e.modality,
    bodyPart: e.bodyPart,
    bodyPartCount: e.bodyPartCount,
    studyDescription: e.studyDescription,
    clinicImpression: e.clinicImpression,
    applyDept: e.applyDept,
    urgentFlag: e.urgentFlag,
    teleMedFlag: e.teleMedFlag,
    isRemoteReportRequested: e.isRemoteReportRequested,
    reportSource: reportSourceOf(e),
    storeUid: e.storeUid,
    openPath: e.openPath,
    hasImage: e.hasImage,
    examStatus: (e.examStatus ?? null) as RegistrationStatus | null,
    showVideo: e.showVideo,
    formImgUrls: e.formImgUrls,
    extensions: e.extensions,
    AIStatus: e.aiStatus,
    assigneeId: e.assigneeId,
    assigneeName: row.assigneeName,
    reportType: e.reportType,
    reportId: e.reportId,
    reportStatus: (e.reportStatus ?? 'none') as ReportStatus,
    reportCreatorId: e.reportCreatorId,
    reportCreatorName: row.reportCreatorName,
    reportPositive: e.reportId === null ? null : row.reportPositive,
    canWrite: canWriteRow(row, access),
    examTime: e.examTime.toISOString(),
    uploadTime: iso(e.uploadTime),
    created: e.created.toISOString(),
    deletedTime: iso(e.deletedTime),
    version: e.version,
  };
}
