import { and, assign, not, setup } from 'xstate';

/**
 * The payment of an application (areas §4 "Payment status": 0 unpaid, 1 paid, 2 refunding, 3 refunded), once. The
 * server resolves a snapshot from the report_orders row and the account's rights, asks `can` before every paying or
 * refunding write (machines/paymentTransitions.ts) and takes the next status from the machine; the client renders
 * from the detail's `transitions`.
 *
 *   unpaid ──pay──▶ paid ──refund (weixin)──▶ refunding ──refundSucceeded──▶ refunded
 *                    │  ▲                        │
 *                    │  └────refundFailed────────┘
 *                    └──refund (credit, plan, free: settled at once)──▶ refunded
 *
 * A refund is always full and to the original channel. A weixin refund waits for the channel (SUCCESS at once from
 * the sandbox, a notification later from WeChat Pay); a failed one leaves the application paid, the reason traced.
 */

/** Who acts: the account's actions in the applicant organisation and in the target (expert) organisations. */
export interface PaymentActor {
  id: number;
  applicant: readonly string[];
  target: readonly string[];
}

export type PaymentChannelName = 'weixin' | 'credit' | 'plan' | 'free';

export interface PaymentContext {
  /** expert: paid with apply_expert_report; remote: apply_remote_report (areas §6). */
  type: 'expert' | 'remote';
  /** The channel it was paid by (null while unpaid): decides whether a refund waits for the channel. */
  channel: PaymentChannelName | null;
  /** A withdrawn application is a record only: nothing pays it any more. */
  withdrawn: boolean;
}

type By = { actor: PaymentActor };
export type PaymentEvent =
  | ({ type: 'pay'; channel: PaymentChannelName } & By)
  | ({ type: 'refund'; reason: string } & By)
  /** The channel's answer to a weixin refund (no actor: the channel speaks). */
  | { type: 'refundSucceeded' }
  | { type: 'refundFailed'; reason: string };

export type PaymentEventType = PaymentEvent['type'];

const actionsOf = (event: PaymentEvent, side: 'applicant' | 'target'): readonly string[] => ('actor' in event ? event.actor[side] : []);

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as Partial<PaymentContext>,
  },
  guards: {
    /** Areas §6: paying needs the applying action of the application's type in the applicant organisation. */
    mayPay: ({ context, event }) => actionsOf(event, 'applicant').includes(context.type === 'remote' ? 'apply_remote_report' : 'apply_expert_report'),
    /** Refunds: payment_refund in the applicant organisation or in a target organisation. */
    mayRefund: ({ event }) => actionsOf(event, 'applicant').includes('payment_refund') || actionsOf(event, 'target').includes('payment_refund'),
    hasReason: ({ event }) => event.type === 'refund' && event.reason.trim().length > 0,
    isWithdrawn: ({ context }) => context.withdrawn,
    /** A weixin payment is returned through the channel, which answers later; the others settle at once. */
    viaChannel: ({ context }) => context.channel === 'weixin',
    canPay: and(['mayPay', not('isWithdrawn')]),
    canRefund: and(['mayRefund', 'hasReason']),
  },
  actions: {
    recordChannel: assign({ channel: ({ context, event }) => (event.type === 'pay' ? event.channel : context.channel) }),
  },
}).createMachine({
  id: 'payment',
  initial: 'unpaid',
  context: ({ input }) => ({ type: 'expert', channel: null, withdrawn: false, ...input }),
  states: {
    unpaid: {
      on: {
        pay: { guard: 'canPay', target: 'paid', actions: 'recordChannel' },
      },
    },
    paid: {
      on: {
        refund: [
          { guard: and(['canRefund', 'viaChannel']), target: 'refunding' },
          { guard: 'canRefund', target: 'refunded' },
        ],
      },
    },
    /** The channel has the refund; the application stays readable and nothing else may change it. */
    refunding: {
      on: {
        refundSucceeded: { target: 'refunded' },
        refundFailed: { target: 'paid' },
      },
    },
    /** Final: the money is back and the experts' work is gone. */
    refunded: { type: 'final' },
  },
});

export type PaymentMachine = typeof paymentMachine;
