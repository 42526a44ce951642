/**
 * Knowledge-base benchmark (`npm run bench:kb`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, the hospital's knowledge base grown to BENCH_KB_FOLDERS folders
 * (default 40) of BENCH_KB_TEXTS texts each (default 25, with a paragraph of HTML) plus a template link per folder.
 * Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up calls: the tree query (as a radiologist), a
 * re-sort in a folder (the level's last item to the front, as the organisation admin), a re-sort at the top level,
 * and a rename. p50 / p95 / max in milliseconds.
 */
import { eq } from 'drizzle-orm';
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
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const FOLDERS = Number(process.env.BENCH_KB_FOLDERS ?? 40);
const TEXTS = Number(process.env.BENCH_KB_TEXTS ?? 25);
const SCRYPT_COST = 1024;

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_kb_${randomBytes(4).toString('hex')}`;
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

async function grow(database: Database, bucketId: number): Promise<{ folderIds: number[] }> {
  const db = database.db;
  const [template] = await db.select({ id: t.reportTemplates.id }).from(t.reportTemplates).where(eq(t.reportTemplates.bucketId, bucketId)).limit(1);
  const folders = await db.insert(t.kbItems).values(Array.from({ length: FOLDERS }, (_, i) => ({
    bucketId, type: 'folder', name: `测试目录 ${i}`, sort: 100 + i,
  }))).returning({ id: t.kbItems.id });
  for (const folder of folders) {
    await db.insert(t.kbItems).values([
      ...Array.from({ length: TEXTS }, (_, i) => ({
        bucketId, parentId: folder.id, type: 'text', name: `测试文本 ${i}`, sort: i + 1,
        content: `<p>肺结节随访建议第 ${i} 条：<b>实性结节</b> 6–8 mm，6–12 个月复查 CT。</p>`.repeat(4),
      })),
      { bucketId, parentId: folder.id, type: 'template', name: '模板链接', referenceId: template?.id ?? null, sort: TEXTS + 1 },
    ]);
  }
  return { folderIds: folders.map((f) => f.id) };
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const clock = systemClock;
  const ids = await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock, exams: 200 });
  const { folderIds } = await grow(database, ids.hospitalId);
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-kb-'));
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
  const orgadmin = await login('orgadmin');
  const rad1 = await login('rad1');
  const call = async (token: string, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}/${route}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) as unknown : null;
  };
  const tree = await call(rad1, 'GET', `kb-items/query?bucketId=${ids.hospitalId}`) as { items: { id: number; parentId: number | null }[] };
  const folderId = folderIds[0]!;
  const level = tree.items.filter((i) => i.parentId === folderId).map((i) => i.id);
  const top = tree.items.filter((i) => i.parentId === null).map((i) => i.id);

  let flip = false;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET kb-items/query (${tree.items.length} items)`, () => call(rad1, 'GET', `kb-items/query?bucketId=${ids.hospitalId}`)],
    [`POST kb-items/{id}/resort (a folder of ${level.length}, last to first)`, () => {
      const last = level.pop()!;
      level.unshift(last);
      return call(orgadmin, 'POST', `kb-items/${last}/resort`, { preId: null });
    }],
    [`POST kb-items/{id}/resort (top level of ${top.length}, first after second)`, () => {
      const [a, b] = top;
      top.splice(0, 2, b!, a!);
      return call(orgadmin, 'POST', `kb-items/${a}/resort`, { preId: b });
    }],
    ['PATCH kb-items/{id} (rename)', () => {
      flip = !flip;
      return call(orgadmin, 'PATCH', `kb-items/${level[0]}`, { name: flip ? '改名甲' : '改名乙' });
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
