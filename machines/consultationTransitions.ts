import { transition } from 'xstate';
import { ACTIONS } from '../contract/actions';
import { CONSULTATION_ACTIONS, CONSULTATION_STATUS, type ConsultationAction, type ConsultationStatus } from '../contract/consultations';
import { consultationMachine, type ConsultationActor, type ConsultationContext, type ConsultationEvent } from './consultation';

/**
 * Questions asked of the consultation machine, as pure functions of a consultation's stored state and an actor.
 * Nothing here decides by itself: every answer comes from `snapshot.can` / `transition` on the machine.
 */

export type ConsultationStateName = keyof typeof CONSULTATION_STATUS;

/** A consultation as stored: its status and the facts the machine reads. */
export interface ConsultationState extends ConsultationContext {
  status: ConsultationStateName;
}

export type ConsultationSnapshot = ReturnType<typeof consultationMachine.resolveState>;

const NAMES = Object.fromEntries(Object.entries(CONSULTATION_STATUS).map(([name, n]) => [n, name])) as Record<ConsultationStatus, ConsultationStateName>;

export function statusName(status: ConsultationStatus): ConsultationStateName {
  return NAMES[status];
}

export function statusNumber(name: ConsultationStateName): ConsultationStatus {
  return CONSULTATION_STATUS[name];
}

export function snapshotOf(state: ConsultationState): ConsultationSnapshot {
  const { status, ...context } = state;
  return consultationMachine.resolveState({ value: status, context });
}

export function stateOf(snapshot: ConsultationSnapshot): ConsultationState {
  return { ...snapshot.context, status: snapshot.value as ConsultationStateName };
}

/** Input an event may carry; absent, `can` is asked "given valid input", as the request must carry it. */
export interface EventInput {
  scheduledTime?: string | null;
  hasContent?: boolean;
  reason?: string;
  rating?: number;
  paymentStatus?: number;
}

/** The event an actor would send for `action`. */
export function eventFor(action: ConsultationAction, actor: ConsultationActor, input: EventInput = {}): ConsultationEvent {
  switch (action) {
    case 'schedule': return { type: action, actor, scheduledTime: input.scheduledTime === undefined ? '2000-01-01T00:00:00Z' : input.scheduledTime };
    case 'writeResult': return { type: action, actor, hasContent: input.hasContent ?? true };
    case 'cancel': return { type: action, actor, reason: input.reason ?? 'reason given' };
    case 'rate': return { type: action, actor, rating: input.rating ?? 5 };
    case 'setPayment': return { type: action, actor, paymentStatus: input.paymentStatus ?? 0 };
    default: return { type: action, actor };
  }
}

/** What `actor` may do to the consultation now: the detail's `transitions`. */
export function transitionsFor(state: ConsultationState, actor: ConsultationActor): ConsultationAction[] {
  const snapshot = snapshotOf(state);
  return CONSULTATION_ACTIONS.filter((action) => snapshot.can(eventFor(action, actor)));
}

export function isAllowed(state: ConsultationState, actor: ConsultationActor, action: ConsultationAction, input: EventInput = {}): boolean {
  return snapshotOf(state).can(eventFor(action, actor, input));
}

/** The state after `event`, or null when the machine does not allow it. */
export function applyEvent(state: ConsultationState, event: ConsultationEvent): ConsultationState | null {
  const snapshot = snapshotOf(state);
  if (!snapshot.can(event)) return null;
  const [next] = transition(consultationMachine, snapshot, event);
  return stateOf(next);
}

export type ConsultationRefusal = 'Forbidden' | 'InvalidTransition' | 'ConsultationRated';

const EVERY: readonly string[] = ACTIONS.consultation;
/** Someone with every consultation right on every side: what the state alone allows. */
const ANYONE: ConsultationActor = { id: -1, reader: true, sides: { applicant: EVERY, target: EVERY, joined: EVERY } };

/**
 * Why an action outside `transitions` is refused, asked of the machine again: a rating already given is its own
 * answer (areas §4); when someone with every right could act in this state, the actor lacks the right (403);
 * otherwise the state does not offer it (409).
 */
export function refusalFor(state: ConsultationState, actor: ConsultationActor, action: ConsultationAction): ConsultationRefusal {
  if (action === 'rate' && state.status === 'completed' && state.rated) return 'ConsultationRated';
  return isAllowed(state, { ...ANYONE, id: actor.id }, action) ? 'Forbidden' : 'InvalidTransition';
}
