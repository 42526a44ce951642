import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportOrderDetail } from '../../contract/payments';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { dispatchOrder, removeExpertWork } from '../../server/payments/requests/dispatch';
import { expectCode } from '../support/expect';
import { createAccount, createGroup } from '../support/accounts';
import { payByCredit } from '../support/money';
import { DIAGNOSIS, examRow, FINDING, reportIn, tokenOf } from '../support/reports';
import { apply, examWithImages, expertBucket, leftovers, targetsOf } from '../support/requests';
import { startServer, type TestServer } from '../support/server';

/**
 * The requests side of payments (/work/notes/payments.md "Requests"): products, applying (areas §5 "Expert
 * application", core §4 remote report), the copies a payment dispatches and what a refund or withdrawal takes back,
 * the request detail with the experts' approved reports, the order list and its export. rad1 (hospital) applies to
 * the expert centre; the expert writes on the copy and the centre's admin approves it.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  // These tests walk the two-person path (the expert submits, the centre's admin approves): the demo centre's issue on
  // submit is switched off here; tests/api/payments.journey.test.ts covers it.
  await s.db.db.update(t.buckets).set({ reportFinalOnSubmit: false }).where(eq(t.buckets.id, s.ids.expertCentreId));
});
afterAll(async () => { await s.close(); });

const get = async (role: string, path: string) => s.request('GET', path, { token: await tokenOf(s, role) });
const post = async (role: string, path: string, body?: unknown) => s.request('POST', path, { token: await tokenOf(s, role), body });
const del = async (role: string, path: string) => s.request('DELETE', path, { token: await tokenOf(s, role) });
const centreProductFen = async (modality: string) => {
  const rows = await s.db.db.select().from(t.expertProducts).where(eq(t.expertProducts.bucketId, s.ids.expertCentreId));
  return (rows.find((p) => p.modality === modality) ?? rows.find((p) => p.modality === null))!.priceFen;
};

async function applied(role = 'rad1', o: { modality?: string; bucketIds?: number[] } = {}): Promise<ReportOrderDetail> {
  const examId = await examWithImages(s, { modality: o.modality });
  const res = await apply(s, role, { examId, type: 'expert', bucketIds: o.bucketIds ?? [s.ids.expertCentreId], agreeTerms: true, reason: '疑难病例' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ReportOrderDetail;
}

async function paid(o: { modality?: string } = {}): Promise<ReportOrderDetail> {
  const order = await applied('rad1', o);
  const res = await payByCredit(s, order.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportOrderDetail;
}

/** The expert writes (save + submit) on the copy through the report API; `approve`: the centre's admin approves. */
async function expertWrites(copyExamId: number, approve: boolean) {
  const created = await post('expert', `exams/${copyExamId}/reports`);
  expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
  let version = created.body.version as number;
  const id = created.body.id as number;
  const steps: [string, string, Record<string, unknown>][] = [['expert', 'save', { finding: FINDING, diagnosis: DIAGNOSIS }], ['expert', 'submit', {}]];
  if (approve) steps.push(['admin', 'approve', {}]);
  for (const [role, action, body] of steps) {
    const res = await post(role, `reports/${id}/${action}`, { version, ...body });
    expect(res.status, `${action} ${JSON.stringify(res.body)}`).toBe(200);
    version = res.body.version;
  }
  return id;
}

