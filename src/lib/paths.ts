/**
 * The addresses of screens that other screens link to. They live here, not in the screens' features, so a
 * feature can link to another without importing it (the route table in src/app/routes.tsx matches them).
 */

/** The report workspace of an exam's report. */
export function reportPath(examId: number, reportId: number): string {
  return `/studies/${examId}/reports/${reportId}`;
}

/** Its print view. */
export function printPath(examId: number, reportId: number): string {
  return `${reportPath(examId, reportId)}/print`;
}

/** Where the publishing desk lives (core §2: /report-publish and /report-publish/detail?examId&reportId). */
export const PUBLISH_LIST = '/report-publish';
export const PUBLISH_DETAIL = '/report-publish/detail';

/** One report's publishing page. */
export function publishDetailPath(examId: number, reportId: number): string {
  return `${PUBLISH_DETAIL}?examId=${examId}&reportId=${reportId}`;
}
