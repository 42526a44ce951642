import { assign, setup } from 'xstate';
import type { ChargeStatus, PaymentStatus, RequestProgress } from '../contract/payments';

/**
 * The charge page (areas §2 /charge/{id}): paying one application through a QR channel. Pure rules: the page
 * calls the API (pre-paid-order, payment-status) and sends what it heard; the machine says what the page shows
 * and what it may do. A code lives PAYMENT_CODE_TTL_MS (the server's expiresAt); the page polls the status every
 * 2 s and ticks every second for the countdown. Every timed event carries `now` (ms) from the page's clock.
 *
 *   choosing → CHOOSE → creating → CREATED → waiting → STATUS paid → paid
 *                                 ↘ CREATE_FAILED → failed → RETRY → creating
 *   waiting → TICK past expiry / STATUS code closed → expired → REFRESH → creating (a new code, the old closed)
 */

/** The code the page shows, as pre-paid-order answered it. */
export interface ChargeCode {
  id: number;
  outTradeNo: string;
  expiresAt: number;
}

export interface ChargeContext {
  orderId: number;
  packageId: number | null;
  code: ChargeCode | null;
  /** Ask the server for a new code (refresh=1) rather than the live one: after REFRESH or a change of package. */
  replace: boolean;
  /** The catalogue code of the last failure (failed), or null. */
  error: string | null;
  now: number;
}

export type ChargeEvent =
  | { type: 'CHOOSE'; packageId: number }
  | { type: 'CREATED'; code: ChargeCode; now: number }
  | { type: 'CREATE_FAILED'; code: string }
  /** A poll of payment-status: the application's payment and its current code's status. */
  | { type: 'STATUS'; paymentStatus: PaymentStatus; progress: RequestProgress; chargeStatus: ChargeStatus | null; now: number }
  | { type: 'TICK'; now: number }
  | { type: 'REFRESH' }
  | { type: 'RETRY' };

export type ChargeState = 'choosing' | 'creating' | 'waiting' | 'expired' | 'failed' | 'paid' | 'closed';

const PAID: PaymentStatus = 1;

export const chargeMachine = setup({
  types: { context: {} as ChargeContext, events: {} as ChargeEvent, input: {} as { orderId: number; now: number } },
  guards: {
    /** Areas §4: payment status 1 is paid, whatever channel paid it (the QR, or credit in another tab). */
    isPaid: ({ event }) => event.type === 'STATUS' && event.paymentStatus === PAID,
    /** Refunding, refunded or withdrawn: nothing can be paid any more (machines/payment.ts). */
    isUnpayable: ({ event }) => event.type === 'STATUS' && event.paymentStatus !== PAID && (event.paymentStatus !== 0 || event.progress === 'withdrawn'),
    /** §8 OrderAlreadyPaid when asking for a code: it was paid another way meanwhile, which is the paid state. */
    isAlreadyPaid: ({ event }) => event.type === 'CREATE_FAILED' && event.code === 'OrderAlreadyPaid',
    /** A withdrawn or refunded application answers InvalidTransition / OrderInvalid: no code will ever come. */
    isOrderClosed: ({ event }) => event.type === 'CREATE_FAILED' && (event.code === 'InvalidTransition' || event.code === 'OrderInvalid'),
    /** The code's own life ended: its expiresAt passed on the page's clock. */
    isPastExpiry: ({ context, event }) => 'now' in event && context.code !== null && event.now >= context.code.expiresAt,
    /** The server closed the code (expired at the channel, replaced in another tab, or failed there). */
    isCodeClosed: ({ event }) => event.type === 'STATUS' && (event.chargeStatus === 'closed' || event.chargeStatus === 'failed'),
    /** Choosing the package the live code is already for changes nothing. */
    isOtherPackage: ({ context, event }) => event.type === 'CHOOSE' && event.packageId !== context.packageId,
  },
  actions: {
    choose: assign({
      packageId: ({ event }) => (event.type === 'CHOOSE' ? event.packageId : null),
      // A code already on the page is for another package: the server must close it and make a new one.
      replace: ({ context }) => context.code !== null,
      error: null,
    }),
    keep: assign({
      code: ({ event, context }) => (event.type === 'CREATED' ? event.code : context.code),
      now: ({ event, context }) => ('now' in event ? event.now : context.now),
      replace: false,
    }),
    stamp: assign({ now: ({ event, context }) => ('now' in event ? event.now : context.now) }),
    fail: assign({ error: ({ event }) => (event.type === 'CREATE_FAILED' ? event.code : null) }),
    replaceCode: assign({ replace: true, error: null }),
    retry: assign({ error: null }),
  },
}).createMachine({
  id: 'charge',
  initial: 'choosing',
  context: ({ input }) => ({ orderId: input.orderId, packageId: null, code: null, replace: false, error: null, now: input.now }),
  states: {
    choosing: {
      on: {
        CHOOSE: { target: 'creating', actions: 'choose' },
        STATUS: [{ guard: 'isPaid', target: 'paid', actions: 'stamp' }, { guard: 'isUnpayable', target: 'closed', actions: 'stamp' }],
      },
    },
    creating: {
      on: {
        CREATED: { target: 'waiting', actions: 'keep' },
        CREATE_FAILED: [
          { guard: 'isAlreadyPaid', target: 'paid' },
          { guard: 'isOrderClosed', target: 'closed', actions: 'fail' },
          { target: 'failed', actions: 'fail' },
        ],
      },
    },
    waiting: {
      on: {
        STATUS: [
          { guard: 'isPaid', target: 'paid', actions: 'stamp' },
          { guard: 'isUnpayable', target: 'closed', actions: 'stamp' },
          { guard: 'isCodeClosed', target: 'expired', actions: 'stamp' },
          { guard: 'isPastExpiry', target: 'expired', actions: 'stamp' },
          { actions: 'stamp' },
        ],
        TICK: [{ guard: 'isPastExpiry', target: 'expired', actions: 'stamp' }, { actions: 'stamp' }],
        CHOOSE: { guard: 'isOtherPackage', target: 'creating', actions: 'choose' },
      },
    },
    /** The code is dead; a payment that reached the channel before it closed still shows up in the status. */
    expired: {
      on: {
        REFRESH: { target: 'creating', actions: 'replaceCode' },
        CHOOSE: { target: 'creating', actions: 'choose' },
        STATUS: [{ guard: 'isPaid', target: 'paid', actions: 'stamp' }, { guard: 'isUnpayable', target: 'closed', actions: 'stamp' }],
      },
    },
    failed: {
      on: {
        RETRY: { target: 'creating', actions: 'retry' },
        CHOOSE: { target: 'creating', actions: 'choose' },
        STATUS: [{ guard: 'isPaid', target: 'paid', actions: 'stamp' }, { guard: 'isUnpayable', target: 'closed', actions: 'stamp' }],
      },
    },
    paid: { type: 'final' },
    /** Withdrawn or refunded while the page was open: nothing to pay. */
    closed: { type: 'final' },
  },
});

export type ChargeSnapshot = ReturnType<typeof chargeMachine.resolveState>;

/** Whole seconds left on the code (0 once expired), for the countdown. */
export function secondsLeft(context: ChargeContext): number {
  return context.code ? Math.max(0, Math.ceil((context.code.expiresAt - context.now) / 1000)) : 0;
}
