import { and, count, eq, isNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../contract/days';
import type { Registration, RegistryCreateInput, RegistryPage, RegistryRow, RegistrySetup } from '../../contract/registry';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The registry (areas §5, §7 "Registry"; issue 10): every rule answers its catalogue code and writes nothing; the
 * line actions follow the registration machine, lock the registration and refuse a stale version; the list's
 * defaults; the look-up's matchDob; the export; who may do what.
 */
let s: TestServer;
let registrar: string;
let hospital: number;
let setup: RegistrySetup;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** An instant later today in the hospital's zone when there is time left, else tomorrow morning (still "not before today"). */
const soon = () => new Date(s.clock.now().getTime() + HOUR).toISOString();
const yesterday = () => new Date(s.clock.now().getTime() - DAY).toISOString();
const stepId = (modality: string, during = false) => setup.steps.find((st) => st.modality === modality && st.reportDuringExam === during)!.id;

function registration(over: Partial<RegistryCreateInput> = {}, name = `测试${Math.random().toString(36).slice(2, 7)}`): RegistryCreateInput {
  return {
    bucketId: hospital,
    patient: { patientName: name, patientGender: 'F', patientSource: 'O', outpatientId: 'MZ0001', phone: '13800138000', age: 40, ageUnit: 'Y' },
    exams: [{ procedureStepId: stepId('CT'), scheduledTime: soon() }],
    ...over,
  };
}

async function create(body: RegistryCreateInput, token = registrar): Promise<Registration> {
  const res = await s.request('POST', 'registry', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Registration;
}

const counts = async () => {
  const [regs] = await s.db.db.select({ n: count() }).from(t.registrations);
  const [lines] = await s.db.db.select({ n: count() }).from(t.exams).where(isNull(t.exams.deletedTime));
  const [audit] = await s.db.db.select({ n: count() }).from(t.auditEvents);
  return { regs: regs!.n, lines: lines!.n, audit: audit!.n };
};

/** A refusal with its code and nothing written. */
async function refused(method: string, path: string, body: unknown, status: number, code: string, token = registrar) {
  const before = await counts();
  const res = await s.request(method, path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(await counts()).toEqual(before);
  return res.body as { code: string; message: string; details?: Record<string, unknown> };
}

const lineRow = async (examId: number) => (await s.db.db.select().from(t.exams).where(eq(t.exams.id, examId)))[0]!;

beforeAll(async () => {
  s = await startServer({ exams: 40 });
  registrar = await tokenOf(s, 'registrar');
  hospital = s.ids.hospitalId;
  const res = await s.request('GET', `buckets/${hospital}/registry/setup`, { token: registrar });
  expect(res.status).toBe(200);
  setup = res.body as RegistrySetup;
});
afterAll(async () => s?.close());

describe('setup', () => {
  it('lists the organisation steps, its zone, the group rule and the caller rights', () => {
    expect(setup.steps.length).toBeGreaterThanOrEqual(8);
    expect(setup.steps.some((st) => st.reportDuringExam)).toBe(true);
    expect(setup).toMatchObject({ bucketId: hospital, timeZone: 'Asia/Shanghai', isPet: false, actions: ['registry_create', 'registry_update', 'registry_delete'] });
  });
});

describe('POST registry', () => {
  it('registers a patient with two lines: exams rows with accession numbers, Registered today and Scheduled later', async () => {
    const reg = await create(registration({ exams: [{ procedureStepId: stepId('CT'), scheduledTime: soon() }, { modality: 'US', bodyPart: '腹部', scheduledTime: new Date(s.clock.now().getTime() + 3 * DAY).toISOString() }] }));
    expect(reg.lines).toHaveLength(2);
    const [first, second] = reg.lines as [RegistryRow, RegistryRow];
    const today = dayIn(s.clock.now(), 'Asia/Shanghai');
    expect(first.status).toBe(dayIn(new Date(first.scheduledTime), 'Asia/Shanghai') === today ? 'Registered' : 'Scheduled');
    expect(second.status).toBe('Scheduled');
    expect(first.accessionNumber).toMatch(/^R\d{8}\d{2}\d{7}$/);
    expect(first.accessionNumber).not.toBe(second.accessionNumber);
    expect(first.patientId).toMatch(/^P\d{14}$/);
    expect(first.patientId).toBe(second.patientId);
    expect(first.visitAge).toBe('40Y');
    expect(first.procedureStep?.id).toBe(stepId('CT'));
    expect(first.transitions).toEqual(expect.arrayContaining(['edit', 'check-in', 'cancel', 'delete', 'match']));
    expect(first.transitions).not.toContain('revoke');
    // The trace: who registered whom.
    const trail = await s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.objectType, 'registration'), eq(t.auditEvents.objectId, String(reg.id))));
    expect(trail.map((e) => e.action)).toEqual(['register']);
  });

  it('shows registered exams in the worklist like uploaded ones', async () => {
    const reg = await create(registration());
    const res = await s.request('POST', 'exams/page-query', {
      token: await tokenOf(s, 'rad1'),
      body: { filters: [{ field: 'accessionNumber', operator: 'equal', values: [reg.lines[0]!.accessionNumber] }], skip: 0, limit: 5 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((e: { id: number }) => e.id)).toEqual([reg.lines[0]!.examId]);
  });

  it('refuses a sixth exam line', async () => {
    const six = Array.from({ length: 6 }, () => ({ modality: 'CT', scheduledTime: soon() }));
    await refused('POST', 'registry', registration({ exams: six }), 400, 'RegistryTooManyExams');
  });
  it('refuses yesterday (the organisation day)', async () => {
    await refused('POST', 'registry', registration({ exams: [{ modality: 'CT', scheduledTime: yesterday() }] }), 400, 'ScheduledTimeInPast');
  });
  it('refuses a line with neither step nor modality, and an unknown step or one of another organisation', async () => {
    await refused('POST', 'registry', registration({ exams: [{ scheduledTime: soon() }] }), 400, 'ProcedureRequired');
    await refused('POST', 'registry', registration({ exams: [{ procedureStepId: 999_999, scheduledTime: soon() }] }), 400, 'UnknownProcedureStep');
    const [other] = await s.db.db.insert(t.procedureSteps).values({ bucketId: s.ids.expertCentreId, name: '别处', modality: 'CT' }).returning();
    await refused('POST', 'registry', registration({ exams: [{ procedureStepId: other!.id, scheduledTime: soon() }] }), 400, 'UnknownProcedureStep');
  });
  it('asks each patient source for its ids', async () => {
    const base = registration().patient;
    const cases: [string, Record<string, string | null>, string[]][] = [
      ['I', { inpatientId: 'ZY1', bedNum: null }, ['bedNum']],
      ['I', { inpatientId: null, bedNum: null }, ['inpatientId', 'bedNum']],
      ['O', { outpatientId: null }, ['outpatientId']],
      ['NO', { outpatientId: '' }, ['outpatientId']],
      ['P', { outpatientId: null, physicalExamId: null }, ['physicalExamId']],
    ];
    for (const [source, ids, missing] of cases) {
      const body = await refused('POST', 'registry', registration({ patient: { ...base, patientSource: source as 'I', ...ids } }), 400, 'SourceIdRequired');
      expect(body.details?.fields).toEqual(missing);
    }
    // Emergency needs no id.
    await create(registration({ patient: { ...base, patientSource: 'E', outpatientId: null } }));
  });
  it('refuses a pet gender in a human domain, a bad age unit and a bad phone with ParamsError', async () => {
    const base = registration().patient;
    await refused('POST', 'registry', registration({ patient: { ...base, patientGender: 'MS' } }), 400, 'ParamsError');
    await refused('POST', 'registry', { ...registration(), patient: { ...base, ageUnit: 'X' } }, 400, 'ParamsError');
    await refused('POST', 'registry', registration({ patient: { ...base, phone: 'call me' } }), 400, 'ParamsError');
  });
  it('refuses an organisation of another group, one without a desk, and an account without registry rights', async () => {
    const elsewhere = await createGroup(s);
    await refused('POST', 'registry', registration({ bucketId: elsewhere.bucketId }), 404, 'NotFound');
    // The expert centre is of the same group but not one of its registry organisations.
    await refused('POST', 'registry', registration({ bucketId: s.ids.expertCentreId }), 403, 'Forbidden', await tokenOf(s, 'admin'));
    await refused('POST', 'registry', registration(), 403, 'Forbidden', await tokenOf(s, 'rad1'));
    // registry_update alone cannot register.
    const updater = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: hospital, actions: ['registry_update'] }] });
    await refused('POST', 'registry', registration(), 403, 'Forbidden', await s.login(updater.username));
  });
});

