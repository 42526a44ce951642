import { assign, raise, setup } from 'xstate';
import type { AccountSuggestion } from '../../contract/accounts';
import type { JointExamCandidate, ReportAction, ReportActionInput, ReportView } from '../../contract/reports';
// The workspace's own presentation rules over `transitions` (pure, no React, no I/O). Whether an action is
// allowed at all is never decided here: that is the report machine's answer (machines/report.ts), which
// reaches the screen as the server's `transitions`.
import { allows, allowsManage, isEditable, MANAGE_CALLS, offeredActions, type ManageAction, type WorkspaceAction } from './actions';
import type { DraftOffer } from './draft';
import { fieldProblems, fieldsOf, payloadOf, sameFields, type FieldProblem, type ReportFields } from './fields';
import { applyAnswer, type AnsweredAction } from './localUpdate';
import type {
  CallFailure, ConfirmAction, JointDecision, PendingCall, ReasonAction, SideFields, WorkspaceContext, WorkspaceEvent, WorkspaceInput,
} from './workspaceTypes';

/**
 * The report workspace's rules (machines/reportWorkspace.ts): its guards and actions, and the calls they build. The
 * states that use them are the machine's file; the effects' real work is the environment's.
 */
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
export const keepDraft = { type: 'storeDraft', params: ({ context }: Args) => ({ reportId: context.report!.id, base: context.base, fields: currentFields(context) }) } as const;
export const dropDraft = { type: 'removeDraft', params: ({ context }: Args) => ({ reportId: context.report!.id }) } as const;
export const callServer = { type: 'requestAction', params: ({ context }: Args) => ({ call: context.pending!.call, body: context.pending!.body }) } as const;
/** Every answered action is announced, except a save: its "saved" mark says it. */
export const announceDone = {
  type: 'toastDone',
  params: ({ context }: Args) => (!context.pending || (context.pending.kind === 'action' && context.pending.action === 'save') ? null
    : { action: context.pending.action, name: context.pending.kind === 'manage' ? context.pending.account?.name ?? '' : '' }),
} as const;
/** The leave dialog waits for its save: it may go on only when the save went through. */
export const answerLeaving = {
  type: 'settleLeave',
  params: ({ context, event }: Args) => (context.pending?.kind === 'action' && context.pending.leaving ? { ok: event.type === 'ACTION_DONE' } : null),
} as const;

export const workspaceSetup = setup({
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
});
