/**
 * `npm run bench:calling [-- --checked-in 10,5000] [-- --only postgres|pglite] [-- --explain]` (BENCH_RUNS, default 200)
 *
 * The call queue's actions alone (issue 37: "call-next alone: p95 ≤ 10 ms whether 10 or 5,000 patients were checked
 * in that day"), through the real server on loopback, one request at a time: call-next, recall, pass, back (to the
 * front), check-in and the operator's board, with `--checked-in` patients in one queue today (half of them already
 * served, one called, the rest waiting). The length stays the same during the run: the patient a call-next serves
 * goes back to the end of the waiting list and a checked-in patient leaves again, both in SQL outside the timing.
 *
 * Databases: a fresh PGlite in memory, and a fresh PostgreSQL database when DATABASE_URL is set (dropped after).
 * `--explain` prints EXPLAIN ANALYZE of the statements a call-next ran (PostgreSQL). Prints numbers; never fails on a time.
 */
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import type { QueueEntry, QueueType } from '../contract/calling';
import { dayIn } from '../contract/days';
import type { Database } from '../server/db/client';
import { systemClock } from '../server/deps';
import { seedDemo } from '../server/seed/demo';
import { arg } from './support/args';
import { BENCH_RUNS, BENCH_SCRYPT_COST, BENCH_WARMUP, benchKinds, benchStorage, openBenchDatabase, startBenchApp, type BenchDbKind } from './support/server';
import { statementRecorder } from './support/statements';
import { percentile } from './support/stats';

const SIZES = (arg('checked-in') ?? '10,5000').split(',').map(Number);
const ONLY = arg('only');
const PER_QUEUE = 700;
const EXPLAIN = process.argv.includes('--explain');
const KINDS = ['check-in', 'call-next', 'recall', 'pass', 'back (to the front)', 'board (GET queue-exams)'] as const;
type Kind = (typeof KINDS)[number];

type Rows = { rows: Record<string, unknown>[] };
const rowsOf = async (database: Database, q: ReturnType<typeof sql>) => ((await database.db.execute(q)) as unknown as Rows).rows;

