import type { Editor } from '@tiptap/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import type { AccountSuggestion } from '../../../../contract/accounts';
import type { JointExamCandidate, ReportAction, ReportActionInput, ReportView } from '../../../../contract/reports';
import {
  holdsLock, reportWorkspaceMachine, type CallFailure, type SideFields, type WorkspaceContext, type WorkspaceEvent,
} from '../../../../machines/reportWorkspace';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { reportApi } from '../api';
import type { EditorField } from '../editor/ReportEditor';
import type { ConfirmAction } from '../actions/ConfirmDialog';
import type { JointDecision } from '../actions/JointExamsDialog';
import type { ReasonAction } from '../actions/ReasonDialog';
import { isEditable, type ManageAction, type WorkspaceAction } from '../../../../machines/reportModel/actions';
import { draftOffer, drafts, type DraftOffer } from '../model/draftStore';
import { fieldsOf, type FieldProblem, type ReportFields } from '../../../../machines/reportModel/fields';
import { cleanReportHtml } from '../model/sanitize';
import { takePrimedReport } from '@/lib/cases/primed';

export type { SideFields } from '../../../../machines/reportWorkspace';
/** A message above the editors; `reload` offers to load the report again (after someone else changed it). */
export type Notice = { tone: 'error' | 'warning' | 'info'; text: string; reload?: boolean } | null;

export interface Workspace {
  report: ReportView | null;
  loadError: unknown;
  reload: () => void;
  /** Core §4 editable, and no draft decision pending. */
  editable: boolean;
  /** Someone else holds the editing lock (core §8 "locked by {name}"). */
  lockedByOther: boolean;
  side: SideFields | null;
  setSide: <K extends keyof SideFields>(key: K, value: SideFields[K]) => void;
  allowAdvisorEdit: boolean;
  setAllowAdvisorEdit: (value: boolean) => void;
  /** The text each editor starts from; `editorKey` changes when a restored draft replaces it. */
  seed: Record<EditorField, string>;
  editorKey: number;
  onEditorChange: (field: EditorField, html: string) => void;
  editors: React.RefObject<Record<EditorField, Editor | null>>;
  onEditorReady: (field: EditorField, editor: Editor | null) => void;
  dirty: boolean;
  busy: WorkspaceAction | ManageAction | null;
  savedAt: string | null;
  problems: FieldProblem[];
  notice: Notice;
  dismissNotice: () => void;
  draft: DraftOffer;
  restoreDraft: () => void;
  discardDraft: () => void;
  /** False when the browser refuses to keep drafts (storage full or off). */
  draftsKept: boolean;
  run: (action: WorkspaceAction) => void;
  reasonFor: ReasonAction | null;
  confirmReason: (reason: string) => void;
  cancelReason: () => void;
  joint: JointExamCandidate[] | null;
  decideJoint: (decision: JointDecision) => void;
  cancelJoint: () => void;
  forceUnlock: () => void;
  /** Housekeeping (assign, remove the assignment, force unlock, recover, reset, delete), each only when `transitions` allow it. */
  manage: (action: ManageAction) => void;
  /** The assign dialog is open. */
  assigning: boolean;
  assignTo: (account: AccountSuggestion) => void;
  /** A reset or delete waiting for its confirmation. */
  confirming: ConfirmAction | null;
  confirmManage: () => void;
  /** Closes the assign dialog or the confirmation without doing anything. */
  cancelManage: () => void;
  /** Saves when there is something to save; resolves true when nothing unsaved remains. */
  saveIfDirty: () => Promise<boolean>;
}

/** Report HTML as the browser serialises it, so the editor's and the server's spelling of one text compare equal. */
const normal = (fields: ReportFields): ReportFields => ({ ...fields, finding: cleanReportHtml(fields.finding), diagnosis: cleanReportHtml(fields.diagnosis) });

const failureOf = (error: unknown): CallFailure => ({
  code: isHttpError(error) ? error.code : null,
  details: isHttpError(error) ? error.details : undefined,
  sessionEnding: isSessionEndingError(error),
  error,
});

type WorkspaceSnapshot = SnapshotFrom<typeof reportWorkspaceMachine>;

/** What the screen draws: every piece changes identity only when it changes, so typing re-renders nothing here. */
const selectView = (snapshot: WorkspaceSnapshot) => {
  const c = snapshot.context;
  return {
    report: c.report, loadError: c.loadError, side: c.side, allowAdvisorEdit: c.allowAdvisorEdit, start: c.start, dirty: c.dirty,
    busy: c.pending?.action ?? null, savedAt: c.savedAt, problems: c.problems, notice: c.notice, draft: c.draft, draftsKept: c.draftsKept,
    reasonFor: c.reasonFor, joint: c.joint, assigning: snapshot.matches({ open: 'assigning' }), confirming: c.confirming,
  };
};
type View = ReturnType<typeof selectView>;
const sameView = (a: View, b: View) => (Object.keys(a) as (keyof View)[]).every((key) => Object.is(a[key], b[key]));

