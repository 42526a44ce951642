/**
 * `npm run bench:dicomweb [-- --exams 1000000] [-- --runs 100] [-- --only <scenario name part>] [-- --explain]`
 *
 * QIDO-RS studies search (GET /api/v1/dicomweb/studies) on a million exams on PostgreSQL, through the real server on
 * loopback: p50/p95/p99 of the searches a web viewer's study list makes (the first page, by patient name, patient
 * id, accession number, study date and range, modality, study UID, a deep page), for an account of one organisation
 * (rad1) and of two (admin). Issue 33's target: p95 ≤ 30 ms.
 *
 * Database: PostgreSQL `bench_dicomweb` on the server of DATABASE_URL (or BENCH_DATABASE_URL as is), filled once by
 * the same generator as `npm run seed:bench` (bench/exams.ts's) and reused. Prints numbers; never fails on a time.
 */
import { sql } from 'drizzle-orm';
import { tuneHeap } from '../server/heap';
import { examsBenchDatabase } from './support/database';
import { statementRecorder } from './support/statements';
import { benchStorage, startBenchApp } from './support/server';
import { percentile as pct } from './support/stats';
import { arg } from './support/args';

const EXAMS = Number(arg('exams') ?? 1_000_000);
const RUNS = Number(arg('runs') ?? 100);
if (process.env.BENCH_HEAP !== 'default') tuneHeap();

const { database, count } = await examsBenchDatabase('dicomweb', 'postgres', EXAMS);

// Values that exist, read from the database (an exam of rad1's hospital some months back, so the exact matches find it).
type Pick = { patient_name: string; patient_id: string; accession_number: string; store_uid: string; day: string };
const picked = await database.db.execute(sql`
  select patient_name, patient_id, accession_number, store_uid, to_char(exam_time at time zone 'Asia/Shanghai', 'YYYYMMDD') as day
  from exams where deleted_time is null and has_image and store_uid is not null and accession_number is not null
    and bucket_id in (select m.bucket_id from bucket_members m join accounts a on a.id = m.account_id where a.username = 'rad1')
  order by id limit 1 offset ${Math.floor(count / 6)}`);
const row = (picked as unknown as { rows: Pick[] }).rows[0]!;
const month = `${row.day.slice(0, 6)}01-${row.day.slice(0, 6)}28`;

const bench = await startBenchApp(database, async () => undefined, benchStorage('dicomweb'));
const base = `${bench.base}/dicomweb/`;
const tokens: Record<string, string> = {};
for (const user of ['rad1', 'admin']) tokens[user] = await bench.login(user);

const enc = encodeURIComponent;
const SCENARIOS: { name: string; user: 'rad1' | 'admin'; query: string }[] = [
  { name: 'first page (1 organisation)', user: 'rad1', query: 'limit=101&includefield=all' },
  { name: 'first page (2 organisations)', user: 'admin', query: 'limit=101&includefield=all' },
  { name: 'PatientName exact', user: 'rad1', query: `PatientName=${enc(row.patient_name)}&limit=101` },
  { name: 'PatientName family*', user: 'rad1', query: `PatientName=${enc(`${[...row.patient_name][0]}*`)}&limit=101` },
  { name: 'PatientName *given*', user: 'rad1', query: `PatientName=${enc(`*${[...row.patient_name].slice(1).join('')}*`)}&limit=101` },
  { name: 'PatientID', user: 'rad1', query: `PatientID=${enc(row.patient_id)}` },
  { name: 'AccessionNumber', user: 'rad1', query: `AccessionNumber=${enc(row.accession_number)}` },
  { name: 'StudyInstanceUID', user: 'rad1', query: `StudyInstanceUID=${row.store_uid}` },
  { name: 'StudyDate one day', user: 'rad1', query: `StudyDate=${row.day}&limit=101` },
  { name: 'StudyDate a month (2 organisations)', user: 'admin', query: `StudyDate=${month}&limit=101` },
  { name: 'ModalitiesInStudy=CT', user: 'rad1', query: 'ModalitiesInStudy=CT&limit=101' },
  { name: 'ModalitiesInStudy=MR, a month', user: 'rad1', query: `ModalitiesInStudy=MR&StudyDate=${month}&limit=101` },
  { name: 'deep page (offset 10,000)', user: 'rad1', query: 'limit=101&offset=10000' },
];

const get = async (user: string, query: string) => {
  const started = performance.now();
  const res = await fetch(`${base}studies?${query}`, { headers: { authorization: `Bearer ${tokens[user]}`, accept: 'application/dicom+json' } });
  const json = (await res.json()) as unknown[];
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(json)}`);
  return { ms: performance.now() - started, n: json.length };
};

console.log(`\nQIDO-RS studies search, postgres (${count.toLocaleString('en')} exams), ${RUNS} runs each, one at a time, loopback`);
const rows: { name: string; p95: number }[] = [];
// `--explain`: EXPLAIN ANALYZE of the statements one request of each scenario ran (the pool's queries).
const EXPLAIN = process.argv.includes('--explain');
const ONLY = arg('only');
const rec = statementRecorder(database, 'analyze, buffers, costs off');
for (const s of SCENARIOS.filter((x) => !ONLY || x.name.includes(ONLY))) {
  if (EXPLAIN) {
    rec.start();
    await get(s.user, s.query);
    for (const st of rec.stop().filter((x) => /from "exams"/.test(x.text))) {
      console.log(`\n── ${s.name}\n${st.text}\n${JSON.stringify(st.params)}\n${await rec.explain(st)}`);
    }
  }
  for (let i = 0; i < 5; i++) await get(s.user, s.query);
  const times: number[] = [];
  let n = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await get(s.user, s.query);
    times.push(r.ms);
    n = r.n;
  }
  times.sort((a, b) => a - b);
  rows.push({ name: s.name, p95: pct(times, 95) });
  console.log(`  ${s.name.padEnd(38)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  p95 ${pct(times, 95).toFixed(1).padStart(6)} ms  p99 ${pct(times, 99).toFixed(1).padStart(6)} ms  answers ${n}`);
}
const worst = rows.reduce((a, b) => (b.p95 > a.p95 ? b : a));
console.log(`\n  worst p95: ${worst.p95.toFixed(1)} ms (${worst.name}); target p95 ≤ 30 ms: ${worst.p95 <= 30 ? 'met' : 'not met'}`);

await bench.close();