async function run(kind: BenchDbKind, checkedIn: number): Promise<string[][]> {
  const { database, drop } = await openBenchDatabase(kind, 'calling');
  // On PostgreSQL only (PGlite's client is a proxy that calls itself back).
  const rec = EXPLAIN && kind === 'postgres' ? statementRecorder(database) : null;
  const ids = await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock: systemClock, exams: 20 });
  const app = await startBenchApp(database, drop, benchStorage('calling'));
  try {
    const token = await app.login('registrar');
    const call = <T>(method: string, route: string, body?: unknown) => app.call(token, method, route, body) as Promise<T>;
    const bucketId = ids.hospitalId;
    // A queue issues at most 999 numbers a day (QUEUE_MAX_PER_DAY): the day's patients are spread over the
    // organisation's queues, at most PER_QUEUE each, round robin; the timed actions are on the first queue.
    const queues = Math.max(1, Math.ceil(checkedIn / PER_QUEUE));
    const types: QueueType[] = [];
    for (let q = 0; q < queues; q++) {
      types.push(await call<QueueType>('POST', `buckets/${bucketId}/queue-types`, { prefix: `Q${String.fromCharCode(65 + q)}`, name: `bench ${q + 1}`, modality: 'CT', room: 'bench' }));
    }
    const type = types[0]!;
    // The day's patients: exams copied from one of the demo's, checked in today in SQL.
    const spare = BENCH_WARMUP + BENCH_RUNS;
    const columns = (await rowsOf(database, sql`select column_name from information_schema.columns where table_name = 'exams' and column_name <> 'id' order by ordinal_position`))
      .map((r) => String(r.column_name));
    const replaced: Record<string, string> = { patient_id: `'CQ' || g`, accession_number: `'CQA' || g`, registration_id: 'null', store_uid: 'null', scheduled_study_uid: 'null' };
    const template = (await rowsOf(database, sql`select id from exams where bucket_id = ${bucketId} and deleted_time is null order by id limit 1`))[0]!.id as number;
    const made = await rowsOf(database, sql.raw(`insert into exams (${columns.map((c) => `"${c}"`).join(', ')})
      select ${columns.map((c) => replaced[c] ?? `e."${c}"`).join(', ')} from exams e, generate_series(1, ${checkedIn + spare}) g where e.id = ${template} returning id`));
    const examIds = made.map((r) => r.id as number);
    const [{ time_zone: zone }] = await rowsOf(database, sql`select time_zone from buckets where id = ${bucketId}`) as { time_zone: string }[];
    const day = dayIn(new Date(), zone);
    const now = new Date().toISOString();
    for (const [q, t] of types.entries()) {
      const mine = examIds.slice(0, checkedIn).filter((_, k) => k % queues === q);
      const served = Math.floor(mine.length / 2);
      await database.db.execute(sql.raw(`insert into queue_entries (bucket_id, queue_type_id, exam_id, day, seq, queue_no, status, position, check_in_time, called_time, call_count)
        select ${bucketId}, ${t.id}, e.id, '${day}', n, '${t.prefix}' || lpad(n::text, 3, '0'),
          case when n <= ${served} then 'served' when n = ${served + 1} then 'called' else 'waiting' end, n, '${now}',
          case when n <= ${served + 1} then timestamptz '${now}' end, case when n <= ${served + 1} then 1 else 0 end
        from unnest(array[${mine.join(',')}]::int[]) with ordinality as e(id, n)`));
      await database.db.execute(sql`insert into queue_counters (queue_type_id, day, last_seq) values (${t.id}, ${day}, ${mine.length})`);
    }
    await database.db.execute(sql`analyze queue_entries`);
    const spares = examIds.slice(checkedIn);

    const samples = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
    const timed = async <T>(kind: Kind, i: number, fn: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      const r = await fn();
      if (i >= BENCH_WARMUP) samples[kind].push(performance.now() - t);
      return r;
    };
    let calledId = (await rowsOf(database, sql`select id from queue_entries where queue_type_id = ${type.id} and status = 'called'`))[0]?.id as number | undefined;
    for (let i = 0; i < BENCH_WARMUP + BENCH_RUNS; i++) {
      const explainThis = rec !== null && i === BENCH_WARMUP;
      if (explainThis) rec?.start();
      const next = await timed('call-next', i, () => call<QueueEntry>('POST', `queue-types/${type.id}/call-next`, { bucketId }));
      if (explainThis && rec) {
        for (const s of rec.stop()) if (/queue_entries/.test(s.text)) console.log(`\n${s.text}\n${JSON.stringify(s.params)}\n${await rec.explain(s)}`);
      }
      // The one it served waits again at the end: the day keeps its length.
      if (calledId !== undefined && calledId !== next.id) {
        await database.db.execute(sql`update queue_entries set status = 'waiting', position = (select max(position) + 1 from queue_entries where queue_type_id = ${type.id} and day = ${day})
          where id = ${calledId}`);
      }
      calledId = next.id;
      const recalled = await timed('recall', i, () => call<QueueEntry>('POST', `queue-exams/${next.id}/action`, { action: 'recall' }));
      if (i % 2 === 1) {
        // Every other round the called patient misses the call and comes back first: the next call-next calls them again.
        await timed('pass', i, () => call('POST', `queue-exams/${next.id}/action`, { action: 'pass', version: recalled.version }));
        await timed('back (to the front)', i, () => call('POST', `queue-exams/${next.id}/action`, { action: 'back', position: 1 }));
        calledId = undefined;
      }
      const entry = await timed('check-in', i, () => call<QueueEntry>('POST', 'queue-exams/check-in', { examId: spares[i]!, queueTypeId: type.id }));
      await database.db.execute(sql`delete from queue_entries where id = ${entry.id}`);
    }
    // The board on its own (a large answer at 5,000: kept out of the actions' loop so its garbage is not theirs).
    for (let i = 0; i < BENCH_WARMUP + Math.min(BENCH_RUNS, 30); i++) await timed('board (GET queue-exams)', i, () => call('GET', `buckets/${bucketId}/queue-exams`));
    // What call-next's statements cost in the database itself, whatever the machine's load: EXPLAIN ANALYZE of the
    // same shapes (server/calling/actions.ts callNext), in a transaction rolled back.
    const plans: string[] = [];
    await database.db.transaction(async (tx) => {
      const explain = async (label: string, q: ReturnType<typeof sql>) => {
        const rows = ((await tx.execute(sql`explain (analyze, costs off) ${q}`)) as unknown as Rows).rows.map((r) => String(Object.values(r)[0]));
        plans.push(`${label}: ${rows.find((r) => r.startsWith('Execution Time'))?.replace('Execution Time: ', '')} (${rows.filter((r) => /Scan/.test(r)).map((r) => r.trim().replace(/\s*\(actual.*$/, '')).join('; ')})`);
      };
      await explain('first waiting', sql`select * from queue_entries where queue_type_id = ${type.id} and day = ${day} and status = 'waiting' order by position, id limit 1 for update skip locked`);
      await explain('the called one served', sql`update queue_entries set status = 'served', version = version + 1 where queue_type_id = ${type.id} and day = ${day} and status = 'called' returning id`);
      tx.rollback();
    }).catch(() => undefined);
    if (EXPLAIN) console.log(`\n${kind}, ${checkedIn} checked in:\n  ${plans.join('\n  ')}`);
    return KINDS.map((k) => {
      const s = samples[k].sort((a, b) => a - b);
      return [`${kind}, ${checkedIn.toLocaleString('en')} checked in`, k, percentile(s, 50).toFixed(1), percentile(s, 95).toFixed(1), (s.at(-1) ?? 0).toFixed(1)];
    });
  } finally {
    await app.close();
  }
}

const table: string[][] = [['database, day', 'action', 'p50', 'p95', 'max']];
for (const kind of benchKinds().filter((k) => !ONLY || k === ONLY)) {
  for (const size of SIZES) table.push(...await run(kind, size));
}
console.log(`\nCall queue actions alone, ${BENCH_RUNS} rounds after ${BENCH_WARMUP} warm-up, one request at a time, loopback (${cpus().length} cores), ms:`);
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
for (const r of table) console.log(r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
