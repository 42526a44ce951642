import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsultationDetail } from '../../contract/consultations';
import * as t from '../../server/db/schema';
import { expectCode } from '../support/expect';
import { createAccount, createGroup } from '../support/accounts';
import { consultationIn, createConsultation, detailOf, SOON, write } from '../support/consultations';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Every rule of docs/decisions.md "Consultations" (the sides-and-rights table) through the API: the side with the
 * right acts, the other gets 403, the wrong state 409 InvalidTransition, a stale version 409 VersionConflict; every
 * bad input 400 (never 500); outside the organisations 404; the group's switch off 403. Each test acts on a fresh
 * consultation of the hospital (rad1 applied) to the expert centre (the expert takes part).
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

describe('update: the applicant side, while pending or scheduled', () => {
  it('lets rad2 (applicant side, consultation_update) edit; refuses the expert (403) and a discussed one (409)', async () => {
    const c = await consultationIn(s, 1);
    expect((await write(s, 'rad2', 'PATCH', `${c.id}`, { version: c.version, patientEmail: 'a@b.cn' })).status).toBe(200);
    expectCode(await write(s, 'expert', 'PATCH', `${c.id}`, { version: c.version + 1, note: 'x' }), 403, 'Forbidden');
    const d = await consultationIn(s, 2);
    expectCode(await write(s, 'rad1', 'PATCH', `${d.id}`, { version: d.version, note: 'x' }), 409, 'InvalidTransition');
  });

  it('refuses a stale version with 409 VersionConflict and the current version', async () => {
    const c = await consultationIn(s, 0);
    const res = await write(s, 'rad1', 'PATCH', `${c.id}`, { version: c.version - 1, note: 'x' });
    expectCode(res, 409, 'VersionConflict');
    expect(res.body.details.version).toBe(c.version);
  });
});

describe('schedule: the target side, a start time required', () => {
  it('requires scheduledTime (400 naming it), refuses rad1 (403) and a discussed one (409)', async () => {
    const c = await consultationIn(s, 0);
    const missing = await write(s, 'expert', 'POST', `${c.id}/update-status`, { version: c.version, status: 1 });
    expectCode(missing, 400, 'ParamsError');
    expect(JSON.stringify(missing.body.details)).toContain('scheduledTime');
    expectCode(await write(s, 'rad1', 'POST', `${c.id}/update-status`, { version: c.version, status: 1, scheduledTime: SOON(s) }), 403, 'Forbidden');
    const d = await consultationIn(s, 2);
    expectCode(await write(s, 'expert', 'POST', `${d.id}/update-status`, { version: d.version, status: 1, scheduledTime: SOON(s) }), 409, 'InvalidTransition');
  });

  it('refuses a start already past (400 ConsultationTimePast naming scheduledTime), now included; a minute ahead is fine', async () => {
    const c = await consultationIn(s, 0);
    const at = (ms: number) => new Date(s.clock.now().getTime() + ms).toISOString();
    for (const when of [at(-86_400_000), at(-60_000), at(0)]) {
      const res = await write(s, 'expert', 'POST', `${c.id}/update-status`, { version: c.version, status: 1, scheduledTime: when });
      expectCode(res, 400, 'ConsultationTimePast');
      expect(JSON.stringify(res.body.details)).toContain('scheduledTime');
    }
    expect((await detailOf(s, 'expert', c.id)).status).toBe(0);
    expect((await write(s, 'expert', 'POST', `${c.id}/update-status`, { version: c.version, status: 1, scheduledTime: at(60_000) })).status).toBe(200);
  });

  it('moves a scheduled meeting, staying scheduled', async () => {
    const c = await consultationIn(s, 1);
    const res = await write(s, 'expert', 'POST', `${c.id}/update-status`, { version: c.version, status: 1, scheduledTime: SOON(s) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 1, scheduledTime: SOON(s) });
  });
});

