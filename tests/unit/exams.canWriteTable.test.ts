import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../contract/actions';
import { LIFECYCLE_STATUSES } from '../../contract/reports';
import { eventFor, snapshotOf, type ReportState } from '../../machines/reportTransitions';
import { canSave, SAVE_RIGHTS, saveRightsOf } from '../../server/exams/canWrite';

/**
 * The worklist's canWrite table (server/exams/canWrite.ts) against the report machine over every combination of the
 * facts a report row has: the table keys on fewer facts than the machine is given, and this says the facts left out
 * never change the machine's answer to `save` — a new guard reading one of them fails here.
 */
const ME = 10; // not the table's representative caller (1): answers must not depend on which id the caller has
const PEOPLE = [null, ME, 20, 30] as const;
const BOOLS = [false, true] as const;
const OTHER_ACTIONS = [...ACTIONS.report.filter((a) => !(SAVE_RIGHTS as readonly string[]).includes(a)), 'exam_get'];

/** Every subset of the three rights the table reads, alone and with every other right. */
const ACTORS = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((bits) => {
  const rights = SAVE_RIGHTS.filter((_, i) => bits & (1 << i));
  return [{ bits, actions: rights }, { bits, actions: [...rights, ...OTHER_ACTIONS] }];
});

function* states(): Generator<ReportState> {
  for (const status of LIFECYCLE_STATUSES) for (const deleted of BOOLS) for (const mutable of BOOLS)
    for (const creatorId of PEOPLE) for (const assigneeId of PEOPLE) for (const lockedById of PEOPLE)
      for (const allowAdvisorEdit of BOOLS) for (const syncPending of BOOLS) for (const syncStopped of BOOLS) for (const hasImage of BOOLS)
        yield { status, deleted, mutable, creatorId, assigneeId, lockedById, allowAdvisorEdit, syncPending, syncStopped, hasImage };
}

describe('the canWrite table', () => {
  it('answers as the report machine does for every status, lock, person, option and right', () => {
    let compared = 0;
    let allowed = 0;
    const wrong: string[] = [];
    for (const state of states()) {
      const snapshot = snapshotOf(state);
      for (const actor of ACTORS) {
        const machine = snapshot.can(eventFor('save', { id: ME, actions: actor.actions }));
        if (canSave(state, ME, actor.bits) !== machine && wrong.length < 5) wrong.push(`${JSON.stringify(state)} ${actor.actions.join(',')}: machine ${machine}`);
        compared++;
        if (machine) allowed++;
      }
    }
    expect(wrong).toEqual([]);
    expect(compared).toBe(8 * 2 * 2 * 4 * 4 * 4 * 16 * 16);
    // Both answers occur (a table of constants would pass otherwise).
    expect(allowed).toBeGreaterThan(1000);
    expect(allowed).toBeLessThan(compared / 2);
  }, 120_000);

  it('reads the rights from the organisation’s action set', () => {
    expect(saveRightsOf(undefined)).toBe(0);
    expect(saveRightsOf(new Set(['exam_get']))).toBe(0);
    expect(saveRightsOf(new Set(['report_upsert']))).toBe(1);
    expect(saveRightsOf(new Set(ACTIONS.report))).toBe(7);
  });
});
