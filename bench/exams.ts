/**
 * `npm run bench:exams [-- --exams 1000000] [-- --pglite-exams 200000] [-- --only postgres|pglite] [-- --explain] [-- --load-only] [-- --scenario text]`
 *
 * The exam list on a million exams, through the real server on loopback: latency (p50/p95/p99) of POST
 * exams/page-query for the default view, each quick filter, a deep page and the free-text report search, on
 * PostgreSQL and on embedded PGlite (the client, Node's fetch, runs in the server's process); then, on PostgreSQL,
 * the default view from a child process (autocannon): one connection for the server's own latency, then 50
 * concurrent connections for requests per second. One request at a time is also timed by bench/support/oneAtATime.ts
 * in a child process, for a p50 and p95 finer than autocannon's whole milliseconds.
 *
 * Databases: PostgreSQL `bench_exams` on the server of DATABASE_URL (or BENCH_DATABASE_URL as is), PGlite in
 * `.bench/exams-pglite` (or DATA_DIR). Each is filled once by the same generator as `npm run seed:bench` up to the
 * asked number of exams (about 1.5 min per million on PostgreSQL) and reused afterwards. Prints numbers; never fails on a time.
 */
import type autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Filter } from '../contract/common';
import { QUICK_FILTER_MODALITIES } from '../contract/exams';
import { loadAccess } from '../server/access/access';
import type { Database } from '../server/db/client';
import { examsBenchDatabase } from './support/database';
import { benchStorage, startBenchApp } from './support/server';
import { accounts, exams } from '../server/db/schema';
import { buildQuery } from '../server/exams/query';
import { readableBuckets } from '../server/exams/scope';
import { tuneHeap } from '../server/heap';
import { percentile as pct } from './support/stats';
import { arg } from './support/args';

const EXAMS = Number(arg('exams') ?? 1_000_000);
const PGLITE_EXAMS = Number(arg('pglite-exams') ?? EXAMS);
const ONLY = arg('only');
const EXPLAIN = process.argv.includes('--explain');
/** Only the PostgreSQL load part (no latency table). */
const LOAD_ONLY = process.argv.includes('--load-only');
/** Only the scenarios whose name contains this text (and no load part). */
const SCENARIO = arg('scenario');
// The server's heap policy, as server/main.ts sets it (the server runs in this process); BENCH_HEAP=default leaves V8's own.
if (process.env.BENCH_HEAP !== 'default') tuneHeap();

interface Scenario {
  name: string;
  user: 'rad1' | 'admin';
  body: () => { filters?: Filter[]; skip?: number; limit?: number; sorts?: { field: string; direction: 'asc' | 'desc' }[] };
  /** Targets of the issue: 30 ms on PostgreSQL and 80 ms on PGlite for the list, 150 ms for free text. */
  kind: 'list' | 'text';
  runs?: number;
}

const startOfToday = () => { const d = new Date(); d.setHours(0, 0, 0, 0); return d; };
const iso = (d: Date) => d.toISOString();
/** What the worklist always sends: rows up to the moment the view was opened. */
const snapshot = (): Filter => ({ field: 'created', operator: 'lte', values: [iso(new Date())] });
const modality = (codes: readonly string[]): Filter => ({ field: 'modality', operator: 'in', values: [...codes] });

/** The worklist's order since issue 8: latest exam time first (a column people see). */
const byExamTime = [{ field: 'examTime', direction: 'desc' as const }];

