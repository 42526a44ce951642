import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ExamListItem, ReportSource } from '../../contract/exams';
import type { ReportStatus } from '../../contract/reports';
import { accounts, buckets, exams, reports } from '../db/schema';

export const reportCreator = alias(accounts, 'report_creator');
export const assignee = alias(accounts, 'assignee');

/** The columns of a worklist row: the exam, its organisation's name, the current report's creator, assignee and positive flag. */
export const listColumns = {
  exam: exams,
  bucketName: buckets.name,
  reportCreatorName: reportCreator.name,
  assigneeName: assignee.name,
  reportPositive: reports.positive,
};

type ExamRow = typeof exams.$inferSelect;
export interface ListRow {
  exam: ExamRow;
  bucketName: string | null;
  reportCreatorName: string | null;
  assigneeName: string | null;
  reportPositive: boolean | null;
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

export function toListItem(row: ListRow): ExamListItem {
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
    examTime: e.examTime.toISOString(),
    uploadTime: iso(e.uploadTime),
    created: e.created.toISOString(),
    deletedTime: iso(e.deletedTime),
  };
}
