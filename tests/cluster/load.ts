import { eq, inArray } from 'drizzle-orm';
import * as t from '../../server/db/schema';
import { call, login, type Cluster } from './harness';
import { applyAndPay, callNext, checkIn, newQueue, newReport, saveReport, uploadOne } from './work';

/**
 * A department's mixed load through the balancer, the same for tests/cluster/full.test.ts and bench/cluster.ts: each
 * worker loops over reads (an exam, the worklist page), a report save, a one-file study upload, a credit payment and a
 * queue call. Every answer is kept; every write the server acknowledged (2xx) is written down, so the caller can check
 * afterwards that the database and the bucket hold it.
 */
export type Kind = 'read' | 'list' | 'save' | 'upload' | 'pay' | 'call';
/** GET (and PUT/DELETE) are what nginx may retry on another process; the rest only when nothing was sent. */
export const IDEMPOTENT: ReadonlySet<Kind> = new Set(['read']);

export interface Outcome { kind: Kind; status: number; ms: number; at: number; error?: string }

export interface Acknowledged {
  saves: Map<number, string>;
  uploads: number[];
  payments: number[];
  calls: number;
}

export interface LoadResult { outcomes: Outcome[]; acked: Acknowledged; seconds: number }

export interface Load { done: Promise<LoadResult>; stop(): void }

interface Worker { token: string; uploader: string; chargeToken: string; registrar: string; queue: number; report: { id: number; version: number } }

export async function prepareWorkers(c: Cluster, n: number): Promise<Worker[]> {
  const base = c.url;
  const [rad1, registrar, admin] = [await login(base, 'rad1'), await login(base, 'registrar'), await login(base, 'admin')];
  // Enough credit for every payment of the run.
  await c.database.db.update(t.groupCredits).set({ balanceFen: 1_000_000_000 }).where(eq(t.groupCredits.groupId, c.ids.groupId));
  const permit = await call(base, 'POST', 'credits/create-token', { token: rad1, body: { groupId: c.ids.groupId, password: 'Demo1234' } });
  if (permit.status !== 200) throw new Error(`charge token: ${permit.status}`);
  const workers: Worker[] = [];
  for (let i = 0; i < n; i++) {
    const queue = await newQueue(base, registrar, c.ids.hospitalId);
    // rad1 writes the reports (their creator) and pays; admin uploads (exam_upload).
    workers.push({ token: rad1, uploader: admin, chargeToken: permit.body.chargeToken, registrar, queue, report: await newReport(c, base, rad1) });
  }
  return workers;
}

export function startLoad(c: Cluster, workers: Worker[], o: { seconds: number; base?: string }): Load {
  const base = o.base ?? c.url;
  const outcomes: Outcome[] = [];
  const acked: Acknowledged = { saves: new Map(), uploads: [], payments: [], calls: 0 };
  let stopped = false;
  const started = performance.now();
  const end = started + o.seconds * 1000;
  const running = () => !stopped && performance.now() < end;

  const timed = async (kind: Kind, op: () => Promise<number>) => {
    const t0 = performance.now();
    try {
      const status = await op();
      outcomes.push({ kind, status, ms: performance.now() - t0, at: t0 - started });
    } catch (err) {
      outcomes.push({ kind, status: 0, ms: performance.now() - t0, at: t0 - started, error: (err as Error).message });
    }
  };

  const loop = async (w: Worker, index: number) => {
    let n = 0;
    while (running()) {
      n += 1;
      switch ((n + index) % 6) {
        case 0: await timed('read', async () => (await call(base, 'GET', `reports/${w.report.id}/detail`, { token: w.token })).status); break;
        case 1: await timed('list', async () => (await call(base, 'POST', 'exams/page-query', { token: w.token, body: { limit: 20 } })).status); break;
        case 2: await timed('save', async () => {
          const text = `第 ${n} 次保存 ${index}`;
          const res = await saveReport(base, w.token, w.report, text);
          if (res.status === 200) { w.report.version = res.body.version; acked.saves.set(w.report.id, text); }
          // A save whose answer was lost may have been applied: read the version back before the next one.
          else { const d = await call(base, 'GET', `reports/${w.report.id}/detail`, { token: w.token }); if (d.status === 200) w.report.version = d.body.version ?? d.body.report?.version ?? w.report.version; }
          return res.status;
        }); break;
        case 3: await timed('upload', async () => {
          const up = await uploadOne(base, base, w.uploader, c.ids.hospitalId);
          if (up.status === 200) acked.uploads.push(up.examId);
          return up.status;
        }); break;
        case 4: await timed('pay', async () => {
          const paid = await applyAndPay(c, base, w.token, w.chargeToken);
          if (paid.status === 200) acked.payments.push(paid.orderId);
          return paid.status;
        }); break;
        default: await timed('call', async () => {
          await checkIn(c, base, w.registrar, w.queue).catch(() => undefined);
          const res = await callNext(base, w.registrar, w.queue);
          if (res.status === 200) acked.calls += 1;
          return res.status;
        });
      }
    }
  };

  const done = Promise.all(workers.map((w, i) => loop(w, i))).then(() => ({ outcomes, acked, seconds: (performance.now() - started) / 1000 }));
  return { done, stop: () => { stopped = true; } };
}

/** Checks every acknowledged write against the database and the bucket; answers what is missing (empty = none). */
export async function missingWrites(c: Cluster, acked: Acknowledged): Promise<string[]> {
  const db = c.database.db;
  const missing: string[] = [];
  for (const [id, text] of acked.saves) {
    const [row] = await db.select({ finding: t.reports.finding }).from(t.reports).where(eq(t.reports.id, id));
    // The last acknowledged save is there, or a later one whose answer was lost (never an older one).
    if (!row || !row.finding.includes('次保存')) missing.push(`report ${id}: ${text}`);
    else if (parseInt(/第 (\d+) 次/.exec(row.finding)![1]!, 10) < parseInt(/第 (\d+) 次/.exec(text)![1]!, 10)) missing.push(`report ${id}: ${row.finding} older than ${text}`);
  }
  if (acked.uploads.length) {
    const rows = await db.select({ examId: t.dicomInstances.examId, key: t.dicomInstances.storageKey }).from(t.dicomInstances).where(inArray(t.dicomInstances.examId, acked.uploads));
    const byExam = new Map(rows.map((r) => [r.examId, r.key]));
    for (const examId of acked.uploads) {
      const key = byExam.get(examId);
      if (!key) { missing.push(`upload of exam ${examId}: no instance row`); continue; }
      if (!(await c.storage.head(key))) missing.push(`upload of exam ${examId}: ${key} not in the bucket`);
    }
  }
  if (acked.payments.length) {
    const rows = await db.select({ id: t.reportOrders.id, paid: t.reportOrders.paymentStatus }).from(t.reportOrders).where(inArray(t.reportOrders.id, acked.payments));
    const paid = new Set(rows.filter((r) => r.paid !== 0).map((r) => r.id));
    for (const id of acked.payments) if (!paid.has(id)) missing.push(`payment of order ${id}`);
  }
  return missing;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Failed = the client saw an error: no answer, or a 5xx (nginx's 502 when it could not retry). */
export const failed = (o: Outcome) => o.status === 0 || o.status >= 500;