const SCENARIOS: Scenario[] = [
  { name: 'default view (1 organisation)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot()], sorts: byExamTime, limit: 20 }) },
  { name: 'default view (2 organisations)', user: 'admin', kind: 'list', body: () => ({ filters: [snapshot()], sorts: byExamTime, limit: 20 }) },
  { name: 'by created (the old default)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot()], limit: 20 }) },
  { name: 'unreported, by exam time (key 6)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'reportStatus', operator: 'in', values: ['none', 'partial', 'locked', 'advised', 'hold', 'cancelled'] }], sorts: byExamTime, limit: 20 }) },
  {
    name: 'today', user: 'rad1', kind: 'list', body: () => ({
      filters: [snapshot(), { field: 'examTime', operator: 'gte', values: [iso(startOfToday())] },
        { field: 'examTime', operator: 'lt', values: [iso(new Date(startOfToday().getTime() + 86_400_000))] }], limit: 20,
    }),
  },
  { name: 'X-ray (CR, DX)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), modality(QUICK_FILTER_MODALITIES.xray)], sorts: byExamTime, limit: 20 }) },
  { name: 'CT', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), modality(QUICK_FILTER_MODALITIES.ct)], sorts: byExamTime, limit: 20 }) },
  { name: 'MR', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), modality(QUICK_FILTER_MODALITIES.mr)], sorts: byExamTime, limit: 20 }) },
  { name: 'US', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), modality(QUICK_FILTER_MODALITIES.us)], sorts: byExamTime, limit: 20 }) },
  { name: 'CT, 2 organisations', user: 'admin', kind: 'list', body: () => ({ filters: [snapshot(), modality(QUICK_FILTER_MODALITIES.ct)], sorts: byExamTime, limit: 20 }) },
  { name: 'unreported (status none)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'reportStatus', operator: 'in', values: ['none'] }], limit: 20 }) },
  { name: 'my tasks', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'myTasks', operator: 'equal', values: [true] }], limit: 20 }) },
  { name: 'expert reports', user: 'admin', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'reportSource', operator: 'equal', values: ['expert'] }], limit: 20 }) },
  { name: 'deep page (skip 100,000)', user: 'rad1', kind: 'list', runs: 60, body: () => ({ filters: [snapshot()], skip: 100_000, limit: 20 }) },
  { name: 'patient name contains 2 chars', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'patientName', operator: 'like', values: ['建国'] }], limit: 20 }) },
  { name: 'patient name contains 李明 (2 chars)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'patientName', operator: 'like', values: ['李明'] }], sorts: byExamTime, limit: 20 }) },
  { name: 'patient name contains 李明, 2 organisations', user: 'admin', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'patientName', operator: 'like', values: ['李明'] }], sorts: byExamTime, limit: 20 }) },
  { name: 'patient name contains 王 (1 char)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'patientName', operator: 'like', values: ['王'] }], sorts: byExamTime, limit: 20 }) },
  { name: 'patient name contains 张建国 (3 chars)', user: 'rad1', kind: 'list', body: () => ({ filters: [snapshot(), { field: 'patientName', operator: 'like', values: ['张建国'] }], sorts: byExamTime, limit: 20 }) },
  { name: 'accession contains 7 digits', user: 'rad1', kind: 'list', runs: 30, body: () => ({ filters: [snapshot(), { field: 'accessionNumber', operator: 'like', values: ['0123456'] }], sorts: byExamTime, limit: 20 }) },
  { name: 'patient id contains 5 digits', user: 'rad1', kind: 'list', runs: 30, body: () => ({ filters: [snapshot(), { field: 'patientId', operator: 'like', values: ['12345'] }], sorts: byExamTime, limit: 20 }) },
  { name: 'patient id equal', user: 'rad1', kind: 'list', body: () => ({ filters: [{ field: 'patientId', operator: 'equal', values: ['P00012345'] }], limit: 20 }) },
  { name: 'free text, common ("未见明显异常")', user: 'rad1', kind: 'text', runs: 60, body: () => ({ filters: [snapshot(), { field: 'reportText', operator: 'like', values: ['未见明显异常'] }], limit: 20 }) },
  { name: 'free text, 1 % ("磨玻璃结节")', user: 'rad1', kind: 'text', runs: 60, body: () => ({ filters: [snapshot(), { field: 'reportText', operator: 'like', values: ['磨玻璃结节'] }], limit: 20 }) },
  { name: 'free text, rare ("错构瘤")', user: 'rad1', kind: 'text', runs: 60, body: () => ({ filters: [snapshot(), { field: 'reportText', operator: 'like', values: ['错构瘤'] }], limit: 20 }) },
];

interface Row { target: string; name: string; kind: Scenario['kind']; p50: number; p95: number; p99: number; total: number; estimate: boolean }

async function explain(database: Database, scenario: Scenario, accountId: number): Promise<void> {
  const access = await loadAccess(database.db, accountId);
  const input = { filters: [], sorts: [], skip: 0, limit: 20, ...scenario.body() };
  const q = await buildQuery(database.db, readableBuckets(access), input, { accountId, now: new Date() });
  if (!q) return;
  const page = database.db.select({ id: exams.id }).from(exams).where(q.where).orderBy(...q.orderBy).limit(input.limit).offset(input.skip);
  const { sql } = await import('drizzle-orm');
  const result = await database.db.execute(sql`explain (analyze, costs off, timing off, summary on) ${page}`);
  console.log(`\n── ${scenario.name}\n${(result as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n')}`);
}

