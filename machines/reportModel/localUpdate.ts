import type { ReportAction, ReportView } from '../../contract/reports';

/**
 * Core §4: "After cancelSubmit, reject, recall or an empty action, only these fields are updated locally:
 * id, status, transitions, creator, lastUpdater, issuer, rejectReason, recallReason."
 */
export const STATUS_FIELDS = ['id', 'status', 'transitions', 'creator', 'lastUpdater', 'issuer', 'rejectReason', 'recallReason'] as const;

/** The actions core §4 names, plus '' for the empty action (a status refresh with no action of its own). */
export const STATUS_ONLY_ACTIONS: readonly (ReportAction | '')[] = ['cancelSubmit', 'reject', 'recall', ''];

/**
 * Holding or releasing the editing lock changes who holds it and nothing else; the text on screen
 * (which may be ahead of the server) must not be replaced by the answer.
 */
const LOCK_ACTIONS: readonly (ReportAction | '')[] = ['lock', 'unlock', 'force-unlock'];

/**
 * Housekeeping that changes no text (assignment, delete, recovery): core §4's status fields, plus the facts the
 * action is about (who is assigned; whether the report is listed, and what it returns to). The text on screen
 * is left as it is. A reset is not among them: clearing the text is what it does, so its answer is taken whole.
 */
const FACT_FIELDS: Partial<Record<ReportAction, readonly (keyof ReportView)[]>> = {
  assign: ['assignee'],
  'assign-remove': ['assignee'],
  delete: ['lifecycleStatus', 'deleted', 'deletedTime', 'lockedBy', 'locker', 'lockedAt'],
  recovery: ['lifecycleStatus', 'deleted', 'deletedTime'],
};

export type AnsweredAction = ReportAction | '';

/**
 * The report the workspace keeps after the server answered `action` with `answer`.
 *
 * `version` is taken from every answer besides the spec's fields: the server refuses the next action with
 * VersionConflict otherwise (it is the concurrency token, not report content). The content fields the
 * user is typing into are never taken from a status-only answer, so a reject or recall answered while
 * the approver kept typing does not wipe the typing.
 */
export function applyAnswer(current: ReportView, answer: ReportView, action: AnsweredAction): ReportView {
  if (STATUS_ONLY_ACTIONS.includes(action)) {
    const next: ReportView = { ...current, version: answer.version };
    for (const field of STATUS_FIELDS) (next as unknown as Record<string, unknown>)[field] = answer[field];
    return next;
  }
  const facts = action === '' ? undefined : FACT_FIELDS[action];
  if (facts) {
    const next: ReportView = { ...current, version: answer.version };
    for (const field of [...STATUS_FIELDS, ...facts]) (next as unknown as Record<string, unknown>)[field] = answer[field];
    return next;
  }
  if (LOCK_ACTIONS.includes(action)) {
    return {
      ...current,
      id: answer.id,
      status: answer.status,
      lifecycleStatus: answer.lifecycleStatus,
      transitions: answer.transitions,
      version: answer.version,
      lockedBy: answer.lockedBy,
      locker: answer.locker,
      lockedAt: answer.lockedAt,
    };
  }
  // Content actions (save, submit, approve, advise), reset and print: the answer is the report as stored now.
  return answer;
}
