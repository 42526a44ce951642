import type { TraceSnapshot } from '../../contract/reports';
import type { ReportRow } from './load';

/** What a trace keeps of the report after the action: enough to show, diff and explain it later. */
export function traceSnapshot(row: ReportRow): TraceSnapshot {
  return {
    finding: row.finding,
    diagnosis: row.diagnosis,
    positive: row.positive,
    note: row.note,
    bodypartCount: row.bodypartCount,
    criticalValue: row.criticalValue,
    extensions: row.extensions,
    creatorId: row.creatorId,
    assigneeId: row.assigneeId,
    lockedById: row.lockedById,
    version: row.version,
  };
}
