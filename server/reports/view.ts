import { inArray, sql } from 'drizzle-orm';
import type { Person, ReportView } from '../../contract/reports';
import type { ReportActor } from '../../machines/report';
import { isNoteTakerOrigin, presentedStatus, transitionsFor } from '../../machines/reportTransitions';
import type { Db } from '../db/client';
import { accounts } from '../db/schema';
import type { LoadedReport, ReportRow } from './load';
import { reportContent } from './traceSnapshot';

export type Names = ReadonlyMap<number, string>;

/** Display names of the accounts a set of reports mentions, in one query. */
export async function namesFor(db: Db, rows: readonly ReportRow[]): Promise<Names> {
  const ids = new Set<number>();
  for (const r of rows) {
    for (const id of [r.creatorId, r.lastUpdaterId, r.issuerId, r.noteTakerId, r.assigneeId, r.lockedById]) if (id !== null) ids.add(id);
  }
  if (ids.size === 0) return new Map();
  const found = await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, [...ids]));
  return new Map(found.map((a) => [a.id, a.name]));
}

/**
 * The same names as namesFor, as a column of a statement on `reports` (a RETURNING list): [id, name] pairs of the
 * accounts the row mentions, or null when it mentions none. The row's columns are named in full: drizzle would write them
 * unqualified, and inside the subquery they could be read as the accounts' own columns.
 */
export const namesOfRow = sql<[number, string][] | null>`(select json_agg(json_build_array(a.id, a.name)) from ${accounts} a
  where a.id in ("reports"."creator_id", "reports"."last_updater_id", "reports"."issuer_id", "reports"."note_taker_id", "reports"."assignee_id", "reports"."locked_by_id"))`;

const person = (id: number | null, names: Names): Person | null => (id === null ? null : { id, name: names.get(id) ?? '' });
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The answer for one report, with what `actor` may do to it now. */
export function toView({ row, state }: LoadedReport, actor: ReportActor, names: Names): ReportView {
  return {
    id: row.id,
    examId: row.examId,
    bucketId: row.bucketId,
    sourceBucketId: row.sourceBucketId,
    type: row.type,
    status: presentedStatus(state),
    lifecycleStatus: state.status,
    transitions: transitionsFor(state, actor),
    version: row.version,
    creator: person(row.creatorId, names),
    lastUpdater: person(row.lastUpdaterId, names),
    issuer: person(row.issuerId, names),
    noteTaker: person(row.noteTakerId, names),
    assignee: person(row.assigneeId, names),
    lockedBy: row.lockedById,
    locker: person(row.lockedById, names),
    lockedAt: iso(row.lockedAt),
    rejectReason: row.rejectReason,
    recallReason: row.recallReason,
    adviceReason: row.adviceReason,
    ...reportContent(row),
    allowAdvisorEdit: row.allowAdvisorEdit,
    syncPending: row.syncPending,
    syncStopped: row.syncStopped,
    mutable: state.mutable,
    noteTakerOrigin: row.noteTakerId !== null || isNoteTakerOrigin(state),
    jointExamIds: row.jointExamIds,
    deleted: state.deleted,
    deletedTime: iso(row.deletedTime),
    savedTime: iso(row.savedTime),
    submittedTime: iso(row.submittedTime),
    approvedTime: iso(row.approvedTime),
    printedTime: iso(row.printedTime),
    printSubmittedAt: iso(row.printSubmittedAt),
    printApprovedAt: iso(row.printApprovedAt),
    lastOperationTime: iso(row.lastOperationTime),
    created: row.created.toISOString(),
  };
}
