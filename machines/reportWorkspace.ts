import { and, assign, raise, setup } from 'xstate';
import type { AccountSuggestion } from '../contract/accounts';
import type { JointExamCandidate, ReportAction, ReportActionInput, ReportView } from '../contract/reports';
// The workspace's own presentation rules over `transitions` (pure, no React, no I/O). Whether an action is
// allowed at all is never decided here: that is the report machine's answer (machines/report.ts), which
// reaches the screen as the server's `transitions`.
import { allows, allowsManage, isEditable, MANAGE_CALLS, offeredActions, type ManageAction, type WorkspaceAction } from './reportModel/actions';
import type { DraftOffer } from './reportModel/draft';
import { fieldProblems, fieldsOf, payloadOf, sameFields, type FieldProblem, type ReportFields } from './reportModel/fields';
import { applyAnswer, type AnsweredAction } from './reportModel/localUpdate';

/**
 * The report workspace screen (core §2, §4): loading the report, editing with a local draft, running one action
 * at a time (saving included), the dialogs an action asks through, and how a refused call leaves the page
 * (conflict, expired session, someone else's lock). Pure rules: the environment supplies the effects by name
 * (src/features/report/workspace/useReportWorkspace.ts): the calls (requestReport, requestAction, requestLock,
 * requestRefresh), each answered with an event, and the local draft, toasts, focus, printing and leaving.
 * Calls are effects plus answer events rather than invoked actors so that `createTestModel` can walk every path.
 */

export type EditorField = 'finding' | 'diagnosis';
/** The fields beside the two editors. */
export type SideFields = Omit<ReportFields, 'finding' | 'diagnosis'>;
export type ReasonAction = 'reject' | 'recall' | 'advise';
export type ConfirmAction = 'reset' | 'delete';
export type JointDecision = NonNullable<ReportActionInput['jointExams']>;

/** A failed call as the rules read it; the environment fills it from its HTTP error. */
export interface CallFailure {
  /** The catalogue code, or null when the failure was not an answer of the server. */
  code: string | null;
  details?: Record<string, unknown>;
  /** The token ended: the "Login expired" modal handles it, the text stays. */
  sessionEnding: boolean;
  /** The error itself, for the text the notice shows. */
  error: unknown;
}

/** A message above the editors: a refused or failed call (`reload` offers to load the report again), or a check. */
export type WorkspaceNotice =
  | { tone: 'error' | 'warning'; failure: CallFailure; reload: boolean }
  | { tone: 'error'; problem: FieldProblem };

/** The call in flight: what was asked, and (for a content action) the text it sent. */
export type PendingCall =
  | { kind: 'action'; action: WorkspaceAction; call: ReportAction; body: Omit<ReportActionInput, 'version'>; fields: ReportFields; withContent: boolean; leaving: boolean }
  | { kind: 'manage'; action: ManageAction; call: ReportAction; body: Omit<ReportActionInput, 'version'>; account: AccountSuggestion | null };

export interface WorkspaceContext {
  userId: number;
  /** The report as the server last answered (with its transitions and version). */
  report: ReportView | null;
  loadError: unknown;
  /** The editors' text as last typed. */
  text: Record<EditorField, string>;
  side: SideFields | null;
  allowAdvisorEdit: boolean;
  /** The text the editors start from; `key` changes when a loaded report or a restored draft replaces it. */
  start: { text: Record<EditorField, string>; key: number };
  /** What the server holds as far as this page knows: loaded, or last sent and accepted. */
  saved: ReportFields | null;
  /** The server state the current text was started from, for the draft's comparison on reopening. */
  base: { version: number; savedTime: string | null };
  dirty: boolean;
  savedAt: string | null;
  problems: FieldProblem[];
  notice: WorkspaceNotice | null;
  draft: DraftOffer;
  /** False when the browser refused the last draft write (storage full or off). */
  draftsKept: boolean;
  /** The editing lock was asked for (once per edit run: asked again only after an action or a refusal). */
  lockAsked: boolean;
  reasonFor: ReasonAction | null;
  joint: JointExamCandidate[] | null;
  confirming: ConfirmAction | null;
  pending: PendingCall | null;
}