async function runTarget(target: 'postgres' | 'pglite', wanted: number, rows: Row[]): Promise<void> {
  const { database, count } = await examsBenchDatabase('exams', target, wanted);
  const bench = await startBenchApp(database, async () => undefined, benchStorage('exams'));
  const base = `${bench.base}/`;
  const tokens: Record<string, string> = {};
  for (const user of ['rad1', 'admin']) tokens[user] = await bench.login(user);
  const label = `${target} (${count.toLocaleString('en')} exams)`;
  console.log(`\n${label}`);
  const post = async (user: string, body: unknown) => {
    const started = performance.now();
    const res = await fetch(`${base}exams/page-query`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[user]}` }, body: JSON.stringify(body) });
    const json = (await res.json()) as { items: unknown[]; total: number; totalIsEstimate: boolean; code?: string };
    if (res.status !== 200) throw new Error(`${res.status} ${json.code}`);
    return { ms: performance.now() - started, json };
  };
  for (const scenario of LOAD_ONLY ? [] : SCENARIOS.filter((x) => !SCENARIO || x.name.includes(SCENARIO))) {
    const runs = scenario.runs ?? 200;
    for (let i = 0; i < 5; i++) await post(scenario.user, scenario.body()); // warm the caches and the plan
    const times: number[] = [];
    let last = { total: 0, totalIsEstimate: false };
    for (let i = 0; i < runs; i++) {
      const { ms, json } = await post(scenario.user, scenario.body());
      times.push(ms);
      last = json;
    }
    times.sort((a, b) => a - b);
    const row = { target, name: scenario.name, kind: scenario.kind, p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99), total: last.total, estimate: last.totalIsEstimate };
    rows.push(row);
    console.log(`  ${scenario.name.padEnd(38)} p50 ${row.p50.toFixed(1).padStart(7)} ms  p95 ${row.p95.toFixed(1).padStart(7)} ms  total ${row.estimate ? '~' : ''}${row.total}`);
    if (EXPLAIN) {
      const [who] = await database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, scenario.user));
      await explain(database, scenario, who!.id);
    }
  }

  if (target === 'postgres' && !SCENARIO) {
    // autocannon in its own process: in this one it would take the server's event loop for its own work. One
    // connection first: the server's own latency one request at a time, without the fetch client above sharing its
    // event loop (the sequential scenarios include that client's CPU).
    const body = JSON.stringify({ filters: [snapshot()], limit: 20 });
    const one = await loadTest(`${base}exams/page-query`, tokens.rad1!, body, 1, 10);
    console.log('\n  one connection, 10 s, default view (rad1), loopback, autocannon in a child process');
    // autocannon's percentiles are whole milliseconds; its mean is not.
    console.log(`  latency mean ${one.latency.average.toFixed(2)} ms, p50 ${one.latency.p50} ms, p90 ${one.latency.p90} ms, p97.5 ${one.latency.p97_5} ms, p99 ${one.latency.p99} ms; ` +
      `${Math.round(one.requests.average)} requests/s, ${one.errors} errors, ${one.non2xx} non-2xx`);
    const own = await oneAtATime(`${base}exams/page-query`, tokens.rad1!, body, 10);
    console.log('\n  one request at a time, 10 s, default view (rad1), loopback, prebuilt request bytes from a child process');
    console.log(`  ${own.requests} requests, mean ${own.mean.toFixed(2)} ms, p50 ${own.p50.toFixed(2)} ms, p95 ${own.p95.toFixed(2)} ms, p99 ${own.p99.toFixed(2)} ms`);
    console.log('\n  load: 50 connections, 15 s, default view (rad1), loopback, autocannon in a child process');
    const result = await loadTest(`${base}exams/page-query`, tokens.rad1!, body, 50, 15);
    console.log(`  ${Math.round(result.requests.average)} requests/s, latency p50 ${result.latency.p50} ms, p97.5 ${result.latency.p97_5} ms, p99 ${result.latency.p99} ms; ` +
      `${result.requests.total} requests, ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  }
  await bench.close();
}

/** Runs the autocannon command (installed with the project) and reads its JSON result. */
function loadTest(url: string, token: string, body: string, connections: number, seconds: number): Promise<autocannon.Result> {
  const bin = path.resolve('node_modules/.bin/autocannon');
  const args = ['-c', String(connections), '-d', String(seconds), '-m', 'POST', '-H', 'content-type=application/json', '-H', `authorization=Bearer ${token}`, '-b', body, '-j', url];
  return new Promise((resolve, reject) => {
    execFile(bin, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as autocannon.Result)));
  });
}

interface RoundTrips { requests: number; mean: number; p50: number; p95: number; p99: number }

/** One request at a time from a child process (bench/support/oneAtATime.ts): percentiles finer than autocannon's. */
function oneAtATime(url: string, token: string, body: string, seconds: number): Promise<RoundTrips> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--import', 'tsx', path.resolve('bench/support/oneAtATime.ts'), url, String(seconds)],
      { env: { ...process.env, ONE_TOKEN: token } }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as RoundTrips)));
    child.stdin!.end(body);
  });
}

const rows: Row[] = [];
if (ONLY !== 'pglite') {
  if (process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL) await runTarget('postgres', EXAMS, rows);
  else console.log('PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run it');
}
if (ONLY !== 'postgres') await runTarget('pglite', PGLITE_EXAMS, rows);

console.log('\n| target | scenario | p50 ms | p95 ms | p99 ms | target p95 | total |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const goal = r.kind === 'text' ? 150 : r.target === 'postgres' ? 30 : 80;
  console.log(`| ${r.target} | ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${goal}${r.p95 > goal ? ' (over)' : ''} | ${r.estimate ? '~' : ''}${r.total.toLocaleString('en')} |`);
}
