import { and, assign, not, setup } from 'xstate';

/**
 * The consultation lifecycle (areas §4 "Consultation status", §5 rules, §6 rights), once. The server resolves a
 * snapshot from the row and the account's sides, asks `can` for every action to build the detail's `transitions`,
 * refuses anything else and takes the next status from `transition`; the client renders from `transitions`.
 * docs/decisions.md "Consultations" explains the sides and rights.
 *
 *   pending ──schedule──▶ scheduled ──writeResult──▶ discussed ──approve──▶ completed ──rate (once)
 *      │                    │   ▲ schedule (move)      ▲ writeResult (revise)
 *      └──cancel (reason)───┴──▶ canceled
 *
 * Payment status is a field beside the state (areas §4): set by hand in every state, it never moves the status.
 */

/** The three sides an account can be on (docs/decisions.md "Consultations"). */
export type ConsultationSide = 'applicant' | 'target' | 'joined';

/** Who acts: the account's actions in each side's organisation (empty where it is not on that side). */
export interface ConsultationActor {
  id: number;
  sides: Readonly<Record<ConsultationSide, readonly string[]>>;
  /** On some side at all (the server builds actors only for readers; a test may build a stranger). */
  reader: boolean;
}

export interface ConsultationContext {
  /** Areas §4: a rating, once submitted, never changes. */
  rated: boolean;
  /** Areas §4 payment status (0..3): a field beside the state, set by hand. */
  paymentStatus: number;
}

type By = { actor: ConsultationActor };
export type ConsultationEvent =
  | ({ type: 'update' | 'suggest' | 'approve' | 'editMembers' | 'print' } & By)
  | ({ type: 'setPayment'; paymentStatus: number } & By)
  | ({ type: 'addCase' | 'deleteCase' | 'addExam' | 'deleteExam' | 'link' } & By)
  /** Areas §5: a start time is required to schedule. */
  | ({ type: 'schedule'; scheduledTime: string | null } & By)
  /** Areas §5: a result's content is never empty (the conclusion's text). */
  | ({ type: 'writeResult'; hasContent: boolean } & By)
  | ({ type: 'cancel'; reason: string } & By)
  | ({ type: 'rate'; rating: number } & By);

export type ConsultationEventType = ConsultationEvent['type'];

const actorOf = (event: ConsultationEvent): ConsultationActor => event.actor;
/** The actor holds `action` in the organisation of one of `sides`. */
const on = (sides: readonly ConsultationSide[], ...actions: string[]) => ({ event }: { event: ConsultationEvent }) =>
  sides.some((side) => actions.some((a) => actorOf(event).sides[side].includes(a)));
const ANY: readonly ConsultationSide[] = ['applicant', 'target', 'joined'];

type OpenState = 'pending' | 'scheduled' | 'discussed';
type GuardName = 'applicantUpdates' | 'canSchedule' | 'canWriteResult' | 'anySideUpdates' | 'anySideSuggests'
  | 'anySideAddsCase' | 'anySideDeletesCase' | 'applicantAddsExam' | 'applicantDeletesExam' | 'isReader';

/**
 * A change that keeps the status. It names its own state as target: xstate's `can` answers false for a transition
 * with neither target nor actions, and these must be offered.
 */
const stay = <S extends string>(state: S, guard: GuardName) => ({ guard, target: state });

/** What an open consultation (not completed, not canceled) takes in every status: the parts and the discussion. */
const open = <S extends OpenState>(state: S) => ({
  suggest: stay(state, 'anySideSuggests'),
  editMembers: stay(state, 'anySideUpdates'),
  addCase: stay(state, 'anySideAddsCase'),
  deleteCase: stay(state, 'anySideDeletesCase'),
  addExam: stay(state, 'applicantAddsExam'),
  deleteExam: stay(state, 'applicantDeletesExam'),
  link: stay(state, 'anySideUpdates'),
  print: stay(state, 'isReader'),
});

