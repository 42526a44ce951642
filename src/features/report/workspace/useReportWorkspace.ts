import type { Editor } from '@tiptap/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSuggestion } from '../../../../contract/accounts';
import type { JointExamCandidate, ReportAction, ReportActionInput, ReportView } from '../../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { reportApi } from '../api';
import type { EditorField } from '../editor/ReportEditor';
import type { ConfirmAction } from '../actions/ConfirmDialog';
import type { JointDecision } from '../actions/JointExamsDialog';
import type { ReasonAction } from '../actions/ReasonDialog';
import { allows, allowsManage, isEditable, MANAGE_CALLS, offeredActions, type ManageAction, type WorkspaceAction } from '../model/actions';
import { draftOffer, drafts, type DraftOffer } from '../model/draftStore';
import { fieldProblems, fieldsOf, payloadOf, sameFields, type FieldProblem, type ReportFields } from '../model/fields';
import { applyAnswer, type AnsweredAction } from '../model/localUpdate';
import { cleanReportHtml } from '../model/sanitize';
import { takePrimedReport } from '@/lib/cases/primed';

/** The fields beside the two editors, kept in React state (they re-render only their panel). */
export type SideFields = Omit<ReportFields, 'finding' | 'diagnosis'>;
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

const sideOf = (fields: ReportFields): SideFields => {
  const { finding: _f, diagnosis: _d, ...side } = fields;
  return side;
};

/** Report HTML as the browser serialises it, so the editor's and the server's spelling of one text compare equal. */
const normal = (fields: ReportFields): ReportFields => ({ ...fields, finding: cleanReportHtml(fields.finding), diagnosis: cleanReportHtml(fields.diagnosis) });

/**
 * The report workspace's state: the report as the server last answered (with its transitions and version), the
 * text being written (editors hold theirs; the side fields live here), the local draft, and every action.
 * Calls on one report go one after another, each with the version the previous answer gave.
 */
