import type { Language } from '../../../../contract/constants';

/** One queue as the waiting-room screen draws it. */
export interface ScreenQueue {
  key: string;
  name: string;
  room: string | null;
  current: ScreenCall | null;
  /** The next few waiting numbers, in order. */
  next: string[];
}

/** The queue's called patient; `stamp` changes with every call of it (a recall too). */
export interface ScreenCall {
  number: string;
  /** Masked by the server, or null under privacy-safe calls. */
  name: string | null;
  stamp: string;
}

export interface ScreenBoard {
  title: string;
  language: Language;
  privacy: boolean;
  queues: ScreenQueue[];
}

/** A call to announce: the queue it belongs to, what to say. */
export interface Announcement {
  queue: string;
  number: string;
  room: string | null;
  name: string | null;
  stamp: string;
}

/**
 * The calls made between two states of the screen (pure): a queue whose called patient changed, or was called
 * again. The first state after a connect announces nothing: it is the room's present, not news.
 */
export function newCalls(before: ScreenBoard | null, after: ScreenBoard): Announcement[] {
  if (!before) return [];
  const old = new Map(before.queues.map((q) => [q.key, q.current?.stamp ?? null]));
  return after.queues.flatMap((q) => {
    if (!q.current || old.get(q.key) === q.current.stamp) return [];
    return [{ queue: q.key, number: q.current.number, room: q.room, name: after.privacy ? null : q.current.name, stamp: q.current.stamp }];
  });
}
