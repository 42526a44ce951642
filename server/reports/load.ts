import { eq, sql } from 'drizzle-orm';
import { ACTIONS } from '../../contract/actions';
import type { ReportActor } from '../../machines/report';
import type { ReportState } from '../../machines/reportTransitions';
import type { Access } from '../access/access';
import type { Db } from '../db/client';
import { withFastRows } from '../db/fastRows';
import { preparedOnce } from '../db/preparedOnce';
import { buckets, exams, reports } from '../db/schema';
import { ApiError } from '../http/errors';

export type ReportRow = typeof reports.$inferSelect;

/** The exam facts a report's rules and answers need. */
export const examFacts = {
  id: exams.id,
  bucketId: exams.bucketId,
  targetBucketId: exams.targetBucketId,
  hasImage: exams.hasImage,
  deletedTime: exams.deletedTime,
};
export type ExamFacts = { id: number; bucketId: number; targetBucketId: number | null; hasImage: boolean; deletedTime: Date | null };

export interface LoadedReport {
  row: ReportRow;
  exam: ExamFacts;
  state: ReportState;
}

/** Core §4: mutable when the upload target is absent or equals the source bucket. */
export function isMutable(row: Pick<ReportRow, 'sourceBucketId' | 'bucketId'>, exam: Pick<ExamFacts, 'targetBucketId'>): boolean {
  return exam.targetBucketId === null || exam.targetBucketId === (row.sourceBucketId ?? row.bucketId);
}

/** The report columns its state is made of. */
export type ReportFacts = Pick<ReportRow, 'status' | 'deletedTime' | 'creatorId' | 'assigneeId' | 'lockedById' | 'allowAdvisorEdit'
  | 'syncPending' | 'syncStopped' | 'sourceBucketId' | 'bucketId'>;

/** `finalOnSubmit`: the report's organisation issues on submit (buckets.report_final_on_submit); read where actions run. */
export function stateFromRow(row: ReportFacts, exam: Pick<ExamFacts, 'targetBucketId' | 'hasImage'>, finalOnSubmit = false): ReportState {
  return {
    finalOnSubmit,
    status: row.status as ReportState['status'],
    deleted: row.deletedTime !== null,
    creatorId: row.creatorId,
    assigneeId: row.assigneeId,
    lockedById: row.lockedById,
    allowAdvisorEdit: row.allowAdvisorEdit,
    syncPending: row.syncPending,
    syncStopped: row.syncStopped,
    mutable: isMutable(row, exam),
    hasImage: exam.hasImage,
  };
}

function loadStatement(db: Db, forUpdate: boolean) {
  const name = forUpdate ? 'report_load_for_update' : 'report_load';
  return preparedOnce(db, name, (on) => {
    const query = on.select({ row: reports, exam: examFacts, finalOnSubmit: buckets.reportFinalOnSubmit }).from(reports)
      .innerJoin(exams, eq(exams.id, reports.examId)).innerJoin(buckets, eq(buckets.id, reports.bucketId))
      .where(eq(reports.id, sql.placeholder('id')));
    return withFastRows(forUpdate ? query.for('update', { of: reports }).prepare(name) : query.prepare(name));
  });
}

/** One report with its exam; `forUpdate` locks the report row so actions on one report run one at a time. */
export async function loadReport(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<LoadedReport | null> {
  const [found] = await loadStatement(db, opts.forUpdate === true).execute({ id });
  if (!found) return null;
  return { row: found.row, exam: found.exam, state: stateFromRow(found.row, found.exam, found.finalOnSubmit) };
}

/** The account as the machine sees it in one organisation. */
export function actorIn(access: Access, bucketId: number): ReportActor {
  return { id: access.accountId, actions: [...(access.buckets.get(bucketId)?.actions ?? [])] };
}

const READ_ACTIONS: readonly string[] = ['exam_get', ...ACTIONS.report];

/**
 * Reading a report: 404 outside the account's organisations (ids from elsewhere reveal nothing), 403 inside
 * one without exam or report rights (core §6: report pages depend on actions containing exam or report).
 */
export function assertCanRead(access: Access, bucketId: number): void {
  const grant = access.buckets.get(bucketId);
  if (!grant) throw new ApiError('NotFound');
  if (![...grant.actions].some((a) => READ_ACTIONS.includes(a))) throw new ApiError('Forbidden');
}

/** A report the account may read, or the reason it may not. */
export async function readableReport(db: Db, access: Access, id: number): Promise<LoadedReport> {
  const loaded = await loadReport(db, id);
  if (!loaded) throw new ApiError('NotFound');
  assertCanRead(access, loaded.row.bucketId);
  return loaded;
}
