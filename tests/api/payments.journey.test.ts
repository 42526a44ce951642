import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportOrderDetail } from '../../contract/payments';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { payByCredit } from '../support/money';
import { DIAGNOSIS, FINDING, insertExam, tokenOf } from '../support/reports';
import { apply, examWithImages, expertBucket } from '../support/requests';
import { startServer, type TestServer } from '../support/server';

/**
 * Issue 32 "every journey reaches its end", the expert request's: a paid expert report reaches the person who paid (the
 * demo centre issues on submit; an organisation with approvers says whose approval it waits for), one open request per
 * exam and expert organisation (ExpertRequestOpen: no double billing), and no request for an exam with nothing to read
 * (ExamNotReportable).
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const get = async (role: string, path: string) => s.request('GET', path, { token: await tokenOf(s, role) });
const post = async (role: string, path: string, body?: unknown) => s.request('POST', path, { token: await tokenOf(s, role), body });
const detail = async (id: number): Promise<ReportOrderDetail> => (await get('rad1', `report-requests/${id}`)).body;

async function paidOrder(bucketIds = [s.ids.expertCentreId]): Promise<ReportOrderDetail> {
  const examId = await examWithImages(s);
  const res = await apply(s, 'rad1', { examId, type: 'expert', bucketIds, agreeTerms: true });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const paid = await payByCredit(s, res.body.id);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return paid.body as ReportOrderDetail;
}

/** The expert opens the copy's report, saves and submits it: the submit's answer. */
async function expertSubmits(copyExamId: number) {
  const created = await post('expert', `exams/${copyExamId}/reports`);
  expect([200, 201]).toContain(created.status);
  const saved = await post('expert', `reports/${created.body.id}/save`, { version: created.body.version, finding: FINDING, diagnosis: DIAGNOSIS });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return post('expert', `reports/${created.body.id}/submit`, { version: saved.body.version });
}

describe('a paid expert report reaches the person who paid', () => {
  it('the demo expert centre issues on submit: rad1 reads the expert\'s report, approved by the expert', async () => {
    const order = await paidOrder();
    const copy = order.targets[0]!.expertExamId!;
    expect((await detail(order.id)).targets[0]!.waiting).toEqual({ step: 'writing', names: [] });

    const submitted = await expertSubmits(copy);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.status).toBe('corrected');
    expect(submitted.body.transitions).not.toContain('cancelSubmit');

    const after = await detail(order.id);
    expect(after.progress).toBe('reported');
    const target = after.targets[0]!;
    expect(target.waiting).toBeNull();
    expect(target.report).toMatchObject({ status: 'corrected', approverName: '刘志远' });
    expect(target.report!.approvedAt).not.toBeNull();

    // The trace says what happened: one submit, from the draft straight to issued.
    const [trace] = await s.db.db.select().from(t.reportTraces).where(eq(t.reportTraces.reportId, target.report!.id)).orderBy(t.reportTraces.id).then((r) => r.slice(-1));
    expect(trace).toMatchObject({ action: 'submit', fromStatus: 'partial', toStatus: 'corrected' });
  });

  it('with the switch off the submit waits for approval, and the order names whose (audited switch)', async () => {
    const patch = await s.request('PATCH', `buckets/${s.ids.expertCentreId}`, { token: await tokenOf(s, 'admin'), body: { reportFinalOnSubmit: false } });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expect(patch.body.reportFinalOnSubmit).toBe(false);
    const trail = await auditTrail(s.db.db, 'bucket', s.ids.expertCentreId);
    expect(trail.at(-1)).toMatchObject({ action: 'settings', before: { reportFinalOnSubmit: true }, after: { reportFinalOnSubmit: false } });
    try {
      const order = await paidOrder();
      const submitted = await expertSubmits(order.targets[0]!.expertExamId!);
      expect(submitted.body.status).toBe('final');
      expect(submitted.body.transitions).toContain('cancelSubmit');
      const waiting = (await detail(order.id)).targets[0]!.waiting;
      // The centre's admin may approve; the expert, who wrote it, never approves their own report.
      const [admin] = await s.db.db.select({ name: t.accounts.name }).from(t.accounts).where(eq(t.accounts.id, s.ids.accounts.admin));
      expect(waiting).toEqual({ step: 'approval', names: [admin!.name] });
    } finally {
      await s.request('PATCH', `buckets/${s.ids.expertCentreId}`, { token: await tokenOf(s, 'admin'), body: { reportFinalOnSubmit: true } });
    }
  });

  it('an expert organisation where nobody else may approve says so (an empty list)', async () => {
    const lone = await expertBucket(s, { free: false, priceFen: 3000 });
    await s.db.db.insert(t.bucketMembers).values({ bucketId: lone, accountId: s.ids.accounts.expert, accessLevel: 'contentManager' });
    const order = await paidOrder([lone]);
    const submitted = await expertSubmits(order.targets[0]!.expertExamId!);
    expect(submitted.body.status).toBe('final');
    expect((await detail(order.id)).targets[0]!.waiting).toEqual({ step: 'approval', names: [] });
  });
});

