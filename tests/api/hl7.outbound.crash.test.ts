import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { systemClock } from '../../server/deps';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { freshDatabase, type FreshDatabase } from '../support/freshDatabase';
import { startMllpPeer, type MllpPeer } from '../support/mllpPeer';
import { freePort } from '../support/ports';

/**
 * kill -9 between approval and send (issue 36): the real server (server/main.ts) runs in a child process over a
 * database that outlives it, with a test MLLP peer as the hospital's destination. HL7_OUT_FAULT (read in one place:
 * server/hl7/outbound/fault.ts) makes the child SIGKILL itself at a named point of sending:
 * - claimed: the approval committed its ORU, the sender leased the row, nothing went out → after a restart, once the
 *   lease ran out, the peer receives the ORU exactly once;
 * - acked: the peer received and acknowledged it, the row was not yet marked sent → after a restart the row is sent
 *   again with the same MSH-10 (the peer's duplicate check drops it) and then marked sent: at least once on the wire,
 *   once in effect.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LEASE_MS = 2_000;

let fresh: FreshDatabase | null = null;
let dataDir = '';
let child: ChildProcess | null = null;
let base = '';
let peer: MllpPeer;
const examIds: number[] = [];

async function start(fault: string | null): Promise<void> {
  const port = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env, PORT: String(port), DICOM_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, CLIENT_DIR: '/nonexistent', SCRYPT_COST: '1024', LOG: '0',
      DATABASE_URL: fresh?.databaseUrl ?? '', TOKEN_SECRET: 'crash-test-secret', HL7_OUT_FAULT: fault ?? '',
      HL7_OUT_POLL_MS: '100', HL7_OUT_LEASE_MS: String(LEASE_MS),
    },
  });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server stopped while starting (${child.signalCode ?? child.exitCode})`);
    try {
      if ((await fetch(`${base}/api/v1/domain`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

function exited(): Promise<string | null> {
  const c = child!;
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve(c.signalCode);
  return new Promise((resolve) => c.once('exit', (_code, signal) => resolve(signal)));
}

async function stop(): Promise<void> {
  if (child && child.exitCode === null && child.signalCode === null) {
    const gone = exited();
    child.kill('SIGTERM');
    await gone;
  }
  child = null;
}

async function call(method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked field by field
  const res = await fetch(`${base}/api/v1/${p}`, {
    method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function login(username: string): Promise<string> {
  return (await call('POST', 'accounts/login', undefined, { username, password: DEMO_PASSWORD })).body.accessToken as string;
}

/** rad1 writes and submits, chief approves; the approval's answer may never come (the child kills itself). */
async function approveNew(examId: number): Promise<number> {
  const rad1 = await login('rad1');
  const chief = await login('chief');
  const created = await call('POST', `exams/${examId}/reports`, rad1);
  let version = created.body.version as number;
  const id = created.body.id as number;
  version = (await call('POST', `reports/${id}/save`, rad1, { version, finding: '<p>肝内多发囊肿</p>', diagnosis: '<p>肝囊肿</p>', positive: true })).body.version;
  version = (await call('POST', `reports/${id}/submit`, rad1, { version })).body.version;
  await call('POST', `reports/${id}/approve`, chief, { version }).catch(() => null);
  return id;
}

async function outboxOf(reportId: number) {
  const res = await call('POST', `buckets/${hospitalId}/hl7/outbox/query`, await login('admin'), { filters: [{ field: 'reportId', operator: 'equal', values: [reportId] }] });
  return res.body.items as { status: string; attempts: number; controlId: string }[];
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`never: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let hospitalId = 0;

beforeAll(async () => {
  peer = await startMllpPeer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'hl7-crash-data-'));
  if (process.env.DATABASE_URL) fresh = await freshDatabase();
  const database = await openDatabase({ databaseUrl: fresh?.databaseUrl ?? null, dataDir: fresh ? null : dataDir });
  const ids = await seedDemo(database.db, { scryptCost: 1024, clock: systemClock, exams: 40 });
  hospitalId = ids.hospitalId;
  await database.db.insert(t.hl7Destinations).values({
    bucketId: ids.hospitalId, enabled: true, host: '127.0.0.1', port: peer.port, receivingApplication: 'HIS', receivingFacility: 'HOSP', ackTimeoutMs: 2000,
  });
  for (let i = 0; i < 2; i++) {
    const [exam] = await database.db.insert(t.exams).values({
      bucketId: ids.hospitalId, patientName: `崩溃测试${i}`, patientId: `CRASH${i}`, modality: 'CT', hasImage: true, examTime: new Date(),
    }).returning({ id: t.exams.id });
    examIds.push(exam!.id);
  }
  await database.close();
});
afterAll(async () => {
  await stop();
  await peer?.close();
  await fresh?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 between approval and send', () => {
  it('claimed → sent exactly once after restart; acked → sent again with the same control id, then marked sent', async () => {
    // 1. Killed with the row leased and nothing on the wire.
    await start('claimed');
    const first = await approveNew(examIds[0]!);
    expect(await exited()).toBe('SIGKILL');
    expect(peer.received).toHaveLength(0);
    await start(null);
    const [got] = await peer.waitFor(1, 30_000);
    const [row] = await until(() => outboxOf(first), (rows) => rows[0]?.status === 'sent');
    expect(row!.controlId).toBe(got!.controlId);
    // Two more lease lengths: nothing else arrives.
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS + 500));
    expect(peer.received).toHaveLength(1);
    await stop();

    // 2. Killed after the peer's AA, before the row was marked sent.
    await start('acked');
    const second = await approveNew(examIds[1]!);
    expect(await exited()).toBe('SIGKILL');
    expect(peer.received).toHaveLength(2);
    await start(null);
    await peer.waitFor(3, 30_000);
    const [again] = await until(() => outboxOf(second), (rows) => rows[0]?.status === 'sent');
    expect(peer.received[2]!.controlId).toBe(peer.received[1]!.controlId);
    expect(again!.controlId).toBe(peer.received[1]!.controlId);
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS + 500));
    expect(peer.received).toHaveLength(3);
    // The first report was not sent again by either restart.
    expect(peer.received.filter((r) => r.controlId === got!.controlId)).toHaveLength(1);
    await stop();
  }, 240_000);
});
