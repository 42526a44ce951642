/**
 * Report templates benchmark (`npm run bench:templates`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, the hospital's tree grown to BENCH_TEMPLATES templates (default
 * 1,000, in folders of 50) and the group's shared tree to 200. Over loopback HTTP, BENCH_RUNS each (default 200) after
 * 10 warm-up calls: the tree read a report opens (organisation + group), the group tree, an upsert that changes a
 * template's text, an upsert that creates one, the export, and an import of a 100-node document.
 * p50 / p95 / max in milliseconds.
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
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 1000);
const SCRYPT_COST = 1024;

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_templates_${randomBytes(4).toString('hex')}`;
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
  const text = '<p>双肺纹理清晰，走行自然，肺野内未见明显实变影。两肺门不大，纵隔居中。心影大小、形态未见异常。</p>';
  for (let f = 0; f * 50 < TEMPLATES; f++) {
    const [folder] = await db.insert(t.reportTemplates).values({ bucketId: ids.hospitalId, name: `测试文件夹${f}`, isFolder: true, sort: 100 + f }).returning();
    const n = Math.min(50, TEMPLATES - f * 50);
    await db.insert(t.reportTemplates).values(Array.from({ length: n }, (_, i) => ({
      bucketId: ids.hospitalId, parentId: folder!.id, name: `测试模板${f}-${i}`, modality: 'CT', bodyPart: '胸部', finding: text, diagnosis: '<p>未见异常。</p>', sort: i,
    })));
  }
  for (let f = 0; f < 4; f++) {
    const [folder] = await db.insert(t.reportTemplates).values({ groupId: ids.groupId, name: `集团测试${f}`, isFolder: true, sort: 10 + f }).returning();
    await db.insert(t.reportTemplates).values(Array.from({ length: 50 }, (_, i) => ({
      groupId: ids.groupId, parentId: folder!.id, name: `集团模板${f}-${i}`, modality: 'US', finding: text, sort: i,
    })));
  }
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const clock = systemClock;
  const ids = await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock, exams: 200 });
  await grow(database, ids);
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-templates-'));
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
  const tree = await call(admin, 'GET', `report-templates?bucketId=${ids.hospitalId}`) as { items: { id: number; isFolder: boolean; children: { id: number; name: string; parentId: number }[] }[] };
  const target = tree.items.find((n) => n.isFolder && n.children.length > 0)!.children[0]!;
  const [scratch] = await database.db.insert(t.reportTemplates).values({ bucketId: ids.hospitalId, name: 'bench-import', isFolder: true }).returning();
  let serial = 0;
  const document = (n: number) => ({
    format: 'report-templates', version: 1,
    items: [{ name: `导入${n}`, folder: true, children: Array.from({ length: 99 }, (_, i) => ({ name: `模板${i}`, modality: 'CT', finding: '<p>所见</p>', diagnosis: '<p>结论</p>' })) }],
  });
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET report-templates?bucketId (${TEMPLATES} + group 200)`, () => call(rad2, 'GET', `report-templates?bucketId=${ids.hospitalId}`)],
    ['GET report-templates?groupId (200)', () => call(rad2, 'GET', `report-templates?groupId=${ids.groupId}`)],
    ['POST report-templates/upsert (change a text)', () => call(admin, 'POST', 'report-templates/upsert', {
      id: target.id, bucketId: ids.hospitalId, parentId: target.parentId, name: target.name, finding: `<p>所见 ${serial++}</p>`, diagnosis: '<p>结论</p>',
    })],
    ['POST report-templates/upsert (new template)', () => call(admin, 'POST', 'report-templates/upsert', {
      bucketId: ids.hospitalId, parentId: scratch!.id, name: `新模板${serial++}`, finding: '<p>所见</p>',
    })],
    ['GET report-templates/export', () => call(rad2, 'GET', `report-templates/export?bucketId=${ids.hospitalId}`)],
    ['POST report-templates/import (100 nodes)', () => call(admin, 'POST', 'report-templates/import', { bucketId: ids.hospitalId, parentId: scratch!.id, document: document(serial++) })],
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
