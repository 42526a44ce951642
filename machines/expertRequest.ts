import { and, assign, setup } from 'xstate';

/**
 * An expert or remote report request (areas §4 "Remote report", §5 "Expert application"; core §4 remote report),
 * once. The server resolves a snapshot from the stored row and the facts it reads (the chosen organisations, the
 * exam's report, another live remote request), refuses what the machine refuses (machines/expertRequestTransitions.ts
 * names the rule) and lists what may be done next; the apply page walks the same states.
 *
 *   choosing ──agree (terms)──▶ agreed ──submit (rules)──▶ submitted ──pay──▶ paid ──write──▶ reporting ──approveAll──▶ reported
 *                                                           │                 │                 └──────────refund──────────┤
 *                                                           └──withdraw───────┴──withdraw (nothing written)──▶ withdrawn  refund ─▶ refunded
 *
 * Stored progress (report_orders.progress): awaiting_payment = submitted, queued = paid, withdrawn; reporting and
 * reported are derived from the experts' reports when read; refunded is payment status 3.
 */

export type RequestType = 'expert' | 'remote';

export interface ChosenTarget {
  bucketId: number;
  free: boolean;
}

export interface ExpertRequestContext {
  type: RequestType;
  /** The organisations chosen (expert) or the group's default expert organisation (remote). */
  targets: readonly ChosenTarget[];
  /** Every chosen organisation is one of the group's expert organisations and sells a report for the exam. */
  targetsValid: boolean;
  termsAgreed: boolean;
  /** The original exam's report: anything beyond status null/'none' means writing has begun (remote rule). */
  examWritingBegun: boolean;
  /** Another live (not withdrawn) remote request of the exam exists (remote: once per exam). */
  remoteRequested: boolean;
  /** Something is written on a copy (an expert's report beyond 'none'). */
  copiesWritten: boolean;
  /**
   * The exam has something to read (contract/reportable.ts `isReportable`: performed, or it has images); a booked,
   * registered or arrived registry line is not sold to an expert. Absent: true.
   */
  examReportable?: boolean;
  /** The chosen organisations that already hold an open (not withdrawn, not refunded) expert request of the exam. */
  openTargets?: readonly number[];
}

export type ExpertRequestEvent =
  | { type: 'choose'; targets: readonly ChosenTarget[]; targetsValid: boolean }
  | { type: 'agree'; agreed: boolean }
  | { type: 'submit' }
  | { type: 'pay' }
  | { type: 'write' }
  | { type: 'approveAll' }
  | { type: 'withdraw' }
  | { type: 'refund' };

export type ExpertRequestStateName = 'choosing' | 'agreed' | 'submitted' | 'paid' | 'reporting' | 'reported' | 'withdrawn' | 'refunded';

/** The rules, as pure functions of the context: the machine's guards, and the names the refusals report. */
export const REQUEST_RULES = {
  /** Areas §5: at least one applying organisation, each one the group offers. */
  atLeastOneOrganisation: (c: ExpertRequestContext) => c.targets.length > 0 && c.targetsValid,
  /** Areas §5: paid and free organisations are never mixed in one application. */
  paidAndFreeNotMixed: (c: ExpertRequestContext) => c.targets.every((t) => t.free) || c.targets.every((t) => !t.free),
  /** Areas §4 / core §4: a remote report is requested once per exam. */
  remoteOnce: (c: ExpertRequestContext) => c.type !== 'remote' || !c.remoteRequested,
  /** Areas §4 / core §4: a remote report only before writing has begun on the exam. */
  remoteBeforeWriting: (c: ExpertRequestContext) => c.type !== 'remote' || !c.examWritingBegun,
  /** Withdrawing only while nothing is written on any copy. */
  nothingWritten: (c: ExpertRequestContext) => !c.copiesWritten,
  /** An exam with nothing to read (not performed, no images) is not sent to an expert. */
  examHasSomethingToRead: (c: ExpertRequestContext) => c.examReportable !== false,
  /** One open expert request per exam and organisation: a second one would bill twice for one report. */
  oncePerExpert: (c: ExpertRequestContext) => c.type !== 'expert' || !c.targets.some((t) => c.openTargets?.includes(t.bucketId)),
} as const;

