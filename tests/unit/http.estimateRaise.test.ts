import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { cachedEstimate, raiseCachedEstimate } from '../../server/http/estimate';

/**
 * server/http/estimate.ts: a count that ran past its limit raises the cached estimate of its statement, so the next
 * page of the same list answers from the cache instead of counting again (countOf in server/exams/query.ts); it never
 * lowers one, and the raise ends with the entry's ten seconds.
 */
function planner(rows: number) {
  const calls = { n: 0 };
  const db = {
    execute: () => {
      calls.n += 1;
      return Promise.resolve({ rows: [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': rows } }] }] });
    },
  } as unknown as Db;
  return { db, calls };
}
const statement = (text: string) => ({ toSQL: () => ({ sql: text, params: [1, '2026-11-26T10:00:00.000Z'] }), getSQL: () => sql.raw(text) });

describe('raising a cached estimate', () => {
  it('answers the raised number from the cache, without asking the planner again, until the entry ends', async () => {
    const { db, calls } = planner(3);
    const q = statement('select 1 from exams where assignee_id = $1');
    expect(await cachedEstimate(db, q, 1_000)).toBe(3);
    raiseCachedEstimate(db, q, 10_001);
    expect(await cachedEstimate(db, q, 2_000)).toBe(10_001);
    expect(calls.n).toBe(1);
    raiseCachedEstimate(db, q, 50); // never lower
    expect(await cachedEstimate(db, q, 3_000)).toBe(10_001);
    expect(await cachedEstimate(db, q, 11_001)).toBe(3); // ten seconds on: planned again
    expect(calls.n).toBe(2);
  });

  it('keys a named statement by its name, apart from the statement texts, and raises nothing not cached', async () => {
    const { db, calls } = planner(7);
    const q = statement('select 1 from exams where report_creator_id = $1');
    raiseCachedEstimate(db, q, 99, 'mine');
    expect(await cachedEstimate(db, q, 1_000, 'mine')).toBe(7);
    raiseCachedEstimate(db, q, 20_000); // the text's key: not the named entry
    expect(await cachedEstimate(db, q, 1_500, 'mine')).toBe(7);
    raiseCachedEstimate(db, q, 20_000, 'mine');
    expect(await cachedEstimate(db, q, 2_000, 'mine')).toBe(20_000);
    expect(calls.n).toBe(1);
  });
});
