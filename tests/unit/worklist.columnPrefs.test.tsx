// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PREFS, loadPrefs, mergeOrder, moveColumn, sanitizePrefs, useColumnPrefs, type ColumnPrefs } from '@/features/worklist/columnPrefs';
import { COLUMN_IDS, COLUMN_SPECS } from '@/features/worklist/columns';

/**
 * The worklist grid's column widths, order and visibility (src/features/worklist/columnPrefs.ts): kept in
 * localStorage per account, so two people sharing a reading-room PC keep their own layouts; whatever is stored is
 * checked against today's columns before it is used.
 */
const key = (userId: number) => `worklist.columns.${userId}`;
const stored = (userId: number) => JSON.parse(localStorage.getItem(key(userId)) ?? 'null') as ColumnPrefs | null;
/** Everything in localStorage, key by key. */
const everything = () => Object.fromEntries(Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)!).map((k) => [k, localStorage.getItem(k)]));

/** A layout nobody would get by default: a width, a column moved, one hidden and a default-hidden one shown. */
const custom = (p: ColumnPrefs): ColumnPrefs => ({
  sizing: { ...p.sizing, patientId: 180, status: 90 },
  order: moveColumn(moveColumn(p.order, 'modality', -1), 'modality', -1),
  hidden: [...p.hidden.filter((id) => id !== 'origin'), 'bucketName'],
});

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the defaults', () => {
  it('are every column in its place, deletedTime and origin hidden, no widths set', () => {
    expect(DEFAULT_PREFS).toEqual({ sizing: {}, order: COLUMN_IDS, hidden: ['deletedTime', 'origin'] });
    expect(loadPrefs(1)).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(null)).toEqual(DEFAULT_PREFS);
  });
});

describe('a saved layout', () => {
  it('round-trips: written under the account on every change, read back as it was, also by a new screen', () => {
    const { result } = renderHook(() => useColumnPrefs(7));
    expect(result.current.prefs).toEqual(DEFAULT_PREFS);
    act(() => result.current.update(custom));
    const want = custom(DEFAULT_PREFS);
    expect(want.order.indexOf('modality')).toBe(COLUMN_IDS.indexOf('modality') - 2);
    expect(result.current.prefs).toEqual(want);
    expect(stored(7)).toEqual(want);
    expect(loadPrefs(7)).toEqual(want);
    // Another visit (a remount, a reload) starts from it.
    cleanup();
    expect(renderHook(() => useColumnPrefs(7)).result.current.prefs).toEqual(want);
  });

  it('takes successive changes on top of each other', () => {
    const { result } = renderHook(() => useColumnPrefs(7));
    act(() => result.current.update((p) => ({ ...p, sizing: { ...p.sizing, status: 100 } })));
    act(() => result.current.update((p) => ({ ...p, hidden: [...p.hidden, 'reporter'] })));
    expect(stored(7)).toEqual({ ...DEFAULT_PREFS, sizing: { status: 100 }, hidden: ['deletedTime', 'origin', 'reporter'] });
  });

  it('is reset to the defaults, stored as such', () => {
    const { result } = renderHook(() => useColumnPrefs(7));
    act(() => result.current.update(custom));
    act(() => result.current.reset());
    expect(result.current.prefs).toEqual(DEFAULT_PREFS);
    expect(stored(7)).toEqual(DEFAULT_PREFS);
  });
});

describe('layouts are kept per user', () => {
  it('does not apply one account\'s layout to another, nor write over it', () => {
    const first = renderHook(() => useColumnPrefs(7));
    act(() => first.result.current.update(custom));
    cleanup();

    const second = renderHook(() => useColumnPrefs(8));
    expect(second.result.current.prefs).toEqual(DEFAULT_PREFS);
    act(() => second.result.current.update((p) => ({ ...p, hidden: [...p.hidden, 'waiting'] })));
    expect(stored(8)).toEqual({ ...DEFAULT_PREFS, hidden: ['deletedTime', 'origin', 'waiting'] });
    expect(stored(7)).toEqual(custom(DEFAULT_PREFS));
    expect(loadPrefs(7)).toEqual(custom(DEFAULT_PREFS));
  });

  it('switches layouts when another account signs in on the same screen, and back', () => {
    const { result, rerender } = renderHook(({ userId }) => useColumnPrefs(userId), { initialProps: { userId: 7 as number | null } });
    act(() => result.current.update(custom));
    rerender({ userId: 8 });
    expect(result.current.prefs).toEqual(DEFAULT_PREFS);
    // A change now belongs to the new account only.
    act(() => result.current.update((p) => ({ ...p, sizing: { patientName: 200 } })));
    expect(stored(8)?.sizing).toEqual({ patientName: 200 });
    expect(stored(7)).toEqual(custom(DEFAULT_PREFS));
    rerender({ userId: 7 });
    expect(result.current.prefs).toEqual(custom(DEFAULT_PREFS));
    // Signed out: the defaults, and nothing is written for nobody.
    rerender({ userId: null });
    expect(result.current.prefs).toEqual(DEFAULT_PREFS);
    const before = everything();
    expect(Object.keys(before).sort()).toEqual([key(7), key(8)]);
    act(() => result.current.update(custom));
    expect(result.current.prefs).toEqual(custom(DEFAULT_PREFS));
    expect(everything()).toEqual(before);
  });

  it('reset touches only the account that asked', () => {
    const seven = renderHook(() => useColumnPrefs(7));
    act(() => seven.result.current.update(custom));
    const eight = renderHook(() => useColumnPrefs(8));
    act(() => eight.result.current.update(custom));
    act(() => eight.result.current.reset());
    expect(stored(8)).toEqual(DEFAULT_PREFS);
    expect(stored(7)).toEqual(custom(DEFAULT_PREFS));
  });
});