describe('products', () => {
  it('lists the group\'s expert organisations with the price for the exam\'s modality, the default one for remote', async () => {
    const examId = await examWithImages(s, { modality: 'CT' });
    const res = await get('rad1', `report-requests/products?examId=${examId}&type=expert`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const centre = res.body.products.find((p: { bucketId: number }) => p.bucketId === s.ids.expertCentreId);
    expect(centre).toMatchObject({ free: false, priceFen: await centreProductFen('CT') });
    expect(res.body).toMatchObject({ examId, type: 'expert', defaultBucketId: s.ids.expertCentreId, blockedBy: null, existingOrderId: null });
    const remote = await get('rad1', `report-requests/products?examId=${examId}&type=remote`);
    expect(remote.body.products.map((p: { bucketId: number }) => p.bucketId)).toEqual([s.ids.expertCentreId]);
  });

  it('names a live request (existingOrderId) and why a remote one is blocked', async () => {
    const order = await applied();
    const res = await get('rad1', `report-requests/products?examId=${order.examId}&type=expert`);
    expect(res.body.existingOrderId).toBe(order.id);
    const remoteExam = await examWithImages(s);
    expect((await post('rad1', 'report-requests/apply-remote-report', { examId: remoteExam, agreeTerms: true })).status).toBe(201);
    expect((await get('rad1', `report-requests/products?examId=${remoteExam}&type=remote`)).body.blockedBy).toBe('RemoteReportRequested');
    const written = await reportIn(s, 'partial');
    expect((await get('rad1', `report-requests/products?examId=${written.examId}&type=remote`)).body.blockedBy).toBe('ReportWritingBegun');
  });

  it('bad input 400, outside 404, without the action 403', async () => {
    expectCode(await get('rad1', 'report-requests/products?examId=x'), 400, 'ParamsError');
    expectCode(await get('rad1', 'report-requests/products?examId=1&type=other'), 400, 'ParamsError');
    const other = await createGroup(s);
    const foreign = await examWithImages(s);
    await s.db.db.update(t.exams).set({ bucketId: other.bucketId }).where(eq(t.exams.id, foreign));
    expectCode(await get('rad1', `report-requests/products?examId=${foreign}`), 404, 'NotFound');
    const examId = await examWithImages(s);
    expectCode(await get('tech', `report-requests/products?examId=${examId}`), 403, 'Forbidden');
  });
});

describe('apply (areas §5 expert application)', () => {
  it('creates the application: 201, request number, amount, awaiting payment, nothing sent yet, traced', async () => {
    const o = await applied('rad1', { modality: 'CT' });
    expect(o.requestNo).toMatch(new RegExp(`^R\\d{8}${String(o.id).padStart(6, '0')}$`));
    expect(o).toMatchObject({ type: 'expert', paymentStatus: 0, progress: 'awaiting_payment', amountFen: await centreProductFen('CT'), fromBucketId: s.ids.hospitalId });
    expect(o.transitions).toEqual(expect.arrayContaining(['pay', 'withdraw']));
    expect(o.targets).toMatchObject([{ bucketId: s.ids.expertCentreId, expertExamId: null, report: null }]);
    expect(o.credit).toMatchObject({ enabled: true });
    expect((await auditTrail(s.db.db, 'reportOrder', o.id)).map((e) => e.action)).toEqual(['apply']);
    expect((await examRow(s, o.examId)).teleMedFlag).toBe(false);
  });

  it('terms must be agreed: TermsNotAgreed (400)', async () => {
    const examId = await examWithImages(s);
    expectCode(await apply(s, 'rad1', { examId, bucketIds: [s.ids.expertCentreId], agreeTerms: false }), 400, 'TermsNotAgreed');
  });

  it('at least one organisation, each one the group offers: ExpertTargetInvalid (400)', async () => {
    const examId = await examWithImages(s);
    expectCode(await apply(s, 'rad1', { examId, bucketIds: [], agreeTerms: true }), 400, 'ExpertTargetInvalid');
    const other = await createGroup(s);
    expectCode(await apply(s, 'rad1', { examId, bucketIds: [other.bucketId], agreeTerms: true }), 400, 'ExpertTargetInvalid');
    // The hospital is not an expert organisation of the group.
    expectCode(await apply(s, 'rad1', { examId, bucketIds: [s.ids.hospitalId], agreeTerms: true }), 400, 'ExpertTargetInvalid');
  });

  it('paid and free never mixed: ExpertTargetsMixed (400); an organisation selling nothing: OrderInvalid (400)', async () => {
    const free = await expertBucket(s, { free: true });
    const examId = await examWithImages(s);
    expectCode(await apply(s, 'rad1', { examId, bucketIds: [s.ids.expertCentreId, free], agreeTerms: true }), 400, 'ExpertTargetsMixed');
    const silent = await expertBucket(s, { free: false, priceFen: null });
    expectCode(await apply(s, 'rad1', { examId, bucketIds: [silent], agreeTerms: true }), 400, 'OrderInvalid');
  });

  it('several paid organisations: the amount is the sum, one copy each once paid', async () => {
    const second = await expertBucket(s, { free: false, priceFen: 1234 });
    const o = await applied('rad1', { modality: 'CT', bucketIds: [s.ids.expertCentreId, second] });
    expect(o.amountFen).toBe(await centreProductFen('CT') + 1234);
    expect((await payByCredit(s, o.id)).status).toBe(200);
    const targets = await targetsOf(s, o.id);
    expect(targets.every((x) => x.expertExamId !== null)).toBe(true);
    expect(new Set(targets.map((x) => x.expertExamId)).size).toBe(2);
  });

  it('all free: paid at once with channel free, and sent', async () => {
    const free = await expertBucket(s, { free: true });
    const examId = await examWithImages(s);
    const res = await apply(s, 'rad1', { examId, bucketIds: [free], agreeTerms: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ amountFen: 0, paymentStatus: 1, channel: 'free', progress: 'queued' });
    expect(res.body.targets[0].expertExamId).toEqual(expect.any(Number));
    expect((await examRow(s, examId)).teleMedFlag).toBe(true);
  });

  it('every bad input is 400 ParamsError (never 500)', async () => {
    const examId = await examWithImages(s);
    const base = { examId, bucketIds: [s.ids.expertCentreId], agreeTerms: true };
    for (const body of [
      {}, { ...base, examId: 'x' }, { ...base, examId: 0 }, { ...base, agreeTerms: 'yes' }, { ...base, type: 'other' }, { ...base, bucketIds: 'x' },
      { ...base, bucketIds: [0] }, { ...base, bucketIds: Array.from({ length: 11 }, (_, i) => i + 1) }, { ...base, email: 'not-an-email' },
      { ...base, mobile: 'abc' }, { ...base, reason: 'x'.repeat(1001) }, { ...base, extra: 1 }, { ...base, reason: 'a\u0000b' },
    ]) expectCode(await apply(s, 'rad1', body), 400, 'ParamsError');
    expectCode(await post('rad1', 'report-requests/apply-remote-report', { examId, agreeTerms: true, bucketIds: [] }), 400, 'ParamsError');
  });

  it('outside the account\'s organisations 404, without the applying action 403', async () => {
    const other = await createGroup(s);
    const foreign = await examWithImages(s);
    await s.db.db.update(t.exams).set({ bucketId: other.bucketId }).where(eq(t.exams.id, foreign));
    expectCode(await apply(s, 'rad1', { examId: foreign, bucketIds: [s.ids.expertCentreId], agreeTerms: true }), 404, 'NotFound');
    expectCode(await apply(s, 'rad1', { examId: 2_000_000_000, bucketIds: [s.ids.expertCentreId], agreeTerms: true }), 404, 'NotFound');
    const examId = await examWithImages(s);
    expectCode(await apply(s, 'tech', { examId, bucketIds: [s.ids.expertCentreId], agreeTerms: true }), 403, 'Forbidden');
    // apply_expert_report without apply_remote_report: expert yes, remote no.
    const only = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['apply_expert_report'] }] });
    expect((await apply(s, only.username, { examId, bucketIds: [s.ids.expertCentreId], agreeTerms: true })).status).toBe(201);
    expectCode(await post(only.username, 'report-requests/apply-remote-report', { examId, agreeTerms: true }), 403, 'Forbidden');
  });

  it('an expert copy cannot itself be sent: OrderInvalid', async () => {
    const o = await paid();
    const copy = o.targets[0]!.expertExamId!;
    expectCode(await apply(s, 'admin', { examId: copy, bucketIds: [s.ids.expertCentreId], agreeTerms: true }), 400, 'OrderInvalid');
  });

  it('Idempotency-Key: a repeat gives the first answer, one application', async () => {
    const examId = await examWithImages(s);
    const body = { examId, bucketIds: [s.ids.expertCentreId], agreeTerms: true };
    const a = await apply(s, 'rad1', body, { 'idempotency-key': `apply-${examId}` });
    const b = await apply(s, 'rad1', body, { 'idempotency-key': `apply-${examId}` });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).toBe(a.body.id);
    expect((await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.examId, examId))).length).toBe(1);
  });
});

