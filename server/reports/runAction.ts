import { and, eq } from 'drizzle-orm';
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
import { accounts, bucketMembers, exams, roleUsers, roles } from '../db/schema';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { enabledDestination, enqueueIssued, issues } from '../hl7/outbound/outbox';
import { syncExams } from './examSync';
import { decideJointExams } from './joint';
import { actorIn, loadReport, stateFromRow, type LoadedReport, type ReportRow } from './load';
import { toView } from './view';
import { plannedRow, writeReport, type RowUpdate } from './write';

type Body = z.infer<typeof reportActionInput>;

const CONTENT_FIELDS = ['finding', 'diagnosis', 'positive', 'note', 'bodypartCount', 'criticalValue', 'extensions'] as const;
/** Holding or releasing the editing lock is not an operation on the report (core §4 "time of the last operation"). */
const LOCK_ACTIONS: readonly ReportAction[] = ['lock', 'unlock', 'force-unlock'];
/** Sync brings the external system's content; the others are the spec's content actions. */
const TAKES_CONTENT: readonly ReportAction[] = [...CONTENT_ACTIONS, 'sync'];

const hasContent = (body: Body) => CONTENT_FIELDS.some((f) => body[f] !== undefined);

/** Actions that write more than the report, its trace and the exam copy: they run in a transaction from the start. */
const FOLLOW_UP_WRITES: readonly ReportAction[] = ['assign', 'assign-remove'];

/**
 * One report action. Nearly always it writes the report, its trace and one exam's worklist copy, and then it is one
 * statement guarded by the version the row was read at: no transaction, so no BEGIN and COMMIT round trips (issue 18).
 * A writer who got in between makes the guard match nothing and nothing is written; the action then runs again the
 * careful way, in a transaction that locks the row, which gives the answer the lock would have given (the version
 * conflict, with the row's current version and status). Joint reports and assignments take that way from the start.
 */
export async function runAction(deps: Deps, access: Access, reportId: number, action: ReportAction, body: Body): Promise<ReportView> {
  if (!FOLLOW_UP_WRITES.includes(action)) {
    const view = await act(deps, deps.db, 'optimistic', access, reportId, action, body);
    if (view) return view;
  }
  return deps.db.transaction(async (tx) => (await act(deps, tx, 'locked', access, reportId, action, body))!);
}

/**
 * The action on the row as read: the machine decides, the version guards against stale writers, then row, trace and
 * the exams' copy change in one statement (plus syncExams and the assignee's copy in the locked way) — or nothing
 * does. 'optimistic' answers null where only the locked way can go on: the report covers several exams, or another
 * writer changed the row after it was read.
 */
async function act(deps: Deps, db: Db, mode: 'optimistic' | 'locked', access: Access, reportId: number, action: ReportAction, body: Body): Promise<ReportView | null> {
  const loaded = await loadReport(db, reportId, { forUpdate: mode === 'locked' });
  if (!loaded || !access.buckets.has(loaded.row.bucketId)) throw new ApiError('NotFound');
  if (loaded.exam.deletedTime !== null) throw new ApiError('NotFound', 'The exam of this report was deleted');
  const { row, state } = loaded;
  const actor = actorIn(access, row.bucketId);
  const event = eventFor(action, actor, { reason: body.reason, accountId: body.accountId, allowAdvisorEdit: body.allowAdvisorEdit });

  const next = applyEvent(state, event);
  if (!next) await refuse(db, state, actor, action, row);
  if (body.version !== row.version) {
    throw new ApiError('VersionConflict', undefined, { version: row.version, status: presentedStatus(state) });
  }
  // Content in an advise is an edit: only an advisor the creator lets edit (core §6) may send it.
  if (action === 'advise' && hasContent(body) && !isAllowed(state, actor, 'save')) {
    throw new ApiError('Forbidden', 'Advice may not change the report unless the creator lets advisors edit', { action });
  }
  // An issue to an organisation that sends results over HL7 queues its ORU in the same transaction (the outbox):
  // the one-statement way has no transaction, so it gives way to the locked one.
  const issuing = issues(state.status, next!.status);
  if (mode === 'optimistic' && issuing && await enabledDestination(db, row.bucketId)) return null;
  const now = deps.clock.now();
  const update = await changesFor(db, { action, body, loaded, next: next!, actorId: actor.id, now });

  const writing = plannedRow(row, update);
  // The exam copy is brought up to date in the same statement when the report covers one exam before and after.
  const examIds = [...new Set([row.examId, ...row.jointExamIds, ...writing.jointExamIds])];
  if (mode === 'optimistic' && examIds.length !== 1) return null;
  const syncExamId = examIds.length === 1 ? row.examId : null;
  const returned = await writeReport(db, {
    row, update, syncExamId, trace: { accountId: actor.id, action, reason: traceReason(action, body), created: now },
  });
  if (!returned) {
    if (mode === 'optimistic') return null;
    // The row is locked FOR UPDATE, so this only happens if a writer bypassed the lock; refuse rather than overwrite.
    throw new ApiError('VersionConflict', undefined, { version: row.version });
  }
  const { names, ...writtenRow } = returned;
  const after = stateFromRow(writtenRow, loaded.exam, state.finalOnSubmit);

  // Written as planned (it is: the update sets exactly `writing`), or the copy is made again from the table.
  if (syncExamId === null || !sameFacts(writtenRow, writing)) {
    const ids = [row.examId, ...row.jointExamIds, ...writtenRow.jointExamIds];
    await (mode === 'locked' ? syncExams(db, ids) : db.transaction((tx) => syncExams(tx, ids)));
  }
  if (mode === 'locked' && issuing) await enqueueIssued(db, writtenRow, now);
  if (action === 'assign' || action === 'assign-remove') {
    await db.update(exams).set({ assigneeId: writtenRow.assigneeId }).where(eq(exams.id, row.examId));
  }
  return toView({ row: writtenRow, exam: loaded.exam, state: after }, actor, new Map(names ?? []));
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
      // The organisation issues on submit (the machine went straight to corrected): the writer is the issuer.
      if (next.status === 'corrected') Object.assign(out, { issuerId: actorId, approvedTime: now, printApprovedAt: now });
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
