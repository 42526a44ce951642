import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { systemClock } from '../../server/deps';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { freshDatabase, type FreshDatabase } from '../support/freshDatabase';
import { freePort } from '../support/ports';

/**
 * kill -9 in the middle of paying (issue 13: "a crash between charge and confirm never charges twice or loses a
 * payment"). The real server (server/main.ts) runs in a child process over one database that outlives it (a PGlite
 * data folder, or a fresh PostgreSQL database when DATABASE_URL is set). PAYMENT_FAULT (read in one place:
 * server/payments/money/fault.ts) makes the child SIGKILL itself at a named point of the money path:
 * - charge-saved: the charge order is saved, the channel never heard of it → after a restart the reconciler closes
 *   it and the application is unpaid (and can be paid afresh);
 * - before-settle: the channel (the sandbox, whose books are in the same database) recorded SUCCESS and notified,
 *   the product had not settled → after a restart the reconciler asks the channel and settles: paid once;
 * - in-settle: killed inside the settling transaction after the application was marked paid, before the commit →
 *   nothing of it stays (never half: not paid without its dispatch); the next start settles it once.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** The reconciler leaves charge orders younger than this to the live flow (server/payments/money/reconcile.ts). */
const GRACE_MS = 5_000;

let fresh: FreshDatabase | null = null;
let dataDir = '';
let child: ChildProcess | null = null;
let base = '';


/** server/main.ts with the shared database and, when given, a fault point; resolves once it answers. */
async function start(fault: string | null, o: { diesStarting?: boolean } = {}): Promise<void> {
  const port = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env, PORT: String(port), DICOM_PORT: '0', HL7_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, CLIENT_DIR: '/nonexistent', SCRYPT_COST: '1024', LOG: '0',
      DATABASE_URL: fresh?.databaseUrl ?? '', TOKEN_SECRET: 'crash-test-secret', PAYMENT_FAULT: fault ?? '',
    },
  });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (o.diesStarting) return;
      throw new Error(`the server stopped while starting (${child.signalCode ?? child.exitCode})`);
    }
    try {
      if ((await fetch(`${base}/api/v1/domain`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

/** Resolves with the signal once the child is gone (it kills itself at the fault point). */
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

async function login(): Promise<string> {
  const res = await call('POST', 'accounts/login', undefined, { username: 'rad1', password: DEMO_PASSWORD });
  return res.body.accessToken as string;
}

/** An unpaid application of one of the hospital's exams (the first the request side accepts). */
async function apply(token: string, skip: Set<number>): Promise<{ id: number; examId: number }> {
  const page = await call('POST', 'exams/page-query', token, { limit: 100 });
  const products = async (examId: number) => call('GET', `report-requests/products?examId=${examId}&type=expert`, token);
  for (const exam of page.body.items as { id: number }[]) {
    if (skip.has(exam.id)) continue;
    const offer = await products(exam.id);
    if (offer.status !== 200 || offer.body.blockedBy || offer.body.existingOrderId || !offer.body.products.length) continue;
    const paid = offer.body.products.filter((p: { free: boolean }) => !p.free);
    if (!paid.length) continue;
    const res = await call('POST', 'report-requests/apply', token, { examId: exam.id, type: 'expert', bucketIds: [paid[0].bucketId], agreeTerms: true });
    if (res.status === 201) {
      skip.add(exam.id);
      return { id: res.body.id, examId: exam.id };
    }
  }
  throw new Error('no exam could be applied for');
}

const status = async (token: string, id: number) => (await call('GET', `charge/${id}/payment-status`, token)).body as { paymentStatus: number; charge: { status: string; outTradeNo: string } | null };

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`never: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the charge order is past the reconciler's grace, so the next start's first pass takes it. */
const pastGrace = (since: number) => new Promise((r) => setTimeout(r, Math.max(0, since + GRACE_MS + 500 - Date.now())));

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'crash-data-'));
  if (process.env.DATABASE_URL) fresh = await freshDatabase();
  // A small demo written here (40 exams, no images), so the server's first start finds it and seeds nothing: the
  // default demo's 2,000 exams and 300 images would cost the child most of a minute.
  const database = await openDatabase({ databaseUrl: fresh?.databaseUrl ?? null, dataDir: fresh ? null : dataDir });
  await seedDemo(database.db, { scryptCost: 1024, clock: systemClock, exams: 40 });
  await database.close();
});
afterAll(async () => {
  await stop();
  await fresh?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 between the channel and the settle', () => {
  it('charge-saved → unpaid; before-settle → paid once after restart; in-settle → nothing half, paid once after restart', async () => {
    const used = new Set<number>();
    // 1. Killed right after the charge order is saved: the channel never opened the trade.
    await start('charge-saved');
    let token = await login();
    const a = await apply(token, used);
    const aAt = Date.now();
    await call('GET', `charge/${a.id}/pre-paid-order`, token).catch(() => null);
    expect(await exited()).toBe('SIGKILL');

    // 2. Restarted with the next fault: the reconciler closes A's charge; A is unpaid and can be paid afresh.
    await pastGrace(aAt);
    await start('before-settle');
    token = await login();
    const aStatus = await until(() => status(token, a.id), (s) => s.charge?.status === 'closed');
    expect(aStatus.paymentStatus).toBe(0);
    const b = await apply(token, used);
    const code = await call('GET', `charge/${b.id}/pre-paid-order`, token);
    expect(code.status, JSON.stringify(code.body)).toBe(200);
    const bAt = Date.now();
    const url = new URL(code.body.codeUrl);
    // The payer pays: the sandbox records SUCCESS, notifies the product, and the product dies before settling.
    await fetch(`${base}/api/v1/payments/sandbox/${encodeURIComponent(code.body.outTradeNo)}/pay?s=${encodeURIComponent(url.searchParams.get('s')!)}`, { method: 'POST' }).catch(() => null);
    expect(await exited()).toBe('SIGKILL');

    // 3. Restarted with in-settle: the first reconcile pass (on start) takes B and dies inside the transaction.
    await pastGrace(bAt);
    await start('in-settle', { diesStarting: true });
    expect(await exited()).toBe('SIGKILL');

    // 4. Restarted clean: the reconciler settles B once; A stays unpaid; nothing half.
    await start(null);
    token = await login();
    const bStatus = await until(() => status(token, b.id), (s) => s.paymentStatus === 1);
    expect(bStatus.charge?.status).toBe('paid');
    const detail = (await call('GET', `report-requests/${b.id}`, token)).body;
    expect([detail.paymentStatus, detail.channel, detail.progress]).toEqual([1, 'weixin', 'queued']);
    expect(detail.targets.every((x: { expertExamId: number | null }) => x.expertExamId !== null)).toBe(true);
    expect((await status(token, a.id)).paymentStatus).toBe(0);
    // Paid once: a confirm asks the channel again and changes nothing; A can still be paid afresh.
    expect((await call('POST', `charge/${b.id}/paid-confirm`, token)).body.paymentStatus).toBe(1);
    const again = await call('GET', `charge/${a.id}/pre-paid-order`, token);
    expect([again.status, again.body.status]).toEqual([200, 'created']);
    const orders = await call('POST', 'payments/page-query', token, { filters: [{ field: 'id', operator: 'equal', values: [b.id] }] });
    expect(orders.body.items.map((o: { transactionId: string | null }) => o.transactionId)).toHaveLength(1);
    await stop();
  }, 240_000);
});
