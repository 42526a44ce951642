import { eq } from 'drizzle-orm';
import type { ReportStatus } from '../../contract/reports';
import * as t from '../../server/db/schema';
import type { DemoUsername } from '../../server/seed/demo';
import type { TestServer } from './server';

/** Tokens per server and user: signing in once per file is enough. */
const tokenCache = new WeakMap<TestServer, Map<string, Promise<string>>>();
export function tokenOf(s: TestServer, username: DemoUsername | string): Promise<string> {
  let byUser = tokenCache.get(s);
  if (!byUser) tokenCache.set(s, (byUser = new Map()));
  if (!byUser.has(username)) byUser.set(username, s.login(username));
  return byUser.get(username)!;
}

let serial = 0;

/** A new exam without a report, straight in the database (exams arrive by upload or registry, not by this area). */
export async function insertExam(s: TestServer, o: {
  bucketId?: number; hasImage?: boolean; patientId?: string; modality?: string; examTime?: Date; targetBucketId?: number | null;
} = {}): Promise<number> {
  serial += 1;
  const [row] = await s.db.db.insert(t.exams).values({
    bucketId: o.bucketId ?? s.ids.hospitalId,
    targetBucketId: o.targetBucketId ?? null,
    patientName: '测试患者', patientId: o.patientId ?? `T${Date.now().toString(36)}${serial}`,
    modality: o.modality ?? 'CT', bodyPart: '胸部', hasImage: o.hasImage ?? true,
    examTime: o.examTime ?? s.clock.now(), created: s.clock.now(),
  }).returning({ id: t.exams.id });
  return row!.id;
}

export interface ReportRef {
  id: number;
  examId: number;
  version: number;
}

/** POST reports/{id}/{action} as `username`; the answer as the server gave it. */
export async function act(s: TestServer, username: string, report: { id: number }, action: string, body: Record<string, unknown> = {}) {
  return s.request('POST', `reports/${report.id}/${action}`, { token: await tokenOf(s, username), body });
}

/** The report as `username` sees it. */
export async function detail(s: TestServer, username: string, id: number) {
  return s.request('GET', `reports/${id}/detail`, { token: await tokenOf(s, username) });
}

async function step(s: TestServer, username: string, ref: ReportRef, action: string, body: Record<string, unknown> = {}): Promise<ReportRef> {
  const res = await act(s, username, ref, action, { version: ref.version, ...body });
  if (res.status !== 200) throw new Error(`${username} ${action} on report ${ref.id}: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...ref, version: res.body.version };
}

export const FINDING = '<p>双肺纹理清晰，走行自然，肺野内未见明显实变影。</p>';
export const DIAGNOSIS = '<p>胸部未见明显异常。</p>';

export type Fixture = ReportStatus | 'deleted' | 'assigned';

/**
 * A fresh report of a fresh exam, brought to `status` through the real API by the demo users:
 * rad1 writes (creator), chief approves, rad2 advises. `locked` is a saved draft that rad1 holds.
 */
export async function reportIn(s: TestServer, status: Fixture, o: { examId?: number } = {}): Promise<ReportRef> {
  const examId = o.examId ?? (await insertExam(s));
  const created = await s.request('POST', `exams/${examId}/reports`, { token: await tokenOf(s, 'rad1') });
  if (created.status !== 201 && created.status !== 200) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  let ref: ReportRef = { id: created.body.id, examId, version: created.body.version };
  if (status === 'none') return ref;
  ref = await step(s, 'rad1', ref, 'save', { finding: FINDING, diagnosis: DIAGNOSIS });
  switch (status) {
    case 'partial': return ref;
    case 'locked': return step(s, 'rad1', ref, 'lock');
    case 'deleted': return step(s, 'rad1', ref, 'delete');
    case 'assigned': return step(s, 'chief', ref, 'assign', { accountId: s.ids.accounts.rad1 });
    default: break;
  }
  ref = await step(s, 'rad1', ref, 'submit');
  switch (status) {
    case 'final': return ref;
    case 'hold': return step(s, 'chief', ref, 'reject', { reason: '结论不完整' });
    case 'advised': return step(s, 'rad2', ref, 'advise', { reason: '建议补充纵隔描述' });
    default: break;
  }
  ref = await step(s, 'chief', ref, 'approve');
  switch (status) {
    case 'corrected': return ref;
    case 'printed': return step(s, 'rad1', ref, 'print');
    case 'cancelled': return step(s, 'chief', ref, 'recall', { reason: '患者信息有误' });
    default: throw new Error(`no fixture for ${status}`);
  }
}

/** The row as stored, for assertions the API does not show (or to check nothing changed). */
export async function reportRow(s: TestServer, id: number) {
  const [row] = await s.db.db.select().from(t.reports).where(eq(t.reports.id, id));
  return row!;
}

export async function examRow(s: TestServer, id: number) {
  const [row] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, id));
  return row!;
}

export async function tracesOf(s: TestServer, reportId: number) {
  return s.db.db.select().from(t.reportTraces).where(eq(t.reportTraces.reportId, reportId)).orderBy(t.reportTraces.id);
}