type Self = { send: (e: WorkspaceEvent) => void; getSnapshot: () => { status: string; context: WorkspaceContext } };

/** The machine's effects for one report and user, and what they share: the call queue, the load, the editors, the leave dialog's wait. */
function workspaceEnvironment(reportId: number, userId: number, callbacks: { t: TFunction; onPrint: () => void; onDeleted: () => void }) {
  const env = {
    ...callbacks,
    queue: Promise.resolve() as Promise<unknown>,
    loading: null as AbortController | null,
    /** The leave dialog's "save and leave", waiting for the save's answer. */
    leaving: [] as ((ok: boolean) => void)[],
    editors: { current: { finding: null, diagnosis: null } } as React.RefObject<Record<EditorField, Editor | null>>,
  };
  /** One call at a time per report, each reading the version the previous one left; the answer is sent before the next starts. */
  const act = (self: Self, call: ReportAction, body: Omit<ReportActionInput, 'version'>,
    answered: (answer: ReportView) => WorkspaceEvent, refused: (failure: CallFailure) => WorkspaceEvent) => {
    const send = (event: WorkspaceEvent) => self.getSnapshot().status === 'active' && self.send(event);
    const run = async () => {
      const before = self.getSnapshot().context.report!;
      try {
        send(answered(await reportApi.act(before.id, call, { ...body, version: before.version })));
      } catch (error) {
        send(refused(failureOf(error)));
      }
    };
    env.queue = env.queue.then(run, run);
  };
  const load = (self: Self) => {
    env.loading?.abort();
    const controller = new AbortController();
    env.loading = controller;
    const primed = takePrimedReport(reportId);
    (primed ? Promise.resolve(primed) : reportApi.detail(reportId, { signal: controller.signal })).then(
      (view) => {
        // A primed view resolves even after the page was left (a fast second visit): only the live one takes it.
        if (controller.signal.aborted) return;
        drafts.prune(Date.now());
        const stored = drafts.read(userId, view.id);
        const offer = draftOffer(stored && { ...stored, fields: normal(stored.fields) }, { version: view.version, savedTime: view.savedTime, fields: normal(fieldsOf(view)) });
        self.send({ type: 'LOADED', view, offer });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) self.send({ type: 'LOAD_FAILED', error });
      },
    );
  };
  const machine = reportWorkspaceMachine.provide({
    actions: {
      requestReport: ({ self }) => load(self),
      requestAction: ({ self }, { call, body }) => act(self, call, body, (answer) => ({ type: 'ACTION_DONE', answer }), (failure) => ({ type: 'ACTION_FAILED', failure })),
      requestLock: ({ self }) => act(self, 'lock', {}, (answer) => ({ type: 'LOCK_TAKEN', answer }), (failure) => ({ type: 'LOCK_FAILED', failure })),
      requestRefresh: ({ self }) => {
        const r = self.getSnapshot().context.report;
        if (!r) return;
        // A failure is left for the next action to tell.
        reportApi.detail(r.id).then((view) => self.getSnapshot().status === 'active' && self.send({ type: 'REFRESHED', view }), () => undefined);
      },
      storeDraft: ({ self }, { reportId: id, base, fields }) => {
        const ok = drafts.write({ v: 1, userId, reportId: id, baseVersion: base.version, baseSavedTime: base.savedTime, updatedAt: Date.now(), fields });
        self.send({ type: 'DRAFT_STORED', ok });
      },
      removeDraft: (_, { reportId: id }) => drafts.remove(userId, id),
      toastDone: (_, done) => {
        if (done) toasts.show({ message: env.t(`report.done.${done.action}`, { name: done.name }), kind: 'success' });
      },
      focusFinding: () => env.editors.current.finding?.commands.focus('end'),
      print: () => env.onPrint(),
      leave: () => env.onDeleted(),
      settleLeave: (_, settled) => {
        if (settled) env.leaving.splice(0).forEach((resolve) => resolve(settled.ok));
      },
    },
  });
  /** Leaving the workspace gives the lock back (the report machine also releases it on submit, approve, reject...). */
  const releaseLock = (self: Self) => {
    if (!holdsLock(self.getSnapshot().context)) return;
    const release = async () => {
      const latest = self.getSnapshot().context.report;
      if (!latest || latest.lockedBy !== userId || !latest.transitions.includes('unlock')) return;
      await reportApi.act(latest.id, 'unlock', { version: latest.version }).catch(() => undefined);
    };
    env.queue = env.queue.then(release, release);
  };
  const setEditor = (field: EditorField, editor: Editor | null) => {
    env.editors.current[field] = editor;
  };
  return { env, machine, load, releaseLock, setEditor };
}

/**
 * The report workspace as React sees it: machines/reportWorkspace.ts decides (loading, editing, the draft,
 * one action at a time, conflicts and expired sessions); this hook supplies its effects (the calls, the local
 * draft store, toasts, focus, printing, leaving) and hands the screen what it draws.
 * Calls on one report go one after another, each with the version the previous answer gave.
 */