describe('the list', () => {
  it('defaults to 10 rows, newest registration first, desk registrations only', async () => {
    const res = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: {} });
    expect(res.status).toBe(200);
    const page = res.body as RegistryPage;
    expect(page.items.length).toBe(10);
    const created = page.items.map((r) => Date.parse(r.created));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    const external = await s.db.db.select({ n: count() }).from(t.exams).innerJoin(t.registrations, eq(t.registrations.id, t.exams.registrationId))
      .where(and(eq(t.exams.bucketId, hospital), isNull(t.exams.deletedTime), eq(t.registrations.bucketId, hospital)));
    const all = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: { filters: [{ field: 'sourceScope', operator: 'equal', values: ['all'] }], limit: 1 } });
    const outside = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: { filters: [{ field: 'sourceScope', operator: 'equal', values: ['external'] }], limit: 100 } });
    expect(all.body.total).toBe(external[0]!.n);
    expect(outside.body.total).toBeGreaterThan(0);
    expect(page.total + outside.body.total).toBe(all.body.total);
  });
  it('filters by status, day, source, modality and search', async () => {
    const reg = await create(registration({}, '检索测试患者'));
    const line = reg.lines[0]!;
    const q = async (filters: unknown[]) => (await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: { filters, limit: 100 } })).body as RegistryPage;
    expect((await q([{ field: 'search', operator: 'like', values: ['检索测试'] }])).items.map((r) => r.examId)).toEqual([line.examId]);
    expect((await q([{ field: 'search', operator: 'like', values: [line.accessionNumber] }])).items.map((r) => r.examId)).toEqual([line.examId]);
    const arrived = await q([{ field: 'examStatus', operator: 'equal', values: ['Arrived'] }, { field: 'sourceScope', operator: 'equal', values: ['all'] }]);
    expect(arrived.items.length).toBeGreaterThan(0);
    expect(arrived.items.every((r) => r.status === 'Arrived')).toBe(true);
    const day = await q([{ field: 'scheduledTime', operator: 'gte', values: [line.scheduledTime] }, { field: 'scheduledTime', operator: 'lte', values: [line.scheduledTime] }]);
    expect(day.items.map((r) => r.examId)).toContain(line.examId);
    expect((await q([{ field: 'patientSource', operator: 'in', values: ['I', 'P'] }])).items.every((r) => ['I', 'P'].includes(r.patientSource!))).toBe(true);
    expect((await q([{ field: 'modality', operator: 'equal', values: ['CT'] }])).items.every((r) => r.modality === 'CT')).toBe(true);
  });
  it("answers 'params error' without a current organisation, and refuses unknown fields and operators", async () => {
    for (const id of ['0', 'null', 'abc']) {
      const res = await s.request('POST', `buckets/${id}/registry/query`, { token: registrar, body: {} });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'ParamsError', message: 'params error' });
    }
    const bad = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: { filters: [{ field: 'password', operator: 'equal', values: ['x'] }] } });
    expect(bad.status).toBe(400);
    const op = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: { filters: [{ field: 'examStatus', operator: 'like', values: ['A'] }] } });
    expect(op.status).toBe(400);
    const status = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: { filters: [{ field: 'examStatus', operator: 'equal', values: ['Lost'] }] } });
    expect(status.status).toBe(400);
  });
});

