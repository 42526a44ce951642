import { and, eq, getTableColumns } from 'drizzle-orm';
import { isBlankReportHtml, sanitizeReportHtml } from '../../contract/reportHtml';
import {
  CONTENT_ACTIONS, type ReportAction, type ReportActionInput, type ReportView, type reportActionInput,
} from '../../contract/reports';
import type { z } from 'zod';
import {
  applyEvent, eventFor, isAllowed, isNoteTakerOrigin, presentedStatus, refusalFor, type ReportState,
} from '../../machines/reportTransitions';
import { isAction, type BucketAccess } from '../../contract/actions';
import { actionsFor, type Access } from '../access/access';
import { accounts, bucketMembers, exams, reportTraces, reports, roleUsers, roles } from '../db/schema';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { syncExamCte, syncExams } from './examSync';
import { decideJointExams } from './joint';
import { actorIn, loadReport, stateFromRow, type LoadedReport, type ReportRow } from './load';
import { traceSnapshot } from './traceSnapshot';
import { namesOfRow, toView } from './view';

type Body = z.infer<typeof reportActionInput>;
type RowUpdate = Partial<typeof reports.$inferInsert>;

const CONTENT_FIELDS = ['finding', 'diagnosis', 'positive', 'note', 'bodypartCount', 'criticalValue', 'extensions'] as const;
/** Holding or releasing the editing lock is not an operation on the report (core §4 "time of the last operation"). */
const LOCK_ACTIONS: readonly ReportAction[] = ['lock', 'unlock', 'force-unlock'];
/** Sync brings the external system's content; the others are the spec's content actions. */
const TAKES_CONTENT: readonly ReportAction[] = [...CONTENT_ACTIONS, 'sync'];

const hasContent = (body: Body) => CONTENT_FIELDS.some((f) => body[f] !== undefined);

/**
 * One report action: the machine decides on the locked row, the version guards against stale writers,
 * then row, trace and the exams' copy change in the same transaction — or nothing does.
 */
export async function runAction(deps: Deps, access: Access, reportId: number, action: ReportAction, body: Body): Promise<ReportView> {
  return deps.db.transaction(async (tx) => {
    const loaded = await loadReport(tx, reportId, { forUpdate: true });
    if (!loaded || !access.buckets.has(loaded.row.bucketId)) throw new ApiError('NotFound');
    if (loaded.exam.deletedTime !== null) throw new ApiError('NotFound', 'The exam of this report was deleted');
    const { row, state } = loaded;
    const actor = actorIn(access, row.bucketId);
    const event = eventFor(action, actor, { reason: body.reason, accountId: body.accountId, allowAdvisorEdit: body.allowAdvisorEdit });

    const next = applyEvent(state, event);
    if (!next) await refuse(tx, state, actor, action, row);
    if (body.version !== row.version) {
      throw new ApiError('VersionConflict', undefined, { version: row.version, status: presentedStatus(state) });
    }
    // Content in an advise is an edit: only an advisor the creator lets edit (core §6) may send it.
    if (action === 'advise' && hasContent(body) && !isAllowed(state, actor, 'save')) {
      throw new ApiError('Forbidden', 'Advice may not change the report unless the creator lets advisors edit', { action });
    }
    const now = deps.clock.now();
    const update = await changesFor(tx, { action, body, loaded, next: next!, actorId: actor.id, now });

    // One statement writes the row and its trace, and brings the row back with the names of the people it mentions
    // (what namesFor reads): two round trips less. The trace's snapshot is made of what this update writes over the
    // locked row (the columns it keeps come from the row as read; undefined means "unchanged", as drizzle's set has it).
    const writing: ReportRow = { ...row, version: row.version + 1 };
    for (const [key, value] of Object.entries(update)) if (value !== undefined) Object.assign(writing, { [key]: value });
    const trace = tx.$with('trace').as(tx.insert(reportTraces).values({
      reportId: row.id, accountId: actor.id, action,
      // Lifecycle statuses: the lock is the action itself (lock, unlock...) and the locker is in the snapshot.
      fromStatus: state.status, toStatus: writing.status,
      reason: traceReason(action, body), snapshot: traceSnapshot(writing), created: now,
    }).returning({ traceId: reportTraces.id }));
    // The exam copy is brought up to date in the same statement when the report covers one exam before and after.
    const examIds = [...new Set([row.examId, ...row.jointExamIds, ...writing.jointExamIds])];
    const examSync = examIds.length === 1 ? syncExamCte(tx, row.examId, writing) : null;
    const [returned] = await (examSync ? tx.with(trace, examSync) : tx.with(trace)).update(reports).set({ ...update, version: row.version + 1 })
      .where(and(eq(reports.id, row.id), eq(reports.version, row.version))).returning({ ...getTableColumns(reports), names: namesOfRow });
    // The row is locked FOR UPDATE, so this only happens if a writer bypassed the lock; refuse rather than overwrite
    // (the transaction ends and takes the trace with it).
    if (!returned) throw new ApiError('VersionConflict', undefined, { version: row.version });
    const { names, ...written } = returned;
    const after = stateFromRow(written, loaded.exam);

    // Written as planned (it is: the update sets exactly `writing`), or the copy is made again from the table.
    if (!examSync || !sameFacts(written, writing)) await syncExams(tx, [row.examId, ...row.jointExamIds, ...written.jointExamIds]);
    if (action === 'assign' || action === 'assign-remove') {
      await tx.update(exams).set({ assigneeId: written.assigneeId }).where(eq(exams.id, row.examId));
    }
    const view = { row: written, exam: loaded.exam, state: after };
    return toView(view, actor, new Map(names ?? []));
  });
}

