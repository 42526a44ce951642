import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bodypart, Department, Doctor, ExtensionPackage } from '../../contract/organizations';
import * as t from '../../server/db/schema';
import { auditTrail } from '../../server/audit/record';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * An organisation's dictionaries (areas §3, §5): departments, body parts (no repeats in any case), doctors (department
 * 0 = none), critical values, extension keys (alpha_dash) and report extension packages (no repeated name in any case).
 */
let s: TestServer;
let orgadmin: string;
let hospital: number;
const base = (path: string, bucket = hospital) => `buckets/${bucket}/${path}`;
const post = (path: string, body: unknown, token = orgadmin) => s.request('POST', base(path), { token, body });
const put = (path: string, id: number, body: unknown, token = orgadmin) => s.request('PUT', `${base(path)}/${id}`, { token, body });
const list = async <T>(path: string) => (await s.request('GET', base(path), { token: await tokenOf(s, 'rad1') })).body as T[];
const rows = async (table: typeof t.bodyparts | typeof t.departments | typeof t.doctors | typeof t.criticalValues | typeof t.bucketExtensions | typeof t.extensionPackages) =>
  (await s.db.db.select({ n: count() }).from(table))[0]!.n;

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  orgadmin = await tokenOf(s, 'orgadmin');
  hospital = s.ids.hospitalId;
});
afterAll(async () => s?.close());

describe('departments', () => {
  it('creates, renames, lists and deletes; a deleted department leaves its doctors with none', async () => {
    const dep = (await post('departments', { name: '急诊科' })).body as Department;
    expect(dep).toEqual({ id: expect.any(Number), name: '急诊科' });
    expect((await put('departments', dep.id, { name: '急诊医学科' })).body.name).toBe('急诊医学科');
    const doc = (await post('doctors', { name: '王医生', departmentId: dep.id })).body as Doctor;
    expect(doc).toMatchObject({ departmentId: dep.id, departmentName: '急诊医学科', physicianType: 1 });
    expect((await s.request('DELETE', `${base('departments')}/${dep.id}`, { token: orgadmin })).status).toBe(204);
    expect((await list<Department>('departments')).some((d) => d.id === dep.id)).toBe(false);
    expect((await list<Doctor>('doctors')).find((d) => d.id === doc.id)).toMatchObject({ departmentId: 0, departmentName: null });
    expect((await auditTrail(s.db.db, 'department', dep.id)).map((e) => e.action)).toEqual(['department-create', 'department-update', 'department-delete']);
  });
});

describe('body parts', () => {
  it('refuses a repeated name in any case, also on rename, with DuplicateName', async () => {
    const before = await rows(t.bodyparts);
    const knee = (await post('bodyparts', { name: 'Knee' })).body as Bodypart;
    for (const name of ['Knee', 'knee', 'KNEE', '  knee ']) {
      const res = await post('bodyparts', { name });
      expect(res.status, name).toBe(409);
      expect(res.body.code).toBe('DuplicateName');
    }
    const elbow = (await post('bodyparts', { name: 'Elbow' })).body as Bodypart;
    const rename = await put('bodyparts', elbow.id, { name: 'kNee' });
    expect(rename.status).toBe(409);
    expect(rename.body.code).toBe('DuplicateName');
    expect((await list<Bodypart>('bodyparts')).find((b) => b.id === elbow.id)!.name).toBe('Elbow');
    // Its own name in another case is no repeat; another organisation may have the name.
    expect((await put('bodyparts', knee.id, { name: 'KNEE' })).status).toBe(200);
    expect((await s.request('POST', base('bodyparts', s.ids.expertCentreId), { token: orgadmin, body: { name: 'Knee' } })).status).toBe(403);
    expect((await s.request('POST', base('bodyparts', s.ids.expertCentreId), { token: await tokenOf(s, 'admin'), body: { name: 'Knee' } })).status).toBe(200);
    expect(await rows(t.bodyparts)).toBe(before + 3);
  });

  it('refuses a body part of another organisation through this one (404)', async () => {
    const [centre] = await s.db.db.select().from(t.bodyparts).where(eq(t.bodyparts.bucketId, s.ids.expertCentreId)).limit(1);
    const admin = await tokenOf(s, 'admin');
    expect((await s.request('PUT', `${base('bodyparts')}/${centre!.id}`, { token: admin, body: { name: '改名' } })).status).toBe(404);
    expect((await s.request('DELETE', `${base('bodyparts')}/${centre!.id}`, { token: admin })).status).toBe(404);
    const [after] = await s.db.db.select().from(t.bodyparts).where(eq(t.bodyparts.id, centre!.id));
    expect(after).toEqual(centre);
  });
});

