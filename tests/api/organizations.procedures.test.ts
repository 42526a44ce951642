import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueType } from '../../contract/calling';
import type { Device, DeviceGroup, Procedure, ProcedureStep } from '../../contract/organizations';
import * as t from '../../server/db/schema';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The ordered lists of an organisation (areas §7): procedures (code unique, price ≥ 0), procedure steps, device groups,
 * devices, and the call queue's queue types — all re-sorted by one rule: the complete list of ids, each once.
 */
let s: TestServer;
let orgadmin: string;
let hospital: number;
const base = (path: string, bucket = hospital) => `buckets/${bucket}/${path}`;
const post = (path: string, body: unknown, token = orgadmin) => s.request('POST', base(path), { token, body });
const put = (path: string, id: number, body: unknown, token = orgadmin) => s.request('PUT', `${base(path)}/${id}`, { token, body });
const del = (path: string, id: number, token = orgadmin) => s.request('DELETE', `${base(path)}/${id}`, { token });
const list = async <T>(path: string) => (await s.request('GET', base(path), { token: await tokenOf(s, 'rad1') })).body as T[];
const ids = (items: { id: number }[]) => items.map((i) => i.id);

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  orgadmin = await tokenOf(s, 'orgadmin');
  hospital = s.ids.hospitalId;
});
afterAll(async () => s?.close());

