import { and, eq, isNull } from 'drizzle-orm';
import type { ScreenCall, ScreenState } from '../../contract/calling';
import type { Db } from '../db/client';
import { screenTokens } from '../db/schema';
import type { CallingHub } from './hub';

/**
 * One computation per change per organisation, shared by all its screens connected to this process (issue 37:
 * every screen used to read the state itself on every change, 10 screens ten times the work). The hub's message
 * (in-process, or NOTIFY across processes) starts one read of the state and one read of the organisation's live
 * screen token hashes; every listening screen then gets the same result (and the same serialised payload) and checks
 * its own token against the hashes. Screens do not differ by queue selection: the state is the organisation's.
 *
 * Reads run one at a time per organisation, in order; changes that arrive while one runs are answered together by the
 * next one. A screen that joins while a read runs gets only results of reads started after it joined (that read may
 * predate the state it has just been sent), and a read is queued for it.
 */
export interface FeedResult {
  state: ScreenState;
  /** JSON of `state`, made once for every screen. */
  json: string;
  /** The SHA-256 hashes of the organisation's live screen tokens. */
  liveHashes: ReadonlySet<string>;
  /** The state of the read before (to share the calls between it and this one among screens that had it). */
  previous: ScreenState | null;
  /** The calls between `previous` and `state`, worked out by the first screen that needs them for the others. */
  callsSincePrevious?: ScreenCall[];
}

export interface ScreenListener {
  (result: FeedResult): void;
}

interface Bucket {
  listeners: Map<ScreenListener, number>;
  unsubscribe: () => void;
  /** How many reads have started. */
  started: number;
  /** Idle, a read waiting for the next turn of the event loop, or a read under way. */
  phase: 'idle' | 'scheduled' | 'running';
  /** A change (or a screen) arrived during the read under way: one more read after it. */
  pending: boolean;
  previous: ScreenState | null;
}

/** The organisation's live screen token hashes: one read for all its screens. */
export async function liveTokenHashes(db: Db, bucketId: number): Promise<Set<string>> {
  return new Set((await db.select({ hash: screenTokens.tokenHash }).from(screenTokens)
    .where(and(eq(screenTokens.bucketId, bucketId), isNull(screenTokens.revokedAt)))).map((r) => r.hash));
}

export function createScreenFeed(hub: Pick<CallingHub, 'subscribe'>, readState: (bucketId: number) => Promise<ScreenState>,
  liveHashes: (bucketId: number) => Promise<ReadonlySet<string>>) {
  const buckets = new Map<number, Bucket>();

  const run = (bucketId: number, b: Bucket) => {
    // Already waiting for its turn: it will read this change too.
    if (b.phase === 'scheduled') return;
    if (b.phase === 'running') {
      b.pending = true;
      return;
    }
    b.phase = 'scheduled';
    b.pending = false;
    // A turn of the event loop first: a burst of changes becomes one read.
    setImmediate(() => {
      b.phase = 'running';
      const generation = ++b.started;
      void (async () => {
        try {
          const [state, hashes] = await Promise.all([readState(bucketId), liveHashes(bucketId)]);
          const result: FeedResult = { state, json: JSON.stringify(state), liveHashes: hashes, previous: b.previous };
          b.previous = state;
          for (const [listener, joined] of [...b.listeners]) if (joined < generation) listener(result);
        } catch {
          // A failed read sends nothing: the screens keep their state and catch up on the next change.
        } finally {
          b.phase = 'idle';
          if (b.pending && buckets.get(bucketId) === b) run(bucketId, b);
        }
      })();
    });
  };

  return {
    /** Listens for the organisation's changes; returns the unsubscribe. */
    join(bucketId: number, listener: ScreenListener): () => void {
      let b = buckets.get(bucketId);
      if (!b) {
        const created: Bucket = { listeners: new Map(), unsubscribe: () => undefined, started: 0, phase: 'idle', pending: false, previous: null };
        created.unsubscribe = hub.subscribe(bucketId, () => run(bucketId, created));
        buckets.set(bucketId, created);
        b = created;
      }
      b.listeners.set(listener, b.started);
      // A read already under way may have read before this screen's first state: one more after it.
      if (b.phase === 'running') b.pending = true;
      const bucket = b;
      return () => {
        bucket.listeners.delete(listener);
        if (bucket.listeners.size === 0 && buckets.get(bucketId) === bucket) {
          bucket.unsubscribe();
          buckets.delete(bucketId);
        }
      };
    },
  };
}
