import { transition } from 'xstate';
import {
  expertRequestMachine, REQUEST_RULES, type ExpertRequestContext, type ExpertRequestEvent, type ExpertRequestStateName,
} from './expertRequest';

/**
 * Questions the server asks of the expert request machine, as pure functions of a request's stored state and the
 * facts read around it. Nothing decides here by itself: every answer is the machine's `can` / `transition`; the
 * rules' names only say which one refused.
 */

export interface ExpertRequestState extends ExpertRequestContext {
  status: ExpertRequestStateName;
}

export type ExpertRequestSnapshot = ReturnType<typeof expertRequestMachine.resolveState>;

export function snapshotOf(state: ExpertRequestState): ExpertRequestSnapshot {
  const { status, ...context } = state;
  return expertRequestMachine.resolveState({ value: status, context });
}

/** The state after `event`, or null when the machine refuses it. */
export function applyEvent(state: ExpertRequestState, event: ExpertRequestEvent): ExpertRequestState | null {
  const snapshot = snapshotOf(state);
  if (!snapshot.can(event)) return null;
  const [next] = transition(expertRequestMachine, snapshot, event);
  return { ...next.context, status: next.value as ExpertRequestStateName };
}

/** The catalogue codes an application is refused with (contract/errors.ts). */
export type SubmitRefusal = 'TermsNotAgreed' | 'ExpertTargetInvalid' | 'ExpertTargetsMixed' | 'ExamNotReportable' | 'RemoteReportRequested'
  | 'ReportWritingBegun' | 'ExpertRequestOpen';

/**
 * Why an application cannot be submitted, or null when it can: the facts walk the machine (choose, agree,
 * submit); when it refuses, the first rule that fails names the code. Terms come first (areas §5: "agreed first").
 */
export function submitRefusal(facts: Omit<ExpertRequestContext, 'termsAgreed'> & { termsAgreed: boolean }): SubmitRefusal | null {
  const { targets, targetsValid, termsAgreed, ...rest } = facts;
  let state: ExpertRequestState | null = { ...rest, targets: [], targetsValid: true, termsAgreed: false, status: 'choosing' };
  state = applyEvent(state, { type: 'choose', targets, targetsValid });
  const agreed = state && applyEvent(state, { type: 'agree', agreed: termsAgreed });
  if (!agreed) return 'TermsNotAgreed';
  if (applyEvent(agreed, { type: 'submit' })) return null;
  if (!REQUEST_RULES.atLeastOneOrganisation(agreed)) return 'ExpertTargetInvalid';
  if (!REQUEST_RULES.paidAndFreeNotMixed(agreed)) return 'ExpertTargetsMixed';
  if (!REQUEST_RULES.examHasSomethingToRead(agreed)) return 'ExamNotReportable';
  if (!REQUEST_RULES.remoteOnce(agreed)) return 'RemoteReportRequested';
  if (!REQUEST_RULES.remoteBeforeWriting(agreed)) return 'ReportWritingBegun';
  return 'ExpertRequestOpen';
}

/** What the stored row and the copies' report statuses say the request is now. */
export interface StoredRequest {
  progress: 'awaiting_payment' | 'queued' | 'withdrawn';
  paymentStatus: number;
  /** The report status of each target's copy (null: no copy or no report yet). */
  copyStatuses: readonly (string | null)[];
}

/** A report status that means someone has written (core §4: 'none' is the empty shell). */
export const isWritten = (status: string | null): boolean => status !== null && status !== 'none';
/** Approved reports (core §4: approve → corrected, then printed). */
export const isApproved = (status: string | null): boolean => status === 'corrected' || status === 'printed';

export function stateOfStored(row: StoredRequest): ExpertRequestStateName {
  // A paid application withdrawn was refunded first: it reads as withdrawn (its payment status says refunded).
  if (row.progress === 'withdrawn') return 'withdrawn';
  if (row.paymentStatus === 3) return 'refunded';
  if (row.progress === 'awaiting_payment') return 'submitted';
  if (row.copyStatuses.length > 0 && row.copyStatuses.every(isApproved)) return 'reported';
  if (row.copyStatuses.some(isWritten)) return 'reporting';
  return 'paid';
}

/** The request's state with the facts its later transitions read. */
export function storedState(type: 'expert' | 'remote', row: StoredRequest): ExpertRequestState {
  return {
    type, targets: [], targetsValid: true, termsAgreed: true, examWritingBegun: false, remoteRequested: false,
    copiesWritten: row.copyStatuses.some(isWritten), status: stateOfStored(row),
  };
}

/** The derived progress shown to people (contract RequestProgress). */
export function progressOf(state: ExpertRequestStateName): 'awaiting_payment' | 'queued' | 'reporting' | 'reported' | 'withdrawn' | 'refunded' {
  switch (state) {
    case 'choosing': case 'agreed': case 'submitted': return 'awaiting_payment';
    case 'paid': return 'queued';
    default: return state;
  }
}

/** Whether the machine allows withdrawing now (nothing written on any copy, not withdrawn or refunded). */
export function canWithdraw(state: ExpertRequestState): boolean {
  return snapshotOf(state).can({ type: 'withdraw' });
}
