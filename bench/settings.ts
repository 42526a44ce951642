/**
 * Personal settings benchmark (`npm run bench:settings`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh in-memory PGlite (and PostgreSQL too when DATABASE_URL is set: a new
 * database, dropped after) with the demo data. Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up
 * calls: the profile read (GET accounts/me), a notification switch (PATCH accounts/me), the masked mobile, and a
 * signature save (POST accounts/me/signature: a 600×200 drawn PNG, checked pixel by pixel, stored, the old one
 * deleted). p50 / p95 / max in milliseconds.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { encodePng } from '../server/http/png';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { openDatabase, type Database } from '../server/db/client';
import { systemClock } from '../server/deps';
import { DEMO_PASSWORD, seedDemo } from '../server/seed/demo';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const SCRYPT_COST = 1024;

async function open(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const name = `bench_settings_${randomBytes(4).toString('hex')}`;
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

/** A 600×200 RGBA PNG, transparent, with a wavy stroke: what a HiDPI pad of 300×100 CSS pixels sends. */
function drawnSignature(): Buffer {
  const w = 600;
  const h = 200;
  const pixels = Buffer.alloc(w * h * 4);
  for (let x = 20; x < w - 20; x++) {
    const y0 = Math.round(h / 2 + Math.sin(x / 25) * 50);
    for (let y = y0 - 2; y <= y0 + 2; y++) pixels[(y * w + x) * 4 + 3] = 255;
  }
  return encodePng(w, h, 4, pixels);
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await open(kind);
  const clock = systemClock;
  await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock, exams: 50 });
  const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-settings-'));
  const app = await buildApp({
    db: database.db, dbKind: database.kind, clock, storage: createLocalStorage({ root: filesDir, signer: createSigner('bench'), clock }),
    tokens: createTokens(`bench-${randomBytes(8).toString('hex')}`, 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir: filesDir, clientDir: '/nonexistent', databaseUrl: null },
    sms: { send: async () => undefined },
  }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const res = await fetch(`${base}/accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'rad1', password: DEMO_PASSWORD }) });
  const { accessToken: token, user } = (await res.json()) as { accessToken: string; user: { id: number } };
  const call = async (method: string, route: string, body?: BodyInit | object) => {
    const json = body !== undefined && !(body instanceof FormData);
    const r = await fetch(`${base}/${route}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : json ? JSON.stringify(body) : (body as BodyInit),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${text.slice(0, 200)}`);
    return text;
  };
  const image = drawnSignature();
  let flip = false;
  const scenarios: [string, () => Promise<unknown>][] = [
    ['GET accounts/me (profile read)', () => call('GET', 'accounts/me')],
    ['PATCH accounts/me (a sound switch)', () => call('PATCH', 'accounts/me', { notificationPrefs: { examSound: (flip = !flip) } })],
    ['GET accounts/{id}/mobile (self)', () => call('GET', `accounts/${user.id}/mobile`)],
    [`POST accounts/me/signature (600×200 PNG, ${Math.round(image.length / 1024)} KB)`, () => {
      const form = new FormData();
      form.append('file', new Blob([image as Buffer<ArrayBuffer>], { type: 'image/png' }), 'signature.png');
      return call('POST', 'accounts/me/signature', form);
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