describe('remote report (core §4: once, only before writing has begun)', () => {
  it('goes to the group\'s default expert organisation; once per exam; the remote-report call finds it', async () => {
    const examId = await examWithImages(s);
    expect((await get('rad1', `report-requests/remote-report?examId=${examId}`)).body).toBeNull();
    const res = await post('rad1', 'report-requests/apply-remote-report', { examId, agreeTerms: true, reason: '夜间急诊' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ type: 'remote', targets: [{ bucketId: s.ids.expertCentreId }] });
    expectCode(await post('rad1', 'report-requests/apply-remote-report', { examId, agreeTerms: true }), 409, 'RemoteReportRequested');
    expectCode(await apply(s, 'rad2', { examId, type: 'remote', agreeTerms: true }), 409, 'RemoteReportRequested');
    expect((await get('rad1', `report-requests/remote-report?examId=${examId}`)).body.id).toBe(res.body.id);
    expect((await payByCredit(s, res.body.id)).status).toBe(200);
    const exam = await examRow(s, examId);
    expect([exam.isRemoteReportRequested, exam.teleMedFlag, exam.targetBucketId]).toEqual([true, false, s.ids.expertCentreId]);
  });

  it('refused once writing has begun on the exam: ReportWritingBegun (409); terms first', async () => {
    const written = await reportIn(s, 'partial');
    expectCode(await post('rad1', 'report-requests/apply-remote-report', { examId: written.examId, agreeTerms: true }), 409, 'ReportWritingBegun');
    expectCode(await post('rad1', 'report-requests/apply-remote-report', { examId: written.examId, agreeTerms: false }), 400, 'TermsNotAgreed');
    // An empty shell is not writing.
    const shell = await reportIn(s, 'none');
    expect((await post('rad1', 'report-requests/apply-remote-report', { examId: shell.examId, agreeTerms: true })).status).toBe(201);
  });

  it('withdrawing needs a new application, which is then allowed', async () => {
    const examId = await examWithImages(s);
    const first = await post('rad1', 'report-requests/apply-remote-report', { examId, agreeTerms: true });
    expect((await del('rad1', `report-requests/${first.body.id}`)).body.progress).toBe('withdrawn');
    expect((await get('rad1', `report-requests/remote-report?examId=${examId}`)).body).toBeNull();
    const second = await post('rad1', 'report-requests/apply-remote-report', { examId, agreeTerms: true });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('two remote applications at once: one 201, the other RemoteReportRequested', async () => {
    const examId = await examWithImages(s);
    const [a, b] = await Promise.all([1, 2].map(async () => post('rad1', 'report-requests/apply-remote-report', { examId, agreeTerms: true })));
    expect([a!.status, b!.status].sort()).toEqual([201, 409]);
  });

  it('the remote-report call: 400 bad id, 404 outside, 403 without any order action or exam_get', async () => {
    expectCode(await get('rad1', 'report-requests/remote-report?examId=abc'), 400, 'ParamsError');
    const other = await createGroup(s);
    const foreign = await examWithImages(s);
    await s.db.db.update(t.exams).set({ bucketId: other.bucketId }).where(eq(t.exams.id, foreign));
    expectCode(await get('rad1', `report-requests/remote-report?examId=${foreign}`), 404, 'NotFound');
    expectCode(await get('registrar', `report-requests/remote-report?examId=${await examWithImages(s)}`), 403, 'Forbidden');
  });
});

describe('dispatch: the copies', () => {
  it('paying makes one copy per target in the expert organisation, with the instances, once', async () => {
    const o = await paid();
    const [target] = await targetsOf(s, o.id);
    const copy = await examRow(s, target!.expertExamId!);
    const original = await examRow(s, o.examId);
    expect(copy).toMatchObject({
      bucketId: s.ids.expertCentreId, targetBucketId: s.ids.expertCentreId, teleMedFlag: true, orderId: o.requestNo, hasImage: original.hasImage,
      patientName: original.patientName, patientId: original.patientId, modality: original.modality, reportId: null, reportStatus: null,
    });
    expect([original.teleMedFlag, original.targetBucketId]).toEqual([true, s.ids.expertCentreId]);
    const instances = async (examId: number) => s.db.db.select().from(t.dicomInstances).where(eq(t.dicomInstances.examId, examId)).orderBy(t.dicomInstances.sopInstanceUid);
    const [mine, theirs] = [await instances(o.examId), await instances(copy.id)];
    expect(theirs.map((i) => [i.sopInstanceUid, i.storageKey, i.bucketId])).toEqual(mine.map((i) => [i.sopInstanceUid, i.storageKey, s.ids.expertCentreId]));
    // A repeat of the dispatch changes nothing.
    await s.db.db.transaction(async (tx) => dispatchOrder(tx as never, o.id, s.clock.now()));
    expect((await targetsOf(s, o.id))[0]!.expertExamId).toBe(copy.id);
    expect((await s.db.db.select().from(t.exams).where(eq(t.exams.orderId, o.requestNo))).length).toBe(1);
  });

  it('the expert sees the copy in the worklist, writes and approves on it; the applicant reads the report; progress derived', async () => {
    const o = await paid();
    const copyId = o.targets[0]!.expertExamId!;
    const list = await post('expert', 'exams/page-query', { filters: [{ field: 'id', operator: 'equal', values: [copyId] }] });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.items.map((e: { id: number; reportSource: string }) => [e.id, e.reportSource])).toEqual([[copyId, 'expert']]);
    // Its images: the copy's instance rows, the same stored files.
    const series = await get('expert', `exams/${copyId}/series`);
    expect(series.status, JSON.stringify(series.body)).toBe(200);
    const [instance] = await s.db.db.select().from(t.dicomInstances).where(eq(t.dicomInstances.examId, o.examId)).limit(1);
    expect(JSON.stringify(series.body)).toContain(instance!.seriesInstanceUid);
    // The hospital does not see the centre's copy.
    expect((await post('rad1', 'exams/page-query', { filters: [{ field: 'id', operator: 'equal', values: [copyId] }] })).body.items).toEqual([]);
    expect((await get('rad1', `report-requests/${o.id}`)).body.progress).toBe('queued');
    const reportId = await expertWrites(copyId, false);
    const reporting = (await get('rad1', `report-requests/${o.id}`)).body as ReportOrderDetail;
    expect(reporting.progress).toBe('reporting');
    expect(reporting.targets[0]!.report).toBeNull();
    expect(reporting.transitions).not.toContain('withdraw');
    const approve = await post('admin', `reports/${reportId}/approve`, { version: (await get('expert', `reports/${reportId}/detail`)).body.version });
    expect(approve.status, JSON.stringify(approve.body)).toBe(200);
    const done = (await get('rad1', `report-requests/${o.id}`)).body as ReportOrderDetail;
    expect(done.progress).toBe('reported');
    expect(done.targets[0]).toMatchObject({ progress: 'reported', report: { id: reportId, status: 'corrected', findings: FINDING, conclusion: DIAGNOSIS, approverName: expect.any(String) } });
    // The target side reads the request too (not the credit); orders/{id} is the same detail.
    const expertView = await get('expert', `orders/${o.id}`);
    expect(expertView.status).toBe(200);
    expect(expertView.body.credit).toBeNull();
  });

  it('removeExpertWork leaves nothing of the copies and restores the original exam', async () => {
    const o = await paid();
    const copyId = o.targets[0]!.expertExamId!;
    const reportId = await expertWrites(copyId, true);
    await s.db.db.insert(t.reportShares).values({ id: `share-${reportId}`, reportId, bucketId: s.ids.expertCentreId, createdBy: s.ids.accounts.expert, expiresAt: new Date(s.clock.now().getTime() + 86_400_000) });
    // A consultation the centre opened on the copy and its report.
    const [consultation] = await s.db.db.insert(t.consultations).values({
      appliedBucketId: s.ids.expertCentreId, targetBucketId: s.ids.hospitalId, patientName: '测试患者', reason: '讨论', createdBy: s.ids.accounts.expert, examId: copyId, reportId,
    }).returning();
    await s.db.db.insert(t.consultationExams).values({ consultationId: consultation!.id, examId: copyId, addedBy: s.ids.accounts.expert });
    await s.db.db.transaction(async (tx) => removeExpertWork(tx as never, o.id));
    expect((await s.db.db.select().from(t.consultations).where(eq(t.consultations.id, consultation!.id))).length).toBe(0);
    expect(await leftovers(s, [copyId])).toEqual({ exams: 0, instances: 0, reports: 0 });
    expect((await s.db.db.select().from(t.reportTraces).where(eq(t.reportTraces.reportId, reportId))).length).toBe(0);
    expect((await s.db.db.select().from(t.reportShares).where(eq(t.reportShares.reportId, reportId))).length).toBe(0);
    const original = await examRow(s, o.examId);
    expect([original.teleMedFlag, original.isRemoteReportRequested, original.targetBucketId]).toEqual([false, false, null]);
    expect((await s.db.db.select().from(t.dicomInstances).where(eq(t.dicomInstances.examId, o.examId))).length).toBe(3);
  });
  it('two applications of one exam: removing one keeps the flags the other needs; removing both restores the original', async () => {
    const examId = await examWithImages(s);
    const ids: number[] = [];
    // Two organisations: one organisation is asked once while its request is open (ExpertRequestOpen).
    const other = await expertBucket(s, { free: false, priceFen: 1500 });
    for (const bucketId of [other, s.ids.expertCentreId]) {
      const res = await apply(s, 'rad1', { examId, bucketIds: [bucketId], agreeTerms: true });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await payByCredit(s, res.body.id)).status).toBe(200);
      ids.push(res.body.id);
    }
    const flags = async () => { const e = await examRow(s, examId); return [e.teleMedFlag, e.targetBucketId]; };
    await s.db.db.transaction(async (tx) => removeExpertWork(tx as never, ids[0]!));
    expect(await flags()).toEqual([true, s.ids.expertCentreId]);
    await s.db.db.transaction(async (tx) => removeExpertWork(tx as never, ids[1]!));
    expect(await flags()).toEqual([false, null]);
  });
});

