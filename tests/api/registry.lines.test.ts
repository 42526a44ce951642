import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registration, RegistryCreateInput, RegistryRow, RegistrySetup } from '../../contract/registry';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The registry's line actions past the happy path (issue 10 "Bad input"): revoke restores exactly the state before
 * the last step, leaving Performed drops the report and the match; PUT registry's refusals write nothing; the last
 * line takes its registration with it; booking for an exam's patient; another group's lines are not found; one
 * registration's version guards all its lines at once.
 */
let s: TestServer;
let registrar: string;
let hospital: number;
let setup: RegistrySetup;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const soon = () => new Date(s.clock.now().getTime() + HOUR).toISOString();
const stepId = (modality: string, during = false) => setup.steps.find((st) => st.modality === modality && st.reportDuringExam === during)!.id;
const patient = (name = `线测${Math.random().toString(36).slice(2, 7)}`) =>
  ({ patientName: name, patientGender: 'M' as const, patientSource: 'O' as const, outpatientId: 'MZ42', age: 30, ageUnit: 'Y' as const });

async function create(over: Partial<RegistryCreateInput> = {}): Promise<Registration> {
  const res = await s.request('POST', 'registry', { token: registrar, body: { bucketId: hospital, patient: patient(), exams: [{ modality: 'CT', scheduledTime: soon() }], ...over } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Registration;
}

async function ok(method: string, path: string, body?: unknown, token = registrar): Promise<Registration> {
  const res = await s.request(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Registration;
}
const checkIn = (reg: Registration, line: RegistryRow) => ok('POST', 'exam/status', { examId: line.examId, status: 'Arrived', version: reg.version });

/** Everything a refusal must leave alone: rows, the audit trail, and the registration's lines as stored. */
async function snapshot(registrationId?: number) {
  const [regs] = await s.db.db.select({ n: count() }).from(t.registrations);
  const [lines] = await s.db.db.select({ n: count() }).from(t.exams).where(isNull(t.exams.deletedTime));
  const [audit] = await s.db.db.select({ n: count() }).from(t.auditEvents);
  const reg = registrationId === undefined ? [] : await s.db.db.select().from(t.registrations).where(eq(t.registrations.id, registrationId));
  const rows = registrationId === undefined ? [] : await s.db.db.select().from(t.exams).where(eq(t.exams.registrationId, registrationId)).orderBy(t.exams.id);
  return { regs: regs!.n, lines: lines!.n, audit: audit!.n, reg, rows };
}

async function refused(method: string, path: string, body: unknown, status: number, code: string, registrationId?: number, token = registrar) {
  const before = await snapshot(registrationId);
  const res = await s.request(method, path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(await snapshot(registrationId)).toEqual(before);
}

const examRow = async (id: number) => (await s.db.db.select().from(t.exams).where(eq(t.exams.id, id)))[0];

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  registrar = await tokenOf(s, 'registrar');
  hospital = s.ids.hospitalId;
  setup = (await s.request('GET', `buckets/${hospital}/registry/setup`, { token: registrar })).body as RegistrySetup;
});
afterAll(async () => s?.close());

describe('revoke', () => {
  it('goes back exactly one step: status and arrival time as they were', async () => {
    const reg = await create();
    const arrived = await checkIn(reg, reg.lines[0]!);
    const firstArrival = arrived.lines[0]!.arrivedTime;
    expect(firstArrival).toBe(s.clock.now().toISOString());
    s.clock.advance(20 * 60_000);
    const performed = await ok('POST', 'exam/status', { examId: reg.lines[0]!.examId, status: 'Performed', version: arrived.version });
    expect(performed.lines[0]).toMatchObject({ status: 'Performed', arrivedTime: firstArrival });
    const back = await ok('POST', `scheduled-exams/${reg.lines[0]!.examId}/revoke`, { version: performed.version });
    expect(back.lines[0]).toMatchObject({ status: 'Arrived', arrivedTime: firstArrival });
    // Cancelled from Arrived, then revoked: Arrived again with the same arrival.
    s.clock.advance(5 * 60_000);
    const cancelled = await ok('POST', `scheduled-exams/${reg.lines[0]!.examId}/cancel`, { version: back.version, reason: '改期' });
    expect(cancelled.lines[0]).toMatchObject({ status: 'Cancelled', cancelReason: '改期' });
    const again = await ok('POST', `scheduled-exams/${reg.lines[0]!.examId}/revoke`, { version: cancelled.version });
    expect(again.lines[0]).toMatchObject({ status: 'Arrived', arrivedTime: firstArrival, cancelReason: null });
    const row = await examRow(reg.lines[0]!.examId);
    expect(row).toMatchObject({ examStatus: 'Arrived', prevExamStatus: null, prevArrivedTime: null });
  });

  it('of a matched line clears the link from the completed exam', async () => {
    const reg = await create({ patient: patient('撤销匹配') });
    const line = reg.lines[0]!;
    const [done] = await s.db.db.insert(t.exams).values({
      bucketId: hospital, patientName: '撤销匹配', patientId: line.patientId, modality: 'CT', examTime: s.clock.now(), hasImage: true, created: s.clock.now(),
    }).returning();
    const matched = await ok('POST', `exams/${done!.id}/match/${line.examId}`, { version: reg.version });
    expect(matched.lines[0]!.status).toBe('Performed');
    expect((await examRow(done!.id))!.matchedScheduleId).toBe(line.examId);
    const back = await ok('POST', `scheduled-exams/${line.examId}/revoke`, { version: matched.version });
    expect(back.lines[0]).toMatchObject({ status: line.status, arrivedTime: null });
    expect((await examRow(done!.id))!.matchedScheduleId).toBeNull();
  });

  it('refuses a line of another organisation, another patient, or the same registration as the completed exam, writing nothing', async () => {
    const reg = await create({ patient: patient('匹配拒绝'), exams: [{ modality: 'CT', scheduledTime: soon() }, { modality: 'DX', scheduledTime: soon() }] });
    const [a, b] = reg.lines as [RegistryRow, RegistryRow];
    const [elsewhere] = await s.db.db.insert(t.exams).values({
      bucketId: s.ids.expertCentreId, patientName: '匹配拒绝', patientId: a.patientId, modality: 'CT', examTime: s.clock.now(), hasImage: true, created: s.clock.now(),
    }).returning();
    await refused('POST', `exams/${elsewhere!.id}/match/${a.examId}`, { version: reg.version }, 400, 'MatchMismatch', reg.id);
    await refused('POST', `exams/${b.examId}/match/${a.examId}`, { version: reg.version }, 400, 'MatchMismatch', reg.id);
    await refused('POST', `exams/999999/match/${a.examId}`, { version: reg.version }, 400, 'MatchMismatch', reg.id);
  });
});

describe('PUT registry refusals', () => {
  async function arrivedPair() {
    const reg = await create({ exams: [{ modality: 'CT', scheduledTime: soon() }, { modality: 'DX', scheduledTime: soon() }] });
    const arrived = await checkIn(reg, reg.lines[0]!);
    return { reg: arrived, a: arrived.lines[0]!, b: arrived.lines[1]! };
  }
  const put = (reg: Registration, exams: unknown[], over: Record<string, unknown> = {}) =>
    ({ registrationId: reg.id, version: reg.version, patient: patient('改'), exams, ...over });

  it('refuses editing a line past Scheduled, and every registration rule, and writes nothing', async () => {
    const { reg, a, b } = await arrivedPair();
    const keepB = { examId: b.examId, modality: 'DX', scheduledTime: b.scheduledTime };
    await refused('PUT', 'registry', put(reg, [{ examId: a.examId, modality: 'MR', scheduledTime: soon() }, keepB]), 409, 'InvalidTransition', reg.id);
    // The arrived line counts towards the five.
    const five = Array.from({ length: 4 }, () => ({ modality: 'CT', scheduledTime: soon() }));
    await refused('PUT', 'registry', put(reg, [keepB, ...five]), 400, 'RegistryTooManyExams', reg.id);
    await refused('PUT', 'registry', put(reg, [keepB, { modality: 'CT', scheduledTime: new Date(s.clock.now().getTime() - 2 * DAY).toISOString() }]), 400, 'ScheduledTimeInPast', reg.id);
    await refused('PUT', 'registry', put(reg, [keepB, { scheduledTime: soon() }]), 400, 'ProcedureRequired', reg.id);
    await refused('PUT', 'registry', put(reg, [keepB, { procedureStepId: 987_654, scheduledTime: soon() }]), 400, 'UnknownProcedureStep', reg.id);
    await refused('PUT', 'registry', put(reg, [keepB], { patient: { ...patient(), patientSource: 'I', inpatientId: 'ZY9' } }), 400, 'SourceIdRequired', reg.id);
    await refused('PUT', 'registry', put(reg, [keepB, { examId: 999_999, modality: 'CT', scheduledTime: soon() }]), 404, 'NotFound', reg.id);
    await refused('PUT', 'registry', put(reg, []), 400, 'ParamsError', reg.id);
    // Leaving out an open line deletes it: that needs registry_delete.
    const updater = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: hospital, actions: ['registry_update'] }] });
    await refused('PUT', 'registry', put(reg, [{ modality: 'US', scheduledTime: soon() }]), 403, 'Forbidden', reg.id, await s.login(updater.username));
    await refused('PUT', 'registry', put(reg, [keepB], { version: reg.version - 1 }), 409, 'VersionConflict', reg.id);
  });

  it('keeps the arrived line when it is left out, and deletes the open one left out', async () => {
    const { reg, a, b } = await arrivedPair();
    const updated = await ok('PUT', 'registry', put(reg, [{ modality: 'US', scheduledTime: soon() }]));
    expect(updated.version).toBe(reg.version + 1);
    const ids = updated.lines.map((l) => l.examId);
    expect(ids).toContain(a.examId);
    expect(ids).not.toContain(b.examId);
    expect(updated.lines).toHaveLength(2);
    expect(updated.lines.every((l) => l.patientName === '改')).toBe(true);
    expect(await examRow(b.examId)).toBeUndefined();
  });
});

