import { describe, expect, it } from 'vitest';
import { createBufferPool } from '../../server/uploads/bufferPool';

describe('the ingest path\'s file buffers (server/uploads/bufferPool.ts)', () => {
  it('hands out exactly the asked length and reuses a given-back buffer for a file of the same size class', () => {
    const pool = createBufferPool();
    const a = pool.take(525_000);
    expect(a.bytes.length).toBe(525_000);
    a.bytes.fill(7);
    const first = a.bytes.buffer;
    a.release();
    expect(pool.pooledBytes).toBe(1024 * 1024);
    const b = pool.take(600_000);
    expect(b.bytes.length).toBe(600_000);
    expect(b.bytes.buffer).toBe(first);
    expect(pool.pooledBytes).toBe(0);
  });

  it('never gives one buffer to two files at once', () => {
    const pool = createBufferPool();
    const held = [pool.take(100_000), pool.take(100_000), pool.take(100_000)];
    expect(new Set(held.map((h) => h.bytes.buffer)).size).toBe(3);
    for (const h of held) h.release();
    const again = [pool.take(100_000), pool.take(100_000), pool.take(100_000), pool.take(100_000)];
    expect(new Set(again.map((h) => h.bytes.buffer)).size).toBe(4);
  });

  it('takes a buffer back once, whatever the calls', () => {
    const pool = createBufferPool();
    const a = pool.take(1000);
    a.release();
    a.release();
    expect(pool.pooledBytes).toBe(64 * 1024);
    const [x, y] = [pool.take(1000), pool.take(1000)];
    expect(x.bytes.buffer).not.toBe(y.bytes.buffer);
  });

  it('keeps no file above its largest size and no more than its bound in all', () => {
    const pool = createBufferPool({ largest: 1024 * 1024, keepBytes: 2 * 1024 * 1024 });
    const big = pool.take(2_000_000);
    expect(big.bytes.length).toBe(2_000_000);
    big.release();
    expect(pool.pooledBytes).toBe(0);
    const many = [pool.take(900_000), pool.take(900_000), pool.take(900_000)];
    for (const m of many) m.release();
    expect(pool.pooledBytes).toBe(2 * 1024 * 1024);
  });

  it('gives an empty file a buffer of length 0', () => {
    const pool = createBufferPool();
    const empty = pool.take(0);
    expect(empty.bytes.length).toBe(0);
    empty.release();
    expect(pool.pooledBytes).toBe(64 * 1024);
  });
});