/** Whether the row as written has the exam copy's facts `planned` said it would. */
function sameFacts(written: ReportRow, planned: ReportRow): boolean {
  return written.status === planned.status && written.lockedById === planned.lockedById && written.creatorId === planned.creatorId
    && (written.deletedTime === null) === (planned.deletedTime === null) && written.examId === planned.examId
    && written.jointExamIds.length === planned.jointExamIds.length && written.jointExamIds.every((id, i) => id === planned.jointExamIds[i]);
}

async function refuse(tx: Db, state: ReportState, actor: { id: number; actions: readonly string[] }, action: ReportAction, row: ReportRow): Promise<never> {
  const refusal = refusalFor(state, actor, action);
  if (refusal === 'ReportLocked') {
    const [locker] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.lockedById!));
    const lockerName = locker?.name ?? '';
    // `name` feeds the client's {{name}} placeholder; `lockerName` is the documented field.
    throw new ApiError('ReportLocked', `The report has been locked by ${lockerName}, your edit is invalid`, { lockedBy: row.lockedById, lockerName, name: lockerName });
  }
  throw new ApiError(refusal, undefined, { action, status: presentedStatus(state) });
}

function traceReason(action: ReportAction, body: Body): string | null {
  if (action === 'reject' || action === 'recall' || action === 'advise') return body.reason?.trim() || null;
  return null;
}

interface ChangeInput {
  action: ReportAction;
  body: Body;
  loaded: LoadedReport;
  next: ReportState;
  actorId: number;
  now: Date;
}

/**
 * The columns an accepted action writes: the machine's facts, the content, the times. Content is taken
 * only by save, submit, approve, advise and sync; the other actions change status fields alone (core §4).
 */