describe('results: "experts with the conclusion permission" (the target side), scheduled or discussed', () => {
  it('refuses an empty conclusion with 400 ConsultationResultEmpty, markup without text included', async () => {
    const c = await consultationIn(s, 1);
    for (const conclusion of ['', '<p> </p>', '<p><br></p>', '<script>x</script>']) {
      expectCode(await write(s, 'expert', 'PUT', `${c.id}/results`, { version: c.version, conclusion }), 400, 'ConsultationResultEmpty');
    }
    expect((await detailOf(s, 'rad1', c.id)).status).toBe(1);
  });

  it('refuses the applicant (403) and a pending one (409); revises a discussed one', async () => {
    const c = await consultationIn(s, 1);
    expectCode(await write(s, 'rad1', 'PUT', `${c.id}/results`, { version: c.version, conclusion: '<p>x</p>' }), 403, 'Forbidden');
    const p = await consultationIn(s, 0);
    expectCode(await write(s, 'expert', 'PUT', `${p.id}/results`, { version: p.version, conclusion: '<p>x</p>' }), 409, 'InvalidTransition');
    const d = await consultationIn(s, 2);
    const revised = await write(s, 'expert', 'PUT', `${d.id}/results`, { version: d.version, conclusion: '<p>修订</p>' });
    expect(revised.status).toBe(200);
    expect(revised.body).toMatchObject({ status: 2, result: { conclusion: '<p>修订</p>' } });
  });
});

describe('approve: the applicant side, discussed only', () => {
  it('refuses the expert (403) and a scheduled one (409)', async () => {
    const d = await consultationIn(s, 2);
    expectCode(await write(s, 'expert', 'POST', `${d.id}/update-status`, { version: d.version, status: 3 }), 403, 'Forbidden');
    const c = await consultationIn(s, 1);
    expectCode(await write(s, 'rad1', 'POST', `${c.id}/update-status`, { version: c.version, status: 3 }), 409, 'InvalidTransition');
    expect((await write(s, 'chief', 'POST', `${d.id}/update-status`, { version: d.version, status: 3 })).status).toBe(200);
  });
});

describe('cancel: the applicant side, pending or scheduled, with a reason', () => {
  it('requires a reason (400), refuses the expert (403), a discussed one (409), and a canceled one stays canceled', async () => {
    const c = await consultationIn(s, 1);
    expectCode(await write(s, 'rad1', 'POST', `${c.id}/cancel`, { version: c.version, reason: '  ' }), 400, 'ParamsError');
    expectCode(await write(s, 'expert', 'POST', `${c.id}/cancel`, { version: c.version, reason: '撤回' }), 403, 'Forbidden');
    const d = await consultationIn(s, 2);
    expectCode(await write(s, 'rad1', 'POST', `${d.id}/cancel`, { version: d.version, reason: '撤回' }), 409, 'InvalidTransition');
    const x = await consultationIn(s, 4);
    expectCode(await write(s, 'rad1', 'POST', `${x.id}/cancel`, { version: x.version, reason: '撤回' }), 409, 'InvalidTransition');
  });
});

describe('rate: the applicant side, completed, once', () => {
  it('takes 1..5 once; a second rating 409 ConsultationRated; discussed 409; the expert 403; 0 or 6 are 400', async () => {
    const c = await consultationIn(s, 3);
    for (const rating of [0, 6, 2.5]) expectCode(await write(s, 'rad1', 'POST', `${c.id}/rating`, { version: c.version, rating }), 400, 'ParamsError');
    expectCode(await write(s, 'expert', 'POST', `${c.id}/rating`, { version: c.version, rating: 5 }), 403, 'Forbidden');
    expect((await write(s, 'rad2', 'POST', `${c.id}/rating`, { version: c.version, rating: 4 })).status).toBe(200);
    expectCode(await write(s, 'rad1', 'POST', `${c.id}/rating`, { version: c.version + 1, rating: 1 }), 409, 'ConsultationRated');
    const d = await consultationIn(s, 2);
    expectCode(await write(s, 'rad1', 'POST', `${d.id}/rating`, { version: d.version, rating: 5 }), 409, 'InvalidTransition');
  });
});

describe('payment status: the target side, by hand, in any state', () => {
  it.each([0, 1, 2, 3, 4] as const)('is set in status %i, the status unchanged; the applicant 403; 4 is 400', async (status) => {
    const c = await consultationIn(s, status);
    expectCode(await write(s, 'rad1', 'POST', `${c.id}/payment-status`, { version: c.version, paymentStatus: 1 }), 403, 'Forbidden');
    expectCode(await write(s, 'expert', 'POST', `${c.id}/payment-status`, { version: c.version, paymentStatus: 4 }), 400, 'ParamsError');
    const res = await write(s, 'expert', 'POST', `${c.id}/payment-status`, { version: c.version, paymentStatus: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status, paymentStatus: 2 });
  });
});

