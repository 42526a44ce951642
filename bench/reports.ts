/**
 * Report benchmark (`npm run bench:reports`): prints numbers, never passes or fails on a time.
 * With 100,000 reports (and their exams and traces) in the database, the round trip of `save` and of `submit`
 * through the real API (Fastify + machine + row lock + version check + trace + exam copy), one writer at a time
 * and with 10 writers at once, on embedded PGlite (on disk) and on PostgreSQL (DATABASE_URL, or the local one).
 * BENCH_REPORTS (100000) and BENCH_ROUNDS (300) change the sizes. Runs beside other work on a shared machine:
 * read the numbers as an order of magnitude.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { openDatabase, type Database } from '../server/db/client';
import { systemClock } from '../server/deps';
import { DEMO_PASSWORD, seedDemo, type DemoIds } from '../server/seed/demo';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile } from './support/stats';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const CONCURRENCY = 10;
const SCRYPT_COST = 1024;
const PG_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

type Row = (string | number)[];
const results: Row[] = [];
const setupRows: Row[] = [];
/** The machine is shared: the 1-minute load average after each backend says how busy it was. */
const loads: Row[] = [];

function table(title: string, head: string[], rows: Row[]): void {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const numeric = head.map((_, i) => rows.every((r) => /^[\d.,]*$/.test(String(r[i]))));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(`\n${title}`);
  console.log(line(head));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

const ms = (v: number) => v.toFixed(v < 10 ? 2 : 1);
function summary(backend: string, op: string, mode: string, samples: number[], wallMs: number): Row {
  const s = [...samples].sort((a, b) => a - b);
  return [backend, op, mode, s.length, ms(percentile(s, 50)), ms(percentile(s, 95)), ms(percentile(s, 99)), ms(s.at(-1)!), Math.round((s.length / wallMs) * 1000)];
}

/** Raw SQL rows; both drivers answer `{ rows }`. */
async function rowsOf<T>(db: Database['db'], query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** 100,000 exams with a report each (all statuses) and a trace per report, in a few set-based statements. */
async function generate(db: Database['db'], ids: DemoIds): Promise<number> {
  const started = performance.now();
  const { hospitalId: bucket } = ids;
  const { rad1, rad2 } = ids.accounts;
  await db.execute(sql`
    insert into exams (bucket_id, patient_name, patient_id, patient_key_id, patient_gender, modality, body_part,
                       exam_time, created, has_image, accession_number, report_type)
    select ${bucket}, '基准患者' || g, 'B' || lpad(g::text, 9, '0'), 'B' || lpad(g::text, 9, '0'),
           (array['M','F'])[1 + g % 2], (array['CT','DX','MR','US','CR','MG'])[1 + g % 6], '胸部',
           timestamptz '2026-01-01' + g * interval '37 seconds', timestamptz '2026-01-01' + g * interval '37 seconds',
           true, 'BENCH' || g, 'report'
    from generate_series(1, ${REPORTS}) g`);
  await db.execute(sql`
    insert into reports (exam_id, bucket_id, source_bucket_id, status, creator_id, last_updater_id, finding, diagnosis,
                         positive, saved_time, last_operation_time, created)
    select e.id, e.bucket_id, e.bucket_id,
           (array['corrected','printed','final','partial','hold','cancelled'])[1 + e.id % 6],
           case when (e.id / 6) % 2 = 0 then ${rad1}::int else ${rad2}::int end,
           case when (e.id / 6) % 2 = 0 then ${rad1}::int else ${rad2}::int end,
           '<p>双肺纹理清晰，走行自然，肺野内未见明显实变影。两肺门不大，纵隔居中。心影大小、形态未见异常。</p>',
           '<p>胸部未见明显异常。</p>', false, e.created, e.created, e.created
    from exams e where e.accession_number like 'BENCH%'`);
  await db.execute(sql`
    update exams e set report_id = r.id, report_status = r.status, report_creator_id = r.creator_id
    from reports r where r.exam_id = e.id and e.accession_number like 'BENCH%'`);
  await db.execute(sql`
    insert into report_traces (report_id, account_id, action, from_status, to_status, snapshot, created)
    select r.id, r.creator_id, 'save', 'none', 'partial',
           jsonb_build_object('finding', r.finding, 'diagnosis', r.diagnosis, 'version', 1), r.created
    from reports r join exams e on e.id = r.exam_id where e.accession_number like 'BENCH%'`);
  await db.execute(sql`analyze`);
  return performance.now() - started;
}

async function openBackend(kind: 'pglite' | 'postgres'): Promise<{ database: Database; dataDir: string; cleanup: () => Promise<void> } | null> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-reports-'));
    const database = await openDatabase({ databaseUrl: null, dataDir });
    return { database, dataDir, cleanup: async () => { await database.close(); rmSync(dataDir, { recursive: true, force: true }); } };
  }
  const name = `bench_reports_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`\nPostgreSQL at ${PG_URL} does not answer (${(err as Error).message}): skipped`);
    return null;
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-reports-'));
  return {
    database,
    dataDir,
    cleanup: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  const opened = await openBackend(kind);
  if (!opened) return;
  const { database, dataDir, cleanup } = opened;
  try {
    const ids = await seedDemo(database.db, { scryptCost: SCRYPT_COST, clock: systemClock, exams: 20 });
    const genMs = await generate(database.db, ids);
    const [{ n }] = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from reports`);
    setupRows.push([kind, n.toLocaleString('en'), ms(genMs / 1000)]);

    const app = await buildApp({
      db: database.db, dbKind: database.kind, clock: systemClock, tokens: createTokens(randomBytes(16).toString('hex'), 3600),
      storage: createLocalStorage({ root: path.join(dataDir, 'files'), signer: createSigner(randomBytes(16).toString('hex')), clock: systemClock }),
      config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir, clientDir: '/nonexistent' },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    const login = await fetch(`${base}/accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'rad1', password: DEMO_PASSWORD }) });
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

    // rad1's saved drafts among the generated reports: each measured round saves one and submits it.
    const wanted = ROUNDS + CONCURRENCY * Math.ceil(ROUNDS / CONCURRENCY) + 40;
    const drafts = await rowsOf<{ id: number; version: number }>(database.db, sql`
      select id, version from reports where status = 'partial' and creator_id = ${ids.accounts.rad1} order by id limit ${wanted}`);
    let next = 0;

    const post = async (id: number, action: string, body: object): Promise<{ ms: number; version: number }> => {
      const started = performance.now();
      const res = await fetch(`${base}/reports/${id}/${action}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const answer = (await res.json()) as { version: number; code?: string };
      const took = performance.now() - started;
      if (res.status !== 200) throw new Error(`${action} ${id}: ${res.status} ${JSON.stringify(answer)}`);
      return { ms: took, version: answer.version };
    };
    const round = async (saves: number[], submits: number[]) => {
      const d = drafts[next++]!;
      const saved = await post(d.id, 'save', { version: d.version, finding: `<p>基准测试保存 ${d.id}：右肺上叶见一结节影。</p>` });
      const submitted = await post(d.id, 'submit', { version: saved.version });
      saves.push(saved.ms);
      submits.push(submitted.ms);
    };

    for (let i = 0; i < 20; i++) await round([], []); // warm-up: JIT, connection pool, plan cache

    const seqSaves: number[] = [];
    const seqSubmits: number[] = [];
    let started = performance.now();
    for (let i = 0; i < ROUNDS; i++) await round(seqSaves, seqSubmits);
    const seqWall = performance.now() - started;
    results.push(summary(kind, 'save', 'sequential', seqSaves, seqWall / 2), summary(kind, 'submit', 'sequential', seqSubmits, seqWall / 2));

    const conSaves: number[] = [];
    const conSubmits: number[] = [];
    started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < Math.ceil(ROUNDS / CONCURRENCY); i++) await round(conSaves, conSubmits);
    }));
    const conWall = performance.now() - started;
    results.push(summary(kind, 'save', `${CONCURRENCY} writers`, conSaves, conWall / 2), summary(kind, 'submit', `${CONCURRENCY} writers`, conSubmits, conWall / 2));
    loads.push([kind, loadavg()[0]!.toFixed(2)]);
    await app.close();
  } finally {
    await cleanup();
  }
}

console.log(`report benchmark: ${REPORTS.toLocaleString('en')} reports, ${ROUNDS} save+submit rounds per mode (Node ${process.version})`);
await run('pglite');
await run('postgres');
table('data generation (exams, reports, traces, exam copy, analyze)', ['backend', 'reports', 'seconds'], setupRows);
table('round trip through the API, ms (ops/s: completed per second of wall time, per operation)', ['backend', 'op', 'mode', 'n', 'p50', 'p95', 'p99', 'max', 'ops/s'], results);
table('machine load (1-minute average after the runs, cores: ' + String((await import('node:os')).cpus().length) + ')', ['backend', 'load'], loads);
