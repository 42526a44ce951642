import { assign, setup } from 'xstate';
import { REPACK_INTERVAL_MS } from '../contract/constants';
import type { StudyPackageState } from '../contract/studyPackage';

/**
 * The study package of an exam (core §4 "Upload packaging": processing, ready, error, expired;
 * §5: repackaging once per hour). Pure rules: the server keeps the state and times in its row,
 * resolves a snapshot from them, sends what happened (a request, a repack, the build's end, time
 * passing) and stores where the machine went. Every event carries `now` (ms) from the server's clock.
 */

/** A ready package is kept this long, then deleted; the next request packs again. */
export const STUDY_PACKAGE_TTL_MS = 24 * 3600_000;
/** A pack still running after this long died with its process: it counts as failed. */
export const PACK_TIMEOUT_MS = 30 * 60_000;

export type { StudyPackageState };

export interface StudyPackageContext {
  /** When the current (or last) pack started: the hourly repack rule counts from here. */
  startedAt: number | null;
  readyAt: number | null;
  expiresAt: number | null;
  /** The time of the last event: what "now" was for the machine. */
  now: number;
}

export type StudyPackageEvent =
  /** Someone asks for the package (GET without repackage): packs when there is none or it expired. */
  | { type: 'REQUEST'; now: number }
  /** Someone asks to pack again (GET ?repackage=true). */
  | { type: 'REPACK'; now: number }
  | { type: 'PACKED'; now: number }
  | { type: 'FAILED'; now: number }
  /** Time passed (the server sends it before every other event). */
  | { type: 'TICK'; now: number };

export const studyPackageMachine = setup({
  types: { context: {} as StudyPackageContext, events: {} as StudyPackageEvent, input: {} as { now: number } },
  guards: {
    /** Core §5: a new pack at most once an hour, counted from the start of the last one. */
    isRepackDue: ({ context, event }) => context.startedAt === null || event.now - context.startedAt >= REPACK_INTERVAL_MS,
    isPastExpiry: ({ context, event }) => context.expiresAt !== null && event.now >= context.expiresAt,
    isStale: ({ context, event }) => context.startedAt !== null && event.now - context.startedAt >= PACK_TIMEOUT_MS,
  },
  actions: {
    stamp: assign({ now: ({ event }) => event.now }),
    start: assign({ startedAt: ({ event }) => event.now, readyAt: null, expiresAt: null, now: ({ event }) => event.now }),
    finish: assign({ readyAt: ({ event }) => event.now, expiresAt: ({ event }) => event.now + STUDY_PACKAGE_TTL_MS, now: ({ event }) => event.now }),
  },
}).createMachine({
  id: 'studyPackage',
  initial: 'none',
  context: ({ input }) => ({ startedAt: null, readyAt: null, expiresAt: null, now: input.now }),
  states: {
    none: {
      on: {
        REQUEST: { target: 'processing', actions: 'start' },
        REPACK: { target: 'processing', actions: 'start' },
        TICK: { actions: 'stamp' },
      },
    },
    processing: {
      on: {
        PACKED: { target: 'ready', actions: 'finish' },
        FAILED: { target: 'error', actions: 'stamp' },
        TICK: [{ guard: 'isStale', target: 'error', actions: 'stamp' }, { actions: 'stamp' }],
      },
    },
    ready: {
      on: {
        REPACK: { guard: 'isRepackDue', target: 'processing', actions: 'start' },
        TICK: [{ guard: 'isPastExpiry', target: 'expired', actions: 'stamp' }, { actions: 'stamp' }],
      },
    },
    /** A failed pack made no package, so trying again is not a repack: no hourly wait. */
    error: {
      on: {
        REPACK: { target: 'processing', actions: 'start' },
        TICK: { actions: 'stamp' },
      },
    },
    expired: {
      on: {
        REQUEST: { target: 'processing', actions: 'start' },
        REPACK: { target: 'processing', actions: 'start' },
        TICK: { actions: 'stamp' },
      },
    },
  },
});

export type StudyPackageSnapshot = ReturnType<typeof studyPackageMachine.resolveState>;

export function packageSnapshot(state: StudyPackageState, context: StudyPackageContext): StudyPackageSnapshot {
  return studyPackageMachine.resolveState({ value: state, context });
}

/** When a refused repack would be allowed (ms), for RepackTooSoon's retryAfter. */
export function repackAvailableAt(context: StudyPackageContext): number | null {
  return context.startedAt === null ? null : context.startedAt + REPACK_INTERVAL_MS;
}