describe('suggestions: any side with consultation_submitSuggestion, until completed', () => {
  it('refuses an empty one (400), registrar (403, a reader without the right), and a completed one (409)', async () => {
    const c = await consultationIn(s, 2);
    expectCode(await write(s, 'expert', 'POST', `${c.id}/suggestion`, { content: '<p>&nbsp;</p>' }), 400, 'ParamsError');
    expectCode(await write(s, 'registrar', 'POST', `${c.id}/suggestion`, { content: '<p>意见</p>' }), 403, 'Forbidden');
    expect((await write(s, 'registrar', 'GET', `${c.id}`)).status).toBe(200);
    const done = await consultationIn(s, 3);
    expectCode(await write(s, 'rad1', 'POST', `${done.id}/suggestion`, { content: '<p>意见</p>' }), 409, 'InvalidTransition');
  });
});

describe('members: any side with consultation_update, until completed or canceled', () => {
  it('takes experts only from the target organisation and members only from the consultation\'s organisations', async () => {
    const c = await consultationIn(s, 0);
    const other = await createGroup(s);
    const stranger = await createAccount(s, { groupId: other.groupId, buckets: [{ bucketId: other.bucketId }] });
    const bad = [
      [{ accountId: s.ids.accounts.rad2, role: 'expert' }],
      [{ accountId: stranger.id }],
      [{ accountId: s.ids.accounts.rad2 }, { accountId: s.ids.accounts.rad2 }],
    ];
    for (const members of bad) expectCode(await write(s, 'rad1', 'PUT', `${c.id}/members`, { members }), 400, 'ParamsError');
    expect((await detailOf(s, 'rad1', c.id)).members).toHaveLength(2);
    const done = await consultationIn(s, 3);
    expectCode(await write(s, 'rad1', 'PUT', `${done.id}/members`, { members: [] }), 409, 'InvalidTransition');
    expectCode(await write(s, 'tech', 'PUT', `${c.id}/members`, { members: [] }), 403, 'Forbidden');
  });
});

describe('create', () => {
  it('refuses a target that is not the group\'s (the applicant itself, another group\'s) with 400 ConsultationTargetInvalid', async () => {
    const examId = await insertExam(s);
    const other = await createGroup(s);
    for (const targetBucketId of [s.ids.hospitalId, other.bucketId, 99_999]) {
      expectCode(await write(s, 'rad1', 'POST', '', { examId, targetBucketId, reason: '会诊' }), 400, 'ConsultationTargetInvalid');
    }
  });

  it('refuses another exam\'s report, a joined organisation outside the group, an expert outside the target (400)', async () => {
    const examId = await insertExam(s);
    const [report] = await s.db.db.select({ id: t.reports.id }).from(t.reports).limit(1);
    const other = await createGroup(s);
    const base = { examId, targetBucketId: s.ids.expertCentreId, reason: '会诊' };
    expectCode(await write(s, 'rad1', 'POST', '', { ...base, reportId: report!.id }), 400, 'ParamsError');
    expectCode(await write(s, 'rad1', 'POST', '', { ...base, joinedBucketIds: [other.bucketId] }), 400, 'ParamsError');
    expectCode(await write(s, 'rad1', 'POST', '', { ...base, members: [{ accountId: s.ids.accounts.chief, role: 'expert' }] }), 400, 'ParamsError');
  });

  it('needs consultation_create in the exam\'s organisation: tech 403, the expert 404 (not its organisation), a deleted exam 404', async () => {
    const examId = await insertExam(s);
    const body = { examId, targetBucketId: s.ids.expertCentreId, reason: '会诊' };
    expectCode(await write(s, 'tech', 'POST', '', body), 403, 'Forbidden');
    expectCode(await write(s, 'expert', 'POST', '', body), 404, 'NotFound');
    const gone = await insertExam(s);
    await s.db.db.update(t.exams).set({ deletedTime: s.clock.now() }).where(eq(t.exams.id, gone));
    expectCode(await write(s, 'rad1', 'POST', '', { ...body, examId: gone }), 404, 'NotFound');
  });
});

