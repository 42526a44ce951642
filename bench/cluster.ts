/**
 * `npm run bench:cluster [-- --seconds 10 --workers 6 --warmup 3 --calls 20]`
 *
 * Several processes, one site (issue 38): the mixed load of tests/cluster/load.ts (reads, worklist pages, report saves,
 * one-file study uploads, credit payments, queue calls; each worker one request at a time) through nginx in front of
 * 1, 2 and 3 API processes (server/main.ts) on one PostgreSQL database with S3 storage in an independent S3 server
 * (tests/cluster/harness.ts) — requests/s, p50/p95 overall and per kind, failures — and the time a waiting-room screen
 * streaming from one process takes to see a call made on another (LISTEN/NOTIFY). On a two-core machine the processes,
 * nginx, PostgreSQL, the S3 server and the load share the same cores: expect the shape (0 errors), not a gain.
 * Needs PostgreSQL (DATABASE_URL or postgres@127.0.0.1:5432) and nginx. Prints numbers; never fails on a time.
 */
import os from 'node:os';
import { login, startCluster, watchScreen } from '../tests/cluster/harness';
import { failed, percentile, prepareWorkers, startLoad } from '../tests/cluster/load';
import { callNext, checkIn, newQueue, screenToken } from '../tests/cluster/work';
import { arg } from './support/args';

const SECONDS = Number(arg('seconds') ?? 10);
const WORKERS = Number(arg('workers') ?? 6);
const CALLS = Number(arg('calls') ?? 20);
/** Each shape first runs this long unmeasured: a process that nginx only now sends work to has cold code paths. */
const WARMUP = Number(arg('warmup') ?? 3);

const ms = (n: number) => `${n.toFixed(0)} ms`;

const c = await startCluster({ processes: 3, exams: 50, tag: 'bench-cluster' });
try {
  console.log(`bench:cluster — ${WORKERS} workers, ${SECONDS} s per shape after ${WARMUP} s unmeasured; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log('processes  req/s   p50     p95     failed  (p95 by kind)');
  for (const k of [1, 2, 3]) {
    await c.balance(k);
    const workers = await prepareWorkers(c, WORKERS);
    await startLoad(c, workers, { seconds: WARMUP }).done;
    const r = await startLoad(c, workers, { seconds: SECONDS }).done;
    const all = r.outcomes.map((o) => o.ms);
    const kinds = [...new Set(r.outcomes.map((o) => o.kind))].sort();
    const byKind = kinds.map((kind) => `${kind} ${ms(percentile(r.outcomes.filter((o) => o.kind === kind).map((o) => o.ms), 95))}`).join(', ');
    console.log(`${String(k).padEnd(10)} ${(r.outcomes.length / r.seconds).toFixed(1).padEnd(7)} ${ms(percentile(all, 50)).padEnd(7)} ${ms(percentile(all, 95)).padEnd(7)} ${String(r.outcomes.filter(failed).length).padEnd(7)} (${byKind})`);
  }

  // A call made on process 0, seen by a screen streaming from process 1: from the call's answer to the event.
  const registrar = await login(c.processes[0]!.url, 'registrar');
  const queue = await newQueue(c.processes[0]!.url, registrar, c.ids.hospitalId);
  for (let i = 0; i < CALLS; i++) await checkIn(c, c.processes[0]!.url, registrar, queue);
  const screen = await watchScreen(c.processes[1]!.url, c.ids.hospitalId, await screenToken(c.processes[0]!.url, registrar, c.ids.hospitalId));
  const fromSend: number[] = [];
  const fromAnswer: number[] = [];
  try {
    for (let i = 0; i < CALLS; i++) {
      const sent = performance.now();
      const res = await callNext(c.processes[0]!.url, registrar, queue);
      const answered = performance.now();
      if (res.status !== 200) throw new Error(`call-next: ${res.status}`);
      const seen = await screen.nextCall();
      fromSend.push(seen - sent);
      fromAnswer.push(Math.max(0, seen - answered));
    }
  } finally {
    screen.close();
  }
  const line = (name: string, v: number[]) => `${name}: p50 ${ms(percentile(v, 50))}, p95 ${ms(percentile(v, 95))}, max ${ms(Math.max(...v))}`;
  console.log(`call on process 0 → screen on process 1 (${CALLS} calls, idle site)`);
  console.log(`  ${line('from sending the call', fromSend)}`);
  console.log(`  ${line('from the call\'s answer', fromAnswer)}`);
} finally {
  await c.close();
}