describe('line actions', () => {
  it('checks in, then revokes back to exactly the earlier status and arrival', async () => {
    const reg = await create(registration());
    const line = reg.lines[0]!;
    const arrived = await s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Arrived', version: reg.version } });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
    const after = (arrived.body as Registration).lines[0]!;
    expect(after.status).toBe('Arrived');
    expect(after.arrivedTime).toBe(s.clock.now().toISOString());
    expect(after.transitions).toEqual(expect.arrayContaining(['revoke', 'cancel', 'match']));
    const revoked = await s.request('POST', `scheduled-exams/${line.examId}/revoke`, { token: registrar, body: { version: (arrived.body as Registration).version } });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const back = (revoked.body as Registration).lines[0]!;
    expect(back).toMatchObject({ status: line.status, arrivedTime: null });
    // One step back only: a second revoke is refused and changes nothing.
    await refused('POST', `scheduled-exams/${line.examId}/revoke`, { version: (revoked.body as Registration).version }, 409, 'InvalidTransition');
  });

  it('a step read during the exam is Performed on arrival; revoking it deletes its report with a trace', async () => {
    const reg = await create(registration({ exams: [{ procedureStepId: stepId('ECG', true), scheduledTime: soon() }] }));
    const line = reg.lines[0]!;
    const res = await s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Arrived', version: reg.version } });
    expect((res.body as Registration).lines[0]!.status).toBe('Performed');
    // A radiologist writes its report.
    const made = await s.request('POST', `exams/${line.examId}/reports`, { token: await tokenOf(s, 'rad1'), body: {} });
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
    expect((await lineRow(line.examId)).reportId).not.toBeNull();
    const revoked = await s.request('POST', `scheduled-exams/${line.examId}/revoke`, { token: registrar, body: { version: (res.body as Registration).version } });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    // One step back is the state before the check-in that completed it.
    expect((revoked.body as Registration).lines[0]).toMatchObject({ status: line.status, arrivedTime: null });
    const exam = await lineRow(line.examId);
    expect(exam.reportId).toBeNull();
    const live = await s.db.db.select().from(t.reports).where(and(eq(t.reports.examId, line.examId), isNull(t.reports.deletedTime)));
    expect(live).toEqual([]);
    const trail = await s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.objectType, 'exam'), eq(t.auditEvents.objectId, String(line.examId))));
    const revoke = trail.find((e) => e.action === 'revoke')!;
    expect((revoke.after as { deletedReports: unknown[] }).deletedReports).toHaveLength(1);
  });

  it('refuses a stale revoke (someone else changed the state) and changes nothing', async () => {
    const reg = await create(registration());
    const line = reg.lines[0]!;
    const arrived = (await s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Arrived', version: reg.version } })).body as Registration;
    const other = await s.request('POST', `scheduled-exams/${line.examId}/revoke`, { token: registrar, body: { version: arrived.version } });
    expect(other.status).toBe(200);
    // The first desk still holds the arrived version.
    await refused('POST', `scheduled-exams/${line.examId}/revoke`, { version: arrived.version }, 409, 'VersionConflict');
  });

  it('lets one of two simultaneous check-ins win', async () => {
    const reg = await create(registration());
    const body = { examId: reg.lines[0]!.examId, status: 'Arrived', version: reg.version };
    const results = await Promise.all([0, 1].map(() => s.request('POST', 'exam/status', { token: registrar, body })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await lineRow(reg.lines[0]!.examId)).examStatus).toBe('Arrived');
  });

  it('cancels with a reason only, and deletes lines nobody checked in', async () => {
    const reg = await create(registration({ exams: [{ modality: 'CT', scheduledTime: soon() }, { modality: 'DX', scheduledTime: soon() }] }));
    const [a, b] = reg.lines as [RegistryRow, RegistryRow];
    await refused('POST', `scheduled-exams/${a.examId}/cancel`, { version: reg.version, reason: '  ' }, 400, 'ParamsError');
    const cancelled = await s.request('POST', `scheduled-exams/${a.examId}/cancel`, { token: registrar, body: { version: reg.version, reason: '患者未到' } });
    expect(cancelled.status).toBe(200);
    const reg2 = cancelled.body as Registration;
    expect(reg2.lines.find((l) => l.examId === a.examId)).toMatchObject({ status: 'Cancelled', cancelReason: '患者未到' });
    const gone = await s.request('DELETE', `scheduled-exams/${b.examId}?version=${reg2.version}`, { token: registrar });
    expect(gone.status).toBe(200);
    expect(await s.db.db.select().from(t.exams).where(eq(t.exams.id, b.examId))).toEqual([]);
    // rad1 may not delete; an arrived line is not deleted.
    await refused('DELETE', `scheduled-exams/${a.examId}?version=${reg2.version + 1}`, undefined, 403, 'Forbidden', await tokenOf(s, 'rad1'));
    const c = await create(registration());
    const arrived = (await s.request('POST', 'exam/status', { token: registrar, body: { examId: c.lines[0]!.examId, status: 'Arrived', version: c.version } })).body as Registration;
    await refused('DELETE', `scheduled-exams/${c.lines[0]!.examId}?version=${arrived.version}`, undefined, 409, 'InvalidTransition');
  });

  it('matches a scheduled line to a completed exam of the same patient, and refuses another patient', async () => {
    const reg = await create(registration({}, '匹配测试'));
    const line = reg.lines[0]!;
    const [done] = await s.db.db.insert(t.exams).values({
      bucketId: hospital, patientName: '匹配测试', patientId: line.patientId, modality: 'CT', examTime: s.clock.now(), hasImage: true, created: s.clock.now(),
    }).returning();
    const [stranger] = await s.db.db.insert(t.exams).values({
      bucketId: hospital, patientName: '别人', patientId: 'OTHER-1', modality: 'CT', examTime: s.clock.now(), created: s.clock.now(),
    }).returning();
    await refused('POST', `exams/${stranger!.id}/match/${line.examId}`, { version: reg.version }, 400, 'MatchMismatch');
    const res = await s.request('POST', `exams/${done!.id}/match/${line.examId}`, { token: registrar, body: { version: reg.version } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as Registration).lines[0]!.status).toBe('Performed');
    expect((await lineRow(done!.id)).matchedScheduleId).toBe(line.examId);
    const schedules = await s.request('GET', `exams/${done!.id}/schedules`, { token: registrar });
    expect(schedules.status).toBe(200);
  });

  it('keeps extension fields per line', async () => {
    const reg = await create(registration());
    const res = await s.request('POST', `scheduled-exams/${reg.lines[0]!.examId}/extension`, { token: registrar, body: { version: reg.version, extension: { contrast: true, note: '碘过敏史' } } });
    expect(res.status).toBe(200);
    expect((res.body as Registration).lines[0]!.extension).toEqual({ contrast: true, note: '碘过敏史' });
  });
});