async function changesFor(tx: Db, { action, body, loaded, next, actorId, now }: ChangeInput): Promise<RowUpdate> {
  const { row, state } = loaded;
  const out: RowUpdate = {
    status: next.status,
    creatorId: next.creatorId,
    assigneeId: next.assigneeId,
    lockedById: next.lockedById,
    lockedAt: next.lockedById === null ? null : next.lockedById === row.lockedById ? row.lockedAt : now,
    allowAdvisorEdit: next.allowAdvisorEdit,
    syncPending: next.syncPending,
    syncStopped: next.syncStopped,
    deletedTime: next.deleted ? (row.deletedTime ?? now) : null,
  };
  if (!LOCK_ACTIONS.includes(action)) Object.assign(out, { lastUpdaterId: actorId, lastOperationTime: now });
  const takesContent = TAKES_CONTENT.includes(action) && hasContent(body);
  if (takesContent) Object.assign(out, cleanContent(body));
  const blank = () => isBlankReportHtml(out.finding ?? row.finding) && isBlankReportHtml(out.diagnosis ?? row.diagnosis);
  const firstWriting = state.status === 'none' && isNoteTakerOrigin(state);

  switch (action) {
    case 'save':
      out.savedTime = now;
      if (firstWriting) out.noteTakerId = actorId;
      break;
    case 'submit':
      if (blank()) throw new ApiError('ReportEmpty');
      Object.assign(out, await decideJointExams(tx, row, body.jointExams));
      if (firstWriting) out.noteTakerId = actorId;
      Object.assign(out, { savedTime: now, submittedTime: now, printSubmittedAt: now, rejectReason: null, recallReason: null, adviceReason: null });
      break;
    case 'approve':
      if (blank()) throw new ApiError('ReportEmpty');
      // Core §4: a recalled-then-reapproved report carries the time of the last approval, not the first.
      Object.assign(out, { issuerId: actorId, approvedTime: now, printApprovedAt: now, adviceReason: null });
      if (takesContent) out.savedTime = now;
      break;
    case 'reject':
      Object.assign(out, { rejectReason: body.reason!.trim(), issuerId: null });
      break;
    case 'recall':
      out.recallReason = body.reason!.trim();
      break;
    case 'advise':
      out.adviceReason = body.reason?.trim() || null;
      if (takesContent) out.savedTime = now;
      break;
    case 'cancelSubmit':
      out.submittedTime = null;
      break;
    case 'print': case 'update-print-time':
      out.printedTime = now;
      break;
    case 'sync':
      // The external content arrives in the body; it is read-only until someone confirms it with a save.
      if (blank()) throw new ApiError('ReportEmpty');
      break;
    case 'reset':
      Object.assign(out, {
        finding: '', diagnosis: '', positive: null, note: null, criticalValue: null, extensions: {}, bodypartCount: 1,
        rejectReason: null, recallReason: null, adviceReason: null, noteTakerId: null,
        savedTime: null, submittedTime: null, jointExamIds: [], jointDiscardedIds: [],
      });
      break;
    case 'assign':
      await assertAssignable(tx, row.bucketId, body.accountId!);
      break;
    default:
      break;
  }
  return out;
}

/** Sanitised content from the body; absent fields stay as they are. */
export function cleanContent(body: Partial<Pick<ReportActionInput, (typeof CONTENT_FIELDS)[number]>>): RowUpdate {
  const out: RowUpdate = {};
  if (body.finding !== undefined) out.finding = sanitizeReportHtml(body.finding);
  if (body.diagnosis !== undefined) out.diagnosis = sanitizeReportHtml(body.diagnosis);
  if (body.positive !== undefined) out.positive = body.positive;
  // Note and critical value are plain text, rendered as text: kept as typed, only trimmed.
  if (body.note !== undefined) out.note = body.note?.trim() || null;
  if (body.bodypartCount !== undefined) out.bodypartCount = body.bodypartCount;
  if (body.criticalValue !== undefined) out.criticalValue = body.criticalValue?.trim() || null;
  if (body.extensions !== undefined) out.extensions = body.extensions;
  return out;
}

/** An assignee must be able to write reports in the report's organisation. */
async function assertAssignable(tx: Db, bucketId: number, accountId: number): Promise<void> {
  // Sequential queries: a transaction is one connection, and node-postgres wants one query at a time on it.
  const [member] = await tx.select({ accessLevel: bucketMembers.accessLevel }).from(bucketMembers)
    .where(and(eq(bucketMembers.bucketId, bucketId), eq(bucketMembers.accountId, accountId)));
  const roleRows = member
    ? await tx.select({ actions: roles.actions }).from(roleUsers).innerJoin(roles, eq(roles.id, roleUsers.roleId))
      .where(and(eq(roleUsers.accountId, accountId), eq(roles.bucketId, bucketId)))
    : [];
  const fromRoles = new Set(roleRows.flatMap((r) => r.actions).filter(isAction));
  const [account] = member ? await tx.select({ status: accounts.status }).from(accounts).where(eq(accounts.id, accountId)) : [];
  if (!member || account?.status !== 0 || !actionsFor(member.accessLevel as BucketAccess, fromRoles).has('report_upsert')) {
    throw new ApiError('ParamsError', undefined, { fields: [{ path: 'accountId', message: 'not an active report writer of this organisation' }] });
  }
}
