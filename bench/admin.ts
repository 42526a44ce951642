/**
 * Administration benchmark (`npm run bench:admin`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, grown to BENCH_MEMBERS extra group members (default 2,000, each a
 * member of the hospital) and BENCH_PROCEDURES procedures (default 300). Over loopback HTTP, BENCH_RUNS each (default
 * 200) after 10 warm-up calls: the members list and page query, the organisations, the roles, one role's action
 * ticked and unticked, a re-sort of every procedure, the account list, and a member's permissions (what every request
 * of that member pays for "rights read on every request"). p50 / p95 / max in milliseconds.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { hashPassword } from '../server/auth/password';
import { openDatabase, type Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { DEMO_PASSWORD, seedDemo } from '../server/seed/demo';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 2000);
const PROCEDURES = Number(process.env.BENCH_PROCEDURES ?? 300);
const SCRYPT_COST = 1024;

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_admin_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    database: await openDatabase({ databaseUrl: url.toString(), dataDir: null }),
    drop: async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function grow(database: Database, ids: { groupId: number; hospitalId: number }) {
  const db = database.db;
  const hash = await hashPassword(DEMO_PASSWORD, SCRYPT_COST);
  for (let start = 0; start < MEMBERS; start += 500) {
    const n = Math.min(500, MEMBERS - start);
    const rows = await db.insert(t.accounts).values(Array.from({ length: n }, (_, i) => ({
      username: `bench${start + i}`, name: `测试成员${start + i}`, passwordHash: hash,
    }))).returning({ id: t.accounts.id });
    await db.insert(t.groupMembers).values(rows.map((r) => ({ groupId: ids.groupId, accountId: r.id })));
    await db.insert(t.bucketMembers).values(rows.map((r) => ({ bucketId: ids.hospitalId, accountId: r.id })));
  }
  await db.insert(t.procedures).values(Array.from({ length: PROCEDURES }, (_, i) => ({
    bucketId: ids.hospitalId, code: `BENCH${i}`, name: `测试项目 ${i}`, modality: 'CT', price: 100, sortOrder: 1000 + i,
  })));
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const clock = systemClock;
  const ids = await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock, exams: 200 });
  await grow(database, ids);
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-admin-'));
  const app = await buildApp({
    db: database.db, dbKind: database.kind, clock, storage: createLocalStorage({ root: filesDir, signer: createSigner('bench'), clock }),
    tokens: createTokens(`bench-${randomBytes(8).toString('hex')}`, 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir: filesDir, clientDir: '/nonexistent', databaseUrl: null },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const login = async (username: string) => {
    const res = await fetch(`${base}/accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
    return ((await res.json()) as { accessToken: string }).accessToken;
  };
  const admin = await login('admin');
  const rad2 = await login('rad2');
  const call = async (token: string, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}/${route}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) as unknown : null;
  };
  const roles = await call(admin, 'GET', `buckets/${ids.hospitalId}/roles`) as { id: number; name: string; actions: string[] }[];
  const role = roles[0]!;
  const procedureIds = (await call(admin, 'GET', `buckets/${ids.hospitalId}/procedures`) as { id: number }[]).map((p) => p.id);

  let flip = false;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET groups/{id}/members (${MEMBERS + 8} members)`, () => call(admin, 'GET', `groups/${ids.groupId}/members`)],
    ['POST groups/{id}/members/query (a name, 20 rows)', () => call(admin, 'POST', `groups/${ids.groupId}/members/query`, { filters: [{ field: 'name', operator: 'like', values: ['成员1'] }], limit: 20 })],
    ['GET groups/{id}/organizations', () => call(admin, 'GET', `groups/${ids.groupId}/organizations`)],
    ['GET buckets/{id}/roles', () => call(admin, 'GET', `buckets/${ids.hospitalId}/roles`)],
    ['PUT buckets/{id}/roles/{roleId} (tick / untick)', () => {
      flip = !flip;
      return call(admin, 'PUT', `buckets/${ids.hospitalId}/roles/${role.id}`, { name: role.name, actions: flip ? [...role.actions, 'exam_bind'] : role.actions });
    }],
    [`POST buckets/{id}/procedures/resort (${procedureIds.length} ids)`, () => {
      procedureIds.push(procedureIds.shift()!);
      return call(admin, 'POST', `buckets/${ids.hospitalId}/procedures/resort`, { ids: procedureIds });
    }],
    ['POST accounts/query-in-realm (first 50)', () => call(admin, 'POST', 'accounts/query-in-realm', { query: '' })],
    ['GET accounts/me/permissions (a member)', () => call(rad2, 'GET', 'accounts/me/permissions')],
  ];
  const rows: string[][] = [];
  for (const [label, run] of scenarios) {
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      await run();
      if (i >= WARMUP) samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    rows.push([label, pct(samples, 50).toFixed(1), pct(samples, 95).toFixed(1), samples.at(-1)!.toFixed(1)]);
  }
  console.log(`\n${kind} (${cpus().length} cores), ${RUNS} runs each after ${WARMUP} warm-up, ms:`);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['call', 'p50', 'p95', 'max'], ...rows].map((r) => r[i]!.length)));
  for (const r of [['call', 'p50', 'p95', 'max'], ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  await app.close();
  await database.close();
  await drop();
  rmSync(filesDir, { recursive: true, force: true });
}

await runOn('pglite');
if (process.env.DATABASE_URL) await runOn('postgres');