describe('delete, extension, schedules', () => {
  it('deletes the registration with its last line, refusing a stale version first', async () => {
    const reg = await create();
    const line = reg.lines[0]!;
    await refused('DELETE', `scheduled-exams/${line.examId}?version=${reg.version + 1}`, undefined, 409, 'VersionConflict', reg.id);
    const res = await s.request('DELETE', `scheduled-exams/${line.examId}?version=${reg.version}`, { token: registrar });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, registrationId: reg.id });
    expect(await s.db.db.select().from(t.registrations).where(eq(t.registrations.id, reg.id))).toEqual([]);
    const trail = await s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.objectType, 'exam'), eq(t.auditEvents.objectId, String(line.examId))));
    expect(trail.map((e) => e.action)).toEqual(['delete']);
  });

  it('upserts extension fields: new keys added, old ones replaced, the rest kept', async () => {
    const reg = await create();
    const id = reg.lines[0]!.examId;
    const one = await ok('POST', `scheduled-exams/${id}/extension`, { version: reg.version, extension: { contrast: true, note: 'a' } });
    const two = await ok('POST', `scheduled-exams/${id}/extension`, { version: one.version, extension: { note: 'b', weight: 60 } });
    expect(two.lines[0]!.extension).toEqual({ contrast: true, note: 'b', weight: 60 });
    await refused('POST', `scheduled-exams/${id}/extension`, { version: one.version, extension: { x: 1 } }, 409, 'VersionConflict', reg.id);
  });

  it("books more exams for an exam's patient and lists the patient's open lines", async () => {
    const reg = await create({ patient: patient('预约患者'), exams: [{ modality: 'CT', scheduledTime: soon() }, { modality: 'DX', scheduledTime: soon() }] });
    const [a, b] = reg.lines as [RegistryRow, RegistryRow];
    const cancelled = await ok('POST', `scheduled-exams/${b.examId}/cancel`, { version: reg.version, reason: '不做了' });
    const booked = await ok('POST', `exams/${a.examId}/schedules`, { exams: [{ procedureStepId: stepId('MR'), scheduledTime: new Date(s.clock.now().getTime() + 2 * DAY).toISOString() }] });
    expect(booked.id).not.toBe(reg.id);
    expect(booked.lines[0]).toMatchObject({ patientId: a.patientId, patientName: '预约患者', status: 'Scheduled', modality: 'MR' });
    const trail = await s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.objectType, 'registration'), eq(t.auditEvents.objectId, String(booked.id))));
    expect(trail.map((e) => [e.action, (e.after as { fromExamId?: number }).fromExamId])).toEqual([['register', a.examId]]);
    const open = await s.request('GET', `exams/${a.examId}/schedules`, { token: registrar });
    expect(open.status).toBe(200);
    const ids = (open.body as RegistryRow[]).map((r) => r.examId).sort((x, y) => x - y);
    expect(ids).toEqual([a.examId, booked.lines[0]!.examId].sort((x, y) => x - y));
    expect(cancelled.lines.find((l) => l.examId === b.examId)!.status).toBe('Cancelled');
    // The same rules, nothing written.
    await refused('POST', `exams/${a.examId}/schedules`, { exams: [{ modality: 'CT', scheduledTime: new Date(s.clock.now().getTime() - 2 * DAY).toISOString() }] }, 400, 'ScheduledTimeInPast');
    await refused('POST', `exams/${a.examId}/schedules`, { exams: Array.from({ length: 6 }, () => ({ modality: 'CT', scheduledTime: soon() })) }, 400, 'RegistryTooManyExams');
    await refused('POST', `exams/${a.examId}/schedules`, { exams: [{ modality: 'CT', scheduledTime: soon() }] }, 403, 'Forbidden', undefined, await tokenOf(s, 'rad1'));
  });
});