describe('PUT registry', () => {
  it('edits the patient and the open lines, adds and removes lines, and bumps the version', async () => {
    const reg = await create(registration({ exams: [{ modality: 'CT', scheduledTime: soon() }, { modality: 'DX', scheduledTime: soon() }] }));
    const [a] = reg.lines as [RegistryRow, RegistryRow];
    const later = new Date(s.clock.now().getTime() + 2 * DAY).toISOString();
    const res = await s.request('PUT', 'registry', { token: registrar, body: {
      registrationId: reg.id, version: reg.version, patient: { ...registration().patient, patientName: '改名后' },
      exams: [{ examId: a.examId, modality: 'MR', scheduledTime: later }, { modality: 'US', scheduledTime: soon() }],
    } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const updated = res.body as Registration;
    expect(updated.version).toBe(reg.version + 1);
    expect(updated.lines).toHaveLength(2);
    expect(updated.lines.every((l) => l.patientName === '改名后')).toBe(true);
    expect(updated.lines.find((l) => l.examId === a.examId)).toMatchObject({ modality: 'MR', status: 'Scheduled' });
    // A stale edit changes nothing.
    await refused('PUT', 'registry', { registrationId: reg.id, version: reg.version, patient: registration().patient, exams: [{ examId: a.examId, modality: 'CT', scheduledTime: soon() }] }, 409, 'VersionConflict');
  });
});

describe('look-up and export', () => {
  it('finds earlier records by name start, id or phone, one per patient, with the group matchDob rule', async () => {
    const base = registration().patient;
    const made = await create(registration({ patient: { ...base, patientName: '查找甲', patientDob: '1980-05-01', phone: '13911112222' } }));
    const look = async (q: string, patientDob: string | null = null) =>
      (await s.request('POST', `buckets/${hospital}/registry/patients`, { token: registrar, body: { q, patientDob } })).body as { patientId: string }[];
    expect((await look('查找甲')).map((r) => r.patientId)).toEqual([made.lines[0]!.patientId]);
    expect((await look('11112222')).map((r) => r.patientId)).toEqual([made.lines[0]!.patientId]);
    // shift_off (the demo group's rule): exact date only.
    expect(await look('查找甲', '1980-05-02')).toEqual([]);
    await s.db.db.update(t.groups).set({ matchDob: 'shift_on' }).where(eq(t.groups.id, s.ids.groupId));
    expect(await look('查找甲', '1980-12-01')).toHaveLength(1);
    expect(await look('查找甲', '1982-05-02')).toEqual([]);
    await s.db.db.update(t.groups).set({ matchDob: 'shift_off' }).where(eq(t.groups.id, s.ids.groupId));
  });

  it('exports the list as a real .xlsx, and refuses more than 3000 rows', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/v1/exports/schedules', headers: { authorization: `Bearer ${registrar}` }, payload: { bucketId: hospital, filters: [{ field: 'sourceScope', operator: 'equal', values: ['all'] }], lang: 'en' } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Scheduled');
    const chs = await s.app.inject({ method: 'POST', url: '/api/v1/exports/schedules', headers: { authorization: `Bearer ${registrar}` }, payload: { bucketId: hospital, filters: [], lang: 'chs' } });
    const chsBook = new ExcelJS.Workbook();
    await chsBook.xlsx.load(chs.rawPayload as unknown as ArrayBuffer);
    expect(chsBook.worksheets[0]!.getRow(1).getCell(1).value).toBe('预约时间');
    const [lines] = await s.db.db.select({ n: count() }).from(t.exams).where(and(eq(t.exams.bucketId, hospital), isNull(t.exams.deletedTime)))
      .innerJoin(t.registrations, eq(t.registrations.id, t.exams.registrationId));
    expect(sheet.rowCount - 1).toBe(lines!.n);
    // 3001 lines of one registration made straight in the database.
    const [reg] = await s.db.db.insert(t.registrations).values({ bucketId: hospital }).returning();
    await s.db.db.insert(t.exams).values(Array.from({ length: 3001 }, (_, i) => ({
      bucketId: hospital, registrationId: reg!.id, patientName: `批量${i}`, patientId: `BULK${i}`, modality: 'CT', examTime: s.clock.now(),
      scheduledTime: s.clock.now(), examStatus: 'Registered', created: s.clock.now(),
    })));
    const big = await s.request('POST', 'exports/schedules', { token: registrar, body: { bucketId: hospital, filters: [] } });
    expect(big.status).toBe(400);
    expect(big.body.code).toBe('ExportTooLarge');
    await s.db.db.delete(t.exams).where(eq(t.exams.registrationId, reg!.id));
  });

  it('finds a registration by its outside order id', async () => {
    const reg = await create(registration({ orderId: 'HIS-ORDER-42' }));
    const res = await s.request('GET', `registry/findbyorderid?bucketId=${hospital}&orderId=HIS-ORDER-42`, { token: registrar });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(reg.id);
    expect((await s.request('GET', `registry/findbyorderid?bucketId=${hospital}&orderId=NONE`, { token: registrar })).status).toBe(404);
  });
});

