import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { pageQuery } from '../support/exams';
import { insertExam, reportIn, tokenOf, tracesOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * One exam: reading, editing (core §3 patient-source rule), the detail drawer, soft delete and the 30-day recovery
 * (core §4), past exams and co-exams, and the polling query (core §7).
 */
let s: TestServer;
let admin: string;
let rad1: string;
const DAY = 86_400_000;

beforeAll(async () => {
  // Tokens outlive the 31 days the recovery tests move the clock.
  s = await startServer({ exams: 20, tokenTtlSeconds: 90 * 86_400 });
  admin = await tokenOf(s, 'admin');
  rad1 = await tokenOf(s, 'rad1');
});
afterAll(async () => { await s.close(); });

async function examRow(id: number) {
  const [row] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, id));
  return row!;
}

describe('GET exams/{id}', () => {
  it('answers the exam as a worklist row to a reader of its organisation', async () => {
    const id = await insertExam(s, { patientId: 'R-GET-1', modality: 'MR' });
    const res = await s.request('GET', `exams/${id}`, { token: rad1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, patientId: 'R-GET-1', modality: 'MR', bucketId: s.ids.hospitalId, bucketName: '市第一人民医院放射科', reportStatus: 'none', reportId: null, reportSource: 'inhouse' });
  });

  it('is 404 for another organisation\'s exam, an unknown id, and 403 without exam or report rights', async () => {
    const elsewhere = await createGroup(s);
    const foreign = await insertExam(s, { bucketId: elsewhere.bucketId });
    expect((await s.request('GET', `exams/${foreign}`, { token: admin })).status).toBe(404);
    expect((await s.request('GET', 'exams/2147483647', { token: admin })).status).toBe(404);
    const mine = await insertExam(s);
    expect((await s.request('GET', `exams/${mine}`, { token: await tokenOf(s, 'registrar') })).status).toBe(403);
    expect((await s.request('GET', `exams/${mine}`, { token: await tokenOf(s, 'expert') })).status).toBe(404);
    expect((await s.request('GET', 'exams/abc', { token: admin })).status).toBe(400);
  });

  it('lets a collaborator (report actions only) read the exams of its organisation', async () => {
    const collaborator = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, accessLevel: 'collaborator', actions: ['report_upsert'] }] });
    const token = await s.login(collaborator.username);
    const id = await insertExam(s);
    expect((await s.request('GET', `exams/${id}`, { token })).status).toBe(200);
  });
});