describe('doctors', () => {
  it('takes department 0 as none, defaults physicianType to 1, and refuses a department of another organisation', async () => {
    const none = await post('doctors', { name: '无科室医生', departmentId: 0 });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body).toMatchObject({ departmentId: 0, departmentName: null, physicianType: 1 });
    expect((await post('doctors', { name: '默认' })).body).toMatchObject({ departmentId: 0, departmentName: null });
    const [centreDep] = await s.db.db.select().from(t.departments).where(eq(t.departments.bucketId, s.ids.expertCentreId)).limit(1);
    const before = await rows(t.doctors);
    for (const departmentId of [centreDep!.id, 999999]) {
      const res = await post('doctors', { name: '外院', departmentId });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'UnknownReference', details: { field: 'departmentId' } });
      expect((await put('doctors', none.body.id, { name: '改', departmentId })).body.code).toBe('UnknownReference');
    }
    expect(await rows(t.doctors)).toBe(before);
    const [mine] = await list<Department>('departments');
    const moved = await put('doctors', none.body.id, { name: '有科室', departmentId: mine!.id, physicianType: 2 });
    expect(moved.body).toMatchObject({ departmentId: mine!.id, departmentName: mine!.name, physicianType: 2 });
  });

  it('answers bad input with ParamsError', async () => {
    for (const body of [{}, { name: '' }, { name: 'x', departmentId: -1 }, { name: 'x', departmentId: 'a' }, { name: 'x', physicianType: 1.5 }]) {
      const res = await post('doctors', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });
});

describe('critical values and extensions', () => {
  it('keeps critical value names unique', async () => {
    expect((await post('critical-values', { name: '气胸' })).status).toBe(200);
    const dup = await post('critical-values', { name: '气胸' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DuplicateName');
  });

  it('takes alpha_dash keys only, each once', async () => {
    expect((await post('extensions', { key: 'insurance_no-2', label: '医保号' })).status).toBe(200);
    expect((await post('extensions', { key: 'insurance_no-2', label: '又一个' })).body.code).toBe('DuplicateName');
    for (const key of ['has space', 'dot.key', '中文', '', 'a'.repeat(65)]) {
      const res = await post('extensions', { key, label: 'x' });
      expect(res.status, key).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });
});

describe('report extension packages', () => {
  it('stores fields with units and refuses a repeated name in any case with DuplicatePackageName', async () => {
    const before = await rows(t.extensionPackages);
    const created = await post('extension-packages', { name: 'Thyroid', type: 'exam', fields: [{ name: '左叶', unit: 'mm' }, { name: '结节数' }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ name: 'Thyroid', type: 'exam', fields: [{ name: '左叶', unit: 'mm' }, { name: '结节数', unit: null }] });
    for (const name of ['Thyroid', 'thyroid', 'THYROID']) {
      const res = await post('extension-packages', { name, fields: [{ name: 'a' }] });
      expect(res.status, name).toBe(409);
      expect(res.body.code).toBe('DuplicatePackageName');
    }
    const other = (await post('extension-packages', { name: 'Liver', fields: [{ name: 'a' }] })).body as ExtensionPackage;
    expect(other.type).toBe('report');
    expect((await put('extension-packages', other.id, { name: 'THYROID', fields: [{ name: 'a' }] })).body.code).toBe('DuplicatePackageName');
    expect(await rows(t.extensionPackages)).toBe(before + 2);
  });

  it('refuses an empty field list, a nameless field and an unknown type', async () => {
    for (const body of [{ name: 'P', fields: [] }, { name: 'P', fields: [{ name: '' }] }, { name: 'P', fields: [{ unit: 'mm' }] }, { name: 'P', type: 'other', fields: [{ name: 'a' }] }, { name: '', fields: [{ name: 'a' }] }]) {
      const res = await post('extension-packages', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });
});

describe('permissions', () => {
  it('lets members read and only admins write', async () => {
    const rad1 = await tokenOf(s, 'rad1');
    for (const path of ['departments', 'bodyparts', 'doctors', 'critical-values', 'extensions', 'extension-packages']) {
      expect((await s.request('GET', base(path), { token: rad1 })).status, path).toBe(200);
      expect((await post(path, { name: 'x', key: 'x', label: 'x', fields: [{ name: 'a' }] }, rad1)).status, path).toBe(403);
      expect((await s.request('GET', base(path))).status, path).toBe(401);
      expect((await s.request('GET', base(path, s.ids.expertCentreId), { token: rad1 })).status, path).toBe(403);
    }
  });
});