describe('the group switch', () => {
  it('answers every registry call 403 RegistryDisabled while the group has enableRegistry off, and writes nothing', async () => {
    const reg = await create(registration({ orderId: 'HIS-SWITCH-1' }, '开关测试'));
    const line = reg.lines[0]!;
    const [done] = await s.db.db.insert(t.exams).values({
      bucketId: hospital, patientName: '开关测试', patientId: line.patientId, modality: 'CT', examTime: s.clock.now(), hasImage: true, created: s.clock.now(),
    }).returning();
    const v = { version: reg.version };
    const calls: [string, string, unknown][] = [
      ['GET', `buckets/${hospital}/registry/setup`, undefined],
      // The list's query too: the spec's 'params error' is for a missing organisation, not for a switched-off group.
      ['POST', `buckets/${hospital}/registry/query`, {}],
      ['POST', `buckets/${hospital}/registry/patients`, { q: '开关' }],
      ['POST', 'registry', registration()],
      ['PUT', 'registry', { registrationId: reg.id, version: reg.version, patient: registration().patient, exams: [{ examId: line.examId, procedureStepId: stepId('CT'), scheduledTime: soon() }] }],
      ['GET', `registry/findbyorderid?bucketId=${hospital}&orderId=HIS-SWITCH-1`, undefined],
      ['POST', 'exam/status', { examId: line.examId, status: 'Arrived', version: reg.version }],
      ['POST', `scheduled-exams/${line.examId}/revoke`, v],
      ['POST', `scheduled-exams/${line.examId}/cancel`, { ...v, reason: '患者未到' }],
      ['POST', `scheduled-exams/${line.examId}/extension`, { ...v, extension: { note: 'x' } }],
      ['DELETE', `scheduled-exams/${line.examId}?version=${reg.version}`, undefined],
      ['GET', `exams/${done!.id}/schedules`, undefined],
      ['POST', `exams/${done!.id}/schedules`, { exams: [{ procedureStepId: stepId('CT'), scheduledTime: soon() }] }],
      ['POST', `exams/${done!.id}/match/${line.examId}`, v],
      ['POST', 'exports/schedules', { bucketId: hospital, filters: [] }],
    ];
    await s.db.db.update(t.groups).set({ enableRegistry: false }).where(eq(t.groups.id, s.ids.groupId));
    try {
      for (const [method, path, body] of calls) {
        const before = await counts();
        const res = await s.request(method, path, { token: registrar, body });
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'RegistryDisabled']);
        expect(await counts()).toEqual(before);
      }
      // Someone who is not a member still learns nothing of the organisation: 404 before the group's switch.
      const elsewhere = await createGroup(s);
      const outsider = await createAccount(s, { groupId: elsewhere.groupId, buckets: [{ bucketId: elsewhere.bucketId, actions: ['registry_create'] }] });
      expect((await s.request('GET', `buckets/${hospital}/registry/setup`, { token: await s.login(outsider.username) })).status).toBe(404);
    } finally {
      await s.db.db.update(t.groups).set({ enableRegistry: true }).where(eq(t.groups.id, s.ids.groupId));
    }
    expect((await s.request('GET', `registry/findbyorderid?bucketId=${hospital}&orderId=HIS-SWITCH-1`, { token: registrar })).status).toBe(200);
  });
});