describe('organisations and concurrency', () => {
  it("does not find another group's registry lines, even with its registry on", async () => {
    const other = await createGroup(s);
    await s.db.db.update(t.groups).set({ enableRegistry: true }).where(eq(t.groups.id, other.groupId));
    await s.db.db.insert(t.groupRegistryBuckets).values({ groupId: other.groupId, bucketId: other.bucketId });
    const [reg] = await s.db.db.insert(t.registrations).values({ bucketId: other.bucketId }).returning();
    const at = new Date(s.clock.now().getTime() + HOUR);
    const [exam] = await s.db.db.insert(t.exams).values({
      bucketId: other.bucketId, registrationId: reg!.id, patientName: '外院', patientId: 'X1', modality: 'CT', examTime: at, scheduledTime: at,
      examStatus: 'Registered', created: s.clock.now(),
    }).returning();
    const v = { version: 0 };
    await refused('POST', 'exam/status', { examId: exam!.id, status: 'Arrived', ...v }, 404, 'NotFound', reg!.id);
    await refused('POST', `scheduled-exams/${exam!.id}/cancel`, { ...v, reason: 'x' }, 404, 'NotFound', reg!.id);
    await refused('POST', `scheduled-exams/${exam!.id}/revoke`, v, 404, 'NotFound', reg!.id);
    await refused('DELETE', `scheduled-exams/${exam!.id}?version=0`, undefined, 404, 'NotFound', reg!.id);
    await refused('PUT', 'registry', { registrationId: reg!.id, version: 0, patient: patient(), exams: [{ examId: exam!.id, modality: 'CT', scheduledTime: soon() }] }, 404, 'NotFound', reg!.id);
    expect((await s.request('GET', `exams/${exam!.id}/schedules`, { token: registrar })).status).toBe(404);
    expect((await s.request('GET', `registry/findbyorderid?bucketId=${other.bucketId}&orderId=x`, { token: registrar })).status).toBe(404);
  });

  it('checks in two lines of one registration at once: the version lets one through', async () => {
    const reg = await create({ exams: [{ modality: 'CT', scheduledTime: soon() }, { modality: 'DX', scheduledTime: soon() }] });
    const results = await Promise.all(reg.lines.map((line) => s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Arrived', version: reg.version } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('VersionConflict');
    const rows = await s.db.db.select().from(t.exams).where(eq(t.exams.registrationId, reg.id));
    expect(rows.map((r) => r.examStatus).sort()).toEqual(['Arrived', reg.lines[0]!.status].sort());
    const [stored] = await s.db.db.select().from(t.registrations).where(eq(t.registrations.id, reg.id));
    expect(stored!.version).toBe(reg.version + 1);
  });

  it('refuses a revoke and a check-in racing on one line: one wins, the other changes nothing', async () => {
    const reg = await create();
    const arrived = await checkIn(reg, reg.lines[0]!);
    const id = reg.lines[0]!.examId;
    const [revoke, cancel] = await Promise.all([
      s.request('POST', `scheduled-exams/${id}/revoke`, { token: registrar, body: { version: arrived.version } }),
      s.request('POST', `scheduled-exams/${id}/cancel`, { token: registrar, body: { version: arrived.version, reason: '同时' } }),
    ]);
    expect([revoke.status, cancel.status].sort()).toEqual([200, 409]);
    const row = await examRow(id);
    expect(row!.examStatus).toBe(revoke.status === 200 ? reg.lines[0]!.status : 'Cancelled');
  });
});
