import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import type {
  ConsultationDetail, ConsultationPage, ConsultationPerson, ConsultationTargets, ConsultationTrace,
} from '../../contract/consultations';
import { createConsultation, detailOf, examWithReport, SOON, write } from '../support/consultations';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * A consultation from start to end through the API (areas §7 "Consultations"): the create screen's choices, the
 * create, schedule, suggestions, the result, approval, the rating, payment, the log; and the lists (page query,
 * search, count, export) finding it.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

describe('a consultation from request to rating', () => {
  let c: ConsultationDetail;

  it('offers the group\'s targets, the default among them, and the people of the expert centre', async () => {
    const { examId } = await examWithReport(s);
    const targets = await s.request('GET', `consultations/targets?examId=${examId}`, { token: await tokenOf(s, 'rad1') });
    expect(targets.status).toBe(200);
    const body = targets.body as ConsultationTargets;
    expect(body.targets.map((b) => b.id)).toEqual([s.ids.expertCentreId]);
    expect(body.defaultTargetId).toBe(s.ids.expertCentreId);
    expect(body.joinable.map((b) => b.id)).toEqual([s.ids.expertCentreId]);

    const people = await s.request('GET', `consultations/people?bucketId=${s.ids.expertCentreId}`, { token: await tokenOf(s, 'rad1') });
    expect(people.status).toBe(200);
    expect((people.body as ConsultationPerson[]).map((p) => p.id)).toContain(s.ids.accounts.expert);
  });

  it('creates it from an exam and its report: patient from the exam, pending, the creator a member, the exam a visit exam', async () => {
    const { examId, reportId } = await examWithReport(s);
    const res = await write(s, 'rad1', 'POST', '', {
      examId, reportId, targetBucketId: s.ids.expertCentreId, reason: '右肺结节，请专家会诊', patientTel: '13800000000',
      members: [{ accountId: s.ids.accounts.expert, role: 'expert' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    c = res.body as ConsultationDetail;
    expect(c.status).toBe(0);
    expect(c.version).toBe(1);
    expect(c.examId).toBe(examId);
    expect(c.reportId).toBe(reportId);
    expect(c.appliedBucketId).toBe(s.ids.hospitalId);
    expect(c.targetBucketName).toBe('远程影像专家中心');
    expect(c.patient.tel).toBe('13800000000');
    expect(c.members.map((m) => [m.id, m.role])).toEqual([[s.ids.accounts.rad1, 'member'], [s.ids.accounts.expert, 'expert']]);
    expect(c.visitExams.map((e) => e.examId)).toEqual([examId]);
    expect(c.createdBy.id).toBe(s.ids.accounts.rad1);
    expect(c.transitions).toEqual(expect.arrayContaining(['update', 'cancel', 'suggest', 'addExam', 'print']));
    expect(c.transitions).not.toContain('schedule');
    const asExpert = await detailOf(s, 'expert', c.id);
    expect(asExpert.transitions).toEqual(expect.arrayContaining(['schedule', 'setPayment', 'suggest']));
    expect(asExpert.transitions).not.toContain('cancel');
  });

  it('lets the applicant edit its fields with the version it read', async () => {
    const res = await write(s, 'rad1', 'PATCH', `${c.id}`, { version: c.version, reason: '右肺上叶结节约12mm，请专家会诊', note: '已附既往CT' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    c = res.body as ConsultationDetail;
    expect(c.reason).toBe('右肺上叶结节约12mm，请专家会诊');
    expect(c.note).toBe('已附既往CT');
    expect(c.version).toBe(2);
  });

  it('is scheduled by the expert with a start time', async () => {
    const when = SOON(s);
    const res = await write(s, 'expert', 'POST', `${c.id}/update-status`, { version: c.version, status: 1, scheduledTime: when });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    c = res.body as ConsultationDetail;
    expect(c.status).toBe(1);
    expect(c.scheduledTime).toBe(when);
    expect(c.transitions).toContain('writeResult');
  });

  it('takes suggestions from both sides, sanitised', async () => {
    const mine = await write(s, 'rad1', 'POST', `${c.id}/suggestion`, { content: '<p>已上传病理</p><script>alert(1)</script>' });
    expect(mine.status).toBe(201);
    const theirs = await write(s, 'expert', 'POST', `${c.id}/suggestion`, { content: '<p onclick="x()">请补充增强扫描</p>' });
    expect(theirs.status).toBe(201);
    const detail = theirs.body as ConsultationDetail;
    expect(detail.suggestions.map((x) => [x.author.id, x.content])).toEqual([
      [s.ids.accounts.rad1, '<p>已上传病理</p>'], [s.ids.accounts.expert, '<p>请补充增强扫描</p>'],
    ]);
  });

  it('gets its result from the expert (sanitised), moving to discussed', async () => {
    const res = await write(s, 'expert', 'PUT', `${c.id}/results`, {
      version: c.version, conclusion: '<p>考虑微浸润性腺癌</p><img src=x onerror=alert(1)>', treatmentPlan: '<p>建议手术</p>',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    c = res.body as ConsultationDetail;
    expect(c.status).toBe(2);
    expect(c.result?.conclusion).not.toContain('onerror');
    expect(c.result?.conclusion).toContain('考虑微浸润性腺癌');
    expect(c.result?.treatmentPlan).toBe('<p>建议手术</p>');
    expect(c.result?.by?.id).toBe(s.ids.accounts.expert);
  });

  it('is approved by the applicant, then rated once', async () => {
    const approved = await write(s, 'rad1', 'POST', `${c.id}/update-status`, { version: c.version, status: 3 });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    c = approved.body as ConsultationDetail;
    expect(c.status).toBe(3);
    expect(c.approvedBy?.id).toBe(s.ids.accounts.rad1);
    expect(c.transitions).toContain('rate');

    const rated = await write(s, 'rad1', 'POST', `${c.id}/rating`, { version: c.version, rating: 5, comment: '意见明确' });
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    c = rated.body as ConsultationDetail;
    expect(c.rating).toMatchObject({ rating: 5, comment: '意见明确', by: { id: s.ids.accounts.rad1 } });
    expect(c.transitions).not.toContain('rate');

    const again = await write(s, 'rad1', 'POST', `${c.id}/rating`, { version: c.version, rating: 1 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ConsultationRated');
    expect((await detailOf(s, 'rad1', c.id)).rating?.rating).toBe(5);
  });

  it('has its payment set by hand by the target side, the status unchanged', async () => {
    const res = await write(s, 'expert', 'POST', `${c.id}/payment-status`, { version: c.version, paymentStatus: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    c = res.body as ConsultationDetail;
    expect(c.paymentStatus).toBe(1);
    expect(c.status).toBe(3);
  });

  it('keeps a log of every change, who and when, oldest first', async () => {
    const res = await write(s, 'rad1', 'GET', `${c.id}/traces`);
    expect(res.status).toBe(200);
    const traces = res.body as ConsultationTrace[];
    expect(traces.map((x) => x.action)).toEqual(['create', 'update', 'schedule', 'suggestion', 'suggestion', 'result', 'approve', 'rate', 'payment']);
    expect(traces.map((x) => x.actor?.id)).toEqual([
      s.ids.accounts.rad1, s.ids.accounts.rad1, s.ids.accounts.expert, s.ids.accounts.rad1, s.ids.accounts.expert,
      s.ids.accounts.expert, s.ids.accounts.rad1, s.ids.accounts.rad1, s.ids.accounts.expert,
    ]);
    expect(traces[6]!.before).toMatchObject({ status: 2 });
    expect(traces[6]!.after).toMatchObject({ status: 3 });
  });

  it('is canceled with a reason by the applicant while still open', async () => {
    const other = await createConsultation(s);
    const res = await write(s, 'chief', 'POST', `${other.id}/cancel`, { version: other.version, reason: '患者转院' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 4, cancelReason: '患者转院' });
    expect((res.body as ConsultationDetail).transitions).toEqual(['print']);
  });

  it('replaces its members: experts of the target, members of its organisations', async () => {
    const other = await createConsultation(s);
    const res = await write(s, 'rad2', 'PUT', `${other.id}/members`, {
      members: [{ accountId: s.ids.accounts.rad2, role: 'member' }, { accountId: s.ids.accounts.expert, role: 'expert' }, { accountId: s.ids.accounts.chief }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as ConsultationDetail).members.map((m) => [m.id, m.role]).sort()).toEqual([
      [s.ids.accounts.chief, 'member'], [s.ids.accounts.expert, 'expert'], [s.ids.accounts.rad2, 'member'],
    ].sort());
  });
});

describe('the lists', () => {
  let c: ConsultationDetail;
  beforeAll(async () => { c = await createConsultation(s, 'rad2', { reason: '纵隔占位性质待定' }); });

  it('page-query filters by patient name, target, payment and mine', async () => {
    const rad2 = await tokenOf(s, 'rad2');
    const res = await s.request('POST', 'consultations/query-page', { token: rad2, body: { filters: [
      { field: 'mine', operator: 'equal', values: [true] }, { field: 'reason', operator: 'like', values: ['纵隔占位'] },
      { field: 'targetBucketId', operator: 'in', values: [s.ids.expertCentreId] }, { field: 'paymentStatus', operator: 'equal', values: [0] },
      { field: 'patientName', operator: 'like', values: [c.patientName] },
    ] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as ConsultationPage;
    expect(page.items.map((i) => i.id)).toContain(c.id);
    expect(page.items[0]).toMatchObject({ targetBucketName: '远程影像专家中心', paymentStatus: 0, ratingScore: null });
    // rad1 neither applied for it nor takes part.
    const notMine = await s.request('POST', 'consultations/query-page', { token: await tokenOf(s, 'rad1'), body: { filters: [
      { field: 'mine', operator: 'equal', values: [true] }, { field: 'id', operator: 'equal', values: [c.id] },
    ] } });
    expect(notMine.body.total).toBe(0);
    const others = await s.request('POST', 'consultations/query-page', { token: await tokenOf(s, 'rad1'), body: { filters: [
      { field: 'mine', operator: 'equal', values: [false] }, { field: 'id', operator: 'equal', values: [c.id] },
    ] } });
    expect(others.body.total).toBe(1);
  });

  it('search answers at most ten without a total; count answers the total', async () => {
    const rad1 = await tokenOf(s, 'rad1');
    const found = await s.request('POST', 'consultations/query', { token: rad1, body: {} });
    expect(found.status).toBe(200);
    expect(found.body.items).toHaveLength(10);
    expect(found.body.total).toBeUndefined();
    const count = await s.request('POST', 'consultations/count', { token: rad1, body: { filters: [{ field: 'status', operator: 'equal', values: [0] }] } });
    const page = await s.request('POST', 'consultations/query-page', { token: rad1, body: { filters: [{ field: 'status', operator: 'equal', values: [0] }] } });
    expect(count.status).toBe(200);
    expect(count.body.total).toBe(page.body.total);
    expect(count.body.total).toBeGreaterThan(0);
  });

  it('exports an .xlsx exceljs reads: a header and one row per consultation', async () => {
    const res = await fetch(`${s.url}/api/v1/consultations/export`, {
      method: 'POST', headers: { authorization: `Bearer ${await tokenOf(s, 'rad1')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: [{ field: 'id', operator: 'equal', values: [c.id] }], lang: 'en', timeZone: 'UTC' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(1).getCell(1).value).toBe('No.');
    expect(sheet.getRow(2).getCell(1).value).toBe(c.id);
    expect(sheet.getRow(2).getCell(2).value).toBe(c.patientName);
    expect(sheet.getRow(2).getCell(3).value).toBe('Pending');
  });
});

describe('many consultations', () => {
  beforeAll(async () => {
    const now = s.clock.now();
    const rows = Array.from({ length: 1005 }, (_, i) => ({
      appliedBucketId: s.ids.hospitalId, targetBucketId: s.ids.expertCentreId, patientName: `批量${i}`, reason: '批量', status: 3,
      createdBy: s.ids.accounts.rad1, created: new Date(now.getTime() - i * 60_000),
    }));
    const made = await s.db.db.insert(t.consultations).values(rows).returning({ id: t.consultations.id });
    await s.db.db.insert(t.consultationBuckets).values(made.map((m) => ({ consultationId: m.id, bucketId: s.ids.expertCentreId })));
  });

  it('counts exactly up to 1000 and estimates above, as the page and count say', async () => {
    const rad1 = await tokenOf(s, 'rad1');
    const page = await s.request('POST', 'consultations/query-page', { token: rad1, body: { limit: 20 } });
    expect(page.status).toBe(200);
    expect(page.body.totalIsEstimate).toBe(true);
    expect(page.body.total).toBeGreaterThan(1000);
    const count = await s.request('POST', 'consultations/count', { token: rad1, body: { filters: [] } });
    expect(count.body).toMatchObject({ totalIsEstimate: true });
    const few = await s.request('POST', 'consultations/query-page', { token: rad1, body: { filters: [{ field: 'status', operator: 'equal', values: [0] }] } });
    expect(few.body.totalIsEstimate).toBeUndefined();
  });

  it('refuses to export more than 1000 rows with 400 ExportTooLarge', async () => {
    const res = await s.request('POST', 'consultations/export', { token: await tokenOf(s, 'rad1'), body: { filters: [] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ExportTooLarge', details: { max: 1000 } });
  });
});
