import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { withDrizzleParsers } from '../../server/db/pgliteParsers';
import { nameOnPglite, queryNamed } from '../../server/db/pgliteNamed';
import { preparedOnce } from '../../server/db/preparedOnce';

/**
 * server/db/pgliteNamed.ts: a statement made by preparedOnce runs on PGlite as a named statement, parsed once, and
 * answers exactly what PGlite's own `query` answers: values of every kind both ways, errors, transactions.
 */
const plainClient = new PGlite();
const namedClient = new PGlite();
beforeAll(async () => {
  await Promise.all([plainClient.waitReady, namedClient.waitReady]);
  for (const c of [plainClient, namedClient]) await c.exec('create table items (id int primary key, name text not null)');
}, 120_000);
afterAll(async () => { await Promise.all([plainClient.close(), namedClient.close()]); });

/** Parameters of each kind PGlite writes with a serializer of its own (dates, JSON, arrays, bytes) or as text. */
const EVERY_KIND = `select $1::int as i, $2::text as t, $3::timestamptz as tz, $4::jsonb as js, $5::int[] as ints,
  $6::bytea as raw, $7::text as nothing, $8::bool as b, $9::numeric as num, $10::date as d, $11::text[] as texts`;
const VALUES = [42, '李明', new Date('2026-11-26T02:20:30.123Z'), { x: [1, 'a'], y: null }, [1, 2, 3],
  new Uint8Array([0, 1, 254]), null, true, '3.25', '2026-11-27', ['a', 'b"c']];

const named = (text: string) => `${text} -- ${Math.random()}`;
const preparedCount = async (client: PGlite, text: string) =>
  (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements where statement = $1', [text])).rows[0]!.n;

describe('named statements on PGlite', { timeout: 60_000 }, () => {
  it('answer the same rows, fields and types as PGlite\'s query, in both row modes', async () => {
    const text = named(EVERY_KIND);
    for (const rowMode of ['object', 'array'] as const) {
      const plain = await plainClient.query(text, VALUES, { rowMode });
      const first = await queryNamed(namedClient, text, VALUES, { rowMode });
      const again = await queryNamed(namedClient, text, VALUES, { rowMode });
      expect(first.rows).toEqual(plain.rows);
      expect(first.fields).toEqual(plain.fields);
      expect(again.rows).toEqual(plain.rows);
    }
    const [row] = (await queryNamed(namedClient, text, VALUES)).rows as Record<string, unknown>[];
    expect(row!.tz).toBeInstanceOf(Date);
    expect(row!.js).toEqual({ x: [1, 'a'], y: null });
    expect(row!.raw).toEqual(new Uint8Array([0, 1, 254]));
    expect(row!.nothing).toBeNull();
    // Parsed once: one statement of that text on the client, however often it ran.
    expect(await preparedCount(namedClient, text)).toBe(1);
  });

  it('report what an insert did, as PGlite\'s query does', async () => {
    const text = named('insert into items values ($1, $2) on conflict do nothing returning id, name');
    const plain = await plainClient.query(text, [1, 'a']);
    const done = await queryNamed(namedClient, text, [1, 'a']);
    expect(done.rows).toEqual(plain.rows);
    expect(done.affectedRows).toBe(1);
    const twice = await queryNamed(namedClient, text, [1, 'a']);
    expect(twice.rows).toEqual([]);
    expect(twice.affectedRows).toBe(0);
  });

  it('fail as PGlite\'s query fails, and leave the session and the statement usable', async () => {
    const text = named('insert into items values ($1, $2)');
    await queryNamed(namedClient, text, [10, 'x']);
    const error = await queryNamed(namedClient, text, [10, 'x']).catch((e: unknown) => e);
    const plainError = await plainClient.query(text, [10, 'x']).then(() => plainClient.query(text, [10, 'x'])).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_pkey', query: text, params: [10, 'x'] });
    expect((error as { code: string }).code).toBe((plainError as { code: string }).code);
    await queryNamed(namedClient, text, [11, 'y']);
    expect((await namedClient.query('select name from items where id = 11')).rows).toEqual([{ name: 'y' }]);
  });

  it('remember no statement PostgreSQL refused', async () => {
    const text = named('select count(*)::int as n from later');
    await expect(queryNamed(namedClient, text, [])).rejects.toMatchObject({ code: '42P01' });
    await namedClient.exec('create table later (id int)');
    expect((await queryNamed(namedClient, text, [])).rows).toEqual([{ n: 0 }]);
  });

  it('parse a statement once when its first runs come together', async () => {
    const text = named('select $1::int + 1 as n');
    const answers = await Promise.all([1, 2, 3, 4].map((v) => queryNamed(namedClient, text, [v])));
    expect(answers.map((a) => a.rows)).toEqual([[{ n: 2 }], [{ n: 3 }], [{ n: 4 }], [{ n: 5 }]]);
    expect(await preparedCount(namedClient, text)).toBe(1);
  });
});

describe('preparedOnce over drizzle on PGlite', { timeout: 60_000 }, () => {
  const items = pgTable('items', { id: integer('id').primaryKey(), name: text('name').notNull() });
  const db = drizzle(withDrizzleParsers(namedClient)) as unknown as Db;
  const byId = (on: Db) => preparedOnce(on, 'test_item_by_id', (d) => d.select().from(items).where(eq(items.id, sql.placeholder('id'))).prepare('test_item_by_id'));

  it('runs its statements as named ones, on the client and inside a transaction', async () => {
    await namedClient.query("insert into items values (20, 'twenty') on conflict do nothing");
    expect(await byId(db).execute({ id: 20 })).toEqual([{ id: 20, name: 'twenty' }]);
    const text = (byId(db) as unknown as { queryString: string }).queryString;
    expect(await preparedCount(namedClient, text)).toBe(1);
    let inside: unknown = null;
    await expect(db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (21, 'rolled back')`);
      inside = await byId(tx as unknown as Db).execute({ id: 21 });
      tx.rollback();
    })).rejects.toThrow();
    // The transaction's own statement saw its uncommitted row; after the rollback nobody does.
    expect(inside).toEqual([{ id: 21, name: 'rolled back' }]);
    expect(await byId(db).execute({ id: 21 })).toEqual([]);
  });

  it('refuses a named statement sent after its transaction ended, as PGlite does', async () => {
    const text = named('select 1 as one');
    nameOnPglite(text);
    const client = withDrizzleParsers(namedClient);
    let kept: { query(text: string): Promise<unknown> } | null = null;
    await client.transaction(async (tx) => { kept = tx; await tx.query(text); });
    await expect(kept!.query(text)).rejects.toThrow('Transaction is closed');
  });
});