export function useReportWorkspace(reportId: number, userId: number, onPrint: () => void, onDeleted: () => void): Workspace {
  const { t } = useTranslation();
  const [report, setReportState] = useState<ReportView | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [side, setSideState] = useState<SideFields | null>(null);
  const [allowAdvisorEdit, setAllowAdvisorEdit] = useState(false);
  const [seed, setSeed] = useState<Record<EditorField, string>>({ finding: '', diagnosis: '' });
  const [editorKey, setEditorKey] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState<WorkspaceAction | ManageAction | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [draft, setDraft] = useState<DraftOffer>({ kind: 'none' });
  const [draftsKept, setDraftsKept] = useState(true);
  const [reasonFor, setReasonFor] = useState<ReasonAction | null>(null);
  const [joint, setJoint] = useState<JointExamCandidate[] | null>(null);
  const [assigning, setAssigning] = useState(false);
  const [confirming, setConfirming] = useState<ConfirmAction | null>(null);

  const reportRef = useRef<ReportView | null>(null);
  const text = useRef<Record<EditorField, string>>({ finding: '', diagnosis: '' });
  const sideRef = useRef<SideFields | null>(null);
  /** What the server holds as far as this page knows: loaded, or last sent and accepted. */
  const saved = useRef<ReportFields | null>(null);
  /** The server state the current text was started from, for the draft's comparison on reopening. */
  const base = useRef<{ version: number; savedTime: string | null }>({ version: 0, savedTime: null });
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const lockAsked = useRef(false);
  const busyRef = useRef<WorkspaceAction | ManageAction | null>(null);
  const editors = useRef<Record<EditorField, Editor | null>>({ finding: null, diagnosis: null });
  const decidingDraft = useRef(false);

  const setReport = useCallback((next: ReportView) => {
    reportRef.current = next;
    setReportState(next);
  }, []);

  const current = useCallback((): ReportFields => ({ ...text.current, ...(sideRef.current ?? sideOf(fieldsOf({} as ReportView))) }), []);

  /** One call at a time per report, each reading the version the previous one left. */
  const enqueue = useCallback(<T,>(call: () => Promise<T>): Promise<T> => {
    const next = queue.current.then(call, call);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  const act = useCallback((action: ReportAction, body: Omit<ReportActionInput, 'version'> = {}, answered: AnsweredAction = action) =>
    enqueue(async () => {
      const before = reportRef.current!;
      const answer = await reportApi.act(before.id, action, { ...body, version: before.version });
      setReport(applyAnswer(reportRef.current ?? before, answer, answered));
      return answer;
    }), [enqueue, setReport]);

  /* ── loading ── */

  /** Shows `view` as stored: the editors and side fields start again from its text, nothing unsaved. */
  const adopt = useCallback((view: ReportView) => {
    const fields = fieldsOf(view);
    setReport(view);
    saved.current = fields;
    base.current = { version: view.version, savedTime: view.savedTime };
    text.current = { finding: fields.finding, diagnosis: fields.diagnosis };
    sideRef.current = sideOf(fields);
    setSideState(sideOf(fields));
    setAllowAdvisorEdit(view.allowAdvisorEdit);
    setSeed({ finding: cleanReportHtml(fields.finding), diagnosis: cleanReportHtml(fields.diagnosis) });
    setEditorKey((k) => k + 1);
    setDirty(false);
  }, [setReport]);

  useEffect(() => {
    const controller = new AbortController();
    const primed = takePrimedReport(reportId);
    (primed ? Promise.resolve(primed) : reportApi.detail(reportId, { signal: controller.signal })).then(
      (view) => {
        // A primed view resolves even after the effect was left (a fast second visit): only the live one adopts it.
        if (controller.signal.aborted) return;
        const fields = fieldsOf(view);
        adopt(view);
        drafts.prune(Date.now());
        const stored = drafts.read(userId, view.id);
        const offer = draftOffer(stored && { ...stored, fields: normal(stored.fields) }, { version: view.version, savedTime: view.savedTime, fields: normal(fields) });
        if (offer.kind === 'same') drafts.remove(userId, view.id);
        // A draft is only offered where it could be used: the report must be editable for this user now.
        decidingDraft.current = (offer.kind === 'newer' || offer.kind === 'older') && isEditable(view.transitions);
        setDraft(decidingDraft.current ? offer : { kind: 'none' });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoadError(error);
      },
    );
    return () => controller.abort();
  }, [reportId, userId, attempt, adopt]);

  /** Core §4 "empty action": the report's status as the server has it now, without touching the text. */
  const refresh = useCallback(async () => {
    const r = reportRef.current;
    if (!r) return;
    try {
      const view = await reportApi.detail(r.id);
      setReport(applyAnswer(reportRef.current ?? r, view, ''));
      // The version moved: the next save goes with the new one (the user has been told why).
    } catch {
      // The next action will tell.
    }
  }, [setReport]);

  /* ── typing ── */

  const keepDraft = useCallback((fields: ReportFields) => {
    const r = reportRef.current;
    if (!r) return;
    const ok = drafts.write({ v: 1, userId, reportId: r.id, baseVersion: base.current.version, baseSavedTime: base.current.savedTime, updatedAt: Date.now(), fields });
    setDraftsKept(ok);
  }, [userId]);

  /** The first edit takes the editing lock (core §4 "locked (being edited)"), when the machine offers it. */
  const ensureLock = useCallback(() => {
    const r = reportRef.current;
    if (!r || lockAsked.current || r.lockedBy === userId || !r.transitions.includes('lock')) return;
    lockAsked.current = true;
    act('lock').catch((error: unknown) => {
      lockAsked.current = false;
      if (isSessionEndingError(error)) return;
      // Someone else took it first: show why the page turned read-only; the typed words stay in the draft.
      if (isHttpError(error) && error.code === 'ReportLocked') setNotice({ tone: 'error', text: errorText(t, error) });
      void refresh();
    });
  }, [act, refresh, userId, t]);

  const changed = useCallback(() => {
    if (!saved.current) return;
    const fields = current();
    const isDirty = !sameFields(fields, saved.current);
    setDirty(isDirty);
    setProblems((prev) => (prev.length ? fieldProblems(fields, 'save') : prev));
    const r = reportRef.current;
    if (isDirty) {
      keepDraft(fields);
      ensureLock();
    } else if (r) {
      drafts.remove(userId, r.id);
    }
  }, [current, keepDraft, ensureLock, userId]);

  const onEditorChange = useCallback((field: EditorField, html: string) => {
    text.current = { ...text.current, [field]: html };
    changed();
  }, [changed]);

  const onEditorReady = useCallback((field: EditorField, editor: Editor | null) => {
    editors.current[field] = editor;
  }, []);

  const setSide = useCallback(<K extends keyof SideFields>(key: K, value: SideFields[K]) => {
    if (!sideRef.current) return;
    sideRef.current = { ...sideRef.current, [key]: value };
    setSideState(sideRef.current);
    changed();
  }, [changed]);

  /* ── server answers ── */

  const failed = useCallback((action: WorkspaceAction | ManageAction, error: unknown) => {
    if (isSessionEndingError(error)) return; // "Login expired" handles it; the text stays, and saves after re-login
    if (isHttpError(error)) {
      if (error.code === 'JointExamsPending' && action === 'submit') {
        setJoint(((error.details?.exams ?? []) as JointExamCandidate[]));
        return;
      }
      if (error.code === 'ReportLocked' || error.code === 'VersionConflict' || error.code === 'InvalidTransition' || error.code === 'Forbidden') {
        void refresh();
        setNotice({ tone: error.code === 'VersionConflict' ? 'warning' : 'error', text: errorText(t, error), reload: error.code === 'VersionConflict' });
        return;
      }
      if (error.code === 'ReportEmpty') {
        setProblems(['reportEmpty']);
        editors.current.finding?.commands.focus('end');
      }
    }
    setNotice({ tone: 'error', text: errorText(t, error) });
  }, [refresh, t]);

  const perform = useCallback(async (action: WorkspaceAction, extra: { reason?: string; jointExams?: JointDecision } = {}): Promise<boolean> => {
    const r = reportRef.current;
    if (!r || busyRef.current) return false;
    const offered = offeredActions(r.transitions).find((o) => o.action === action);
    if (!offered) return false;
    const fields = current();
    const isDirty = saved.current ? !sameFields(fields, saved.current) : false;
    // Approve and advise carry the text only when it changed (and advice only from an advisor allowed to edit).
    const withContent = offered.sendsContent
      && (action === 'save' || action === 'submit' || isDirty)
      && (action !== 'advise' || r.transitions.includes('save'));
    const body: Omit<ReportActionInput, 'version'> = {
      ...(withContent ? payloadOf(fields) : {}),
      ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
      ...(extra.jointExams ? { jointExams: extra.jointExams } : {}),
      ...((action === 'save' || action === 'submit') && r.creator?.id === userId ? { allowAdvisorEdit } : {}),
    };
    busyRef.current = action;
    setBusy(action);
    setNotice(null);
    try {
      const answer = await act(action as ReportAction, body);
      if (withContent) {
        saved.current = fields;
        base.current = { version: answer.version, savedTime: answer.savedTime };
        const stillDirty = !sameFields(current(), fields);
        setDirty(stillDirty);
        if (stillDirty) keepDraft(current());
        else drafts.remove(userId, answer.id);
        setSavedAt(answer.savedTime);
      }
      if (!isEditable(answer.transitions) && !withContent) {
        // Read-only from now on (a rejection, a recall): what is shown is the report as stored.
        setDirty(false);
      }
      if (action !== 'save') toasts.show({ message: t(`report.done.${action}`), kind: 'success' });
      lockAsked.current = false;
      return true;
    } catch (error) {
      failed(action, error);
      return false;
    } finally {
      busyRef.current = null;
      setBusy(null);
    }
  }, [act, allowAdvisorEdit, current, failed, keepDraft, t, userId]);

  const run = useCallback((action: WorkspaceAction) => {
    const r = reportRef.current;
    if (!r || busyRef.current || decidingDraft.current || !allows(r.transitions, action)) return;
    if (action === 'print') {
      onPrint();
      return;
    }
    const offered = offeredActions(r.transitions).find((o) => o.action === action)!;
    if (offered.sendsContent && isEditable(r.transitions)) {
      const found = fieldProblems(current(), action);
      setProblems(found);
      if (found.length > 0) {
        setNotice({ tone: 'error', text: t(`report.problems.${found[0]}`) });
        if (found.includes('reportEmpty')) editors.current.finding?.commands.focus('end');
        return;
      }
    }
    if (offered.reason) {
      setReasonFor(action as ReasonAction);
      return;
    }
    void perform(action);
  }, [current, onPrint, perform, t]);

  const confirmReason = useCallback((reason: string) => {
    const action = reasonFor;
    if (!action) return;
    setReasonFor(null);
    void perform(action, { reason });
  }, [perform, reasonFor]);

  const decideJoint = useCallback((decision: JointDecision) => {
    setJoint(null);
    void perform('submit', { jointExams: decision });
  }, [perform]);

  /* ── drafts ── */

  const restoreDraft = useCallback(() => {
    if (draft.kind !== 'newer' && draft.kind !== 'older') return;
    const fields = draft.draft.fields;
    text.current = { finding: fields.finding, diagnosis: fields.diagnosis };
    sideRef.current = sideOf(fields);
    setSideState(sideRef.current);
    setSeed({ finding: cleanReportHtml(fields.finding), diagnosis: cleanReportHtml(fields.diagnosis) });
    setEditorKey((k) => k + 1);
    decidingDraft.current = false;
    setDraft({ kind: 'none' });
    changed();
  }, [draft, changed]);

  const discardDraft = useCallback(() => {
    const r = reportRef.current;
    if (r) drafts.remove(userId, r.id);
    decidingDraft.current = false;
    setDraft({ kind: 'none' });
  }, [userId]);

  /* ── lock housekeeping ── */

  /* ── housekeeping: assignment, force unlock, recovery, reset, delete ── */

  const performManage = useCallback(async (action: ManageAction, extra: { account?: AccountSuggestion } = {}): Promise<boolean> => {
    const r = reportRef.current;
    if (!r || busyRef.current || !allowsManage(r.transitions, action)) return false;
    busyRef.current = action;
    setBusy(action);
    setNotice(null);
    try {
      const answer = await act(MANAGE_CALLS[action], extra.account ? { accountId: extra.account.id } : {});
      if (action === 'reset') {
        // The server cleared the text: show the empty draft, and forget the local copy of the old one.
        adopt(applyAnswer(reportRef.current ?? r, answer, 'reset'));
        drafts.remove(userId, answer.id);
        setProblems([]);
        setSavedAt(null);
      }
      if (action === 'delete') drafts.remove(userId, answer.id);
      lockAsked.current = false;
      toasts.show({ message: t(`report.done.${action}`, { name: extra.account?.name ?? '' }), kind: 'success' });
      if (action === 'delete') onDeleted();
      return true;
    } catch (error) {
      failed(action, error);
      return false;
    } finally {
      busyRef.current = null;
      setBusy(null);
    }
  }, [act, adopt, failed, onDeleted, t, userId]);

  const manage = useCallback((action: ManageAction) => {
    const r = reportRef.current;
    if (!r || busyRef.current || decidingDraft.current || !allowsManage(r.transitions, action)) return;
    if (action === 'assign') setAssigning(true);
    else if (action === 'reset' || action === 'delete') setConfirming(action);
    else void performManage(action);
  }, [performManage]);

  const forceUnlock = useCallback(() => manage('forceUnlock'), [manage]);

  const assignTo = useCallback((account: AccountSuggestion) => {
    // Closed either way: a refusal shows above the editors, with the reason.
    void performManage('assign', { account }).then(() => setAssigning(false));
  }, [performManage]);

  const confirmManage = useCallback(() => {
    const action = confirming;
    if (!action) return;
    void performManage(action).then(() => setConfirming(null));
  }, [confirming, performManage]);

  const cancelManage = useCallback(() => {
    setAssigning(false);
    setConfirming(null);
  }, []);

  // Leaving the workspace gives the lock back (the machine also releases it on submit, approve, reject...).
  useEffect(() => () => {
    const r = reportRef.current;
    if (r && r.lockedBy === userId) {
      void enqueue(async () => {
        const latest = reportRef.current ?? r;
        if (latest.lockedBy !== userId || !latest.transitions.includes('unlock')) return;
        await reportApi.act(latest.id, 'unlock', { version: latest.version }).catch(() => undefined);
      });
    }
  }, [enqueue, userId]);

  const saveIfDirty = useCallback(async () => {
    const r = reportRef.current;
    if (!r || !saved.current || sameFields(current(), saved.current)) return true;
    if (!r.transitions.includes('save')) return false;
    return perform('save');
  }, [current, perform]);

  const editable = report !== null && draft.kind === 'none' && isEditable(report.transitions);
  const lockedByOther = report !== null && report.status === 'locked' && report.lockedBy !== null && report.lockedBy !== userId;

  return useMemo(() => ({
    report, loadError, reload: () => {
      setLoadError(null);
      setAttempt((n) => n + 1);
    }, editable, lockedByOther,
    side, setSide, allowAdvisorEdit, setAllowAdvisorEdit, seed, editorKey, onEditorChange, editors, onEditorReady,
    dirty, busy, savedAt, problems, notice, dismissNotice: () => setNotice(null),
    draft, restoreDraft, discardDraft, draftsKept,
    run, reasonFor, confirmReason, cancelReason: () => setReasonFor(null),
    joint, decideJoint, cancelJoint: () => setJoint(null), forceUnlock, saveIfDirty,
    manage, assigning, assignTo, confirming, confirmManage, cancelManage,
  }), [report, loadError, editable, lockedByOther, side, setSide, allowAdvisorEdit, seed, editorKey, onEditorChange, onEditorReady,
    dirty, busy, savedAt, problems, notice, draft, restoreDraft, discardDraft, draftsKept, run, reasonFor, confirmReason, joint,
    decideJoint, forceUnlock, saveIfDirty, manage, assigning, assignTo, confirming, confirmManage, cancelManage]);
}