export interface WorkspaceInput {
  userId: number;
}

export type WorkspaceEvent =
  | { type: 'LOADED'; view: ReportView; offer: DraftOffer }
  | { type: 'LOAD_FAILED'; error: unknown }
  | { type: 'RELOAD' }
  | { type: 'EDITED'; field: EditorField; html: string }
  | { type: 'SIDE_CHANGED'; key: keyof SideFields; value: SideFields[keyof SideFields] }
  | { type: 'ADVISOR_EDIT_SET'; value: boolean }
  | { type: 'RESTORE_DRAFT' }
  | { type: 'DISCARD_DRAFT' }
  | { type: 'RUN'; action: WorkspaceAction }
  | { type: 'REASON_GIVEN'; reason: string }
  | { type: 'REASON_CANCELLED' }
  | { type: 'JOINT_DECIDED'; decision: JointDecision }
  | { type: 'JOINT_CANCELLED' }
  | { type: 'MANAGE'; action: ManageAction }
  | { type: 'ASSIGN_TO'; account: AccountSuggestion }
  | { type: 'MANAGE_CONFIRMED' }
  | { type: 'MANAGE_CANCELLED' }
  | { type: 'DISMISS_NOTICE' }
  /** Leaving with unsaved text: save it first; answered through `settleLeave`. */
  | { type: 'SAVE_BEFORE_LEAVING' }
  // Answers of the environment to the effects above.
  | { type: 'ACTION_DONE'; answer: ReportView }
  | { type: 'ACTION_FAILED'; failure: CallFailure }
  | { type: 'LOCK_TAKEN'; answer: ReportView }
  | { type: 'LOCK_FAILED'; failure: CallFailure }
  | { type: 'REFRESHED'; view: ReportView }
  | { type: 'DRAFT_STORED'; ok: boolean }
  /** Internal: the text or a side field changed. */
  | { type: 'TEXT_CHANGED' };

/** Codes after which the report is asked for again and the page says why it cannot go on. */
const REFUSALS = ['ReportLocked', 'VersionConflict', 'InvalidTransition', 'Forbidden'];

export const sideOf = (fields: ReportFields): SideFields => {
  const { finding: _f, diagnosis: _d, ...side } = fields;
  return side;
};

/** Everything the user has written now: the editors' text and the side fields. */
export const currentFields = (context: Pick<WorkspaceContext, 'text' | 'side'>): ReportFields =>
  ({ ...context.text, ...(context.side ?? sideOf(fieldsOf({} as ReportView))) });

/** Leaving the workspace gives the lock back when this user holds it (the report machine also releases it on submit, approve...). */
export const holdsLock = (context: Pick<WorkspaceContext, 'report' | 'userId'>): boolean =>
  context.report !== null && context.report.lockedBy === context.userId;

/** The call of an action the user started: with the text when it carries it (approve and advise only when it changed). */
function actionCall(context: WorkspaceContext, action: WorkspaceAction, extra: { reason?: string; jointExams?: JointDecision; leaving?: boolean }): PendingCall {
  const r = context.report!;
  const offered = offeredActions(r.transitions).find((o) => o.action === action)!;
  const fields = currentFields(context);
  const isDirty = context.saved ? !sameFields(fields, context.saved) : false;
  // Advice carries text only from an advisor allowed to edit it.
  const withContent = offered.sendsContent
    && (action === 'save' || action === 'submit' || isDirty)
    && (action !== 'advise' || r.transitions.includes('save'));
  const body: Omit<ReportActionInput, 'version'> = {
    ...(withContent ? payloadOf(fields) : {}),
    ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
    ...(extra.jointExams ? { jointExams: extra.jointExams } : {}),
    ...((action === 'save' || action === 'submit') && r.creator?.id === context.userId ? { allowAdvisorEdit: context.allowAdvisorEdit } : {}),
  };
  return { kind: 'action', action, call: action as ReportAction, body, fields, withContent, leaving: extra.leaving ?? false };
}

