import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import type { ConsultationDetail } from '../../contract/consultations';
import * as t from '../../server/db/schema';
import { insertExam, tokenOf } from './reports';
import type { TestServer } from './server';

/** An exam of the hospital with a report, for a consultation to start from. */
export async function examWithReport(s: TestServer): Promise<{ examId: number; reportId: number }> {
  const [row] = await s.db.db.select({ examId: t.reports.examId, reportId: t.reports.id }).from(t.reports)
    .innerJoin(t.exams, eq(t.exams.id, t.reports.examId))
    .where(and(eq(t.exams.bucketId, s.ids.hospitalId), isNull(t.exams.deletedTime))).limit(1);
  return row!;
}

/** POST consultations as `username` from a fresh exam of the hospital, to the expert centre; the created detail. */
export async function createConsultation(s: TestServer, username = 'rad1', extra: Record<string, unknown> = {}): Promise<ConsultationDetail> {
  const examId = await insertExam(s);
  const res = await s.request('POST', 'consultations', {
    token: await tokenOf(s, username),
    body: { examId, targetBucketId: s.ids.expertCentreId, reason: '肺结节性质待定，请求会诊', members: [{ accountId: s.ids.accounts.expert, role: 'expert' }], ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ConsultationDetail;
}

/** The detail as `username` reads it. */
export async function detailOf(s: TestServer, username: string, id: number): Promise<ConsultationDetail> {
  const res = await s.request('GET', `consultations/${id}`, { token: await tokenOf(s, username) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ConsultationDetail;
}

/** A write as `username`; the answer as the server gave it. */
export async function write(s: TestServer, username: string, method: string, path: string, body?: unknown) {
  return s.request(method, `consultations/${path}`, { token: await tokenOf(s, username), body });
}

export const SOON = (s: TestServer) => new Date(s.clock.now().getTime() + 86_400_000).toISOString();

export type ConsultationFixture = { id: number; version: number; examId: number };

/**
 * A consultation of the hospital to the expert centre, straight in the database, in `status` (a result when discussed
 * or completed): rad1 applied, the expert takes part. For tests that act on one state, not for ones about creating.
 */
export async function consultationIn(s: TestServer, status: 0 | 1 | 2 | 3 | 4, o: { rated?: boolean } = {}): Promise<ConsultationFixture> {
  const examId = await insertExam(s);
  const now = s.clock.now();
  const hasResult = status === 2 || status === 3;
  const [row] = await s.db.db.insert(t.consultations).values({
    appliedBucketId: s.ids.hospitalId, targetBucketId: s.ids.expertCentreId, examId, patientName: '测试患者', reason: '测试会诊',
    status, createdBy: s.ids.accounts.rad1, created: now, version: 3,
    scheduledTime: status === 0 || status === 4 ? null : now,
    conclusion: hasResult ? '<p>结论</p>' : null, resultBy: hasResult ? s.ids.accounts.expert : null, resultAt: hasResult ? now : null,
    cancelReason: status === 4 ? '撤回' : null,
    rating: o.rated ? 4 : null, ratedBy: o.rated ? s.ids.accounts.rad1 : null, ratedAt: o.rated ? now : null,
  }).returning();
  const id = row!.id;
  await s.db.db.insert(t.consultationBuckets).values({ consultationId: id, bucketId: s.ids.expertCentreId });
  await s.db.db.insert(t.consultationMembers).values([
    { consultationId: id, accountId: s.ids.accounts.rad1, role: 'member', created: now },
    { consultationId: id, accountId: s.ids.accounts.expert, role: 'expert', created: now },
  ]);
  await s.db.db.insert(t.consultationExams).values({ consultationId: id, examId, addedBy: s.ids.accounts.rad1, created: now });
  return { id, version: 3, examId };
}