export function useReportWorkspace(reportId: number, userId: number, onPrint: () => void, onDeleted: () => void): Workspace {
  const { t } = useTranslation();
  const [{ env, machine, load, releaseLock, setEditor }] = useState(() => workspaceEnvironment(reportId, userId, { t, onPrint, onDeleted }));
  useEffect(() => {
    Object.assign(env, { t, onPrint, onDeleted });
  }, [env, t, onPrint, onDeleted]);
  const actor = useActorRef(machine, { input: { userId } });
  const view = useSelector(actor, selectView, sameView);

  useEffect(() => {
    // StrictMode's second mount restarts the actor without its entry effects: the load the first cleanup aborted is asked again.
    if (env.loading?.signal.aborted && actor.getSnapshot().matches('loading')) load(actor);
    return () => env.loading?.abort();
  }, [env, actor, load]);
  useEffect(() => () => releaseLock(actor), [actor, releaseLock]);

  const send = useCallback((event: WorkspaceEvent) => actor.send(event), [actor]);
  const onEditorChange = useCallback((field: EditorField, html: string) => send({ type: 'EDITED', field, html }), [send]);
  const onEditorReady = useCallback((field: EditorField, editor: Editor | null) => setEditor(field, editor), [setEditor]);
  const setSide = useCallback(<K extends keyof SideFields>(key: K, value: SideFields[K]) => send({ type: 'SIDE_CHANGED', key, value }), [send]);
  const setAllowAdvisorEdit = useCallback((value: boolean) => send({ type: 'ADVISOR_EDIT_SET', value }), [send]);
  const run = useCallback((action: WorkspaceAction) => send({ type: 'RUN', action }), [send]);
  const confirmReason = useCallback((reason: string) => send({ type: 'REASON_GIVEN', reason }), [send]);
  const decideJoint = useCallback((decision: JointDecision) => send({ type: 'JOINT_DECIDED', decision }), [send]);
  const restoreDraft = useCallback(() => send({ type: 'RESTORE_DRAFT' }), [send]);
  const discardDraft = useCallback(() => send({ type: 'DISCARD_DRAFT' }), [send]);
  const manage = useCallback((action: ManageAction) => send({ type: 'MANAGE', action }), [send]);
  const forceUnlock = useCallback(() => manage('forceUnlock'), [manage]);
  const assignTo = useCallback((account: AccountSuggestion) => send({ type: 'ASSIGN_TO', account }), [send]);
  const confirmManage = useCallback(() => send({ type: 'MANAGE_CONFIRMED' }), [send]);
  const cancelManage = useCallback(() => send({ type: 'MANAGE_CANCELLED' }), [send]);
  const saveIfDirty = useCallback(() => new Promise<boolean>((resolve) => {
    env.leaving.push(resolve);
    send({ type: 'SAVE_BEFORE_LEAVING' });
  }), [env, send]);

  const { report, start, notice: shown } = view;
  const seed = useMemo(() => (start.key === 0 ? start.text : { finding: cleanReportHtml(start.text.finding), diagnosis: cleanReportHtml(start.text.diagnosis) }), [start]);
  const notice = useMemo((): Notice => {
    if (!shown) return null;
    if ('problem' in shown) return { tone: shown.tone, text: t(`report.problems.${shown.problem}`) };
    return { tone: shown.tone, text: errorText(t, shown.failure.error), reload: shown.reload };
  }, [shown, t]);
  const editable = report !== null && view.draft.kind === 'none' && isEditable(report.transitions);
  const lockedByOther = report !== null && report.status === 'locked' && report.lockedBy !== null && report.lockedBy !== userId;

  const { loadError, side, allowAdvisorEdit, dirty, busy, savedAt, problems, draft, draftsKept, reasonFor, joint, assigning, confirming } = view;
  return useMemo(() => ({
    report, loadError, reload: () => send({ type: 'RELOAD' }), editable, lockedByOther,
    side, setSide, allowAdvisorEdit, setAllowAdvisorEdit, seed, editorKey: start.key, onEditorChange, editors: env.editors, onEditorReady,
    dirty, busy, savedAt, problems, notice, dismissNotice: () => send({ type: 'DISMISS_NOTICE' }),
    draft, restoreDraft, discardDraft, draftsKept,
    run, reasonFor, confirmReason, cancelReason: () => send({ type: 'REASON_CANCELLED' }),
    joint, decideJoint, cancelJoint: () => send({ type: 'JOINT_CANCELLED' }), forceUnlock, saveIfDirty,
    manage, assigning, assignTo, confirming, confirmManage, cancelManage,
  }), [report, loadError, send, env.editors, editable, lockedByOther, side, setSide, allowAdvisorEdit, setAllowAdvisorEdit, seed, start.key, onEditorChange, onEditorReady,
    dirty, busy, savedAt, problems, notice, draft, restoreDraft, discardDraft, draftsKept, run, reasonFor, confirmReason, joint,
    decideJoint, forceUnlock, saveIfDirty, manage, assigning, assignTo, confirming, confirmManage, cancelManage]);
}
