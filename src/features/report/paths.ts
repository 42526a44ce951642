/** The report workspace of an exam's report, and its print view. */
export function reportPath(examId: number, reportId: number): string {
  return `/studies/${examId}/reports/${reportId}`;
}

export function printPath(examId: number, reportId: number): string {
  return `${reportPath(examId, reportId)}/print`;
}