function manageCall(action: ManageAction, account: AccountSuggestion | null): PendingCall {
  return { kind: 'manage', action, call: MANAGE_CALLS[action], body: account ? { accountId: account.id } : {}, account };
}

/** Shows `view` as stored: the editors and side fields start again from its text, nothing unsaved. */
function adopted(context: WorkspaceContext, view: ReportView): Partial<WorkspaceContext> {
  const fields = fieldsOf(view);
  const text = { finding: fields.finding, diagnosis: fields.diagnosis };
  return {
    report: view, saved: fields, base: { version: view.version, savedTime: view.savedTime }, text, side: sideOf(fields),
    allowAdvisorEdit: view.allowAdvisorEdit, start: { text, key: context.start.key + 1 }, dirty: false,
  };
}

const failureOf = (event: WorkspaceEvent): CallFailure | null => (event.type === 'ACTION_FAILED' || event.type === 'LOCK_FAILED' ? event.failure : null);
const actionOf = (event: WorkspaceEvent): WorkspaceAction | null => (event.type === 'RUN' ? event.action : null);
const answerOf = (event: WorkspaceEvent): ReportView | null => (event.type === 'ACTION_DONE' ? event.answer : null);

type Args = { context: WorkspaceContext; event: WorkspaceEvent };
// Parameters of the effects, read from the context as it stands when each runs.
const keepDraft = { type: 'storeDraft', params: ({ context }: Args) => ({ reportId: context.report!.id, base: context.base, fields: currentFields(context) }) } as const;
const dropDraft = { type: 'removeDraft', params: ({ context }: Args) => ({ reportId: context.report!.id }) } as const;
const callServer = { type: 'requestAction', params: ({ context }: Args) => ({ call: context.pending!.call, body: context.pending!.body }) } as const;
/** Every answered action is announced, except a save: its "saved" mark says it. */
const announceDone = {
  type: 'toastDone',
  params: ({ context }: Args) => (!context.pending || (context.pending.kind === 'action' && context.pending.action === 'save') ? null
    : { action: context.pending.action, name: context.pending.kind === 'manage' ? context.pending.account?.name ?? '' : '' }),
} as const;
/** The leave dialog waits for its save: it may go on only when the save went through. */
const answerLeaving = {
  type: 'settleLeave',
  params: ({ context, event }: Args) => (context.pending?.kind === 'action' && context.pending.leaving ? { ok: event.type === 'ACTION_DONE' } : null),
} as const;