describe('withdraw (DELETE report-requests/{id})', () => {
  it('unpaid → withdrawn, kept as a record; a second withdraw 409; paying it is refused', async () => {
    const o = await applied();
    const res = await del('rad1', `report-requests/${o.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ progress: 'withdrawn', paymentStatus: 0, transitions: [] });
    expectCode(await del('rad1', `report-requests/${o.id}`), 409, 'InvalidTransition');
    expect((await payByCredit(s, o.id)).status).toBeGreaterThanOrEqual(400);
    expect((await auditTrail(s.db.db, 'reportOrder', o.id)).map((e) => e.action)).toEqual(['apply', 'withdraw']);
  });

  it('paid, nothing written → refunded first (the money back, the copies gone), then withdrawn', async () => {
    const o = await paid();
    const copyId = o.targets[0]!.expertExamId!;
    const res = await del('rad2', `report-requests/${o.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ progress: 'withdrawn', paymentStatus: 3, transitions: [] });
    const row = (await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.id, o.id)))[0]!;
    expect(row.progress).toBe('withdrawn');
    expect(await leftovers(s, [copyId])).toEqual({ exams: 0, instances: 0, reports: 0 });
    const ledger = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.orderId, o.id));
    expect(ledger.map((l) => [l.kind, l.amountFen]).sort()).toEqual([['charge', -o.amountFen], ['refund', o.amountFen]].sort());
  });

  it('after writing began on a copy: ReportWritingBegun (409), nothing changes', async () => {
    const o = await paid();
    await expertWrites(o.targets[0]!.expertExamId!, false);
    expectCode(await del('rad1', `report-requests/${o.id}`), 409, 'ReportWritingBegun');
    expect((await get('rad1', `report-requests/${o.id}`)).body).toMatchObject({ paymentStatus: 1, progress: 'reporting' });
  });

  it('the target side and accounts without the applying action may not withdraw (403); outside 404', async () => {
    const o = await applied();
    expectCode(await del('expert', `report-requests/${o.id}`), 403, 'Forbidden');
    expectCode(await del('tech', `report-requests/${o.id}`), 403, 'Forbidden');
    const stranger = await createAccount(s, { buckets: [{ bucketId: (await createGroup(s)).bucketId, accessLevel: 'admin' }] });
    expectCode(await del(stranger.username, `report-requests/${o.id}`), 404, 'NotFound');
    expectCode(await del('rad1', 'report-requests/abc'), 400, 'ParamsError');
    expectCode(await del('rad1', 'report-requests/2000000000'), 404, 'NotFound');
  });
});

