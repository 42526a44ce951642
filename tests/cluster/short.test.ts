import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROTLI_MODULE, call, login, ROOT, startCluster, watchScreen, type Cluster } from './harness';
import { callNext, checkIn, newQueue, screenToken, uploadOne } from './work';

/**
 * Several processes, one site (issue 38), the short version run by `npm test` on PostgreSQL: three API processes
 * started together on an empty database behind nginx, with S3 storage in an independent S3 server. Each check
 * crosses processes on purpose — what one issued or wrote, another honours or reads. The kill -9 and rolling
 * restart runs are in tests/cluster/full.test.ts (`npm run test:cluster`).
 */
let c: Cluster;
const proc = (i: number) => c.processes[i]!.url;

beforeAll(async () => {
  c = await startCluster({ processes: 3, exams: 10, tag: 'cluster-short' });
});
afterAll(async () => c?.close());

describe('three API processes on one database and one bucket', () => {
  it('migrated once though all three started together on an empty database', async () => {
    const journal = JSON.parse(readFileSync(path.join(ROOT, 'server', 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const rows = await c.database.db.execute(sql`select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash`);
    const list = (rows as unknown as { rows: { hash: string; n: number }[] }).rows;
    expect(list).toHaveLength(journal.entries.length);
    expect(list.every((r) => r.n === 1)).toBe(true);
  });

  it('honours a token issued by one process on the others, and through the balancer', async () => {
    const token = await login(proc(0), 'rad1');
    for (const base of [proc(1), proc(2), c.url]) {
      const me = await call(base, 'GET', 'accounts/me', { token });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('rad1');
    }
    // Signing out on one process ends the session on all (the token version is in the database).
    expect((await call(proc(1), 'POST', 'accounts/logout', { token })).status).toBeLessThan(300);
    expect((await call(proc(2), 'GET', 'accounts/me', { token })).status).toBe(401);
  });

  it('stores an upload permitted by one process through another into the bucket, and serves it from the third', async () => {
    const admin = await login(proc(0), 'admin');
    const up = await uploadOne(proc(0), proc(1), admin, c.ids.hospitalId);
    expect(up.status).toBe(200);
    const series = await call(proc(2), 'GET', `exams/${up.examId}/series`, { token: admin });
    expect(series.status).toBe(200);
    const file = await fetch(`${proc(2)}/api/v1/${series.body.series[0].instances[0].path}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(up.bytes!))).toBe(true);
  });

  it('brings a call made on one process to screens streaming from another, and through nginx, within 300 ms', async () => {
    const registrar = await login(proc(0), 'registrar');
    const hospital = c.ids.hospitalId;
    const queue = await newQueue(proc(0), registrar, hospital);
    for (let i = 0; i < 5; i++) await checkIn(c, proc(0), registrar, queue);
    const screen = await screenToken(proc(0), registrar, hospital);
    const other = await watchScreen(proc(1), hospital, screen);
    const balanced = await watchScreen(c.url, hospital, screen);
    const delays: number[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const answered = await callNext(proc(2), registrar, queue).then((r) => { expect(r.status).toBe(200); return performance.now(); });
        for (const w of [other, balanced]) delays.push(Math.max(0, (await w.nextCall()) - answered));
      }
    } finally {
      other.close();
      balanced.close();
    }
    console.log(`call → screen on another process: worst ${Math.round(Math.max(...delays))} ms of ${delays.length}`);
    expect(Math.max(...delays)).toBeLessThan(300);
  });

  it('counts failed logins across processes: the fifth on any process blocks the account on all', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await call(proc(i % 3), 'POST', 'accounts/login', { body: { username: 'tech', password: 'wrong-password-1' } });
      expect(res.status).toBe(401);
    }
    for (const base of [proc(0), proc(1), proc(2)]) {
      const res = await call(base, 'POST', 'accounts/login', { body: { username: 'tech', password: 'Demo1234' } });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('TooManyAttempts');
    }
  });

  it('honours a charge permit made on one process on another: paid once', async () => {
    const rad2 = await login(proc(0), 'rad2');
    const permit = await call(proc(0), 'POST', 'credits/create-token', { token: rad2, body: { groupId: c.ids.groupId, password: 'Demo1234' } });
    expect(permit.status).toBe(200);
    const { applyAndPay } = await import('./work');
    const paid = await applyAndPay(c, proc(1), rad2, permit.body.chargeToken);
    expect(paid.status).toBe(200);
    const again = await call(proc(2), 'POST', 'credits/charge', { token: rad2, body: { orderId: paid.orderId }, headers: { 'charge-authorization': `Bearer ${permit.body.chargeToken}` } });
    expect(again.status).toBe(409);
  });

  it('compresses JSON through nginx: brotli for clients that take it, gzip for the others', async () => {
    const token = await login(c.url, 'admin');
    const page = (encoding: string) => fetch(`${c.url}/api/v1/exams/page-query`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-encoding': encoding }, body: JSON.stringify({ limit: 50 }) });
    const gzip = await page('gzip');
    expect(gzip.status).toBe(200);
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect((await gzip.json()).items.length).toBeGreaterThan(0);
    const br = await page('br, gzip');
    expect(br.headers.get('content-encoding')).toBe(existsSync(BROTLI_MODULE) ? 'br' : 'gzip');
  });
});
