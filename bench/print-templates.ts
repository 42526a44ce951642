/**
 * Print templates benchmark (`npm run bench:print-templates`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data and BENCH_TEMPLATES extra print templates of the hospital (default
 * 60), each with a stored logo (so the list signs a read link per image). Over loopback HTTP, BENCH_RUNS each (default
 * 200) after 10 warm-up calls: the list, one template, an update, making a default, a logo upload, and the print data
 * of an approved report (which reads the default and signs its images). p50 / p95 / max in milliseconds.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { openDatabase, type Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { printImageKey } from '../server/organizations/printTemplates';
import { DEMO_PASSWORD, seedDemo } from '../server/seed/demo';
import { demoLogo } from '../server/seed/printImages';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 60);
const SCRYPT_COST = 1024;

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_print_${randomBytes(4).toString('hex')}`;
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

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const db = database.db;
  const clock = systemClock;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-print-'));
  const storage = createLocalStorage({ root: filesDir, signer: createSigner('bench'), clock });
  const ids = await seedDemo(db, { scryptCost: SCRYPT_COST, clock, exams: 100 });
  const logo = demoLogo();
  const grown = await db.insert(t.printTemplates).values(Array.from({ length: TEMPLATES }, (_, i) => ({
    bucketId: ids.hospitalId, name: `测试打印模板 ${i}`, titles: ['影像诊断报告单'], modality: i % 3 === 0 ? 'XA' : null,
  }))).returning({ id: t.printTemplates.id });
  for (const row of grown) {
    const key = printImageKey(ids.hospitalId, row.id, 'image/png');
    await storage.put(key, logo, { contentType: 'image/png' });
    await db.update(t.printTemplates).set({ logo: key }).where(eq(t.printTemplates.id, row.id));
  }
  const app = await buildApp({
    db, dbKind: database.kind, clock, storage, tokens: createTokens(`bench-${randomBytes(8).toString('hex')}`, 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir: filesDir, clientDir: '/nonexistent', databaseUrl: null },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const login = async (username: string) => {
    const res = await fetch(`${base}/accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
    return ((await res.json()) as { accessToken: string }).accessToken;
  };
  const admin = await login('orgadmin');
  const rad1 = await login('rad1');
  const call = async (token: string, method: string, route: string, body?: unknown) => {
    const form = body instanceof FormData;
    const res = await fetch(`${base}/${route}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) as unknown : null;
  };
  const list = `buckets/${ids.hospitalId}/print-templates`;
  const target = grown[1]!.id;
  const [a, b] = [grown[3]!.id, grown[6]!.id]; // two XA templates: the default goes back and forth
  const [approved] = await db.select({ id: t.reports.id }).from(t.reports)
    .where(and(eq(t.reports.bucketId, ids.hospitalId), eq(t.reports.status, 'corrected'))).limit(1);

  let n = 0;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET buckets/{id}/print-templates (${TEMPLATES + 3}, a logo each)`, () => call(admin, 'GET', list)],
    ['GET buckets/{id}/print-templates/{templateId}', () => call(admin, 'GET', `${list}/${target}`)],
    ['PUT buckets/{id}/print-templates/{templateId}', () => call(admin, 'PUT', `${list}/${target}`, {
      name: '测试打印模板 1', titles: ['影像诊断报告单', `副标题 ${++n}`], qrMode: 'static', qrText: `Q${n % 1000}`, exactTime: n % 2 === 0,
    })],
    ['POST …/{templateId}/default (XA, back and forth)', () => call(admin, 'POST', `${list}/${++n % 2 ? a : b}/default`)],
    ['PUT …/{templateId}/logo (605-byte PNG)', () => {
      const form = new FormData();
      form.append('file', new Blob([logo as Buffer<ArrayBuffer>], { type: 'image/png' }), 'logo.png');
      return call(admin, 'PUT', `${list}/${target}/logo`, form);
    }],
    ...(approved ? [['GET reports/{id}/print-data', () => call(rad1, 'GET', `reports/${approved.id}/print-data`)] as [string, () => Promise<unknown>]] : []),
  ];
  const rows: string[][] = [];
  for (const [label, run] of scenarios) {
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      await run();
      if (i >= WARMUP) samples.push(performance.now() - t0);
    }
    samples.sort((x, y) => x - y);
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
