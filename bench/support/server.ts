/**
 * What every HTTP bench of an area does around its own calls: a fresh database (in-memory PGlite, or a new PostgreSQL
 * database from DATABASE_URL, dropped after), the real app in this process on a loopback port with local storage in a
 * temporary folder, demo logins, a JSON/form caller, and the p50/p95/max table. The benches print numbers; none passes
 * or fails on a time.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { createTokens } from '../../server/auth/tokens';
import { openDatabase, type Database } from '../../server/db/client';
import { systemClock, type Deps } from '../../server/deps';
import { DEMO_PASSWORD, seedDemo, type DemoIds } from '../../server/seed/demo';
import { createLocalStorage } from '../../server/storage/local';
import { createSigner } from '../../server/storage/signer';
import type { Storage } from '../../server/storage/types';
import { percentile } from './stats';

export type BenchDbKind = 'pglite' | 'postgres';
export const BENCH_SCRYPT_COST = 1024;
export const BENCH_RUNS = Number(process.env.BENCH_RUNS ?? 200);
export const BENCH_WARMUP = 10;

/** PGlite always; PostgreSQL too when DATABASE_URL is set. */
export function benchKinds(): BenchDbKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export async function openBenchDatabase(kind: BenchDbKind, prefix: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_${prefix}_${randomBytes(4).toString('hex')}`;
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

/** A folder and the local storage over it: benches that store files before the app starts. */
export function benchStorage(prefix: string): { filesDir: string; storage: Storage } {
  const filesDir = mkdtempSync(path.join(tmpdir(), `bench-${prefix}-`));
  return { filesDir, storage: createLocalStorage({ root: filesDir, signer: createSigner('bench'), clock: systemClock }) };
}

export type Caller = (token: string | null, method: string, route: string, body?: unknown) => Promise<unknown>;

export interface BenchApp {
  base: string;
  /** The demo account's token (password DEMO_PASSWORD). */
  login: (username: string) => Promise<string>;
  /** JSON in and out (a FormData body goes as it is); a non-2xx answer throws with its text. */
  call: Caller;
  close: () => Promise<void>;
}

/** The app over `database` on a loopback port; `close` also closes the database, drops it and removes the files. */
export async function startBenchApp(
  database: Database,
  drop: () => Promise<void>,
  files: { filesDir: string; storage: Storage },
  extra: Partial<Deps> = {},
): Promise<BenchApp> {
  const app = await buildApp({
    db: database.db, dbKind: database.kind, clock: systemClock, storage: files.storage,
    tokens: createTokens(`bench-${randomBytes(8).toString('hex')}`, 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: BENCH_SCRYPT_COST, dataDir: files.filesDir, clientDir: '/nonexistent', databaseUrl: null },
    ...extra,
  }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const call: Caller = async (token, method, route, body) => {
    const form = body instanceof FormData;
    const res = await fetch(`${base}/${route}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 200)}`);
    if (!text) return null;
    return (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) as unknown : text;
  };
  const login = async (username: string) => ((await call(null, 'POST', 'accounts/login', { username, password: DEMO_PASSWORD })) as { accessToken: string }).accessToken;
  return {
    base, login, call,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(files.filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * The usual start of an area's bench: a fresh database with the demo data (`exams` of them), grown by the bench's
 * own `grow` before the app starts, and the app over it. What `grow` returns comes back as `grown`.
 */
export async function startDemoBench<G>(
  kind: BenchDbKind,
  prefix: string,
  exams: number,
  grow: (database: Database, ids: DemoIds) => Promise<G>,
): Promise<{ database: Database; ids: DemoIds; grown: G; bench: BenchApp }> {
  const { database, drop } = await openBenchDatabase(kind, prefix);
  const ids = await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock: systemClock, exams });
  const grown = await grow(database, ids);
  const bench = await startBenchApp(database, drop, benchStorage(prefix));
  return { database, ids, grown, bench };
}

export type Scenario = [label: string, run: () => Promise<unknown>];

/** Runs each scenario BENCH_WARMUP + BENCH_RUNS times one after another and prints p50 / p95 / max in ms. */
export async function timeScenarios(title: string, scenarios: Scenario[]): Promise<void> {
  const rows: string[][] = [];
  for (const [label, run] of scenarios) {
    const samples: number[] = [];
    for (let i = 0; i < BENCH_WARMUP + BENCH_RUNS; i++) {
      const t0 = performance.now();
      await run();
      if (i >= BENCH_WARMUP) samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    rows.push([label, percentile(samples, 50).toFixed(1), percentile(samples, 95).toFixed(1), samples.at(-1)!.toFixed(1)]);
  }
  console.log(`\n${title} (${cpus().length} cores), ${BENCH_RUNS} runs each after ${BENCH_WARMUP} warm-up, ms:`);
  const table = [['call', 'p50', 'p95', 'max'], ...rows];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}
