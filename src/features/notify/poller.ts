/**
 * Notification polling (core §4 "Notification polling", §7 "Polling"), written once for both feeds: new exams
 * (every 30 s) and pending consultations (every 60 s). Each round asks for the 5 newest items; when the first
 * one's id is above the last id the user acknowledged, the feed's one toast says so. It rings only for an item
 * newer than the toast has already announced (areas §2: duplicates ignored): a round that finds nothing newer
 * updates the toast quietly if it is up (the pending count) and leaves it closed if it is not. Closing the toast
 * (its ×, Esc on it, or "dismiss notifications") records the highest id seen, so those items never come back.
 * A 401 stops the poller quietly; any other failure, and a sound the browser refuses to play, are ignored.
 * No React here: the rules are tested with fake timers, the hook only starts and stops pollers.
 */
import type { ToastInput } from '@/lib/toasts';

export interface PollPage<T> {
  items: T[];
  total: number;
}

export interface PollFeed<T extends { id: number }> {
  /** Names the feed in toast keys and logs: 'exams', 'consultations'. */
  name: string;
  intervalMs: number;
  /** localStorage key of the highest acknowledged id. */
  storageKey: string;
  fetch(signal: AbortSignal): Promise<PollPage<T>>;
  /** The toast's text for the newest item and the round's total. */
  describe(first: T, total: number): { title: string; message: string };
}

export interface PollEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  timers: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  /** Shows the feed's toast, or changes the text of the one that is up (same key). */
  upsertToast(input: ToastInput & { key: string }): { outcome: 'shown' | 'updated' };
  hasToast(key: string): boolean;
  playSound(url: string): Promise<void> | void;
  /** The group's sound (autoNotifyAudio / autoConsulNotifyAudio); polling runs only while one is set. */
  soundUrl: string;
  /**
   * The account's own switch for this feed's sound (settings/notification), read when news arrives: off, the toast
   * still shows and nothing plays. Absent: on.
   */
  soundOn?: () => boolean;
  /** True for a failure that means the session is over (HTTP 401). */
  isUnauthorized(error: unknown): boolean;
}

export interface Poller {
  start(): void;
  stop(): void;
  /** One round now (tests; the first round also runs at start). */
  poll(): Promise<void>;
  readonly running: boolean;
}

export function lastSeenId(storage: PollEnv['storage'], key: string): number {
  try {
    const value = Number(storage.getItem(key));
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** Records the highest id acknowledged; never moves backwards (two tabs closing toasts in either order agree). */
export function recordSeen(storage: PollEnv['storage'], key: string, id: number): void {
  try {
    if (id > lastSeenId(storage, key)) storage.setItem(key, String(id));
  } catch {
    // Without storage the same items ring again after a reload: acceptable, nothing is lost.
  }
}

/**
 * Core §7: "if the first result has an id above the last seen id". The exam feed comes in the worklist's order
 * (exam time), where a new arrival need not be first: any id above the last seen is news, and the toast names the
 * first of those in the feed's order.
 */
export function freshItems<T extends { id: number }>(page: PollPage<T>, lastSeen: number): T[] {
  return page.items.filter((item) => item.id > lastSeen);
}

export function isNews<T extends { id: number }>(page: PollPage<T>, lastSeen: number): boolean {
  return freshItems(page, lastSeen).length > 0;
}

export function createPoller<T extends { id: number }>(feed: PollFeed<T>, env: PollEnv): Poller {
  let timer: unknown = null;
  let running = false;
  let controller: AbortController | null = null;
  // The newest item this poller has rung for, and the highest id its toast stands for (recorded when it is closed).
  let announced = 0;
  let highest = 0;
  const key = `notify-${feed.name}`;

  async function poll(): Promise<void> {
    controller?.abort();
    const own = new AbortController();
    controller = own;
    let page: PollPage<T>;
    try {
      page = await feed.fetch(own.signal);
    } catch (error) {
      if (own.signal.aborted) return;
      if (env.isUnauthorized(error)) stop();
      return;
    }
    if (own.signal.aborted || !running) return;
    const fresh = freshItems(page, lastSeenId(env.storage, feed.storageKey));
    if (fresh.length === 0) return;
    const first = fresh[0]!;
    const newest = Math.max(...fresh.map((item) => item.id));
    const newer = newest > announced;
    if (!newer && !env.hasToast(key)) return;
    highest = Math.max(highest, ...page.items.map((item) => item.id));
    env.upsertToast({
      ...feed.describe(first, page.total),
      kind: 'info',
      key,
      onClose: (reason) => {
        if (reason === 'dismissed') recordSeen(env.storage, feed.storageKey, highest);
      },
    });
    if (!newer) return;
    announced = newest;
    if (env.soundOn && !env.soundOn()) return;
    try {
      await env.playSound(env.soundUrl);
    } catch {
      // Autoplay refused, file missing, no audio device: the toast is enough.
    }
  }

  function schedule() {
    timer = env.timers.setTimeout(() => {
      if (!running) return;
      void poll().finally(() => {
        if (running) schedule();
      });
    }, feed.intervalMs);
  }

  function start() {
    if (running) return;
    running = true;
    void poll().finally(() => {
      if (running) schedule();
    });
  }

  function stop() {
    running = false;
    controller?.abort();
    controller = null;
    if (timer !== null) env.timers.clearTimeout(timer);
    timer = null;
  }

  return {
    start,
    stop,
    poll,
    get running() {
      return running;
    },
  };
}
