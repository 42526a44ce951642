/**
 * Sample graphs and global configs benchmark (`npm run bench:sample-graphs`): prints numbers, never passes or fails on
 * a time. The real app in this process on a fresh in-memory PGlite (and PostgreSQL too when DATABASE_URL is set: a new
 * database, dropped after) with the demo data and its two drawings, grown to BENCH_GRAPHS drawings (default 40) of 50
 * points each. Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up calls: the organisation's list (each
 * drawing with a signed read link), a save of 50 points, a re-sort, an upload of a 200 kB PNG, and the global-config
 * query. p50 / p95 / max in milliseconds.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { openDatabase, type Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { DEMO_PASSWORD, seedDemo } from '../server/seed/demo';
import { encodePng } from '../server/http/png';
import { bodyOutline } from '../server/seed/sampleGraphs';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const GRAPHS = Number(process.env.BENCH_GRAPHS ?? 40);
const SCRYPT_COST = 1024;

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_graphs_${randomBytes(4).toString('hex')}`;
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

const points = (seed: number) => Array.from({ length: 50 }, (_, i) => ({ x: ((seed + i * 37) % 100) / 100, y: ((seed * 7 + i * 13) % 100) / 100, color: '#e03131' }));

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const clock = systemClock;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-graphs-'));
  const storage = createLocalStorage({ root: filesDir, signer: createSigner('bench'), clock });
  const ids = await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock, exams: 0, storage, images: 0 });
  const drawing = bodyOutline();
  for (let i = 0; i < GRAPHS - 2; i++) {
    const key = `sample-graphs/${ids.hospitalId}/bench${i}.png`;
    await storage.put(key, drawing, { contentType: 'image/png' });
    await database.db.insert(t.sampleGraphs).values({ bucketId: ids.hospitalId, name: `示意图 ${i}`, url: key, points: points(i), sortIndex: 10 + i });
  }
  const app = await buildApp({
    db: database.db, dbKind: database.kind, clock, storage,
    tokens: createTokens(`bench-${randomBytes(8).toString('hex')}`, 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir: filesDir, clientDir: '/nonexistent', databaseUrl: null },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const res = await fetch(`${base}/accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
  const admin = ((await res.json()) as { accessToken: string }).accessToken;
  const call = async (method: string, route: string, body?: unknown) => {
    const form = body instanceof FormData;
    const r = await fetch(`${base}/${route}`, {
      method, headers: { authorization: `Bearer ${admin}`, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) as unknown : null;
  };
  const list = await call('GET', `sample-graphs/query?bucketId=${ids.hospitalId}`) as { id: number }[];
  const target = list[0]!.id;
  // A 200 kB PNG: random grey noise does not compress.
  const noise = encodePng(460, 440, 1, randomBytes(460 * 440));
  const uploaded: number[] = [];

  let n = 0;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET sample-graphs/query (${list.length} drawings)`, () => call('GET', `sample-graphs/query?bucketId=${ids.hospitalId}`)],
    ['PATCH sample-graphs/{id} (50 points)', () => call('PATCH', `sample-graphs/${target}`, { points: points(n++) })],
    ['POST sample-graphs/{id}/resort', () => call('POST', `sample-graphs/${target}/resort`, { preId: n++ % 2 === 0 ? null : list[5]!.id })],
    [`POST sample-graphs (${Math.round(noise.length / 1024)} kB PNG)`, async () => {
      const form = new FormData();
      form.append('bucketId', String(ids.hospitalId));
      form.append('name', `上传 ${n++}`);
      form.append('file', new Blob([noise as Buffer<ArrayBuffer>], { type: 'image/png' }), 'noise.png');
      uploaded.push(((await call('POST', 'sample-graphs', form)) as { id: number }).id);
    }],
    ['GET global-configs/query (all keys)', () => call('GET', 'global-configs/query?keys=supportPhone,supportEmail,helpUrl,learningEnabled,sampleGraphMaxMb')],
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
