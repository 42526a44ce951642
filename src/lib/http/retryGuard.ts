/**
 * The client's brake on a screen that sends the same failing request again and again (issue: a worklist that
 * re-asked a page 290 times a second after its token ended). Identical requests — same method, path, query and
 * body — that keep failing wait before going out again, longer after each failure: the first retries go at once
 * (a user's "retry" button), later ones wait 0.5 s, 1 s, 2 s … up to 30 s. Any answer other than a failure
 * forgets the streak. The waiting request still honours its caller's cancel.
 */
export interface RetryGuardOptions {
  now?: () => number;
  /** Failures in a row after which the next attempt waits (the first retries go at once). */
  freeRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Streaks remembered at once; the oldest is forgotten first. */
  capacity?: number;
}

export interface RetryGuard {
  /** Resolves when the request may go; rejects with an AbortError when the caller cancels while it waits. */
  before(key: string, signal?: AbortSignal): Promise<void>;
  /** How long the request would wait now (0 = at once). */
  delayFor(key: string): number;
  failed(key: string): void;
  succeeded(key: string): void;
}

export function createRetryGuard(options: RetryGuardOptions = {}): RetryGuard {
  const now = options.now ?? (() => Date.now());
  const free = options.freeRetries ?? 3;
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  const capacity = options.capacity ?? 200;
  const streaks = new Map<string, { count: number; last: number }>();

  function delayFor(key: string): number {
    const streak = streaks.get(key);
    if (!streak || streak.count < free) return 0;
    const wanted = Math.min(max, base * 2 ** (streak.count - free));
    return Math.max(0, streak.last + wanted - now());
  }

  return {
    delayFor,
    before(key, signal) {
      const wait = delayFor(key);
      if (wait <= 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, wait);
        function onAbort() {
          clearTimeout(timer);
          reject(new DOMException('Aborted', 'AbortError'));
        }
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    failed(key) {
      const streak = streaks.get(key);
      streaks.delete(key); // re-inserted last: the map's order is the age order
      streaks.set(key, { count: (streak?.count ?? 0) + 1, last: now() });
      if (streaks.size > capacity) streaks.delete(streaks.keys().next().value as string);
    },
    succeeded(key) {
      streaks.delete(key);
    },
  };
}

/** The identity of a request for the guard, or null for bodies that cannot be compared (files, forms). */
export function requestKey(method: string, target: string, body: unknown): string | null {
  if (body === undefined || body === null) return `${method} ${target}`;
  if (typeof body === 'string') return `${method} ${target} ${body}`;
  if (typeof FormData !== 'undefined' && body instanceof FormData) return null;
  if (typeof Blob !== 'undefined' && body instanceof Blob) return null;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return null;
  try {
    return `${method} ${target} ${JSON.stringify(body)}`;
  } catch {
    return null;
  }
}
