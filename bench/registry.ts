/**
 * `npm run bench:registry [-- --registrations 100000] [-- --only postgres|pglite] [-- --runs 200] [-- --explain]`
 *
 * The registry desk's list on 100,000 registrations (about 150,000 exam lines) of one registry organisation, through
 * the real server on loopback: latency (p50/p95/p99) of POST buckets/{id}/registry/query as the registrar for the
 * desk's default view (today in the organisation's zone, in-house orders, newest first), a status filter, a search by
 * name prefix and by patient id (the patient history panel), and a deep page; on PostgreSQL and on embedded PGlite.
 * Targets (issue 10): p95 ≤ 30 ms on PostgreSQL, ≤ 80 ms on PGlite.
 *
 * Databases: PostgreSQL `bench_registry` on the server of DATABASE_URL (or BENCH_DATABASE_URL as is), PGlite in
 * `.bench/registry-pglite` (or DATA_DIR). Each is filled once (demo data, then server/seed/benchRegistry.ts) and
 * reused afterwards. `--explain` prints EXPLAIN ANALYZE of the statements each scenario's request ran.
 * Prints numbers; never fails on a time.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Filter, Sort } from '../contract/common';
import type { RegistryPage } from '../contract/registry';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { benchDatabase } from './support/database';
import { statementRecorder } from './support/statements';
import { systemClock } from '../server/deps';
import { insertBenchRegistrations, registrationCount, registryBenchIds } from '../server/seed/benchRegistry';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { addDays, dayOf, instantIn } from '../server/seed/registry';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { percentile as pct } from './support/stats';
import { arg } from './support/args';

const REGISTRATIONS = Number(arg('registrations') ?? 100_000);
const ONLY = arg('only');
const RUNS = Number(arg('runs') ?? 200);
const EXPLAIN = process.argv.includes('--explain');
const SCRYPT_COST = 1024;
const TIME_ZONE = 'Asia/Shanghai';

interface Body { filters: Filter[]; sorts?: Sort[]; skip: number; limit: number }
interface Scenario { name: string; body: (ctx: { patientId: string; namePrefix: string }) => Body; runs?: number }

/** The desk's day in the organisation's zone, as the client sends it (src/features/registry/days.ts). */
function today(): Filter[] {
  const day = dayOf(new Date(), TIME_ZONE);
  return [
    { field: 'scheduledTime', operator: 'gte', values: [instantIn(day, 0, TIME_ZONE).toISOString()] },
    { field: 'scheduledTime', operator: 'lt', values: [instantIn(addDays(day, 1), 0, TIME_ZONE).toISOString()] },
  ];
}
const scope = (value: 'internal' | 'all'): Filter => ({ field: 'sourceScope', operator: 'equal', values: [value] });

const SCENARIOS: Scenario[] = [
  { name: 'default view (today, internal, newest)', body: () => ({ filters: [...today(), scope('internal')], skip: 0, limit: 10 }) },
  { name: 'today, status Arrived', body: () => ({ filters: [...today(), scope('internal'), { field: 'examStatus', operator: 'equal', values: ['Arrived'] }], skip: 0, limit: 10 }) },
  { name: 'status Scheduled, every day', body: () => ({ filters: [scope('all'), { field: 'examStatus', operator: 'equal', values: ['Scheduled'] }], skip: 0, limit: 10 }) },
  { name: 'search name prefix, every day', body: (c) => ({ filters: [scope('all'), { field: 'search', operator: 'like', values: [c.namePrefix] }], skip: 0, limit: 10 }) },
  {
    name: 'search patient id (history panel)', body: (c) => ({
      filters: [{ field: 'search', operator: 'like', values: [c.patientId] }, scope('all')], sorts: [{ field: 'scheduledTime', direction: 'desc' }], skip: 0, limit: 10,
    }),
  },
  { name: 'deep page (skip 100,000, every day)', runs: 60, body: () => ({ filters: [scope('all')], skip: 100_000, limit: 10 }) },
];

interface Row { target: string; name: string; p50: number; p95: number; p99: number; total: number }

