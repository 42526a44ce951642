import { describe, expect, it } from 'vitest';
import type { ExamRow } from '@/features/worklist/types';
import { findNextWritable } from '@/features/worklist/nextCase';

/** A row with only what "next" reads; canWrite is the server's (the report machine's) answer for the user. */
const row = (id: number, canWrite: boolean, deleted = false, booked: { examStatus: string; hasImage: boolean } | null = null) =>
  ({ id, canWrite, deletedTime: deleted ? '2026-11-01T00:00:00Z' : null, examStatus: booked?.examStatus ?? null, hasImage: booked?.hasImage ?? true }) as ExamRow;

function list(flags: boolean[], loaded: number) {
  const rows = flags.map((f, i) => row(i, f));
  const fetched: number[] = [];
  const kept: number[] = [];
  return {
    fetched,
    kept,
    env: {
      total: rows.length,
      rowAt: (i: number) => (i < loaded ? rows[i] : undefined),
      fetchRows: async (skip: number, limit: number) => {
        fetched.push(skip);
        return rows.slice(skip, skip + limit);
      },
      keep: (skip: number) => kept.push(skip),
      batch: 10,
    },
  };
}

describe('next case I can report', () => {
  it("skips cases the user cannot write (another's lock or draft, recalled, advised: canWrite false) and stops on the next writable", async () => {
    const { env, fetched } = list([true, false, false, false, true, true], 6);
    expect(await findNextWritable({ ...env, from: 0 })).toBe(4);
    expect(await findNextWritable({ ...env, from: 4 })).toBe(5);
    expect(fetched).toEqual([]);
  });

  it('skips lines booked at the registry desk and not performed (no images): nothing to read yet', async () => {
    const rows = [
      row(0, true),
      row(1, true, false, { examStatus: 'Scheduled', hasImage: false }),
      row(2, true, false, { examStatus: 'Registered', hasImage: false }),
      row(3, true, false, { examStatus: 'Arrived', hasImage: false }),
      row(4, true, false, { examStatus: 'Cancelled', hasImage: false }),
      row(5, true, false, { examStatus: 'Performed', hasImage: false }),
      row(6, true, false, { examStatus: 'Scheduled', hasImage: true }),
    ];
    const env = { total: rows.length, rowAt: (i: number) => rows[i], fetchRows: async () => [] };
    expect(await findNextWritable({ ...env, from: 0 })).toBe(5);
    expect(await findNextWritable({ ...env, from: 5 })).toBe(6);
    expect(await findNextWritable({ ...env, from: 6 })).toBe(0);
  });

  it('goes round past the end, and says none when nothing is writable', async () => {
    expect(await findNextWritable({ ...list([true, false, false], 3).env, from: 2 })).toBe(0);
    expect(await findNextWritable({ ...list([false, false, false], 3).env, from: 0 })).toBeNull();
  });

  it('never stops on a deleted exam', async () => {
    const rows = [row(0, true), row(1, true, true), row(2, true)];
    expect(await findNextWritable({ from: 0, total: 3, rowAt: (i) => rows[i], fetchRows: async () => [] })).toBe(2);
  });

  it('fetches the rows not loaded yet, in batches, hands them to the cache, and gives up after the batch limit', async () => {
    const flags = Array.from({ length: 100 }, (_, i) => i === 57);
    const far = list(flags, 20);
    expect(await findNextWritable({ ...far.env, from: 3 })).toBe(57);
    expect(far.fetched).toEqual([20, 30, 40, 50]);
    expect(far.kept).toEqual([20, 30, 40, 50]);

    const beyond = list(flags, 20);
    expect(await findNextWritable({ ...beyond.env, from: 3, maxBatches: 2 })).toBeNull();
    expect(beyond.fetched).toEqual([20, 30]);
  });
});