describe('the request detail', () => {
  it('readers: applicant side with an order action or exam_get, the target side; 403 otherwise, 404 outside', async () => {
    const o = await applied();
    expect((await get('tech', `report-requests/${o.id}`)).status).toBe(200);
    expect((await get('tech', `report-requests/${o.id}`)).body.transitions).toEqual([]);
    expect((await get('expert', `report-requests/${o.id}`)).status).toBe(200);
    expectCode(await get('registrar', `report-requests/${o.id}`), 403, 'Forbidden');
    const stranger = await createAccount(s, { buckets: [{ bucketId: (await createGroup(s)).bucketId, accessLevel: 'admin' }] });
    expectCode(await get(stranger.username, `report-requests/${o.id}`), 404, 'NotFound');
    expectCode(await get('rad1', 'report-requests/0'), 400, 'ParamsError');
    expectCode(await get('rad1', 'orders/x'), 400, 'ParamsError');
  });
});

describe('the order list (payments/page-query, orders/page-query) and its export', () => {
  it('side out for the applicant, side in for the expert organisation; filters; newest first', async () => {
    const a = await applied();
    const b = await paid();
    const out = await post('rad1', 'payments/page-query', { filters: [{ field: 'id', operator: 'in', values: [a.id, b.id] }] });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.items.map((i: { id: number }) => i.id)).toEqual([b.id, a.id]);
    expect(out.body.total).toBe(2);
    const inSide = await post('expert', 'orders/page-query', { filters: [{ field: 'side', operator: 'equal', values: ['in'] }, { field: 'id', operator: 'in', values: [a.id, b.id] }] });
    expect(inSide.body.items.map((i: { id: number }) => i.id)).toEqual([b.id, a.id]);
    const expertOut = await post('expert', 'orders/page-query', { filters: [{ field: 'side', operator: 'equal', values: ['out'] }, { field: 'id', operator: 'in', values: [a.id, b.id] }] });
    expect(expertOut.body.items).toEqual([]);
    const paidOnly = await post('rad1', 'payments/page-query', { filters: [{ field: 'paymentStatus', operator: 'equal', values: [1] }, { field: 'id', operator: 'in', values: [a.id, b.id] }] });
    expect(paidOnly.body.items.map((i: { id: number }) => i.id)).toEqual([b.id]);
    const byNo = await post('rad1', 'payments/page-query', { filters: [{ field: 'requestNo', operator: 'equal', values: [a.requestNo] }] });
    expect(byNo.body.items.map((i: { id: number; toBucketName: string }) => i.id)).toEqual([a.id]);
    const to = await post('rad1', 'payments/page-query', { filters: [{ field: 'toBucketId', operator: 'equal', values: [s.ids.expertCentreId] }, { field: 'type', operator: 'equal', values: ['expert'] }, { field: 'id', operator: 'in', values: [a.id] }] });
    expect(to.body.total).toBe(1);
    expect((await post('registrar', 'payments/page-query', {})).body).toEqual({ items: [], total: 0 });
  });

  it('bad filters and sorts are 400', async () => {
    for (const body of [
      { filters: [{ field: 'nope', operator: 'equal', values: [1] }] },
      { filters: [{ field: 'side', operator: 'equal', values: ['sideways'] }] },
      { filters: [{ field: 'type', operator: 'equal', values: ['weixin'] }] },
      { filters: [{ field: 'channel', operator: 'equal', values: ['cash'] }] },
      { filters: [{ field: 'paymentStatus', operator: 'equal', values: [7] }] },
      { filters: [{ field: 'created', operator: 'gte', values: ['yesterday'] }] },
      { filters: [{ field: 'requestNo', operator: 'gt', values: ['R'] }] },
      { sorts: [{ field: 'patientName', direction: 'asc' }] },
      { limit: 101 },
    ]) expectCode(await post('rad1', 'payments/page-query', body), 400, 'ParamsError');
  });

  it('exports the spec\'s order fields as .xlsx, amounts in yuan; more than 1000 rows → ExportTooLarge', async () => {
    const o = await paid();
    const res = await s.request('POST', 'payments/export-excel', {
      token: await tokenOf(s, 'rad1'), body: { filters: [{ field: 'id', operator: 'equal', values: [o.id] }], lang: 'en' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    const raw = await fetch(`${s.url}/api/v1/payments/export-excel`, {
      method: 'POST', headers: { authorization: `Bearer ${await tokenOf(s, 'rad1')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: [{ field: 'id', operator: 'equal', values: [o.id] }], lang: 'en' }),
    });
    await book.xlsx.load(await raw.arrayBuffer());
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Request no.', 'Price (yuan)', 'Patient', 'Applicant', 'Refund no.', 'From', 'To', 'Payment status', 'Transaction id']));
    const row = Object.fromEntries(header.map((h, i) => [h, sheet.getRow(2).getCell(i + 1).value]));
    expect(row['Request no.']).toBe(o.requestNo);
    expect(row['Price (yuan)']).toBe(`${Math.floor(o.amountFen / 100)}.${String(o.amountFen % 100).padStart(2, '0')}`);
    expect(row['Payment status']).toBe('Paid');
    // 1001 applications of one exam, straight in the database: refused before anything is read.
    const examId = await examWithImages(s, { instances: 0 });
    await s.db.db.insert(t.reportOrders).values(Array.from({ length: 1001 }, (_, i) => ({
      requestNo: `RBULK${examId}-${i}`, type: 'expert', examId, fromBucketId: s.ids.hospitalId, groupId: s.ids.groupId,
      applicantId: s.ids.accounts.rad1, patientName: 'bulk', amountFen: 100,
    })));
    expectCode(await post('rad1', 'payments/export-excel', { filters: [{ field: 'examId', operator: 'equal', values: [examId] }] }), 400, 'ExportTooLarge');
    await s.db.db.delete(t.reportOrders).where(and(eq(t.reportOrders.examId, examId), inArray(t.reportOrders.patientName, ['bulk'])));
  });
});
