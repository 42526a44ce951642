import type { ReportContent, TraceSnapshot } from '../../contract/reports';
import type { ReportRow } from './load';

/** What a trace keeps of the report after the action: enough to show, diff and explain it later. */
export function traceSnapshot(row: ReportRow): TraceSnapshot {
  return {
    ...reportContent(row),
    creatorId: row.creatorId,
    assigneeId: row.assigneeId,
    lockedById: row.lockedById,
    version: row.version,
  };
}

/** The report's written content as stored (the view shows it, a trace keeps it). */
export function reportContent(row: ReportRow): ReportContent {
  return {
    finding: row.finding,
    diagnosis: row.diagnosis,
    positive: row.positive,
    note: row.note,
    bodypartCount: row.bodypartCount,
    criticalValue: row.criticalValue,
    extensions: row.extensions,
  };
}
