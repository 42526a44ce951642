import { transition } from 'xstate';
import { REPORT_ACTIONS, type LifecycleStatus, type ReportAction, type ReportStatus } from '../contract/reports';
import { ACTIONS } from '../contract/actions';
import { DELETABLE_STATUSES, reportMachine, type DeletableStatus, type ReportActor, type ReportContext, type ReportEvent } from './report';

/**
 * Questions asked of the report machine, as pure functions of a report's stored state and an actor.
 * Nothing here decides by itself: every answer comes from `snapshot.can` / `transition` on the machine.
 */

/** A report as stored: its lifecycle status, whether it is deleted, and the facts the machine reads. */
export interface ReportState extends Omit<ReportContext, 'deletedFrom' | 'finalOnSubmit'> {
  status: LifecycleStatus;
  deleted: boolean;
  /** The organisation issues on submit (absent: off); only the server reads it, to take submit's next status. */
  finalOnSubmit?: boolean;
}

export type ReportSnapshot = ReturnType<typeof reportMachine.resolveState>;

export function snapshotOf(report: ReportState): ReportSnapshot {
  const { status, deleted, finalOnSubmit, ...facts } = report;
  const context: ReportContext = { ...facts, finalOnSubmit: finalOnSubmit ?? false, deletedFrom: null };
  if (deleted) {
    // Only drafts are ever deleted; a row that says otherwise cannot be recovered, and the machine says so.
    context.deletedFrom = (DELETABLE_STATUSES as readonly string[]).includes(status) ? (status as DeletableStatus) : null;
    context.lockedById = null;
    return reportMachine.resolveState({ value: 'deleted', context });
  }
  return reportMachine.resolveState({
    value: { listed: { status, lock: facts.lockedById === null ? 'unlocked' : 'locked' } },
    context,
  });
}

export function stateOf(snapshot: ReportSnapshot, previous: ReportState): ReportState {
  const { deletedFrom, ...facts } = snapshot.context;
  if (snapshot.value === 'deleted') return { ...facts, status: deletedFrom ?? previous.status, deleted: true };
  const value = snapshot.value as { listed: { status: LifecycleStatus } };
  return { ...facts, status: value.listed.status, deleted: false };
}

/** Core §4 status as shown: `locked` while someone holds the editing lock. */
export function presentedStatus(report: Pick<ReportState, 'status' | 'lockedById' | 'deleted'>): ReportStatus {
  return !report.deleted && report.lockedById !== null ? 'locked' : report.status;
}

/** The event an actor would send. Reject and recall are asked "given a reason", as the request must carry one. */
export function eventFor(action: ReportAction, actor: ReportActor, extra: { reason?: string; accountId?: number; allowAdvisorEdit?: boolean } = {}): ReportEvent {
  switch (action) {
    case 'reject': case 'recall': return { type: action, actor, reason: extra.reason ?? 'reason given' };
    case 'advise': return { type: action, actor, reason: extra.reason };
    case 'assign': return { type: action, actor, accountId: extra.accountId ?? actor.id };
    case 'save': case 'submit': return { type: action, actor, allowAdvisorEdit: extra.allowAdvisorEdit };
    default: return { type: action, actor };
  }
}

/** What `actor` may do to `report` now: the `transitions` list of every report answer. */
export function transitionsFor(report: ReportState, actor: ReportActor): ReportAction[] {
  const snapshot = snapshotOf(report);
  return REPORT_ACTIONS.filter((action) => snapshot.can(eventFor(action, actor)));
}

export function isAllowed(report: ReportState, actor: ReportActor, action: ReportAction): boolean {
  return snapshotOf(report).can(eventFor(action, actor));
}

/** The state after `event`, or null when the machine does not allow it. */
export function applyEvent(report: ReportState, event: ReportEvent): ReportState | null {
  const snapshot = snapshotOf(report);
  if (!snapshot.can(event)) return null;
  const [next] = transition(reportMachine, snapshot, event);
  return stateOf(next, report);
}

export type Refusal = 'ReportLocked' | 'Forbidden' | 'InvalidTransition';

const EVERY_REPORT_ACTION: readonly string[] = ACTIONS.report;
const STRANGER = -1;

/**
 * Why an action outside `transitions` is refused, asked of the machine again: the lock of someone else
 * is the reason when the same actor could act on an unlocked report; missing rights or the wrong person
 * when somebody could do it in this state; otherwise the state does not offer it.
 */
export function refusalFor(report: ReportState, actor: ReportActor, action: ReportAction): Refusal {
  if (report.lockedById !== null && report.lockedById !== actor.id && isAllowed({ ...report, lockedById: null }, actor, action)) {
    return 'ReportLocked';
  }
  const everyone = [actor.id, report.creatorId, report.lockedById, report.assigneeId, STRANGER]
    .filter((id): id is number => id !== null)
    .flatMap((id) => [{ id, actions: EVERY_REPORT_ACTION }, { id, actions: ['report_advice'] }]);
  return everyone.some((a) => isAllowed(report, a, action)) ? 'Forbidden' : 'InvalidTransition';
}

/** Core §4: a report with status none and no image counts as note-taker origin. */
export function isNoteTakerOrigin(report: Pick<ReportState, 'status' | 'hasImage'>): boolean {
  return report.status === 'none' && !report.hasImage;
}

/** Print data is given where printing is offered: a first print of a corrected report, or a reprint. */
export function mayPrintNow(report: ReportState, actor: ReportActor): boolean {
  return isAllowed(report, actor, 'print') || isAllowed(report, actor, 'update-print-time');
}
