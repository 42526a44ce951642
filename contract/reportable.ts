/**
 * Which exams a radiologist can report: one that was performed, or has images. A registry line (areas §3, §4) is an
 * exam row too, from the moment it is booked: while it is Registered, Scheduled or Arrived (or Cancelled) nothing has
 * been acquired yet, and there is nothing to read. An exam that never went through the registry desk (an upload, an
 * order from outside) has no registration status and counts as performed.
 *
 * One rule, read by: the worklist's `n` (next case I can report, src/features/worklist/nextCase.ts), the worklist's
 * default view (the exam list's `reportable` filter, whose SQL in server/exams/filters.ts says the same; the API test
 * tests/api/exams.reportable.test.ts holds the two together), and the expert application's check.
 * No zod here: the worklist's chunk imports this file.
 */
import type { RegistrationStatus } from './registry';

/** The registration status of a line that was performed (machines/registration.ts). */
export const PERFORMED_EXAM_STATUS = 'Performed' as const satisfies RegistrationStatus;

/** What the rule reads of an exam (an `ExamListItem` has both). */
export interface ReportableFacts {
  /** The registry status (a RegistrationStatus); null for an exam that never went through the desk. */
  examStatus: string | null;
  hasImage: boolean;
}

/** Whether a radiologist can report the exam: performed (or never booked at the desk), or with images. */
export function isReportable(exam: ReportableFacts): boolean {
  return exam.hasImage || exam.examStatus === null || exam.examStatus === PERFORMED_EXAM_STATUS;
}