describe('procedures', () => {
  it('lists in order, puts a new one last, and keeps a re-sort on reload', async () => {
    const before = await list<Procedure>('procedures');
    expect(before.length).toBeGreaterThan(3);
    const created = await post('procedures', { code: 'CT900', name: 'CT 全腹', enDescription: 'CT abdomen', modality: 'CT', price: 300.5 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const after = await list<Procedure>('procedures');
    expect(ids(after)).toEqual([...ids(before), created.body.id]);

    const order = [...ids(after)].reverse();
    const res = await post('procedures/resort', { ids: order });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(res.body)).toEqual(order);
    expect(ids(await list<Procedure>('procedures'))).toEqual(order);
    // A later one still goes last.
    const last = (await post('procedures', { code: 'CT901', name: 'CT 末尾', modality: 'CT' })).body as Procedure;
    expect(ids(await list<Procedure>('procedures'))).toEqual([...order, last.id]);
  });

  it('refuses any re-sort that is not exactly the list (InvalidOrder) and changes nothing', async () => {
    const current = ids(await list<Procedure>('procedures'));
    const [centre] = await s.db.db.select().from(t.procedures).where(eq(t.procedures.bucketId, s.ids.expertCentreId)).limit(1);
    const wrong = [
      current.slice(1), // one missing
      [...current, current[0]!], // one twice
      [...current.slice(1), centre!.id], // one of another organisation instead
      [...current, 999999], // one unknown
      [],
    ];
    for (const order of wrong) {
      const res = await post('procedures/resort', { ids: order });
      expect(res.status, JSON.stringify(order)).toBe(400);
      expect(res.body.code).toBe('InvalidOrder');
    }
    for (const body of [{}, { ids: 'all' }, { ids: [0] }, { ids: [1.5] }]) {
      const res = await post('procedures/resort', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    expect(ids(await list<Procedure>('procedures'))).toEqual(current);
    const centreOrder = await s.db.db.select({ id: t.procedures.id, sortOrder: t.procedures.sortOrder }).from(t.procedures).where(eq(t.procedures.id, centre!.id));
    expect(centreOrder[0]!.sortOrder).toBe(centre!.sortOrder);
  });

  it('takes two re-sorts at once one after the other: the list ends in one of the two orders, whole', async () => {
    const current = ids(await list<Procedure>('procedures'));
    const one = [...current].reverse();
    const two = [...current.slice(1), current[0]!];
    const results = await Promise.all([post('procedures/resort', { ids: one }), post('procedures/resort', { ids: two })]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const final = ids(await list<Procedure>('procedures'));
    expect([one, two]).toContainEqual(final);
    const orders = await s.db.db.select({ sortOrder: t.procedures.sortOrder }).from(t.procedures).where(eq(t.procedures.bucketId, hospital));
    expect(new Set(orders.map((o) => o.sortOrder)).size).toBe(current.length);
  });

  it('keeps codes unique in the organisation (DuplicateCode), checks price and modality', async () => {
    const first = (await post('procedures', { code: 'DUP1', name: '一', modality: 'MR', price: 0 })).body as Procedure;
    const dup = await post('procedures', { code: 'DUP1', name: '二', modality: 'MR' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DuplicateCode');
    const second = (await post('procedures', { code: 'DUP2', name: '二', modality: 'MR' })).body as Procedure;
    expect((await put('procedures', second.id, { code: 'DUP1', name: '二', modality: 'MR' })).body.code).toBe('DuplicateCode');
    expect((await put('procedures', first.id, { code: 'DUP1', name: '一改', modality: 'MR', price: 12 })).body).toMatchObject({ name: '一改', price: 12 });
    for (const body of [{ code: 'N1', name: 'x', modality: 'CT', price: -1 }, { code: '', name: 'x', modality: 'CT' }, { code: 'a b', name: 'x', modality: 'CT' }, { code: 'N2', name: 'x', modality: 'ct' }, { code: 'N3', name: 'x' }, { code: 'N4', name: 'x', modality: 'CT', price: 'free' }]) {
      const res = await post('procedures', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });

  it('refuses to delete a procedure its steps use (InUse), and deletes an unused one', async () => {
    const p = (await post('procedures', { code: 'USED1', name: '有步骤', modality: 'US' })).body as Procedure;
    const step = (await post('steps', { name: '步骤甲', modality: 'US', procedureId: p.id })).body as ProcedureStep;
    const res = await del('procedures', p.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'InUse', details: { usedBy: 'steps' } });
    expect((await del('steps', step.id)).status).toBe(204);
    expect((await del('procedures', p.id)).status).toBe(204);
    expect((await del('procedures', p.id)).status).toBe(404);
  });
});

describe('procedure steps', () => {
  it('creates with its flags, refuses a procedure of another organisation, and re-sorts', async () => {
    const [mine] = await list<Procedure>('procedures');
    const [centreProc] = await s.db.db.select().from(t.procedures).where(eq(t.procedures.bucketId, s.ids.expertCentreId)).limit(1);
    const a = await post('steps', { name: '增强 CT', modality: 'CT', bodyPart: '腹部', procedureId: mine!.id, reportDuringExam: true, showLocalVideo: true });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body).toMatchObject({ procedureId: mine!.id, reportDuringExam: true, showLocalVideo: true, bodyPart: '腹部' });
    const [stepsBefore] = await s.db.db.select({ n: count() }).from(t.procedureSteps);
    for (const procedureId of [centreProc!.id, 999999]) {
      const res = await post('steps', { name: '外院', modality: 'CT', procedureId });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'UnknownReference', details: { field: 'procedureId' } });
      expect((await put('steps', a.body.id, { name: '外院', modality: 'CT', procedureId })).body.code).toBe('UnknownReference');
    }
    const [stepsAfter] = await s.db.db.select({ n: count() }).from(t.procedureSteps);
    expect(stepsAfter!.n).toBe(stepsBefore!.n);
    expect((await list<ProcedureStep>('steps')).find((st) => st.id === a.body.id)!.procedureId).toBe(mine!.id);

    const order = ids(await list<ProcedureStep>('steps')).reverse();
    expect(ids((await post('steps/resort', { ids: order })).body)).toEqual(order);
    expect(ids(await list<ProcedureStep>('steps'))).toEqual(order);
    expect((await post('steps/resort', { ids: order.slice(1) })).body.code).toBe('InvalidOrder');
  });

  it('refuses to delete a step exams were registered with (InUse)', async () => {
    const step = (await post('steps', { name: '已用步骤', modality: 'DX' })).body as ProcedureStep;
    const examId = await insertExam(s, { bucketId: hospital });
    await s.db.db.update(t.exams).set({ procedureStepId: step.id }).where(eq(t.exams.id, examId));
    const res = await del('steps', step.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'InUse', details: { usedBy: 'exams' } });
    expect((await list<ProcedureStep>('steps')).some((st) => st.id === step.id)).toBe(true);
  });
});

describe('device groups and devices', () => {
  it('orders both, checks the device group and the AE title', async () => {
    // From an empty list (the demo seeds the hospital's scanners).
    await s.db.db.delete(t.devices).where(eq(t.devices.bucketId, s.ids.hospitalId));
    await s.db.db.delete(t.deviceGroups).where(eq(t.deviceGroups.bucketId, s.ids.hospitalId));
    const g1 = (await post('device-groups', { name: 'CT 组' })).body as DeviceGroup;
    const g2 = (await post('device-groups', { name: 'MR 组' })).body as DeviceGroup;
    expect(ids(await list<DeviceGroup>('device-groups'))).toEqual([g1.id, g2.id]);
    expect(ids((await post('device-groups/resort', { ids: [g2.id, g1.id] })).body)).toEqual([g2.id, g1.id]);
    expect(ids(await list<DeviceGroup>('device-groups'))).toEqual([g2.id, g1.id]);

    const d1 = await post('devices', { name: 'CT-1', modality: 'CT', aeTitle: 'ct_scanner1', room: '1 室', deviceGroupId: g1.id });
    expect(d1.status, JSON.stringify(d1.body)).toBe(200);
    expect(d1.body).toMatchObject({ aeTitle: 'CT_SCANNER1', deviceGroupId: g1.id });
    const d2 = (await post('devices', { name: 'CT-2', modality: 'CT' })).body as Device;
    expect(ids(await list<Device>('devices'))).toEqual([d1.body.id, d2.id]);
    expect(ids((await post('devices/resort', { ids: [d2.id, d1.body.id] })).body)).toEqual([d2.id, d1.body.id]);

    for (const aeTitle of ['A'.repeat(17), 'ÄE', '', 'a\\b']) {
      const res = await post('devices', { name: 'x', modality: 'CT', aeTitle });
      expect(res.status, aeTitle).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    const [otherGroup] = await s.db.db.insert(t.deviceGroups).values({ bucketId: s.ids.expertCentreId, name: '外院组' }).returning();
    const cross = await post('devices', { name: 'x', modality: 'CT', deviceGroupId: otherGroup!.id });
    expect(cross.status).toBe(400);
    expect(cross.body).toMatchObject({ code: 'UnknownReference', details: { field: 'deviceGroupId' } });
    expect((await put('devices', d2.id, { name: 'x', modality: 'CT', deviceGroupId: otherGroup!.id })).body.code).toBe('UnknownReference');
    expect((await list<Device>('devices')).find((d) => d.id === d2.id)!.deviceGroupId).toBeNull();
    // A deleted group leaves its devices without one.
    expect((await del('device-groups', g1.id)).status).toBe(204);
    expect((await list<Device>('devices')).find((d) => d.id === d1.body.id)!.deviceGroupId).toBeNull();
    // A device of another organisation is not found through this one.
    const [foreign] = await s.db.db.insert(t.devices).values({ bucketId: s.ids.expertCentreId, name: '外院设备', modality: 'MR' }).returning();
    expect((await put('devices', foreign!.id, { name: '改', modality: 'MR' })).status).toBe(404);
    expect((await del('devices', foreign!.id)).status).toBe(404);
  });

  it('lets members read and only admins write', async () => {
    const rad1 = await tokenOf(s, 'rad1');
    for (const path of ['procedures', 'steps', 'device-groups', 'devices']) {
      expect((await s.request('GET', base(path), { token: rad1 })).status).toBe(200);
      expect((await s.request('POST', base(`${path}/resort`), { token: rad1, body: { ids: [] } })).status).toBe(403);
    }
  });
});

describe('queue types', () => {
  it('go last when created and keep the order of a re-sort (the same rule)', async () => {
    const registrar = await tokenOf(s, 'registrar');
    const q = (body: unknown) => s.request('POST', base('queue-types'), { token: registrar, body });
    const before = (await s.request('GET', base('queue-types'), { token: registrar })).body as QueueType[];
    const z = (await q({ prefix: 'Z', name: '最后', modality: 'CT', room: null })).body as QueueType;
    const a = (await q({ prefix: 'AA', name: '也在最后', modality: null, room: null })).body as QueueType;
    const listed = (await s.request('GET', base('queue-types'), { token: registrar })).body as QueueType[];
    expect(ids(listed)).toEqual([...ids(before), z.id, a.id]);
    const order = ids(listed).reverse();
    const res = await s.request('POST', base('queue-types/resort'), { token: registrar, body: { ids: order } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids((await s.request('GET', base('queue-types'), { token: registrar })).body)).toEqual(order);
    const board = (await s.request('GET', base('queue-exams'), { token: registrar })).body as { queueTypes: QueueType[] };
    expect(ids(board.queueTypes)).toEqual(order);
    const bad = await s.request('POST', base('queue-types/resort'), { token: registrar, body: { ids: order.slice(1) } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('InvalidOrder');
    expect((await s.request('POST', base('queue-types/resort'), { token: await tokenOf(s, 'rad1'), body: { ids: order } })).status).toBe(403);
  });
});