export const reportWorkspaceMachine = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvent,
    input: {} as WorkspaceInput,
  },
  guards: {
    hasNothingSaved: ({ context }) => context.saved === null,
    /** Nothing typed that the server does not hold (also before anything loaded). */
    hasNothingUnsaved: ({ context }) => context.saved === null || sameFields(currentFields(context), context.saved),
    hasSideFields: ({ context }) => context.side !== null,
    /** Core §4 "locked (being edited)": the first edit takes the lock, when the machine offers it and no one asked yet. */
    needsLock: ({ context }) => {
      const r = context.report;
      return r !== null && !context.lockAsked && r.lockedBy !== context.userId && r.transitions.includes('lock');
    },
    /** The stored draft says what the server already has (a save went through after the last keystroke). */
    draftSaysWhatServerHas: ({ event }) => event.type === 'LOADED' && event.offer.kind === 'same',
    /** A draft is only offered where it could be used: the report must be editable for this user now. */
    offersDraft: ({ event }) => event.type === 'LOADED' && (event.offer.kind === 'newer' || event.offer.kind === 'older') && isEditable(event.view.transitions),
    isAllowed: ({ context, event }) => {
      const action = actionOf(event);
      return context.report !== null && action !== null && allows(context.report.transitions, action);
    },
    isPrint: ({ event }) => actionOf(event) === 'print',
    /** Core §5: an action that sends editable text checks it first. */
    failsChecks: ({ context, event }) => {
      const action = actionOf(event);
      if (!action || !context.report || !isEditable(context.report.transitions)) return false;
      const offered = offeredActions(context.report.transitions).find((o) => o.action === action);
      return !!offered?.sendsContent && fieldProblems(currentFields(context), action).length > 0;
    },
    leavesReportEmpty: ({ context, event }) => fieldProblems(currentFields(context), actionOf(event) ?? 'save').includes('reportEmpty'),
    /** Core §4: recall and reject need a reason; advice may carry one. */
    needsReason: ({ context, event }) => {
      const action = actionOf(event);
      return !!context.report && offeredActions(context.report.transitions).find((o) => o.action === action)?.reason != null;
    },
    /** The report still allows the action the dialog was asked for (an answer may have arrived meanwhile). */
    reasonStillAllowed: ({ context }) => context.report !== null && context.reasonFor !== null && allows(context.report.transitions, context.reasonFor),
    submitStillAllowed: ({ context }) => context.report !== null && allows(context.report.transitions, 'submit'),
    offersSave: ({ context }) => context.report !== null && context.report.transitions.includes('save'),
    isManageAllowed: ({ context, event }) => event.type === 'MANAGE' && context.report !== null && allowsManage(context.report.transitions, event.action),
    asksAccount: ({ event }) => event.type === 'MANAGE' && event.action === 'assign',
    asksConfirmation: ({ event }) => event.type === 'MANAGE' && (event.action === 'reset' || event.action === 'delete'),
    assignStillAllowed: ({ context }) => context.report !== null && allowsManage(context.report.transitions, 'assign'),
    confirmedStillAllowed: ({ context }) => context.report !== null && context.confirming !== null && allowsManage(context.report.transitions, context.confirming),
    isCalling: ({ context }) => context.pending !== null,
    isManageCall: ({ context }) => context.pending?.kind === 'manage',
    sentText: ({ context }) => context.pending?.kind === 'action' && context.pending.withContent,
    /** Typing went on while the save was on its way: that text is still unsaved. */
    typedWhileSending: ({ context }) => context.pending?.kind === 'action' && !sameFields(currentFields(context), context.pending.fields),
    /** Read-only from now on (a rejection, a recall): what is shown is the report as stored. */
    answerIsReadOnly: ({ event }) => { const a = answerOf(event); return a !== null && !isEditable(a.transitions); },
    isResetCall: ({ context }) => context.pending?.kind === 'manage' && context.pending.action === 'reset',
    isDeleteCall: ({ context }) => context.pending?.kind === 'manage' && context.pending.action === 'delete',
    sessionEnded: ({ event }) => failureOf(event)?.sessionEnding === true,
    /** Submit found exams to report together (409 JointExamsPending): ask which. */
    jointExamsPending: ({ context, event }) => failureOf(event)?.code === 'JointExamsPending' && context.pending?.kind === 'action' && context.pending.action === 'submit',
    isConflict: ({ event }) => failureOf(event)?.code === 'VersionConflict',
    isRefusal: ({ event }) => REFUSALS.includes(failureOf(event)?.code ?? ''),
    isReportEmpty: ({ event }) => failureOf(event)?.code === 'ReportEmpty',
    lockedByOther: ({ event }) => failureOf(event)?.code === 'ReportLocked',
  },
  actions: {
    rememberText: assign(({ context, event }) => (event.type === 'EDITED' ? { text: { ...context.text, [event.field]: event.html } } : {})),
    rememberSide: assign(({ context, event }) => (event.type === 'SIDE_CHANGED' && context.side ? { side: { ...context.side, [event.key]: event.value } } : {})),
    rememberAdvisorEdit: assign(({ event }) => (event.type === 'ADVISOR_EDIT_SET' ? { allowAdvisorEdit: event.value } : {})),
    noteTextChanged: raise({ type: 'TEXT_CHANGED' }),
    markDirty: assign(({ context }) => (context.dirty ? {} : { dirty: true })),
    markClean: assign(({ context }) => (context.dirty ? { dirty: false } : {})),
    /** Problems once shown follow the typing; none are raised by typing alone. */
    recheckProblems: assign(({ context }) => (context.problems.length ? { problems: fieldProblems(currentFields(context), 'save') } : {})),
    markLockAsked: assign({ lockAsked: true }),
    forgetLockAsked: assign({ lockAsked: false }),
    adopt: assign(({ context, event }) => (event.type === 'LOADED' ? adopted(context, event.view) : {})),
    offerDraft: assign(({ event }) => (event.type === 'LOADED' ? { draft: event.offer } : {})),
    noDraftOffer: assign({ draft: { kind: 'none' } as DraftOffer }),
    restoreDraft: assign(({ context }) => {
      if (context.draft.kind !== 'newer' && context.draft.kind !== 'older') return {};
      const fields = context.draft.draft.fields;
      const text = { finding: fields.finding, diagnosis: fields.diagnosis };
      return { text, side: sideOf(fields), start: { text, key: context.start.key + 1 }, draft: { kind: 'none' } as DraftOffer };
    }),
    rememberLoadError: assign(({ event }) => (event.type === 'LOAD_FAILED' ? { loadError: event.error } : {})),
    clearLoadError: assign({ loadError: null }),
    rememberDraftsKept: assign(({ context, event }) => (event.type === 'DRAFT_STORED' && event.ok !== context.draftsKept ? { draftsKept: event.ok } : {})),
    clearNotice: assign({ notice: null }),
    /** Shows the first failed check and keeps all of them on the fields. */
    showProblems: assign(({ context, event }) => {
      const problems = fieldProblems(currentFields(context), actionOf(event) ?? 'save');
      return { problems, notice: { tone: 'error' as const, problem: problems[0]! } };
    }),
    /** The checks passed (or did not apply): earlier marks go. */
    recordChecks: assign(({ context, event }) => {
      const action = actionOf(event);
      const r = context.report;
      if (!action || !r || !isEditable(r.transitions) || !offeredActions(r.transitions).find((o) => o.action === action)?.sendsContent) return {};
      return { problems: fieldProblems(currentFields(context), action) };
    }),
    askReason: assign(({ event }) => (event.type === 'RUN' ? { reasonFor: event.action as ReasonAction } : {})),
    closeReason: assign({ reasonFor: null }),
    askJoint: assign(({ event }) => (event.type === 'ACTION_FAILED' ? { joint: (event.failure.details?.exams ?? []) as JointExamCandidate[] } : {})),
    closeJoint: assign({ joint: null }),
    askConfirmation: assign(({ event }) => (event.type === 'MANAGE' ? { confirming: event.action as ConfirmAction } : {})),
    closeConfirmation: assign({ confirming: null }),
    startAction: assign(({ context, event }) => {
      const pending = event.type === 'RUN' ? actionCall(context, event.action, {})
        : event.type === 'REASON_GIVEN' ? actionCall(context, context.reasonFor!, { reason: event.reason })
          : event.type === 'JOINT_DECIDED' ? actionCall(context, 'submit', { jointExams: event.decision })
            : actionCall(context, 'save', { leaving: true });
      return { pending, notice: null };
    }),
    startManage: assign(({ context, event }) => {
      const pending = event.type === 'MANAGE' ? manageCall(event.action, null)
        : event.type === 'ASSIGN_TO' ? manageCall('assign', event.account)
          : manageCall(context.confirming!, null);
      return { pending, notice: null };
    }),
    /** The call answered: nothing in flight, and the confirmation (if one asked) closes. */
    finishCall: assign({ pending: null, confirming: null }),
    takeAnswer: assign(({ context, event }) => {
      if (event.type !== 'ACTION_DONE' || !context.report || !context.pending) return {};
      return { report: applyAnswer(context.report, event.answer, context.pending.call as AnsweredAction) };
    }),
    /** The sent text is what the server holds now; typing that went on meanwhile stays unsaved. */
    markSentTextSaved: assign(({ context, event }) => {
      if (event.type !== 'ACTION_DONE' || context.pending?.kind !== 'action') return {};
      const fields = context.pending.fields;
      return {
        saved: fields, base: { version: event.answer.version, savedTime: event.answer.savedTime },
        dirty: !sameFields(currentFields(context), fields), savedAt: event.answer.savedTime,
      };
    }),
    /** A reset cleared the text on the server: show the empty report, nothing marked, nothing saved yet. */
    adoptReset: assign(({ context }) => ({ ...adopted(context, context.report!), problems: [], savedAt: null })),
    takeLockAnswer: assign(({ context, event }) => (event.type === 'LOCK_TAKEN' && context.report ? { report: applyAnswer(context.report, event.answer, 'lock') } : {})),
    /** Core §4 "empty action": the report's status as the server has it now, without touching the text. */
    takeRefresh: assign(({ context, event }) => (event.type === 'REFRESHED' && context.report ? { report: applyAnswer(context.report, event.view, '') } : {})),
    showFailure: assign(({ event }) => {
      const failure = failureOf(event);
      if (!failure) return {};
      const conflict = failure.code === 'VersionConflict';
      const tone: 'error' | 'warning' = conflict ? 'warning' : 'error';
      return { notice: { tone, failure, reload: conflict } };
    }),
    showLockRefusal: assign(({ event }) => {
      const failure = failureOf(event);
      return failure ? { notice: { tone: 'error' as const, failure, reload: false } } : {};
    }),
    markReportEmpty: assign({ problems: ['reportEmpty'] as FieldProblem[] }),
    // Effects, implemented by the environment. The request* ones answer with the events above.
    requestReport: () => undefined,
    requestAction: (_, _params: { call: ReportAction; body: Omit<ReportActionInput, 'version'> }) => undefined,
    requestLock: () => undefined,
    requestRefresh: () => undefined,
    /** Keeps the text locally (answered with DRAFT_STORED). */
    storeDraft: (_, _params: { reportId: number; base: WorkspaceContext['base']; fields: ReportFields }) => undefined,
    removeDraft: (_, _params: { reportId: number }) => undefined,
    /** null: nothing to say (a save shows its "saved" mark instead). */
    toastDone: (_, _params: { action: WorkspaceAction | ManageAction; name: string } | null) => undefined,
    focusFinding: () => undefined,
    print: () => undefined,
    /** The report was deleted: it is no longer in the list this page came from. */
    leave: () => undefined,
    /** null: the call was not a save before leaving. */
    settleLeave: (_, _params: { ok: boolean } | null) => undefined,
  },
}).createMachine({
  id: 'reportWorkspace',
  context: ({ input }) => ({
    userId: input.userId, report: null, loadError: null, text: { finding: '', diagnosis: '' }, side: null, allowAdvisorEdit: false,
    start: { text: { finding: '', diagnosis: '' }, key: 0 }, saved: null, base: { version: 0, savedTime: null }, dirty: false,
    savedAt: null, problems: [], notice: null, draft: { kind: 'none' }, draftsKept: true, lockAsked: false,
    reasonFor: null, joint: null, confirming: null, pending: null,
  }),
  initial: 'loading',
  on: {
    // Typing goes on in every state: the editors stay mounted (also under the "Login expired" modal).
    EDITED: { actions: ['rememberText', 'noteTextChanged'] },
    SIDE_CHANGED: { guard: 'hasSideFields', actions: ['rememberSide', 'noteTextChanged'] },
    TEXT_CHANGED: [
      { guard: 'hasNothingSaved' },
      { guard: 'hasNothingUnsaved', actions: ['markClean', 'recheckProblems', dropDraft] },
      { guard: 'needsLock', actions: ['markDirty', 'recheckProblems', keepDraft, 'markLockAsked', 'requestLock'] },
      { actions: ['markDirty', 'recheckProblems', keepDraft] },
    ],
    ADVISOR_EDIT_SET: { actions: 'rememberAdvisorEdit' },
    DISMISS_NOTICE: { actions: 'clearNotice' },
    DRAFT_STORED: { actions: 'rememberDraftsKept' },
    LOCK_TAKEN: { actions: 'takeLockAnswer' },
    LOCK_FAILED: [
      { guard: 'sessionEnded', actions: 'forgetLockAsked' },
      // Someone else took it first: say why the page turned read-only; the typed words stay in the draft.
      { guard: 'lockedByOther', actions: ['forgetLockAsked', 'showLockRefusal', 'requestRefresh'] },
      { actions: ['forgetLockAsked', 'requestRefresh'] },
    ],
    REFRESHED: { actions: 'takeRefresh' },
    SAVE_BEFORE_LEAVING: [
      { guard: 'hasNothingUnsaved', actions: { type: 'settleLeave', params: { ok: true } } },
      // Busy or not allowed to save: the user decides again.
      { actions: { type: 'settleLeave', params: { ok: false } } },
    ],
  },
  states: {
    loading: {
      entry: 'requestReport',
      on: {
        LOADED: [
          { guard: 'draftSaysWhatServerHas', target: 'open.idle', actions: ['adopt', 'noDraftOffer', dropDraft] },
          { guard: 'offersDraft', target: 'open.decidingDraft', actions: ['adopt', 'offerDraft'] },
          { target: 'open.idle', actions: ['adopt', 'noDraftOffer'] },
        ],
        LOAD_FAILED: { target: 'failed', actions: 'rememberLoadError' },
      },
    },
    failed: {
      on: { RELOAD: { target: 'loading', actions: 'clearLoadError' } },
    },
    open: {
      initial: 'idle',
      on: {
        ACTION_DONE: [
          { guard: 'isResetCall', target: '.idle', actions: ['takeAnswer', 'adoptReset', dropDraft, 'forgetLockAsked', announceDone, 'finishCall'] },
          { guard: 'isDeleteCall', target: '.idle', actions: ['takeAnswer', dropDraft, 'forgetLockAsked', announceDone, 'leave', 'finishCall'] },
          { guard: 'isManageCall', target: '.idle', actions: ['takeAnswer', 'forgetLockAsked', announceDone, 'finishCall'] },
          { guard: and(['sentText', 'typedWhileSending']), target: '.idle', actions: ['takeAnswer', 'markSentTextSaved', keepDraft, announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
          { guard: 'sentText', target: '.idle', actions: ['takeAnswer', 'markSentTextSaved', dropDraft, announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'answerIsReadOnly']), target: '.idle', actions: ['takeAnswer', 'markClean', announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
          { guard: 'isCalling', target: '.idle', actions: ['takeAnswer', announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
        ],
        ACTION_FAILED: [
          // "Login expired" handles it; the text stays (and in the draft), and is saved after signing in again.
          { guard: and(['isCalling', 'sessionEnded']), target: '.idle.sessionExpired', actions: [answerLeaving, 'finishCall'] },
          { guard: 'jointExamsPending', target: '.askingJoint', actions: ['askJoint', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'isConflict']), target: '.idle.conflict', actions: ['requestRefresh', 'showFailure', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'isRefusal']), target: '.idle', actions: ['requestRefresh', 'showFailure', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'isReportEmpty']), target: '.idle', actions: ['markReportEmpty', 'focusFinding', 'showFailure', answerLeaving, 'finishCall'] },
          { guard: 'isCalling', target: '.idle', actions: ['showFailure', answerLeaving, 'finishCall'] },
        ],
      },
      states: {
        /** A local draft differs from the server's text: restore or discard it before anything else. */
        decidingDraft: {
          on: {
            // The editors and fields are read-only until the draft is restored or discarded.
            EDITED: {},
            SIDE_CHANGED: {},
            RESTORE_DRAFT: { target: 'idle', actions: ['restoreDraft', 'noteTextChanged'] },
            DISCARD_DRAFT: { target: 'idle', actions: ['noDraftOffer', dropDraft] },
          },
        },
        idle: {
          initial: 'editing',
          on: {
            RUN: [
              { guard: and(['isAllowed', 'isPrint']), actions: 'print' },
              { guard: and(['isAllowed', 'failsChecks', 'leavesReportEmpty']), actions: ['showProblems', 'focusFinding'] },
              { guard: and(['isAllowed', 'failsChecks']), actions: 'showProblems' },
              { guard: and(['isAllowed', 'needsReason']), target: 'askingReason', actions: ['recordChecks', 'askReason'] },
              { guard: 'isAllowed', target: 'running', actions: ['recordChecks', 'startAction', callServer] },
            ],
            MANAGE: [
              { guard: and(['isManageAllowed', 'asksAccount']), target: 'assigning' },
              { guard: and(['isManageAllowed', 'asksConfirmation']), target: 'confirming', actions: 'askConfirmation' },
              { guard: 'isManageAllowed', target: 'running', actions: ['startManage', callServer] },
            ],
            // The conflict notice's "Reload" (it dismisses the notice first): the report as stored now; the text stays in the draft.
            RELOAD: { target: '#reportWorkspace.loading', actions: 'clearNotice' },
            SAVE_BEFORE_LEAVING: [
              { guard: 'hasNothingUnsaved', actions: { type: 'settleLeave', params: { ok: true } } },
              { guard: 'offersSave', target: 'running', actions: ['startAction', callServer] },
              { actions: { type: 'settleLeave', params: { ok: false } } },
            ],
          },
          states: {
            editing: {},
            /** Someone saved the report meanwhile (409 VersionConflict): the notice offers to load it again; the text is in the draft. */
            conflict: {
              on: {
                // A newer refusal replaces the conflict's notice (and its offer to reload).
                LOCK_FAILED: { guard: 'lockedByOther', target: 'editing', actions: ['forgetLockAsked', 'showLockRefusal', 'requestRefresh'] },
                DISMISS_NOTICE: { target: 'editing', actions: 'clearNotice' },
              },
            },
            /** A call met an ended token: the "Login expired" modal is up, the text stays here and in the draft. */
            sessionExpired: {},
          },
        },
        askingReason: {
          on: {
            REASON_GIVEN: [
              { guard: 'reasonStillAllowed', target: 'running', actions: ['startAction', 'closeReason', callServer] },
              { target: 'idle', actions: 'closeReason' },
            ],
            REASON_CANCELLED: { target: 'idle', actions: 'closeReason' },
          },
        },
        askingJoint: {
          on: {
            JOINT_DECIDED: [
              { guard: 'submitStillAllowed', target: 'running', actions: ['closeJoint', 'startAction', callServer] },
              { target: 'idle', actions: 'closeJoint' },
            ],
            JOINT_CANCELLED: { target: 'idle', actions: 'closeJoint' },
          },
        },
        /** The assign dialog; it stays open while the assignment is sent, and closes whatever the answer. */
        assigning: {
          initial: 'choosing',
          on: { MANAGE_CANCELLED: { target: 'idle' } },
          states: {
            choosing: {
              on: {
                ASSIGN_TO: [
                  { guard: 'assignStillAllowed', target: 'sending', actions: ['startManage', callServer] },
                  { target: '#reportWorkspace.open.idle' },
                ],
              },
            },
            sending: {
              on: {
                MANAGE_CANCELLED: { target: '#reportWorkspace.open.running' },
              },
            },
          },
        },
        /** A reset or delete waiting for its confirmation; the dialog stays while the call runs. */
        confirming: {
          initial: 'asking',
          on: { MANAGE_CANCELLED: { target: 'idle', actions: 'closeConfirmation' } },
          states: {
            asking: {
              on: {
                MANAGE_CONFIRMED: [
                  { guard: 'confirmedStillAllowed', target: 'sending', actions: ['startManage', callServer] },
                  { target: '#reportWorkspace.open.idle', actions: 'closeConfirmation' },
                ],
              },
            },
            sending: {
              on: {
                MANAGE_CANCELLED: { target: '#reportWorkspace.open.running', actions: 'closeConfirmation' },
              },
            },
          },
        },
        /** One call at a time (saving included); `pending` says which. */
        running: {},
      },
    },
  },
});
