import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNotBlocked, clearCounter, count, limitRequest, RATE_RULES } from '../../server/http/rateLimit';
import { startServer, type TestServer } from '../support/server';

/** The one rate limiter (server/http/rateLimit.ts) on its own: every area's limits are rules over it. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 0 }); });
afterAll(async () => { await s.close(); });

const MIN = 60_000;
const refusal = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; details?: unknown }) => ({ code: e.code, details: e.details }));
let n = 0;
const key = (name: string) => `${name}:${++n}`;

describe('limitRequest', () => {
  it('lets the limit through, refuses the next with retryAfter to the window end, and starts again after it', async () => {
    const k = key('req');
    const rule = { limit: 3, windowMs: MIN };
    const t0 = new Date('2026-01-01T08:00:00Z');
    for (let i = 0; i < 3; i++) await limitRequest(s.db.db, k, new Date(t0.getTime() + i * 1000), rule);
    expect(await refusal(limitRequest(s.db.db, k, new Date(t0.getTime() + 20_000), rule))).toEqual({ code: 'TooManyAttempts', details: { retryAfter: 40 } });
    expect(await refusal(limitRequest(s.db.db, k, new Date(t0.getTime() + MIN), rule))).toBeNull();
  });
});

describe('count and assertNotBlocked', () => {
  it('blocks a key to its window end when it reaches the limit, without counting the check', async () => {
    const k = key('fail');
    const t0 = new Date('2026-01-01T08:00:00Z');
    for (let i = 0; i < 9; i++) await count(s.db.db, k, t0, RATE_RULES.publicFailures);
    for (let i = 0; i < 3; i++) expect(await refusal(assertNotBlocked(s.db.db, [k], t0))).toBeNull();
    await count(s.db.db, k, new Date(t0.getTime() + 5 * MIN), RATE_RULES.publicFailures);
    expect(await refusal(assertNotBlocked(s.db.db, [k], new Date(t0.getTime() + 5 * MIN)))).toEqual({ code: 'TooManyAttempts', details: { retryAfter: 600 } });
    expect(await refusal(assertNotBlocked(s.db.db, [k], new Date(t0.getTime() + 15 * MIN)))).toBeNull();
  });

  it('holds a block for blockMs from the failure that reached the limit, reports the latest of several keys, and forgets a cleared key', async () => {
    const a = key('acct');
    const b = key('addr');
    const t0 = new Date('2026-01-01T08:00:00Z');
    const rule = { limit: 2, windowMs: MIN, blockMs: 10 * MIN };
    await count(s.db.db, a, t0, rule);
    await count(s.db.db, a, new Date(t0.getTime() + 30_000), rule);
    await count(s.db.db, b, t0, { limit: 1, windowMs: MIN, blockMs: 20 * MIN });
    const later = new Date(t0.getTime() + 2 * MIN);
    expect(await refusal(assertNotBlocked(s.db.db, [a], later))).toEqual({ code: 'TooManyAttempts', details: { retryAfter: 510 } });
    expect(await refusal(assertNotBlocked(s.db.db, [a, b], later))).toEqual({ code: 'TooManyAttempts', details: { retryAfter: 1080 } });
    await clearCounter(s.db.db, a);
    expect(await refusal(assertNotBlocked(s.db.db, [a], later))).toBeNull();
  });
});

describe('migration 0012', () => {
  it('carries running login blocks and failure counts from the two old tables into rate_counters', async () => {
    const source = path.resolve('server/db/migrations');
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    try {
      cpSync(source, dir, { recursive: true });
      const journalPath = path.join(dir, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.tag < '0012') }));
      const client = new PGlite('memory://', { extensions: { pg_trgm } });
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: dir });
      await db.execute(sql`insert into login_attempts values ('user:rad1', 5, '2026-01-01T08:00:00Z', '2026-01-01T08:15:00Z')`);
      await db.execute(sql`insert into request_counters values ('film-fail:10.0.0.1', '2026-01-01T08:00:00Z', 10), ('share:10.0.0.1', '2026-01-01T08:00:00Z', 12)`);
      writeFileSync(journalPath, JSON.stringify(journal));
      await migrate(db, { migrationsFolder: dir });
      const rows = await db.execute(sql`select key, count, blocked_until from rate_counters order by key`);
      expect(rows.rows.map((r) => ({ ...r, blocked_until: r.blocked_until ? new Date(r.blocked_until as string).toISOString() : null }))).toEqual([
        { key: 'film-fail:10.0.0.1', count: 10, blocked_until: '2026-01-01T08:15:00.000Z' },
        { key: 'login-user:rad1', count: 5, blocked_until: '2026-01-01T08:15:00.000Z' },
        { key: 'share:10.0.0.1', count: 12, blocked_until: null },
      ]);
      await client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
