import { assign, setup, transition } from 'xstate';
import type { QueueAction, QueueStatus } from '../contract/calling';
import { QUEUE_ACTIONS } from '../contract/calling';

/**
 * One patient in a call queue (areas §4 "Call queue"). Check-in puts an exam into a queue (`absent` is the machine's
 * start only, never stored); call — or call-next, the server's pick of the first waiting patient — calls them; recall
 * announces the same patient again (still called, one call more); pass moves a called patient to the missed area,
 * from where `back` (the spec's "return") puts them into the waiting list at a chosen place, or `call` calls them at
 * once; resort moves a waiting patient before another waiting number; remove takes anyone not yet served out of the
 * queue; done ends it. Pure rules: the server keeps the status and the call count in the row, resolves a snapshot
 * from them, asks `can` before writing (refusing with InvalidTransition) and stores where the machine went.
 */
export type QueueMachineState = 'absent' | QueueStatus;

export interface QueueContext {
  /** How often the patient was called (call, call-next, recall). */
  calls: number;
}

export type QueueEvent =
  | { type: 'check-in' }
  | { type: 'call' }
  | { type: 'call-next' }
  | { type: 'recall' }
  | { type: 'pass' }
  /** From the missed area into the waiting list; `position` 1 = next (the server places it). */
  | { type: 'back'; position?: number }
  /** Before the waiting number the operator typed; `targetWaiting` false when no such number waits in the queue. */
  | { type: 'resort'; targetWaiting: boolean }
  | { type: 'remove' }
  | { type: 'done' };

export const callQueueMachine = setup({
  types: { context: {} as QueueContext, events: {} as QueueEvent },
  guards: {
    /** Re-sorting only makes sense before a number that is waiting in the same queue today. */
    targetIsWaiting: ({ event }) => event.type === 'resort' && event.targetWaiting,
    /** A return place is a place in the list: 1 or later. */
    placeIsValid: ({ event }) => event.type === 'back' && (event.position === undefined || (Number.isInteger(event.position) && event.position >= 1)),
  },
  actions: {
    /** Each call is announced once more on the screens; the count tells the operator how often. */
    countCall: assign({ calls: ({ context }) => context.calls + 1 }),
  },
}).createMachine({
  id: 'callQueue',
  context: { calls: 0 },
  initial: 'absent',
  states: {
    absent: { on: { 'check-in': 'waiting' } },
    waiting: {
      on: {
        call: { target: 'called', actions: 'countCall' },
        'call-next': { target: 'called', actions: 'countCall' },
        resort: { guard: 'targetIsWaiting', target: 'waiting' },
        remove: 'removed',
      },
    },
    called: {
      on: {
        recall: { target: 'called', actions: 'countCall' },
        pass: 'passed',
        done: 'served',
        remove: 'removed',
      },
    },
    passed: {
      on: {
        back: { guard: 'placeIsValid', target: 'waiting' },
        call: { target: 'called', actions: 'countCall' },
        remove: 'removed',
      },
    },
    removed: { type: 'final' },
    served: { type: 'final' },
  },
});

export interface QueueMoment {
  status: QueueStatus;
  calls: number;
}

type QueueSnapshot = ReturnType<typeof callQueueMachine.resolveState>;

export function snapshotOf(moment: { status: QueueMachineState; calls: number }): QueueSnapshot {
  return callQueueMachine.resolveState({ value: moment.status, context: { calls: moment.calls } });
}

/** The event an action string of POST queue-exams/{id}/action sends. */
export function eventFor(action: QueueAction, position?: number): QueueEvent {
  return action === 'back' ? { type: 'back', ...(position === undefined ? {} : { position }) } : { type: action };
}

/** The entry after `event`, or null when the machine refuses it. */
export function applyEvent(moment: { status: QueueMachineState; calls: number }, event: QueueEvent): QueueMoment | null {
  const snapshot = snapshotOf(moment);
  if (!snapshot.can(event)) return null;
  const [next] = transition(callQueueMachine, snapshot, event);
  return { status: next.value as QueueStatus, calls: next.context.calls };
}

/** The status after `action`, or null when the machine refuses it. */
export function nextStatus(status: QueueStatus, action: QueueAction): QueueStatus | null {
  return applyEvent({ status, calls: 0 }, eventFor(action))?.status ?? null;
}

/** The action strings the entry's status allows (the caller's rights are the server's to add). */
export function allowedActions(status: QueueStatus): QueueAction[] {
  return QUEUE_ACTIONS.filter((a) => nextStatus(status, a) !== null);
}

/** Kept for callers of the first contract: the same as allowedActions. */
export const allowedQueueActions = allowedActions;

/** Whether the entry may be re-sorted (a waiting patient; the target number is the server's to check). */
export function canResort(status: QueueStatus): boolean {
  return snapshotOf({ status, calls: 0 }).can({ type: 'resort', targetWaiting: true });
}

/** Whether call-next may pick this entry. */
export function canCallNext(status: QueueStatus): boolean {
  return snapshotOf({ status, calls: 0 }).can({ type: 'call-next' });
}