describe('POST exams/{id}', () => {
  it('updates the given fields and keeps the others', async () => {
    const id = await insertExam(s, { patientId: 'R-UPD-1' });
    const res = await s.request('POST', `exams/${id}`, {
      token: admin,
      body: { patientName: ' 王小明 ', patientGender: 'M', visitAge: '45Y', bodyPart: '腹部', urgentFlag: true, examTime: '2026-03-01T08:30:00+08:00', extensions: { ward: '3' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, patientName: '王小明', patientGender: 'M', visitAge: '45Y', bodyPart: '腹部', urgentFlag: true, patientId: 'R-UPD-1', examTime: '2026-03-01T00:30:00.000Z', extensions: { ward: '3' } });
  });

  it.each([
    ['I', { patientSource: 'I', inpatientId: 'ZY1' }, ['bedNum']],
    ['I', { patientSource: 'I' }, ['inpatientId', 'bedNum']],
    ['O', { patientSource: 'O' }, ['outpatientId']],
    ['NO', { patientSource: 'NO', outpatientId: '  ' }, ['outpatientId']],
    ['P', { patientSource: 'P' }, ['physicalExamId']],
  ] as const)('refuses patient source %s without its fields (%j) and changes nothing', async (_source, body, missing) => {
    const id = await insertExam(s);
    const before = await examRow(id);
    const res = await s.request('POST', `exams/${id}`, { token: admin, body: { ...body, patientName: '不应保存' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toEqual(missing);
    expect(await examRow(id)).toEqual(before);
  });

  it.each([
    ['I', { patientSource: 'I', inpatientId: 'ZY9', bedNum: '3-12' }],
    ['O', { patientSource: 'O', outpatientId: 'MZ9' }],
    ['NO', { patientSource: 'NO', outpatientId: 'MZ10' }],
    ['P', { patientSource: 'P', physicalExamId: 'TJ9' }],
    ['E', { patientSource: 'E' }],
    ['none', { patientSource: null }],
  ] as const)('accepts patient source %s with its fields', async (_source, body) => {
    const id = await insertExam(s);
    const res = await s.request('POST', `exams/${id}`, { token: admin, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(body);
  });

  it('checks the rule against the stored fields: the source alone is enough when its ids are there already', async () => {
    const id = await insertExam(s);
    await s.db.db.update(t.exams).set({ inpatientId: 'ZY77', bedNum: '1-1' }).where(eq(t.exams.id, id));
    const res = await s.request('POST', `exams/${id}`, { token: admin, body: { patientSource: 'I' } });
    expect(res.status).toBe(200);
    const cleared = await s.request('POST', `exams/${id}`, { token: admin, body: { bedNum: null } });
    expect(cleared.status).toBe(400);
    expect((await examRow(id)).bedNum).toBe('1-1');
  });

  it.each([
    ['an unknown field', { bucketId: 2 }],
    ['an empty patient name', { patientName: '  ' }],
    ['a bad gender', { patientGender: 'X' }],
    ['a bad age', { visitAge: '45 years' }],
    ['a bad date of birth', { patientDob: '1990-02-30' }],
    ['an exam time without a zone', { examTime: '2026-03-01T08:30:00' }],
    ['a lower-case modality', { modality: 'ct' }],
    ['a body part count of 0', { bodyPartCount: 0 }],
    ['a weight as text', { weight: '70' }],
    ['a NUL character', { studyDescription: 'a\u0000b' }],
  ])('refuses %s with 400 and changes nothing', async (_name, body) => {
    const id = await insertExam(s);
    const before = await examRow(id);
    const res = await s.request('POST', `exams/${id}`, { token: admin, body });
    expect(res.status).toBe(400);
    expect(await examRow(id)).toEqual(before);
  });

  it('is 403 without exam_update, 404 for another organisation or a deleted exam', async () => {
    const id = await insertExam(s);
    expect((await s.request('POST', `exams/${id}`, { token: rad1, body: { urgentFlag: true } })).status).toBe(403);
    const elsewhere = await createGroup(s);
    const foreign = await insertExam(s, { bucketId: elsewhere.bucketId });
    expect((await s.request('POST', `exams/${foreign}`, { token: admin, body: { urgentFlag: true } })).status).toBe(404);
    await s.db.db.update(t.exams).set({ deletedTime: s.clock.now() }).where(eq(t.exams.id, id));
    expect((await s.request('POST', `exams/${id}`, { token: admin, body: { urgentFlag: true } })).status).toBe(404);
  });
});

describe('soft delete and recovery', () => {
  it('takes the exam out of the list into the deleted view, and recovery brings it back', async () => {
    const id = await insertExam(s, { patientId: 'R-DEL-1' });
    const filters = [{ field: 'patientId', operator: 'equal', values: ['R-DEL-1'] }];
    expect((await pageQuery(s, admin, { filters })).total).toBe(1);
    expect((await s.request('DELETE', `exams/${id}/delete`, { token: admin })).status).toBe(204);
    expect((await pageQuery(s, admin, { filters })).total).toBe(0);
    const since = new Date(s.clock.now().getTime() - 30 * DAY).toISOString();
    const deleted = await pageQuery(s, admin, { filters: [...filters, { field: 'deletedTime', operator: 'gte', values: [since] }] });
    expect(deleted.items.map((e) => e.id)).toEqual([id]);
    expect((await s.request('GET', `exams/${id}`, { token: admin })).body.deletedTime).toBe(s.clock.now().toISOString());
    expect((await s.request('DELETE', `exams/${id}/delete`, { token: admin })).status).toBe(404);
    const recovered = await s.request('POST', `exams/${id}/recover`, { token: admin });
    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({ id, deletedTime: null });
    expect((await pageQuery(s, admin, { filters })).total).toBe(1);
    expect((await s.request('POST', `exams/${id}/recover`, { token: admin })).status).toBe(404);
  });

  it('is gone after 30 days: out of the deleted view, not readable, not recoverable', async () => {
    const id = await insertExam(s, { patientId: 'R-DEL-31' });
    expect((await s.request('DELETE', `exams/${id}/delete`, { token: admin })).status).toBe(204);
    s.clock.advance(29 * DAY);
    const since = () => new Date(s.clock.now().getTime() - 30 * DAY).toISOString();
    const view = () => pageQuery(s, admin, { filters: [{ field: 'patientId', operator: 'equal', values: ['R-DEL-31'] }, { field: 'deletedTime', operator: 'gte', values: [since()] }] });
    expect((await view()).total).toBe(1);
    s.clock.advance(2 * DAY);
    // Even a client asking for an older window sees only the last 30 days.
    const older = await pageQuery(s, admin, { filters: [{ field: 'patientId', operator: 'equal', values: ['R-DEL-31'] }, { field: 'deletedTime', operator: 'gte', values: ['2000-01-01T00:00:00Z'] }] });
    expect(older.total).toBe(0);
    expect((await view()).total).toBe(0);
    expect((await s.request('GET', `exams/${id}`, { token: admin })).status).toBe(404);
    expect((await s.request('POST', `exams/${id}/recover`, { token: admin })).status).toBe(404);
    expect((await examRow(id)).deletedTime).not.toBeNull();
  });

  it('needs exam_delete: 403 for a radiologist, 404 for another organisation', async () => {
    const id = await insertExam(s);
    expect((await s.request('DELETE', `exams/${id}/delete`, { token: rad1 })).status).toBe(403);
    expect((await examRow(id)).deletedTime).toBeNull();
    const elsewhere = await createGroup(s);
    const foreign = await insertExam(s, { bucketId: elsewhere.bucketId });
    expect((await s.request('DELETE', `exams/${foreign}/delete`, { token: admin })).status).toBe(404);
    await s.db.db.update(t.exams).set({ deletedTime: s.clock.now() }).where(eq(t.exams.id, id));
    expect((await s.request('POST', `exams/${id}/recover`, { token: rad1 })).status).toBe(403);
  });
});

describe('past exams and co-exams', () => {
  it('lists the same patient\'s other live exams of the organisation, latest first, at most 15', async () => {
    const base = s.clock.now().getTime();
    const ids: number[] = [];
    for (let i = 0; i < 18; i++) ids.push(await insertExam(s, { patientId: 'R-PAST', examTime: new Date(base - i * DAY) }));
    await insertExam(s, { patientId: 'R-PAST-OTHER' });
    const elsewhere = await createGroup(s);
    await insertExam(s, { bucketId: elsewhere.bucketId, patientId: 'R-PAST' });
    await s.db.db.update(t.exams).set({ deletedTime: s.clock.now() }).where(eq(t.exams.id, ids[17]!));
    const [current] = ids;
    const past = await s.request('POST', `exams/${current}/past`, { token: rad1, body: {} });
    expect(past.status).toBe(200);
    expect(past.body.items.map((e: { id: number }) => e.id)).toEqual(ids.slice(1, 16));
    expect(past.body.total).toBe(16);
    const count = await s.request('POST', `exams/${current}/past/count`, { token: rad1 });
    expect(count.body).toEqual({ total: 16 });
    const later = await s.request('POST', `exams/${current}/past`, { token: rad1, body: { skip: 10, limit: 5 } });
    expect(later.body.items.map((e: { id: number }) => e.id)).toEqual(ids.slice(11, 16));
    expect((await s.request('POST', `exams/${current}/past`, { token: rad1, body: { limit: 16 } })).status).toBe(400);
  });

  it('lists co-exams: the same accession number, or the same patient within 12 hours', async () => {
    const base = s.clock.now().getTime();
    const anchor = await insertExam(s, { patientId: 'R-CO', modality: 'CT', examTime: new Date(base) });
    const sameVisit = await insertExam(s, { patientId: 'R-CO', modality: 'DX', examTime: new Date(base + 3 * 3_600_000) });
    await insertExam(s, { patientId: 'R-CO', modality: 'MR', examTime: new Date(base + 30 * 3_600_000) });
    const sameAccession = await insertExam(s, { patientId: 'R-CO-OTHER-ID', examTime: new Date(base - 5 * DAY) });
    await s.db.db.update(t.exams).set({ accessionNumber: 'ACC-CO-1' }).where(eq(t.exams.id, anchor));
    await s.db.db.update(t.exams).set({ accessionNumber: 'ACC-CO-1' }).where(eq(t.exams.id, sameAccession));
    const res = await s.request('GET', `exams/${anchor}/co-exams`, { token: rad1 });
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: { id: number }) => e.id)).toEqual([sameAccession, sameVisit]);
    expect(res.body.total).toBe(2);
  });

  it('refuses readers of other organisations', async () => {
    const id = await insertExam(s);
    expect((await s.request('POST', `exams/${id}/past`, { token: await tokenOf(s, 'expert'), body: {} })).status).toBe(404);
    expect((await s.request('GET', `exams/${id}/co-exams`, { token: await tokenOf(s, 'registrar') })).status).toBe(403);
  });
});

describe('GET exams/{id}/detail', () => {
  it('answers the exam, its reports and the counts of the drawer', async () => {
    const report = await reportIn(s, 'final');
    const res = await s.request('GET', `exams/${report.examId}/detail`, { token: rad1 });
    expect(res.status).toBe(200);
    expect(res.body.exam).toMatchObject({ id: report.examId, reportId: report.id, reportStatus: 'final' });
    expect(res.body.reportId).toBe(report.id);
    expect(res.body.reports).toEqual([expect.objectContaining({ id: report.id, examId: report.examId, status: 'final', joint: false, creator: { id: s.ids.accounts.rad1, name: '李明' } })]);
    const traces = await tracesOf(s, report.id);
    expect(traces.length).toBeGreaterThan(0);
    expect(res.body.counts).toMatchObject({ reports: 1, keyImages: 0, attachments: 0, instances: 0, series: 0, traces: traces.length });
  });

  it('counts the asked report and refuses a report of another exam', async () => {
    const report = await reportIn(s, 'partial');
    const other = await reportIn(s, 'partial');
    expect((await s.request('GET', `exams/${report.examId}/detail?reportId=${report.id}`, { token: rad1 })).body.reportId).toBe(report.id);
    expect((await s.request('GET', `exams/${report.examId}/detail?reportId=${other.id}`, { token: rad1 })).status).toBe(404);
    expect((await s.request('GET', `exams/${report.examId}/detail?reportId=x`, { token: rad1 })).status).toBe(400);
    expect((await s.request('GET', `exams/${report.examId}/detail?other=1`, { token: rad1 })).status).toBe(400);
  });
});

describe('POST exams/newly (the new-exam poll)', () => {
  it('answers the 5 newest exams of the last 7 days with their total, newest first', async () => {
    const owner = await createGroup(s);
    const account = await createAccount(s, { groupId: owner.groupId, buckets: [{ bucketId: owner.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(account.username);
    const base = s.clock.now().getTime();
    await s.db.db.insert(t.exams).values([
      ...Array.from({ length: 7 }, (_, i) => ({ bucketId: owner.bucketId, patientName: `新${i}`, patientId: `N${i}`, modality: 'CT', examTime: new Date(base), created: new Date(base - i * 3_600_000) })),
      { bucketId: owner.bucketId, patientName: '旧', patientId: 'OLD', modality: 'CT', examTime: new Date(base), created: new Date(base - 8 * DAY) },
    ]);
    const since = new Date(base - 7 * DAY).toISOString();
    const res = await s.request('POST', 'exams/newly', { token, body: { limit: 5, skip: 0, filters: [{ field: 'created', operator: 'gte', values: [since] }] } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: { patientId: string }) => e.patientId)).toEqual(['N0', 'N1', 'N2', 'N3', 'N4']);
    expect(res.body.total).toBe(7);
    const wider = await s.request('POST', 'exams/newly', { token, body: { filters: [{ field: 'created', operator: 'gte', values: ['2000-01-01T00:00:00Z'] }] } });
    expect(wider.body.total).toBe(7);
    expect((await s.request('POST', 'exams/newly', { token, body: { limit: 6 } })).status).toBe(400);
  });

  // Issue 32: the poll tells only those who can act on it. The server answers from the organisations whose exams the
  // account reads (a registrar of the same organisation gets nothing), and the client narrows it to those where it
  // writes reports (bucketId in …): an organisation asked for that the account does not read adds nothing.
  it("answers a registrar nothing, and keeps to the organisations the poll names within the account's own", async () => {
    const hospital = await createGroup(s);
    const other = await createGroup(s);
    const base = s.clock.now().getTime();
    await s.db.db.insert(t.exams).values([
      { bucketId: hospital.bucketId, patientName: '甲', patientId: 'H1', modality: 'CT', examTime: new Date(base), created: new Date(base - 60_000) },
      { bucketId: other.bucketId, patientName: '乙', patientId: 'O1', modality: 'CT', examTime: new Date(base), created: new Date(base - 60_000) },
    ]);
    const registrar = await createAccount(s, { groupId: hospital.groupId, buckets: [{ bucketId: hospital.bucketId, accessLevel: 'member', actions: ['registry_create', 'calling_call'] }] });
    const reporter = await createAccount(s, { groupId: hospital.groupId, buckets: [{ bucketId: hospital.bucketId, accessLevel: 'member', actions: ['exam_get', 'report_upsert'] }] });
    const poll = async (username: string, buckets?: number[]) => {
      const filters = buckets ? [{ field: 'bucketId', operator: 'in', values: buckets }] : [];
      const res = await s.request('POST', 'exams/newly', { token: await s.login(username), body: { limit: 5, skip: 0, filters } });
      expect(res.status).toBe(200);
      return { ids: res.body.items.map((e: { patientId: string }) => e.patientId), total: res.body.total };
    };
    expect(await poll(registrar.username)).toEqual({ ids: [], total: 0 });
    expect(await poll(registrar.username, [hospital.bucketId])).toEqual({ ids: [], total: 0 });
    expect(await poll(reporter.username, [hospital.bucketId])).toEqual({ ids: ['H1'], total: 1 });
    expect(await poll(reporter.username, [other.bucketId])).toEqual({ ids: [], total: 0 });
  });
  // Issue 32: a line booked at the desk for a later day is an exam row, but nothing can be read yet: no news.
  it('announces a booked line only once it is performed or has images', async () => {
    const owner = await createGroup(s);
    const account = await createAccount(s, { groupId: owner.groupId, buckets: [{ bucketId: owner.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(account.username);
    const base = s.clock.now().getTime();
    const row = (patientId: string, examStatus: string | null, hasImage: boolean) => ({
      bucketId: owner.bucketId, patientName: patientId, patientId, modality: 'CT', examTime: new Date(base + DAY), created: new Date(base - 60_000), examStatus, hasImage,
    });
    await s.db.db.insert(t.exams).values([row('BOOKED', 'Scheduled', false), row('ARRIVED', 'Arrived', false), row('DONE', 'Performed', false), row('IMAGED', 'Arrived', true), row('UPLOAD', null, true)]);
    const res = await s.request('POST', 'exams/newly', { token, body: { limit: 5, skip: 0 } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: { patientId: string }) => e.patientId).sort()).toEqual(['DONE', 'IMAGED', 'UPLOAD']);
    expect(res.body.total).toBe(3);
  });
});

describe('junk bodies', () => {
  it.each(['exams/page-query', 'exams/query/count', 'exams/newly', 'exports/exams', 'report-table-colour/create', 'report-table-colour/update', 'EXAM', 'EXAM/past'])(
    'are 400 ParamsError on POST %s, never a 500', async (target) => {
      const id = await insertExam(s);
      const path = target.replace('EXAM', `exams/${id}`);
      const before = await examRow(id);
      for (const body of ['{not json', '[1,2]', '"text"', '42', JSON.stringify({ filters: 'x', limit: 'all' }), JSON.stringify({ ['__proto__']: { admin: true } })]) {
        const res = await s.request('POST', path, { token: admin, body, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${path} ${body}`).toBe(400);
        expect(res.body.code).toBe('ParamsError');
      }
      expect(await examRow(id)).toEqual(before);
    });
});