describe('bad input is 400, never 500', () => {
  it.each([
    ['GET', 'abc', undefined], ['GET', '0', undefined], ['GET', '99999999999', undefined],
    ['PATCH', '1', { version: 1, color: 'red' }], ['PATCH', '1', { version: 'one' }], ['PATCH', '1', { version: 1, patientEmail: 'not-mail' }],
    ['PATCH', '1', { version: 1, patientTel: 'abc' }], ['PATCH', '1', { version: 1, reason: '' }], ['PATCH', '1', null],
    ['POST', '1/update-status', { version: 1, status: 2 }], ['POST', '1/update-status', { version: 1, status: 1, scheduledTime: 'tomorrow' }],
    ['POST', '1/cancel', { version: 1 }], ['PUT', '1/results', { version: 1 }], ['PUT', '1/results', { version: 1, conclusion: 'x'.repeat(200_001) }],
    ['POST', '1/suggestion', { content: 5 }], ['POST', '1/rating', { version: 1, rating: '5' }], ['POST', '1/payment-status', { version: 1, paymentStatus: -1 }],
    ['PUT', '1/members', { members: [{ accountId: 'x' }] }], ['PUT', '1/members', { members: [{ accountId: 1, role: 'chair' }] }],
    ['POST', '', { examId: 1 }], ['POST', '', { examId: 1, targetBucketId: 2, reason: 'x', joinedBucketIds: 'all' }],
    ['POST', 'query-page', { filters: [{ field: 'nope', operator: 'equal', values: [1] }] }],
    ['POST', 'query-page', { filters: [{ field: 'mine', operator: 'equal', values: ['yes'] }] }],
    ['POST', 'query-page', { filters: [{ field: 'paymentStatus', operator: 'equal', values: [9] }] }],
    ['POST', 'query-page', { filters: [{ field: 'patientName', operator: 'like', values: [' '] }] }],
    ['POST', 'query', { sorts: [{ field: 'patientName', direction: 'asc' }] }], ['POST', 'query', { limit: 101 }],
    ['POST', 'count', { filters: [{ field: 'scheduledTime', operator: 'gte', values: ['yesterday'] }], skip: 1 }],
    ['POST', 'export', { filters: [], lang: 'fr' }], ['POST', 'export', { filters: [], timeZone: 'Mars/Base' }],
    ['GET', 'targets?examId=x', undefined], ['GET', 'people', undefined], ['GET', 'people?bucketId=-1', undefined],
  ] as const)('%s consultations/%s %j', async (method, path, body) => {
    const res = await write(s, 'rad1', method, path, body ?? undefined);
    expectCode(res, 400, 'ParamsError');
  });
});

describe('who sees a consultation', () => {
  let c: ConsultationDetail;
  let strangerToken: string;
  beforeAll(async () => {
    c = await createConsultation(s);
    const other = await createGroup(s);
    await s.db.db.update(t.groups).set({ enableConsultation: true }).where(eq(t.groups.id, other.groupId));
    const stranger = await createAccount(s, { groupId: other.groupId, buckets: [{ bucketId: other.bucketId, accessLevel: 'admin' }] });
    strangerToken = await s.login(stranger.username, stranger.password);
  });

  it('is 404 to an account outside its organisations, for reads and writes alike', async () => {
    const token = strangerToken;
    expect((await s.request('GET', `consultations/${c.id}`, { token })).status).toBe(404);
    expect((await s.request('GET', `consultations/${c.id}/traces`, { token })).status).toBe(404);
    expect((await s.request('PATCH', `consultations/${c.id}`, { token, body: { version: c.version, note: 'x' } })).status).toBe(404);
    expect((await s.request('POST', `consultations/${c.id}/suggestion`, { token, body: { content: '<p>x</p>' } })).status).toBe(404);
    expect((await s.request('GET', `consultations/people?bucketId=${s.ids.hospitalId}`, { token })).status).toBe(404);
    const list = await s.request('POST', 'consultations/query-page', { token, body: { filters: [{ field: 'id', operator: 'equal', values: [c.id] }] } });
    expect(list.body.total).toBe(0);
    expect((await s.request('GET', 'consultations/99999999', { token: await tokenOf(s, 'rad1') })).status).toBe(404);
  });

  it('is 403 to its own readers while the group has consultations switched off', async () => {
    await s.db.db.update(t.groups).set({ enableConsultation: false }).where(eq(t.groups.id, s.ids.groupId));
    try {
      const rad1 = await tokenOf(s, 'rad1');
      expectCode(await s.request('GET', `consultations/${c.id}`, { token: rad1 }), 403, 'Forbidden');
      expectCode(await s.request('POST', `consultations/${c.id}/suggestion`, { token: rad1, body: { content: '<p>x</p>' } }), 403, 'Forbidden');
      expectCode(await s.request('POST', 'consultations/query-page', { token: rad1, body: {} }), 403, 'Forbidden');
      const examId = await insertExam(s);
      expectCode(await s.request('POST', 'consultations', { token: rad1, body: { examId, targetBucketId: s.ids.expertCentreId, reason: 'x' } }), 403, 'Forbidden');
    } finally {
      await s.db.db.update(t.groups).set({ enableConsultation: true }).where(eq(t.groups.id, s.ids.groupId));
    }
  });
});