describe('stored values are checked against today\'s columns', () => {
  it('forgets removed or unknown columns, inserts new ones after their default neighbour, and keeps the patient shown', () => {
    localStorage.setItem(key(7), JSON.stringify({
      sizing: { ghost: 200, status: 120, bucketName: 'wide', waiting: 10_000, sexAge: 1, examTime: 101.6, modality: null },
      order: ['ghost', 'bucketName', 'patientName', 'patientName', 42, 'urgent', null],
      hidden: ['ghost', 'patientName', 'origin', 7, 'reporter'],
    }));
    const prefs = loadPrefs(7);
    const min = (id: string) => COLUMN_SPECS.find((c) => c.id === id)!.minSize;
    expect(prefs.sizing).toEqual({ status: 120, waiting: 600, sexAge: min('sexAge'), examTime: 102 });
    expect(prefs.order).toEqual([
      'bucketName', 'deletedTime', 'patientName', 'sexAge', 'patientId', 'source', 'modality', 'bodyPart', 'examTime', 'accessionNumber',
      'reporter', 'origin', 'urgent', 'status', 'waiting',
    ]);
    expect([...prefs.order].sort()).toEqual([...COLUMN_IDS].sort());
    expect(prefs.hidden).toEqual(['origin', 'reporter']);
    // The hook starts from the checked layout, not the raw one.
    expect(renderHook(() => useColumnPrefs(7)).result.current.prefs).toEqual(prefs);
  });

  it('keeps a stored order that already names every column as it is', () => {
    const reversed = [...COLUMN_IDS].reverse();
    expect(mergeOrder(reversed)).toEqual(reversed);
    expect(mergeOrder([])).toEqual(COLUMN_IDS);
  });

  it('never hides a fixed column', () => {
    const fixed = COLUMN_SPECS.filter((c) => c.fixed).map((c) => c.id);
    expect(fixed).toContain('patientName');
    expect(sanitizePrefs({ hidden: COLUMN_IDS }).hidden).toEqual(COLUMN_IDS.filter((id) => !fixed.includes(id)));
  });

  it.each([
    ['not JSON', '{"order": ['],
    ['truncated', JSON.stringify(custom(DEFAULT_PREFS)).slice(0, 40)],
    ['null', 'null'],
    ['a string', '"wide"'],
    ['a number', '42'],
    ['a list', '["urgent", "status"]'],
    ['the wrong shapes', '{"sizing": [300], "order": "urgent,status", "hidden": {"origin": true}}'],
  ])('falls back to the defaults when the stored value is %s', (_name, raw) => {
    localStorage.setItem(key(7), raw);
    expect(loadPrefs(7)).toEqual(DEFAULT_PREFS);
    const { result } = renderHook(() => useColumnPrefs(7));
    expect(result.current.prefs).toEqual(DEFAULT_PREFS);
    // The next change replaces the broken value with a good one.
    act(() => result.current.update((p) => ({ ...p, sizing: { status: 99 } })));
    expect(stored(7)).toEqual({ ...DEFAULT_PREFS, sizing: { status: 99 } });
  });

  it('keeps working without storage: defaults when it cannot be read, changes kept for the visit when it cannot be written', () => {
    localStorage.setItem(key(7), JSON.stringify(custom(DEFAULT_PREFS)));
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => { throw new DOMException('denied', 'SecurityError'); });
    expect(loadPrefs(7)).toEqual(DEFAULT_PREFS);
    vi.restoreAllMocks();
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => { throw new DOMException('full', 'QuotaExceededError'); });
    const { result } = renderHook(() => useColumnPrefs(8));
    act(() => result.current.update(custom));
    expect(result.current.prefs).toEqual(custom(DEFAULT_PREFS));
    expect(localStorage.getItem(key(8))).toBeNull();
  });
});

describe('moving a column', () => {
  it('swaps it with its neighbour and stops at the ends', () => {
    const order = ['a', 'b', 'c'];
    expect(moveColumn(order, 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moveColumn(order, 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moveColumn(order, 'a', -1)).toEqual(order);
    expect(moveColumn(order, 'c', 1)).toEqual(order);
    expect(moveColumn(order, 'zz', 1)).toEqual(order);
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
