/**
 * Learning benchmark (`npm run bench:learning`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, its library grown to BENCH_VIDEOS videos (default 500) in 8
 * categories, and BENCH_WATCHERS accounts (default 1,000) each with progress on 30 videos, so the progress table holds
 * tens of thousands of rows. Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up calls: the list signed
 * out and signed in (progress merged), a search, a category, one video, and the progress write. p50 / p95 / max in ms.
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
const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 500);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const PER_WATCHER = 30;
const SCRYPT_COST = 1024;
const CATEGORIES = ['workstation', 'reporting', 'calling', 'viewer', 'registry', 'admin', 'quality', 'safety'];

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_learning_${randomBytes(4).toString('hex')}`;
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

async function grow(database: Database, rad2: number) {
  const db = database.db;
  const videos: number[] = [];
  for (let start = 0; start < VIDEOS; start += 250) {
    const n = Math.min(250, VIDEOS - start);
    const rows = await db.insert(t.learnings).values(Array.from({ length: n }, (_, i) => ({
      title: `培训视频 ${start + i} / Training video ${start + i}`, description: `第 ${start + i} 课的简介。Lesson ${start + i} in short.`,
      videoUrl: '/learning/worklist.webm', posterUrl: '/learning/worklist.jpg', durationSec: 20 + ((start + i) % 600),
      category: CATEGORIES[(start + i) % CATEGORIES.length]!, sort: 100 + start + i,
    }))).returning({ id: t.learnings.id });
    videos.push(...rows.map((r) => r.id));
  }
  const hash = await hashPassword(DEMO_PASSWORD, SCRYPT_COST);
  const now = new Date();
  for (let start = 0; start < WATCHERS; start += 100) {
    const n = Math.min(100, WATCHERS - start);
    const accounts = await db.insert(t.accounts).values(Array.from({ length: n }, (_, i) => ({
      username: `watcher${start + i}`, name: `观看者${start + i}`, passwordHash: hash,
    }))).returning({ id: t.accounts.id });
    await db.insert(t.learningProgress).values(accounts.flatMap((a, k) => Array.from({ length: PER_WATCHER }, (_, j) => ({
      accountId: a.id, learningId: videos[(start + k + j * 7) % videos.length]!, positionSec: j, completed: j % 5 === 0, updated: now,
    }))));
  }
  await db.insert(t.learningProgress).values(videos.slice(0, PER_WATCHER).map((id, j) => ({ accountId: rad2, learningId: id, positionSec: j, completed: false, updated: now })));
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const clock = systemClock;
  const ids = await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock, exams: 50 });
  await grow(database, ids.accounts.rad2);
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-learning-'));
  const app = await buildApp({
    db: database.db, dbKind: database.kind, clock, storage: createLocalStorage({ root: filesDir, signer: createSigner('bench'), clock }),
    tokens: createTokens(`bench-${randomBytes(8).toString('hex')}`, 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir: filesDir, clientDir: '/nonexistent', databaseUrl: null },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const res = await fetch(`${base}/accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'rad2', password: DEMO_PASSWORD }) });
  const rad2 = ((await res.json()) as { accessToken: string }).accessToken;
  const call = async (token: string | null, method: string, route: string, body?: unknown) => {
    const answer = await fetch(`${base}/${route}`, {
      method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${route}: ${answer.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) as unknown : null;
  };
  const first = ((await call(null, 'GET', 'learnings?limit=1')) as { items: { id: number }[] }).items[0]!.id;

  let position = 0;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET learnings signed out (20 of ${VIDEOS + 3})`, () => call(null, 'GET', 'learnings')],
    ['GET learnings signed in (20, progress merged)', () => call(rad2, 'GET', 'learnings')],
    ['GET learnings?q=… (title or description)', () => call(rad2, 'GET', `learnings?q=${encodeURIComponent('Lesson 42')}`)],
    ['GET learnings?category=… (skip 20)', () => call(rad2, 'GET', 'learnings?category=viewer&skip=20')],
    ['GET learnings/{id} signed in', () => call(rad2, 'GET', `learnings/${first}`)],
    ['PUT learnings/{id}/progress', () => {
      position = (position + 1.5) % 19;
      return call(rad2, 'PUT', `learnings/${first}/progress`, { positionSec: position, completed: false });
    }],
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
  console.log(`\n${kind} (${cpus().length} cores), ${VIDEOS} videos, ${WATCHERS * PER_WATCHER} progress rows, ${RUNS} runs each after ${WARMUP} warm-up, ms:`);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['call', 'p50', 'p95', 'max'], ...rows].map((r) => r[i]!.length)));
  for (const r of [['call', 'p50', 'p95', 'max'], ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  await app.close();
  await database.close();
  await drop();
  rmSync(filesDir, { recursive: true, force: true });
}

await runOn('pglite');
if (process.env.DATABASE_URL) await runOn('postgres');
