import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXAM_POLL_MS } from '../../contract/constants';
import type { createToastStore } from '@/lib/toasts';
import { memoryStorage, pollEnv } from '../support/notify';
import { createPoller, isNews, lastSeenId, recordSeen, type PollEnv, type PollFeed, type PollPage } from '@/features/notify/poller';

interface Item {
  id: number;
}

class Unauthorized extends Error {
  status = 401;
}

/** A feed whose answers the test sets round by round; it counts the calls. */
function scriptedFeed() {
  const answers: (PollPage<Item> | Error)[] = [];
  let calls = 0;
  const feed: PollFeed<Item> = {
    name: 'exams',
    intervalMs: EXAM_POLL_MS,
    storageKey: 'notify-last-exam-id',
    fetch: async () => {
      calls += 1;
      const next = answers.length > 1 ? answers.shift()! : answers[0];
      if (!next) return { items: [], total: 0 };
      if (next instanceof Error) throw next;
      return next;
    },
    describe: (first, total) => ({ title: 'New exam', message: `#${first.id}, ${total} pending` }),
  };
  return { feed, answer: (a: PollPage<Item> | Error) => answers.push(a), calls: () => calls };
}

const page = (...ids: number[]): PollPage<Item> => ({ items: ids.map((id) => ({ id })), total: ids.length + 10 });

