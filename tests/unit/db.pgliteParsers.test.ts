import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIZZLE_TEXT_TYPES, withDrizzleParsers } from '../../server/db/pgliteParsers';

/**
 * server/db/pgliteParsers.ts: drizzle over the wrapped client answers exactly what it answers over PGlite itself
 * (every type drizzle reads as text, and the ones it does not), in and out of transactions, while PGlite is no longer
 * given per-query parsers to merge.
 */
const EVERY_TYPE = sql`select '2026-11-26 10:20:30.123+08'::timestamptz as tz, '2020-01-02 03:04:05'::timestamp as ts,
  '1 day 02:00'::interval as iv, '2020-01-02'::date as d, array[1.5, 2]::numeric[] as nums,
  array['2020-01-01 00:00'::timestamp] as tss, array['2026-11-26 10:20:30+08'::timestamptz] as tzs,
  array['1 h'::interval] as ivs, array['2020-01-01'::date] as ds, 12::int8 as big, 3.25::numeric as num,
  '{"x": [1, "a"]}'::jsonb as js, array[1, 2]::int[] as ints, array['a', null]::text[] as texts, true as b,
  null::timestamptz as nothing, 'bytes'::bytea as raw`;

const plainClient = new PGlite();
const wrappedClient = new PGlite();
// Three PGlite instances start (seconds each under a busy suite): they start before the tests and the tests wait longer.
const spyClient = new PGlite();
beforeAll(async () => { await Promise.all([plainClient.waitReady, wrappedClient.waitReady, spyClient.waitReady]); }, 120_000);
afterAll(async () => { await Promise.all([plainClient.close(), wrappedClient.close(), spyClient.close()]); });

describe('drizzle over the wrapped PGlite client', { timeout: 60_000 }, () => {
  const plain = drizzle(plainClient);
  const wrapped = drizzle(withDrizzleParsers(wrappedClient));

  it('answers the same values, types included, as PGlite with drizzle\'s per-query parsers', async () => {
    const a = await plain.execute(EVERY_TYPE);
    const b = await wrapped.execute(EVERY_TYPE);
    expect(b.rows).toEqual(a.rows);
    expect(typeof b.rows[0]!.tz).toBe('string');
    expect(b.rows[0]!.raw).toBeInstanceOf(Uint8Array);
  });

  it('answers the same inside a transaction, and a failed one still rolls back', async () => {
    const a = await plain.transaction((tx) => tx.execute(EVERY_TYPE));
    const b = await wrapped.transaction((tx) => tx.execute(EVERY_TYPE));
    expect(b.rows).toEqual(a.rows);
    await wrapped.execute(sql`create table t (id int)`);
    await expect(wrapped.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (1)`);
      throw new Error('stop');
    })).rejects.toThrow('stop');
    expect((await wrapped.execute(sql`select count(*)::int as n from t`)).rows).toEqual([{ n: 0 }]);
  });

  it('passes PGlite no parsers of drizzle\'s, and passes any other parser on as given', async () => {
    const seen: (QueryOptions | undefined)[] = [];
    const query = spyClient.query.bind(spyClient);
    spyClient.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
      seen.push(options);
      return query(text, params, options);
    }) as typeof spyClient.query;
    const client = withDrizzleParsers(spyClient);
    await drizzle(client).execute(sql`select now() as at`);
    expect(seen).toContainEqual({ rowMode: 'object' });
    expect(seen.filter((o) => o?.parsers)).toEqual([]);
    const own = { parsers: { 25: (v: string) => v.toUpperCase() } };
    const res = await client.query<{ t: string }>('select $1::text as t', ['abc'], own);
    expect(seen.at(-1)).toBe(own);
    expect(res.rows).toEqual([{ t: 'ABC' }]);
    // The table keeps drizzle's text readers even after PGlite reads its array types again.
    await spyClient.refreshArrayTypes();
    const again = await drizzle(client).execute(sql`select array[now()] as ats`);
    expect(typeof again.rows[0]!.ats).toBe('string');
    expect(DRIZZLE_TEXT_TYPES).toHaveLength(9);
  });
});
