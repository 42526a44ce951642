/**
 * Notification polling (core §4 "Notification polling", §7 "Polling"), written once for both feeds: new exams
 * (every 30 s) and pending consultations (every 60 s, once consultations exist). Each round asks for the 5 newest
 * items; when the first one's id is above the last id the user acknowledged, a toast and a sound go off. Closing
 * the toast records the highest id of that round, so the same items never ring again. A 401 stops the poller
 * quietly; any other failure, and a sound the browser refuses to play, are ignored until the next round.
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
  /** Returns null when the toast was a duplicate of one still shown (nothing new appeared). */
  showToast(input: ToastInput): number | null;
  playSound(url: string): Promise<void> | void;
  /** The group's sound (autoNotifyAudio / autoConsulNotifyAudio); polling runs only while one is set. */
  soundUrl: string;
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

/** Core §7: "if the first result has an id above the last seen id". */
export function isNews<T extends { id: number }>(page: PollPage<T>, lastSeen: number): boolean {
  const first = page.items[0];
  return first !== undefined && first.id > lastSeen;
}

export function createPoller<T extends { id: number }>(feed: PollFeed<T>, env: PollEnv): Poller {
  let timer: unknown = null;
  let running = false;
  let controller: AbortController | null = null;

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
    if (!isNews(page, lastSeenId(env.storage, feed.storageKey))) return;
    const first = page.items[0]!;
    const highest = Math.max(...page.items.map((item) => item.id));
    const text = feed.describe(first, page.total);
    const shown = env.showToast({
      ...text,
      kind: 'info',
      // One toast per newest item: a round that finds the same item while its toast is up adds nothing.
      key: `notify-${feed.name}-${first.id}`,
      onClose: (reason) => {
        if (reason === 'dismissed') recordSeen(env.storage, feed.storageKey, highest);
      },
    });
    if (shown === null) return;
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