export const expertRequestMachine = setup({
  types: {
    context: {} as ExpertRequestContext,
    events: {} as ExpertRequestEvent,
    input: {} as Partial<ExpertRequestContext>,
  },
  guards: {
    termsAgreed: ({ event }) => event.type === 'agree' && event.agreed,
    atLeastOneOrganisation: ({ context }) => REQUEST_RULES.atLeastOneOrganisation(context),
    paidAndFreeNotMixed: ({ context }) => REQUEST_RULES.paidAndFreeNotMixed(context),
    remoteOnce: ({ context }) => REQUEST_RULES.remoteOnce(context),
    remoteBeforeWriting: ({ context }) => REQUEST_RULES.remoteBeforeWriting(context),
    nothingWritten: ({ context }) => REQUEST_RULES.nothingWritten(context),
    examHasSomethingToRead: ({ context }) => REQUEST_RULES.examHasSomethingToRead(context),
    oncePerExpert: ({ context }) => REQUEST_RULES.oncePerExpert(context),
    canSubmit: and(['atLeastOneOrganisation', 'paidAndFreeNotMixed', 'examHasSomethingToRead', 'remoteOnce', 'remoteBeforeWriting', 'oncePerExpert']),
    canWithdraw: ({ context }) => REQUEST_RULES.nothingWritten(context),
  },
  actions: {
    choose: assign(({ context, event }) => (event.type === 'choose' ? { targets: event.targets, targetsValid: event.targetsValid } : context)),
    agree: assign({ termsAgreed: true }),
    markWritten: assign({ copiesWritten: true }),
  },
}).createMachine({
  id: 'expertRequest',
  initial: 'choosing',
  context: ({ input }) => ({
    type: 'expert', targets: [], targetsValid: true, termsAgreed: false, examWritingBegun: false, remoteRequested: false, copiesWritten: false, ...input,
  }),
  states: {
    /** The applicant picks the expert organisations (remote: the group's default is given). */
    choosing: {
      on: {
        choose: { target: 'choosing', actions: 'choose' },
        agree: { guard: 'termsAgreed', target: 'agreed', actions: 'agree' },
      },
    },
    /** The service terms are agreed: submitting checks the rules of areas §5 and core §4. */
    agreed: {
      on: {
        choose: { target: 'agreed', actions: 'choose' },
        submit: { guard: 'canSubmit', target: 'submitted' },
      },
    },
    /** Stored as awaiting_payment: the application exists, nothing sent yet. */
    submitted: {
      on: {
        pay: { target: 'paid' },
        withdraw: { guard: 'canWithdraw', target: 'withdrawn' },
      },
    },
    /** Stored as queued: paid and sent (the copies exist); nobody has written yet. */
    paid: {
      on: {
        write: { target: 'reporting', actions: 'markWritten' },
        // A paid request is refunded first, then withdrawn (the server calls the refund).
        withdraw: { guard: 'canWithdraw', target: 'withdrawn' },
        refund: { target: 'refunded' },
      },
    },
    /** Derived: an expert is writing on a copy. Too late to withdraw; a refund takes the work back. */
    reporting: {
      on: {
        approveAll: { target: 'reported' },
        refund: { target: 'refunded' },
      },
    },
    /** Derived: every target's report is approved; the applicant reads them in the detail. */
    reported: {
      on: { refund: { target: 'refunded' } },
    },
    /** Kept as a record; asking again needs a new application. */
    withdrawn: { type: 'final' },
    /** Payment status 3: the money is back and the experts' work is gone. */
    refunded: { type: 'final' },
  },
});

export type ExpertRequestMachine = typeof expertRequestMachine;
