/**
 * An exam as the worklist reads it: a row of POST exams/page-query (contract/exams.ts ExamListItem), with the
 * exam's current report kept on it by the server.
 */
import type { ExamListItem } from '../../../contract/exams';
import type { ReportStatus } from '../../../contract/reports';

export type ExamRow = ExamListItem;

/** Report statuses that end the radiologist's work on an exam: "unreported" means none of these. */
export const REPORTED_STATUSES: readonly ReportStatus[] = ['final', 'corrected', 'printed'];

export function isReported(exam: Pick<ExamRow, 'reportStatus'>): boolean {
  return REPORTED_STATUSES.includes(exam.reportStatus);
}
