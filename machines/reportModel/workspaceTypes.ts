import type { AccountSuggestion } from '../../contract/accounts';
import type { JointExamCandidate, ReportAction, ReportActionInput, ReportView } from '../../contract/reports';
import type { ManageAction, WorkspaceAction } from './actions';
import type { DraftOffer } from './draft';
import type { FieldProblem, ReportFields } from './fields';

/** The report workspace's context, input and events (machines/reportWorkspace.ts); the machine's rules are in ./workspaceSetup.ts. */
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