describe('one open request per exam and expert organisation', () => {
  it('refuses a second request to the same organisation while one is open, names it, and allows it again once withdrawn', async () => {
    const examId = await examWithImages(s);
    const first = await apply(s, 'rad1', { examId, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true });
    expect(first.status).toBe(201);
    expect((await payByCredit(s, first.body.id)).status).toBe(200);

    const again = await s.request('POST', 'request/apply', { token: await tokenOf(s, 'rad1'), body: { examId, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true } });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body).toMatchObject({ code: 'ExpertRequestOpen', details: { orderId: first.body.id, bucketIds: [s.ids.expertCentreId] } });

    const products = await get('rad1', `report-requests/products?examId=${examId}&type=expert`);
    expect(products.body.products.find((p: { bucketId: number }) => p.bucketId === s.ids.expertCentreId).openOrderId).toBe(first.body.id);

    // Another organisation may still be asked about the same exam.
    const other = await expertBucket(s, { free: false, priceFen: 2000 });
    expect((await apply(s, 'rad1', { examId, type: 'expert', bucketIds: [other], agreeTerms: true })).status).toBe(201);
    // …but not together with the one already asked.
    expect((await apply(s, 'rad1', { examId, type: 'expert', bucketIds: [other, s.ids.expertCentreId], agreeTerms: true })).body.code).toBe('ExpertRequestOpen');

    // An unpaid open request counts too; withdrawing it frees the organisation.
    const unpaidExam = await examWithImages(s);
    const unpaid = await apply(s, 'rad1', { examId: unpaidExam, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true });
    expect((await apply(s, 'rad1', { examId: unpaidExam, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true })).body.code).toBe('ExpertRequestOpen');
    expect((await s.request('DELETE', `report-requests/${unpaid.body.id}`, { token: await tokenOf(s, 'rad1') })).status).toBe(200);
    expect((await apply(s, 'rad1', { examId: unpaidExam, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true })).status).toBe(201);
  });
});

describe('an exam with nothing to read is not sold', () => {
  it('refuses a booked registry line without images, and says so in products; a performed one without images may be asked', async () => {
    const booked = await insertExam(s, { hasImage: false });
    await s.db.db.update(t.exams).set({ examStatus: 'Registered' }).where(eq(t.exams.id, booked));
    const products = await get('rad1', `report-requests/products?examId=${booked}&type=expert`);
    expect(products.body.blockedBy).toBe('ExamNotReportable');
    const res = await apply(s, 'rad1', { examId: booked, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe('ExamNotReportable');
    const remote = await post('rad1', 'report-requests/apply-remote-report', { examId: booked, agreeTerms: true });
    expect(remote.body.code).toBe('ExamNotReportable');

    await s.db.db.update(t.exams).set({ examStatus: 'Performed' }).where(eq(t.exams.id, booked));
    expect((await get('rad1', `report-requests/products?examId=${booked}&type=expert`)).body.blockedBy).toBeNull();
    expect((await apply(s, 'rad1', { examId: booked, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true })).status).toBe(201);
  });
});
