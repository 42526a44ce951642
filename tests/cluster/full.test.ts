import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness';
import { failed, IDEMPOTENT, missingWrites, prepareWorkers, startLoad, type LoadResult } from './load';

/**
 * Several processes, one site (issue 38), the long runs of `npm run test:cluster`: a process killed with SIGKILL in
 * the middle of a mixed load (uploads, report saves, payments, calls, reads), and a rolling restart (each process
 * stopped with SIGTERM and started again, one after the other) under the same load. nginx runs the production rules
 * (deploy/nginx/radws-proxy.conf).
 */
let c: Cluster;
const WORKERS = 6;

beforeAll(async () => {
  c = await startCluster({ processes: 3, exams: 10, tag: 'cluster-full' });
});
afterAll(async () => c?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function summary(name: string, r: LoadResult): string {
  const bad = r.outcomes.filter(failed);
  const byKind = new Map<string, number>();
  for (const o of bad) byKind.set(`${o.kind} ${o.status || o.error}`, (byKind.get(`${o.kind} ${o.status || o.error}`) ?? 0) + 1);
  const statuses = new Map<string, number>();
  for (const o of r.outcomes) statuses.set(`${o.kind} ${o.status}`, (statuses.get(`${o.kind} ${o.status}`) ?? 0) + 1);
  return `${name}: ${r.outcomes.length} requests in ${r.seconds.toFixed(1)} s, ${bad.length} failed ${JSON.stringify(Object.fromEntries(byKind))}; `
    + `answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; acknowledged: ${r.acked.saves.size} reports with saves, ${r.acked.uploads.length} uploads, ${r.acked.payments.length} payments, ${r.acked.calls} calls`;
}

describe('a process lost under load', () => {
  it('kill -9 loses no acknowledged write; reads are retried on the others; clients keep working', async () => {
    const workers = await prepareWorkers(c, WORKERS);
    const load = startLoad(c, workers, { seconds: 14 });
    await sleep(4000);
    await c.stop(1, 'SIGKILL');
    await sleep(4000);
    await c.start(1);
    const r = await load.done;
    console.log(summary('kill -9', r));
    console.log(c.nginxErrors().split('\n').slice(-8).join('\n'));
    // Reads never failed: nginx retried them on another process.
    expect(r.outcomes.filter((o) => IDEMPOTENT.has(o.kind) && failed(o))).toEqual([]);
    // A write that was on the killed process when it died may fail (nginx cannot know whether it was done): only as
    // nginx's 502, never as a hang or a 500 from the application.
    expect(r.outcomes.filter((o) => failed(o) && o.status !== 502)).toEqual([]);
    // Every kind of work went on after the kill (the last seconds: the restarted process is back in the upstream).
    const after = r.outcomes.filter((o) => o.at > 9000);
    for (const kind of ['read', 'list', 'save', 'upload', 'pay', 'call'] as const) {
      expect(after.filter((o) => o.kind === kind && o.status >= 200 && o.status < 300).length, kind).toBeGreaterThan(0);
    }
    expect(await missingWrites(c, r.acked)).toEqual([]);
  });
});

describe('a rolling restart', () => {
  it('replaces the processes one by one under load with no failed request', async () => {
    const workers = await prepareWorkers(c, WORKERS);
    const load = startLoad(c, workers, { seconds: 600 });
    await sleep(2000);
    for (let i = 0; i < c.processes.length; i++) {
      await c.stop(i, 'SIGTERM');
      await c.start(i);
      await sleep(1000);
    }
    await sleep(1000);
    load.stop();
    const r = await load.done;
    console.log(summary('rolling restart', r));
    if (r.outcomes.some(failed)) console.log(c.nginxErrors().split('\n').slice(-20).join('\n'));
    expect(r.outcomes.filter(failed)).toEqual([]);
    expect(await missingWrites(c, r.acked)).toEqual([]);
  });
});