export const consultationMachine = setup({
  types: {
    context: {} as ConsultationContext,
    events: {} as ConsultationEvent,
    input: {} as Partial<ConsultationContext>,
  },
  guards: {
    // Rights (docs/decisions.md "Consultations": the applicant side asks and approves, the target side answers).
    applicantUpdates: on(['applicant'], 'consultation_update'),
    applicantCancels: on(['applicant'], 'consultation_update', 'consultation_delete'),
    applicantRates: on(['applicant'], 'consultation_create', 'consultation_update'),
    applicantAddsExam: on(['applicant'], 'consultation_Exam_create'),
    applicantDeletesExam: on(['applicant'], 'consultation_Exam_delete'),
    /** "Experts with the conclusion permission": consultation_update in the target organisation. */
    targetUpdates: on(['target'], 'consultation_update'),
    anySideUpdates: on(ANY, 'consultation_update'),
    anySideSuggests: on(ANY, 'consultation_submitSuggestion'),
    anySideAddsCase: on(ANY, 'consultation_clinicCase_create'),
    anySideDeletesCase: on(ANY, 'consultation_clinicCase_delete'),
    /** Any reader (an account on some side, whatever its actions): printing needs no action (areas §6). */
    isReader: ({ event }) => actorOf(event).reader,

    // Input facts the rules name.
    hasStartTime: ({ event }) => event.type === 'schedule' && typeof event.scheduledTime === 'string' && event.scheduledTime.length > 0,
    hasResult: ({ event }) => event.type === 'writeResult' && event.hasContent,
    hasReason: ({ event }) => event.type === 'cancel' && event.reason.trim().length > 0,
    validRating: ({ event }) => event.type === 'rate' && Number.isInteger(event.rating) && event.rating >= 1 && event.rating <= 5,
    validPayment: ({ event }) => event.type === 'setPayment' && [0, 1, 2, 3].includes(event.paymentStatus),
    isRated: ({ context }) => context.rated,

    canSchedule: and(['targetUpdates', 'hasStartTime']),
    canWriteResult: and(['targetUpdates', 'hasResult']),
    canCancel: and(['applicantCancels', 'hasReason']),
    canRate: and(['applicantRates', 'validRating', not('isRated')]),
    canSetPayment: and(['targetUpdates', 'validPayment']),
  },
  actions: {
    markRated: assign({ rated: true }),
    setPayment: assign({ paymentStatus: ({ context, event }) => (event.type === 'setPayment' ? event.paymentStatus : context.paymentStatus) }),
  },
}).createMachine({
  id: 'consultation',
  initial: 'pending',
  context: ({ input }) => ({ rated: false, paymentStatus: 0, ...input }),
  // In every state: payment is set by hand (areas §4) and never moves the status.
  on: {
    setPayment: { guard: 'canSetPayment', actions: 'setPayment' },
  },
  states: {
    /** Asked, waiting for the target to fix a time. */
    pending: {
      on: {
        ...open('pending'),
        update: stay('pending', 'applicantUpdates'),
        schedule: { guard: 'canSchedule', target: 'scheduled' },
        cancel: { guard: 'canCancel', target: 'canceled' },
      },
    },
    /** A start time is fixed; the experts meet and write the result. */
    scheduled: {
      on: {
        ...open('scheduled'),
        update: stay('scheduled', 'applicantUpdates'),
        // Moving the meeting keeps it scheduled.
        schedule: stay('scheduled', 'canSchedule'),
        writeResult: { guard: 'canWriteResult', target: 'discussed' },
        cancel: { guard: 'canCancel', target: 'canceled' },
      },
    },
    /** The result is written and awaits the applicant's approval; the experts may still revise it. */
    discussed: {
      on: {
        ...open('discussed'),
        writeResult: stay('discussed', 'canWriteResult'),
        approve: { guard: 'applicantUpdates', target: 'completed' },
      },
    },
    /** Approved: the record is closed; only rated (once), linked, paid and printed. */
    completed: {
      on: {
        rate: { guard: 'canRate', target: 'completed', actions: 'markRated' },
        link: stay('completed', 'anySideUpdates'),
        print: stay('completed', 'isReader'),
      },
    },
    /** Withdrawn by the applicant with a reason (areas §4): read and printed only. */
    canceled: {
      on: { print: stay('canceled', 'isReader') },
    },
  },
});

export type ConsultationMachine = typeof consultationMachine;
