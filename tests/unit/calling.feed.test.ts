import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ScreenState } from '../../contract/calling';
import { createScreenFeed, type FeedResult } from '../../server/calling/feed';

/** The screens' feed (issue 37): one read per change per organisation, whatever the number of its screens. */
function fakeHub() {
  const emitter = new EventEmitter();
  return {
    subscribe: (bucketId: number, fn: () => void) => {
      emitter.on(String(bucketId), fn);
      return () => emitter.off(String(bucketId), fn);
    },
    publish: (bucketId: number) => emitter.emit(String(bucketId)),
    listeners: (bucketId: number) => emitter.listenerCount(String(bucketId)),
  };
}

const stateOf = (n: number): ScreenState => ({ bucketName: `b${n}`, language: 'chs', privacy: false, queues: [] });
const settle = () => new Promise<void>((done) => setTimeout(done, 20));

describe('the screen feed', () => {
  it('reads once per change for every screen of an organisation and hands them the same result', async () => {
    const hub = fakeHub();
    let reads = 0;
    const feed = createScreenFeed(hub, async () => stateOf(++reads), async () => new Set(['h']));
    const got: FeedResult[][] = [[], [], []];
    const leaves = got.map((list) => feed.join(7, (r) => list.push(r)));
    expect(hub.listeners(7)).toBe(1);
    hub.publish(7);
    await settle();
    expect(reads).toBe(1);
    expect(got.map((l) => l.length)).toEqual([1, 1, 1]);
    expect(got[1]![0]).toBe(got[0]![0]);
    expect(got[0]![0]!.json).toBe(JSON.stringify(stateOf(1)));
    // A burst of changes while idle: one read.
    hub.publish(7);
    hub.publish(7);
    await settle();
    expect(reads).toBe(2);
    expect(got[2]![1]!.previous).toEqual(stateOf(1));
    for (const leave of leaves) leave();
    expect(hub.listeners(7)).toBe(0);
  });

  it('gives a screen that joins during a read only the reads started after it joined', async () => {
    const hub = fakeHub();
    let reads = 0;
    let release: () => void = () => undefined;
    const feed = createScreenFeed(hub, async () => {
      const n = ++reads;
      if (n === 1) await new Promise<void>((done) => { release = done; });
      return stateOf(n);
    }, async () => new Set());
    const early: FeedResult[] = [];
    const late: FeedResult[] = [];
    feed.join(3, (r) => early.push(r));
    hub.publish(3);
    await settle();
    feed.join(3, (r) => late.push(r));
    release();
    await settle();
    expect(reads).toBe(2);
    expect(early.map((r) => r.state.bucketName)).toEqual(['b1', 'b2']);
    expect(late.map((r) => r.state.bucketName)).toEqual(['b2']);
  });
});
