import { transition } from 'xstate';
import { PAYMENT_STATUS, type PaymentStatus } from '../contract/payments';
import { paymentMachine, type PaymentActor, type PaymentContext, type PaymentEvent } from './payment';

/**
 * Questions the server asks of the payment machine, as pure functions of an application's stored payment and an
 * actor (like machines/consultationTransitions.ts). Nothing here decides by itself: the answers come from `can` and
 * `transition` on the machine.
 */

export type PaymentStateName = keyof typeof PAYMENT_STATUS;
export type PaymentAction = 'pay' | 'refund';
export const PAYMENT_ACTIONS: readonly PaymentAction[] = ['pay', 'refund'];

/** A payment as stored: the status and the facts the machine reads. */
export interface PaymentState extends PaymentContext {
  status: PaymentStateName;
}

export type PaymentSnapshot = ReturnType<typeof paymentMachine.resolveState>;

const NAMES = Object.fromEntries(Object.entries(PAYMENT_STATUS).map(([name, n]) => [n, name])) as Record<PaymentStatus, PaymentStateName>;

export function paymentStatusName(status: number): PaymentStateName {
  return NAMES[status as PaymentStatus] ?? 'unpaid';
}

export function paymentStatusNumber(name: PaymentStateName): PaymentStatus {
  return PAYMENT_STATUS[name];
}

export function snapshotOf(state: PaymentState): PaymentSnapshot {
  const { status, ...context } = state;
  return paymentMachine.resolveState({ value: status, context });
}

/** The event an actor would send for `action` (a refund "given a reason", as the request must carry one). */
export function eventFor(action: PaymentAction, actor: PaymentActor, input: { channel?: PaymentContext['channel']; reason?: string } = {}): PaymentEvent {
  return action === 'pay'
    ? { type: 'pay', actor, channel: input.channel ?? 'weixin' }
    : { type: 'refund', actor, reason: input.reason ?? 'reason given' };
}

/** What `actor` may do to the payment now (the detail's pay/refund transitions). */
export function paymentTransitionsFor(state: PaymentState, actor: PaymentActor): PaymentAction[] {
  const snapshot = snapshotOf(state);
  return PAYMENT_ACTIONS.filter((action) => snapshot.can(eventFor(action, actor)));
}

export function isPaymentAllowed(state: PaymentState, actor: PaymentActor, action: PaymentAction, input: { channel?: PaymentContext['channel']; reason?: string } = {}): boolean {
  return snapshotOf(state).can(eventFor(action, actor, input));
}

/** The state after `event`, or null when the machine does not allow it. */
export function applyPaymentEvent(state: PaymentState, event: PaymentEvent): PaymentState | null {
  const snapshot = snapshotOf(state);
  if (!snapshot.can(event)) return null;
  const [next] = transition(paymentMachine, snapshot, event);
  return { ...next.context, status: next.value as PaymentStateName };
}

export type PaymentRefusal = 'Forbidden' | 'InvalidTransition' | 'OrderAlreadyPaid' | 'RefundProcessing' | 'OrderInvalid';

const EVERY = ['apply_expert_report', 'apply_remote_report', 'payment_refund'];
/** Someone with every right on both sides: what the state alone allows. */
const ANYONE: PaymentActor = { id: -1, applicant: EVERY, target: EVERY };

/**
 * Why an action the machine does not offer is refused (areas §8): paying what is paid (or being refunded) is
 * OrderAlreadyPaid, paying a withdrawn application OrderInvalid, a refund under way RefundProcessing; when someone
 * with every right could act, the actor lacks the right (403); otherwise the state does not offer it (409).
 */
export function paymentRefusalFor(state: PaymentState, actor: PaymentActor, action: PaymentAction): PaymentRefusal {
  if (isPaymentAllowed(state, { ...ANYONE, id: actor.id }, action)) return 'Forbidden';
  if (action === 'pay') {
    if (state.status === 'paid' || state.status === 'refunding') return 'OrderAlreadyPaid';
    if (state.withdrawn && state.status === 'unpaid') return 'OrderInvalid';
    return 'InvalidTransition';
  }
  return state.status === 'refunding' ? 'RefundProcessing' : 'InvalidTransition';
}
