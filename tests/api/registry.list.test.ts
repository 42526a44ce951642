import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS } from '../../contract/common';
import { addDays, dayIn, instantOf } from '../../contract/days';
import { REGISTRY_FILTER_FIELDS, type Registration, type RegistryCreateInput, type RegistryFilterKind, type RegistryPage } from '../../contract/registry';
import * as t from '../../server/db/schema';
import { createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The registry's days and lists: "not before today" is the organisation's today (Asia/Shanghai here, with the clock
 * at 07:00 there, which is still the day before in UTC); the list's whitelist field × operator; its order and
 * paging; 'params error'; registered exams in the worklist; the look-up's matchDob rules.
 */
const ZONE = 'Asia/Shanghai';
let s: TestServer;
let registrar: string;
let hospital: number;
let today: string;

const at = (day: string, time: string) => instantOf(day, time, ZONE).toISOString();
const body = (over: Partial<RegistryCreateInput> = {}, name = `列表${Math.random().toString(36).slice(2, 7)}`): RegistryCreateInput => ({
  bucketId: hospital,
  patient: { patientName: name, patientGender: 'F', patientSource: 'E', phone: '13700000000' },
  exams: [{ modality: 'CT', scheduledTime: at(today, '09:00') }],
  ...over,
});
async function create(over: Partial<RegistryCreateInput> = {}, name?: string): Promise<Registration> {
  const res = await s.request('POST', 'registry', { token: registrar, body: body(over, name) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Registration;
}
const query = (filters: unknown[], over: Record<string, unknown> = {}, id: number | string = hospital, token = registrar) =>
  s.request('POST', `buckets/${id}/registry/query`, { token, body: { filters, ...over } });
const lineCount = async () => (await s.db.db.select({ n: count() }).from(t.exams))[0]!.n;

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  // Tomorrow 07:00 in the organisation's zone: 23:00 UTC of the day before, so UTC's day and the zone's differ.
  today = addDays(dayIn(new Date(), ZONE), 1);
  s.clock.set(instantOf(today, '07:00', ZONE));
  registrar = await tokenOf(s, 'registrar');
  hospital = s.ids.hospitalId;
});
afterAll(async () => s?.close());

describe("the organisation's day", () => {
  it('refuses the evening before (still today in UTC) and writes nothing; takes the early morning (already past)', async () => {
    const yesterdayEvening = at(addDays(today, -1), '23:30');
    expect(new Date(yesterdayEvening).toISOString().slice(0, 10)).toBe(s.clock.now().toISOString().slice(0, 10));
    const before = await lineCount();
    const res = await s.request('POST', 'registry', { token: registrar, body: body({ exams: [{ modality: 'CT', scheduledTime: yesterdayEvening }] }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ScheduledTimeInPast', details: { today } });
    expect(await lineCount()).toBe(before);
    const early = await create({ exams: [{ modality: 'CT', scheduledTime: at(today, '00:05') }, { modality: 'DX', scheduledTime: at(addDays(today, 1), '00:05') }] });
    expect(early.lines.map((l) => l.status)).toEqual(['Registered', 'Scheduled']);
  });
  it('keeps a saved line on its earlier day when PUT sends it unchanged, and refuses moving it there', async () => {
    const reg = await create();
    const line = reg.lines[0]!;
    s.clock.advance(24 * 3_600_000);
    try {
      const token = await s.login('registrar');
      const same = await s.request('PUT', 'registry', { token, body: {
        registrationId: reg.id, version: reg.version, patient: body().patient, exams: [{ examId: line.examId, modality: 'MR', scheduledTime: line.scheduledTime }],
      } });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      const moved = await s.request('PUT', 'registry', { token, body: {
        registrationId: reg.id, version: reg.version + 1, patient: body().patient, exams: [{ examId: line.examId, modality: 'MR', scheduledTime: at(today, '10:00') }],
      } });
      expect(moved.body.code).toBe('ScheduledTimeInPast');
    } finally {
      s.clock.set(instantOf(today, '07:00', ZONE));
    }
  });
});

describe('the list', () => {
  const SAMPLE: Record<RegistryFilterKind, (op: string) => unknown[]> = {
    int: (op) => (op === 'in' ? [1, 2] : [1]),
    time: () => [at(today, '00:00')],
    status: (op) => (op === 'in' ? ['Registered', 'Arrived'] : ['Registered']),
    source: (op) => (op === 'in' ? ['I', 'E'] : ['O']),
    scope: () => ['all'],
    modality: (op) => (op === 'in' ? ['CT', 'MR'] : ['CT']),
    text: () => ['列表'],
  };
  it('takes every whitelisted field with each of its operators, and refuses the other operators', async () => {
    for (const [field, spec] of Object.entries(REGISTRY_FILTER_FIELDS)) {
      for (const operator of OPERATORS) {
        const res = await query([{ field, operator, values: SAMPLE[spec.kind](operator) }]);
        if ((spec.operators as readonly string[]).includes(operator)) {
          expect(res.status, `${field} ${operator}: ${JSON.stringify(res.body)}`).toBe(200);
        } else {
          expect(res.status, `${field} ${operator}`).toBe(400);
          expect(res.body.details.fields[0].path).toBe('filters.0.operator');
        }
      }
    }
    const unknown = await query([{ field: 'patientPhone', operator: 'equal', values: ['1'] }]);
    expect(unknown.body.details.fields[0].path).toBe('filters.0.field');
    const empty = await query([{ field: 'search', operator: 'like', values: [''] }]);
    expect(empty.status).toBe(400);
    expect((await query([], { sorts: [{ field: 'patientName', direction: 'asc' }] })).status).toBe(400);
    expect((await query([], { limit: 101 })).status).toBe(400);
  });

  it('orders by created, newest first, ties by id; pages by 10; sorts by scheduled time when asked', async () => {
    const made: number[] = [];
    for (let i = 0; i < 12; i += 1) made.push((await create({}, `同刻${i}`)).lines[0]!.examId);
    const first = (await query([{ field: 'search', operator: 'like', values: ['同刻'] }])).body as RegistryPage;
    expect(first.total).toBe(12);
    expect(first.items.map((r) => r.examId)).toEqual([...made].reverse().slice(0, 10));
    const second = (await query([{ field: 'search', operator: 'like', values: ['同刻'] }], { skip: 10 })).body as RegistryPage;
    expect(second.items.map((r) => r.examId)).toEqual([made[1], made[0]]);
    const later = await create({ exams: [{ modality: 'CT', scheduledTime: at(today, '08:00') }] }, '同刻晚');
    const bySchedule = (await query([{ field: 'search', operator: 'like', values: ['同刻'] }], { sorts: [{ field: 'scheduledTime', direction: 'asc' }] })).body as RegistryPage;
    expect(bySchedule.items[0]!.examId).toBe(later.lines[0]!.examId);
  });

  it('shows the desk registrations by default, the outside orders with external, both with all', async () => {
    const desk = await create({}, '范围内');
    const order = await create({ orderId: 'HIS-SCOPE-1' }, '范围外');
    const ids = async (scope?: string) => ((await query([
      { field: 'search', operator: 'like', values: ['范围'] }, ...(scope ? [{ field: 'sourceScope', operator: 'equal', values: [scope] }] : []),
    ])).body as RegistryPage).items.map((r) => r.examId).sort();
    expect(await ids()).toEqual([desk.lines[0]!.examId]);
    expect(await ids('internal')).toEqual([desk.lines[0]!.examId]);
    expect(await ids('external')).toEqual([order.lines[0]!.examId]);
    expect(await ids('all')).toEqual([desk.lines[0]!.examId, order.lines[0]!.examId].sort());
  });

  it("answers 'params error' for no organisation, an unknown one, another group's and one without a desk; 403 without registry rights", async () => {
    const elsewhere = await createGroup(s);
    for (const id of ['0', '-1', 'x', '999999', String(elsewhere.bucketId)]) {
      const res = await query([], {}, id);
      expect(res.status, id).toBe(400);
      expect(res.body).toMatchObject({ code: 'ParamsError', message: 'params error' });
    }
    const noDesk = await query([], {}, s.ids.expertCentreId, await tokenOf(s, 'admin'));
    expect(noDesk.body).toMatchObject({ code: 'ParamsError', message: 'params error' });
    const rad = await query([], {}, hospital, await tokenOf(s, 'rad1'));
    expect(rad.status).toBe(403);
    // The other registry calls keep the house's answers.
    expect((await s.request('GET', `buckets/${elsewhere.bucketId}/registry/setup`, { token: registrar })).status).toBe(404);
    expect((await s.request('POST', `buckets/${hospital}/registry/patients`, { token: await tokenOf(s, 'rad1'), body: { q: '张' } })).status).toBe(403);
  });
});

describe('the worklist', () => {
  it('lists a registered exam in its default view, newest first, like an uploaded one', async () => {
    const reg = await create({}, '工作列表');
    const res = await s.request('POST', 'exams/page-query', { token: await tokenOf(s, 'admin'), body: { filters: [], skip: 0, limit: 20 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items[0]).toMatchObject({ id: reg.lines[0]!.examId, patientName: '工作列表', accessionNumber: reg.lines[0]!.accessionNumber });
    const byName = await s.request('POST', 'exams/page-query', { token: await tokenOf(s, 'rad1'), body: { filters: [{ field: 'patientName', operator: 'like', values: ['工作列表'] }], skip: 0, limit: 5 } });
    expect(byName.body.items.map((e: { id: number }) => e.id)).toEqual([reg.lines[0]!.examId]);
  });
});

describe('the look-up', () => {
  const look = async (q: string, patientDob: string | null) =>
    ((await s.request('POST', `buckets/${hospital}/registry/patients`, { token: registrar, body: { q, patientDob } })).body as { patientId: string; exams: number }[]);
  it('groups earlier records per patient id and applies disabled, shift_off and shift_on', async () => {
    const first = await create({ patient: { ...body().patient, patientName: '生日甲', patientDob: '1990-03-10', phone: '13655556666' } });
    await s.request('POST', `exams/${first.lines[0]!.examId}/schedules`, { token: registrar, body: { exams: [{ modality: 'DX', scheduledTime: at(today, '11:00') }] } });
    const setRule = (rule: string) => s.db.db.update(t.groups).set({ matchDob: rule }).where(eq(t.groups.id, s.ids.groupId));
    try {
      const found = await look('生日', '1990-03-10');
      expect(found).toEqual([expect.objectContaining({ patientId: first.lines[0]!.patientId, exams: 2 })]);
      expect(await look(first.lines[0]!.patientId, null)).toHaveLength(1);
      expect(await look('13655556666', null)).toHaveLength(1);
      // Not the middle of a name.
      expect(await look('日甲', null)).toEqual([]);
      expect(await look('生日', '1990-03-11')).toEqual([]);
      await setRule('disabled');
      expect(await look('生日', '1970-01-01')).toHaveLength(1);
      await setRule('shift_on');
      expect(await look('生日', '1991-01-10')).toHaveLength(1);
      expect(await look('生日', '1991-06-10')).toEqual([]);
    } finally {
      await setRule('shift_off');
    }
  });
});