describe('notification polling rules', () => {
  let storage: ReturnType<typeof memoryStorage>;
  let toasts: ReturnType<typeof createToastStore>;
  let sounds: string[];
  let env: PollEnv;

  beforeEach(() => {
    vi.useFakeTimers();
    storage = memoryStorage();
    sounds = [];
    ({ toasts, env } = pollEnv({ storage, sounds, soundUrl: '/sounds/notify.wav', isUnauthorized: (error) => error instanceof Unauthorized }));
  });
  afterEach(() => vi.useRealTimers());

  it('counts as news only a first id above the last one seen', () => {
    expect(isNews(page(12, 11), 10)).toBe(true);
    expect(isNews(page(10, 9), 10)).toBe(false);
    expect(isNews(page(), 0)).toBe(false);
  });

  it('polls at once and then every 30 seconds, not sooner', async () => {
    const { feed, answer, calls } = scriptedFeed();
    answer(page());
    const poller = createPoller(feed, env);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS - 1);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS * 3);
    expect(calls()).toBe(5);
    poller.stop();
  });

  it('shows a toast and plays the group sound when a newer exam arrives', async () => {
    storage.setItem('notify-last-exam-id', '40');
    const { feed, answer } = scriptedFeed();
    answer(page(42, 41, 40));
    createPoller(feed, env).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(toasts.list().map((t) => [t.title, t.message])).toEqual([['New exam', '#42, 13 pending']]);
    expect(sounds).toEqual(['/sounds/notify.wav']);
  });

  it('stays silent when nothing is newer than the last id seen', async () => {
    storage.setItem('notify-last-exam-id', '42');
    const { feed, answer } = scriptedFeed();
    answer(page(42, 41));
    createPoller(feed, env).start();
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS * 2);
    expect(toasts.list()).toEqual([]);
    expect(sounds).toEqual([]);
  });

  it('records the highest id of the round when the user closes the toast, and then rings no more for it', async () => {
    const { feed, answer, calls } = scriptedFeed();
    answer({ items: [{ id: 50 }, { id: 57 }, { id: 49 }], total: 3 });
    createPoller(feed, env).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(lastSeenId(storage, 'notify-last-exam-id')).toBe(0);
    toasts.dismiss(toasts.list()[0]!.id);
    expect(lastSeenId(storage, 'notify-last-exam-id')).toBe(57);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS);
    expect(calls()).toBe(2);
    expect(toasts.list()).toEqual([]);
    expect(sounds).toHaveLength(1);
  });

  it('does not stack a second toast or ring again while the same exam is still shown', async () => {
    const { feed, answer } = scriptedFeed();
    answer(page(60));
    const quick = { ...feed, intervalMs: 3000 };
    createPoller(quick, env).start();
    await vi.advanceTimersByTimeAsync(6000);
    expect(toasts.list()).toHaveLength(1);
    expect(sounds).toHaveLength(1);
  });

  it('does not come back with its chime after running out unacknowledged, until a newer exam arrives', async () => {
    const { feed, answer } = scriptedFeed();
    answer(page(70));
    answer(page(70));
    answer(page(70));
    answer(page(71, 70));
    createPoller(feed, env).start();
    await vi.advanceTimersByTimeAsync(10_000); // the toast's 10 s
    expect(toasts.list()).toEqual([]);
    expect(lastSeenId(storage, 'notify-last-exam-id')).toBe(0);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS * 2); // two more rounds find nothing newer
    expect(toasts.list()).toEqual([]);
    expect(sounds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS - 5_000); // exam 71 arrives (and its toast is still up)
    expect(toasts.list().map((t) => t.message)).toEqual(['#71, 12 pending']);
    expect(sounds).toHaveLength(2);
  });

  it('updates the toast that is up quietly when a round finds nothing newer (the count changed), and rings once for a newer exam', async () => {
    const { feed, answer } = scriptedFeed();
    answer(page(80));
    answer({ items: [{ id: 80 }], total: 30 });
    answer({ items: [{ id: 81 }, { id: 80 }], total: 31 });
    const quick = { ...feed, intervalMs: 3000 };
    createPoller(quick, env).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sounds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(toasts.list().map((t) => t.message)).toEqual(['#80, 30 pending']);
    expect(sounds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(toasts.list().map((t) => t.message)).toEqual(['#81, 31 pending']);
    expect(toasts.list()).toHaveLength(1);
    expect(sounds).toHaveLength(2);
  });

  it('records the highest id of every round the toast showed when it is closed', async () => {
    const { feed, answer } = scriptedFeed();
    answer(page(90));
    answer({ items: [{ id: 93 }, { id: 90 }], total: 2 });
    const quick = { ...feed, intervalMs: 3000 };
    createPoller(quick, env).start();
    await vi.advanceTimersByTimeAsync(3000);
    toasts.dismissAll();
    expect(lastSeenId(storage, 'notify-last-exam-id')).toBe(93);
    expect(toasts.list()).toEqual([]);
  });

  it('stops quietly on a 401 and asks no more', async () => {
    const { feed, answer, calls } = scriptedFeed();
    answer(new Unauthorized('expired'));
    const poller = createPoller(feed, env);
    poller.start();
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS * 4);
    expect(calls()).toBe(1);
    expect(poller.running).toBe(false);
    expect(toasts.list()).toEqual([]);
  });

  it('ignores other failures and keeps polling', async () => {
    const { feed, answer, calls } = scriptedFeed();
    answer(new Error('503'));
    answer(page(80));
    createPoller(feed, env).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(toasts.list()).toEqual([]);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS);
    expect(calls()).toBe(2);
    expect(toasts.list()).toHaveLength(1);
  });

  it('shows the toast even when the browser refuses to play the sound', async () => {
    const { feed, answer } = scriptedFeed();
    answer(page(90));
    createPoller(feed, { ...env, playSound: () => Promise.reject(new Error('NotAllowedError')) }).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(toasts.list()).toHaveLength(1);
  });

  it('stops when told to (logout, the group sound switched off) and leaves no timer behind', async () => {
    const { feed, answer, calls } = scriptedFeed();
    answer(page());
    const poller = createPoller(feed, env);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    poller.stop();
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS * 5);
    expect(calls()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never moves the recorded id backwards', () => {
    recordSeen(storage, 'k', 30);
    recordSeen(storage, 'k', 20);
    expect(lastSeenId(storage, 'k')).toBe(30);
  });
});
