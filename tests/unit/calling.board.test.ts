import { describe, expect, it } from 'vitest';
import { activeIndex, emptyHand, handReducer, pickedIn, type Column, type Hand } from '@/features/calling/board';
import { callingCommands, type CallingContext } from '@/features/calling/commands';

const columns: Column[] = [
  { key: 'q1', ids: [11, 12, 13] },
  { key: 'q2', ids: [21] },
  { key: 'q3', ids: [] },
];

const run = (events: Parameters<typeof handReducer>[2][], hand: Hand = emptyHand) => events.reduce((h, e) => handReducer(columns, h, e), hand);

describe('the operator’s hand', () => {
  it('starts on the first queue with nobody picked', () => {
    expect(activeIndex(columns, emptyHand)).toBe(0);
    expect(pickedIn(columns[0], emptyHand)).toBeNull();
    expect(activeIndex([], emptyHand)).toBe(-1);
  });

  it('walks down and up a queue and stops at its ends', () => {
    expect(pickedIn(columns[0], run([{ type: 'move', step: 1 }]))).toBe(11);
    expect(pickedIn(columns[0], run([{ type: 'move', step: 1 }, { type: 'move', step: 1 }, { type: 'move', step: 1 }, { type: 'move', step: 1 }]))).toBe(13);
    expect(pickedIn(columns[0], run([{ type: 'move', step: -1 }]))).toBe(13);
    expect(pickedIn(columns[0], run([{ type: 'move', step: 1 }, { type: 'move', step: -1 }]))).toBe(11);
  });

  it('switches queues around the ends and by number, keeping each queue’s pick', () => {
    const hand = run([{ type: 'move', step: 1 }, { type: 'switch', step: 1 }]);
    expect(activeIndex(columns, hand)).toBe(1);
    expect(activeIndex(columns, run([{ type: 'switch', step: -1 }]))).toBe(2);
    expect(activeIndex(columns, run([{ type: 'switch', step: 1 }, { type: 'switch', step: 1 }, { type: 'switch', step: 1 }]))).toBe(0);
    expect(activeIndex(columns, run([{ type: 'go', index: 2 }]))).toBe(2);
    expect(activeIndex(columns, run([{ type: 'go', index: 8 }]))).toBe(0);
    const back = handReducer(columns, hand, { type: 'switch', step: -1 });
    expect(pickedIn(columns[0], back)).toBe(11);
  });

  it('forgets a pick whose patient has left the queue, and on drop', () => {
    const hand = run([{ type: 'move', step: 1 }]);
    expect(pickedIn({ key: 'q1', ids: [12, 13] }, hand)).toBeNull();
    expect(pickedIn(columns[0], handReducer(columns, hand, { type: 'drop' }))).toBeNull();
  });

  it('moves nothing in an empty queue, and a click picks in any queue', () => {
    const hand = run([{ type: 'go', index: 2 }, { type: 'move', step: 1 }]);
    expect(activeIndex(columns, hand)).toBe(2);
    expect(pickedIn(columns[2], hand)).toBeNull();
    const picked = run([{ type: 'pick', queue: 'q2', id: 21 }]);
    expect(activeIndex(columns, picked)).toBe(1);
    expect(pickedIn(columns[1], picked)).toBe(21);
  });
});

describe('the operator’s keys', () => {
  const ctx = (over: Partial<CallingContext> = {}): CallingContext => {
    const calls: string[] = [];
    const record = (name: string) => () => void calls.push(name);
    return {
      queues: 3, canCheckIn: true, canManage: false,
      callNext: record('next'), recall: record('recall'), pass: record('pass'), back: record('back'), remove: record('remove'),
      done: record('done'), move: record('move'), switchQueue: record('switch'), goQueue: record('go'), focusSearch: record('search'),
      checkIn: record('checkIn'), settings: record('settings'), refresh: record('refresh'),
      ...over,
      calls,
    } as CallingContext & { calls: string[] };
  };
  const byKey = (key: string) => callingCommands.find((c) => c.shortcut === key)!;

  it('has every key the issue names', () => {
    const keys = callingCommands.map((c) => c.shortcut);
    for (const key of ['n', 'Space', 'r', 'p', 'u', 'Delete', 'd', 'ArrowUp', 'ArrowDown', 'j', 'k', 'ArrowLeft', 'ArrowRight', '/', '1', '9']) expect(keys).toContain(key);
  });

  it('never hides a desk key: each acts or says why on the desk (issue 32), and 1–9 only for queues on the screen', () => {
    for (const key of ['n', 'Space', 'r', 'p', 'u', 'd', 'Delete', 'c']) expect(byKey(key).when).toBeUndefined();
    expect(byKey('3').when!(ctx())).toBe(true);
    expect(byKey('4').when!(ctx())).toBe(false);
  });

  it('runs the context’s action', () => {
    const c = ctx() as CallingContext & { calls: string[] };
    for (const key of ['n', 'r', 'p', 'd', 'Delete', 'j', 'ArrowLeft', '2', '/']) void byKey(key).run(c);
    expect(c.calls).toEqual(['next', 'recall', 'pass', 'done', 'remove', 'move', 'switch', 'go', 'search']);
  });
});
