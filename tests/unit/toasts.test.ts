import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore } from '../../src/lib/toasts/store';

describe('toast area', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows at most 3 toasts in the corner, the oldest giving way', () => {
    const store = createToastStore();
    const closed: string[] = [];
    for (const message of ['one', 'two', 'three', 'four']) store.show({ message, onClose: (reason) => closed.push(`${message}:${reason}`) });
    expect(store.list().map((t) => t.message)).toEqual(['two', 'three', 'four']);
    expect(closed).toEqual(['one:replaced']);
  });

  it('ignores a duplicate of a toast still showing', () => {
    const store = createToastStore();
    expect(store.show({ message: 'Login expired' })).not.toBeNull();
    expect(store.show({ message: 'Login expired' })).toBeNull();
    expect(store.list()).toHaveLength(1);
  });

  it('shows the same text again once the first has gone', () => {
    const store = createToastStore();
    store.show({ message: 'Saved' });
    vi.advanceTimersByTime(10_000);
    expect(store.show({ message: 'Saved' })).not.toBeNull();
  });

  it('keeps a corner toast 10 s', () => {
    const store = createToastStore();
    store.show({ message: 'New exam' });
    vi.advanceTimersByTime(9_999);
    expect(store.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.list()).toHaveLength(0);
  });

  it('keeps a bottom toast 3 s, apart from the corner area', () => {
    const store = createToastStore();
    for (const message of ['a', 'b', 'c']) store.show({ message });
    store.show({ message: 'Login verification failed', placement: 'bottom' });
    expect(store.list()).toHaveLength(4);
    vi.advanceTimersByTime(2_999);
    expect(store.list().some((t) => t.placement === 'bottom')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store.list().map((t) => t.placement)).toEqual(['corner', 'corner', 'corner']);
  });

  it('tells the owner when the user dismisses a toast, and notifies subscribers', () => {
    const store = createToastStore();
    const onClose = vi.fn();
    const listener = vi.fn();
    store.subscribe(listener);
    const id = store.show({ message: 'New consultation', onClose })!;
    store.dismiss(id);
    expect(onClose).toHaveBeenCalledWith('dismissed');
    expect(store.list()).toHaveLength(0);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('stops a toast\'s time while it is held and gives back what was left', () => {
    const store = createToastStore();
    const id = store.show({ message: 'New exam' })!;
    vi.advanceTimersByTime(4_000);
    store.hold(id);
    store.hold(id); // a second hold changes nothing
    vi.advanceTimersByTime(60_000);
    expect(store.list()).toHaveLength(1);
    store.release(id);
    vi.advanceTimersByTime(5_999);
    expect(store.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.list()).toHaveLength(0);
  });

  it('gives a toast let go in its last instant a second to be seen leaving', () => {
    const store = createToastStore();
    const id = store.show({ message: 'New exam' })!;
    vi.advanceTimersByTime(9_900);
    store.hold(id);
    store.release(id);
    vi.advanceTimersByTime(999);
    expect(store.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.list()).toHaveLength(0);
  });

  it('ignores a release without a hold, and a hold of a toast that has gone', () => {
    const store = createToastStore();
    const id = store.show({ message: 'New exam' })!;
    store.release(id);
    vi.advanceTimersByTime(10_000);
    expect(store.list()).toHaveLength(0);
    store.hold(id);
    store.release(id);
    expect(store.list()).toHaveLength(0);
  });

  it('closes a held toast the user dismisses', () => {
    const store = createToastStore();
    const onClose = vi.fn();
    const id = store.show({ message: 'New exam', onClose })!;
    store.hold(id);
    store.dismiss(id);
    store.release(id);
    vi.advanceTimersByTime(20_000);
    expect(store.list()).toHaveLength(0);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
