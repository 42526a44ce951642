import { assign, setup, transition } from 'xstate';
import type { RegistrationStatus, RegistryAction } from '../contract/registry';
import { REGISTRY_ACTIONS } from '../contract/registry';

/**
 * The registration status of one exam line (areas §4 "Exam registration status"): Registered (for today),
 * Scheduled (a later day), Arrived, Performed, Cancelled. Pure rules: the server keeps the status, the times and
 * the previous status in the exam's row, resolves a snapshot from them, asks `can` before writing and stores where
 * the machine went; the client asks the same questions to grey out what it may not do.
 *
 * - Check-in marks arrival; an exam whose procedure step needs no images (reporting during the exam) is Performed
 *   at once.
 * - Revoke restores the earlier status and arrival time exactly: one step back, so the state before the last
 *   check-in, perform, match or cancel is kept in `previous`. Revoking a Performed exam deletes the completed
 *   exam's report (the server does it in the same transaction, with a trace).
 * - Cancel needs a reason; delete is for lines nobody has checked in.
 */
export interface Moment {
  status: RegistrationStatus;
  /** Epoch ms, or null before arrival. */
  arrivedTime: number | null;
}

export interface RegistrationContext extends Moment {
  previous: Moment | null;
  cancelReason: string | null;
}

export type RegistrationEvent =
  /** New times or patient details; the day decides Registered (today) or Scheduled (later). */
  | { type: 'edit'; scheduledDay: string; today: string }
  | { type: 'check-in'; now: number; needsImages: boolean }
  | { type: 'perform'; now: number }
  | { type: 'match'; now: number }
  | { type: 'revoke' }
  | { type: 'cancel'; reason: string }
  | { type: 'delete' };

const moment = ({ context }: { context: RegistrationContext }): Moment => ({ status: context.status, arrivedTime: context.arrivedTime });

/** Registered (today) and Scheduled (a later day) differ only in the day: a booked line allows the same events. */
const BOOKED = {
  edit: [{ guard: 'isLaterDay', target: 'Scheduled', reenter: true }, { target: 'Registered', reenter: true }],
  'check-in': [{ guard: 'needsNoImages', target: 'Performed', actions: 'arrive' }, { target: 'Arrived', actions: 'arrive' }],
  match: { target: 'Performed', actions: 'perform' },
  cancel: { guard: 'hasReason', target: 'Cancelled', actions: 'cancel' },
  delete: { target: 'deleted' },
} as const;

export const registrationMachine = setup({
  types: { context: {} as RegistrationContext, events: {} as RegistrationEvent, input: {} as RegistrationContext },
  guards: {
    /** Areas §4: an exam whose step needs no images to write the report moves to Performed on arrival. */
    needsNoImages: ({ event }) => event.type === 'check-in' && !event.needsImages,
    /** Areas §4: cancel needs a reason. */
    hasReason: ({ event }) => event.type === 'cancel' && event.reason.trim() !== '',
    /** Revoke goes one step back, and only to a state the line was really in. */
    hasPrevious: ({ context }) => context.previous !== null,
    isLaterDay: ({ event }) => event.type === 'edit' && event.scheduledDay > event.today,
  },
  actions: {
    arrive: assign(({ context, event }) => ({
      previous: moment({ context }),
      arrivedTime: 'now' in event ? event.now : context.arrivedTime,
    })),
    perform: assign(({ context, event }) => ({
      previous: moment({ context }),
      // A match of a line nobody checked in: the exam was done, so the patient arrived when it was matched.
      arrivedTime: context.arrivedTime ?? ('now' in event ? event.now : null),
    })),
    cancel: assign(({ context, event }) => ({
      previous: moment({ context }),
      cancelReason: event.type === 'cancel' ? event.reason.trim() : context.cancelReason,
    })),
    restore: assign(({ context }) => ({
      status: context.previous!.status,
      arrivedTime: context.previous!.arrivedTime,
      previous: null,
      cancelReason: null,
    })),
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => input,
  initial: 'Registered',
  states: {
    Registered: {
      entry: assign({ status: 'Registered' }),
      on: BOOKED,
    },
    Scheduled: {
      entry: assign({ status: 'Scheduled' }),
      on: BOOKED,
    },
    Arrived: {
      entry: assign({ status: 'Arrived' }),
      on: {
        perform: { target: 'Performed', actions: 'perform' },
        match: { target: 'Performed', actions: 'perform' },
        revoke: { guard: 'hasPrevious', target: 'restoring' },
        cancel: { guard: 'hasReason', target: 'Cancelled', actions: 'cancel' },
      },
    },
    Performed: {
      entry: assign({ status: 'Performed' }),
      on: { revoke: { guard: 'hasPrevious', target: 'restoring' } },
    },
    Cancelled: {
      entry: assign({ status: 'Cancelled' }),
      on: {
        revoke: { guard: 'hasPrevious', target: 'restoring' },
        delete: { target: 'deleted' },
      },
    },
    /** Revoke: goes back to the status kept in `previous` (a transient state, never stored). */
    restoring: {
      entry: 'restore',
      always: [
        { guard: ({ context }) => context.status === 'Registered', target: 'Registered' },
        { guard: ({ context }) => context.status === 'Scheduled', target: 'Scheduled' },
        { guard: ({ context }) => context.status === 'Arrived', target: 'Arrived' },
        { guard: ({ context }) => context.status === 'Performed', target: 'Performed' },
        { target: 'Cancelled' },
      ],
    },
    deleted: { type: 'final' },
  },
});

export type RegistrationSnapshot = ReturnType<typeof registrationMachine.resolveState>;

export function snapshotOf(line: RegistrationContext): RegistrationSnapshot {
  return registrationMachine.resolveState({ value: line.status, context: { ...line, previous: line.previous ? { ...line.previous } : null } });
}

/** The event a registry action sends; check-in asks with images needed, so Performed-on-arrival is the server's to say. */
export function eventFor(action: RegistryAction, now = 0): RegistrationEvent {
  switch (action) {
    case 'check-in': return { type: 'check-in', now, needsImages: true };
    case 'perform': return { type: 'perform', now };
    case 'match': return { type: 'match', now };
    case 'cancel': return { type: 'cancel', reason: 'reason given' };
    case 'edit': return { type: 'edit', scheduledDay: '', today: '' };
    default: return { type: action };
  }
}

/** The actions the line's state allows (the caller's rights are the server's to add). */
export function allowedActions(line: RegistrationContext): RegistryAction[] {
  const snapshot = snapshotOf(line);
  return REGISTRY_ACTIONS.filter((action) => snapshot.can(eventFor(action)));
}

/** The line after `event`, `deleted` when it was deleted, or null when the machine refuses it. */
export function applyEvent(line: RegistrationContext, event: RegistrationEvent): (RegistrationContext & { deleted: boolean }) | null {
  const snapshot = snapshotOf(line);
  if (!snapshot.can(event)) return null;
  const [next] = transition(registrationMachine, snapshot, event);
  return { ...next.context, deleted: next.value === 'deleted' };
}

/** The status a new line gets: Registered when scheduled for today in the organisation's zone, Scheduled for a later day. */
export function initialStatus(scheduledDay: string, today: string): RegistrationStatus {
  return scheduledDay > today ? 'Scheduled' : 'Registered';
}