async function runTarget(target: 'postgres' | 'pglite', wanted: number, rows: Row[]): Promise<void> {
  const database = await benchDatabase('registry', target);
  const { bucketId } = await registryBenchIds(database.db, SCRYPT_COST);
  const have = await registrationCount(database.db, bucketId);
  if (have < wanted) {
    const started = performance.now();
    console.log(`${target}: ${have.toLocaleString('en')} registrations, seeding ${(wanted - have).toLocaleString('en')} more…`);
    let lastShown = 0;
    await insertBenchRegistrations(database.db, {
      count: wanted - have, days: 730, scryptCost: SCRYPT_COST,
      onProgress: (done, total) => {
        if (done === total || performance.now() - lastShown > 10_000) {
          lastShown = performance.now();
          console.log(`  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} registrations (${((performance.now() - started) / 1000).toFixed(1)} s)`);
        }
      },
    });
    console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const count = await registrationCount(database.db, bucketId);
  const facts = await database.db.execute(`
    select count(*)::int as lines,
      (select patient_id from exams where bucket_id = ${bucketId} and registration_id is not null order by id desc limit 1 offset 500) as patient_id,
      (select left(patient_name, 2) from exams where bucket_id = ${bucketId} and registration_id is not null order by id desc limit 1 offset 900) as name_prefix
    from exams where bucket_id = ${bucketId} and registration_id is not null` as never) as unknown as { rows: { lines: number; patient_id: string; name_prefix: string }[] };
  const { lines, patient_id: patientId, name_prefix: namePrefix } = facts.rows[0]!;

  const rec = statementRecorder(database, 'analyze, buffers, costs off');
  const files = mkdtempSync(path.join(tmpdir(), 'bench-registry-'));
  const app = await buildApp({
    db: database.db, dbKind: database.kind, clock: systemClock,
    storage: createLocalStorage({ root: files, signer: createSigner(randomBytes(16).toString('hex')), clock: systemClock }),
    tokens: createTokens(randomBytes(16).toString('hex'), 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: SCRYPT_COST, dataDir: files, clientDir: '/nonexistent' },
  });
  try {
    await app.ready();
    if (!app.printRoutes({ commonPrefix: false }).includes('registry/query')) {
      console.log(`\n${target}: POST buckets/{id}/registry/query is not registered in server/app.ts yet: nothing to time`);
      return;
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1/`;
    const login = await fetch(`${base}accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'registrar', password: DEMO_PASSWORD }) });
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const post = async (body: Body) => {
      const started = performance.now();
      const res = await fetch(`${base}buckets/${bucketId}/registry/query`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      const json = (await res.json()) as RegistryPage & { code?: string; message?: string };
      if (res.status !== 200) throw new Error(`${res.status} ${json.code} ${json.message ?? ''} for ${JSON.stringify(body)}`);
      return { ms: performance.now() - started, json };
    };
    console.log(`\n${target} (${count.toLocaleString('en')} registrations, ${lines.toLocaleString('en')} exam lines; name prefix "${namePrefix}", patient ${patientId})`);
    for (const scenario of SCENARIOS) {
      const runs = scenario.runs ?? RUNS;
      const body = () => scenario.body({ patientId, namePrefix });
      for (let i = 0; i < 5; i++) await post(body()); // warm the caches and the plan
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < runs; i++) {
        const { ms, json } = await post(body());
        times.push(ms);
        total = json.total;
      }
      times.sort((a, b) => a - b);
      const row = { target, name: scenario.name, p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99), total };
      rows.push(row);
      console.log(`  ${scenario.name.padEnd(40)} p50 ${row.p50.toFixed(1).padStart(7)} ms  p95 ${row.p95.toFixed(1).padStart(7)} ms  total ${row.total}`);
      if (EXPLAIN) {
        rec.start();
        await post(body());
        for (const statement of rec.stop()) {
          if (!/^\s*select/i.test(statement.text)) continue;
          console.log(`\n── ${scenario.name}\n${statement.text}\n${JSON.stringify(statement.params)}\n${await rec.explain(statement)}\n`);
        }
      }
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(files, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
if (ONLY !== 'pglite') {
  if (process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL) await runTarget('postgres', REGISTRATIONS, rows);
  else console.log('PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run it');
}
if (ONLY !== 'postgres') await runTarget('pglite', REGISTRATIONS, rows);

console.log('\n| target | scenario | p50 ms | p95 ms | p99 ms | target p95 | total |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const goal = r.target === 'postgres' ? 30 : 80;
  console.log(`| ${r.target} | ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${goal}${r.p95 > goal ? ' (over)' : ''} | ${r.total.toLocaleString('en')} |`);
}
