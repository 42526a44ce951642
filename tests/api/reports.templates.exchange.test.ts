import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_IMPORT_MAX_NODES } from '../../contract/templates';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Export of a template tree as a JSON document and its import: one transaction, all or nothing, bounded. */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  admin = await tokenOf(s, 'admin');
});
afterAll(async () => { await s.close(); });

const doc = (items: unknown[]) => ({ format: 'report-templates', version: 1, items });
const importInto = (body: Record<string, unknown>, token = admin) => s.request('POST', 'report-templates/import', { token, body });
const countIn = async (bucketId: number) => (await s.db.db.select({ id: t.reportTemplates.id }).from(t.reportTemplates).where(eq(t.reportTemplates.bucketId, bucketId))).length;

describe('template export and import', () => {
  it('exports a tree as a versioned JSON download that imports back into another tree unchanged', async () => {
    const res = await fetch(`${s.url}/api/v1/report-templates/export?bucketId=${s.ids.hospitalId}`, { headers: { authorization: `Bearer ${await tokenOf(s, 'rad1')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="report-templates-bucket-\d+-\d{4}-\d{2}-\d{2}\.json"$/);
    const exported = await res.json();
    expect(exported).toMatchObject({ format: 'report-templates', version: 1, source: '市第一人民医院放射科' });
    const ct = exported.items.find((n: { name: string }) => n.name === 'CT');
    expect(ct).toMatchObject({ folder: true, modality: 'CT' });
    expect(ct.children[0]).toEqual(expect.objectContaining({ modality: 'CT', bodyPart: expect.any(String), finding: expect.stringContaining('<p>') }));

    // Into a fresh organisation of another group (its admin), then out again: the same document.
    const other = await createGroup(s);
    const owner = await createAccount(s, { groupId: other.groupId, buckets: [{ bucketId: other.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(owner.username, owner.password);
    const imported = await importInto({ bucketId: other.bucketId, document: exported }, token);
    expect(imported.status).toBe(200);
    const total = await countIn(s.ids.hospitalId);
    expect(imported.body.created).toBe(total);
    const again = await (await fetch(`${s.url}/api/v1/report-templates/export?bucketId=${other.bucketId}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(again.items).toEqual(exported.items);
    const audit = await s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.action, 'import'), eq(t.auditEvents.objectId, `bucket:${other.bucketId}`)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ created: total });
  });

  it('imports under a folder, sanitising every text', async () => {
    const folder = await s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, name: '导入目标', isFolder: true } });
    const res = await importInto({
      bucketId: s.ids.hospitalId, parentId: folder.body.id,
      document: doc([{ name: '子目录', folder: true, children: [{ name: '带脚本', finding: '<p onclick="x()">所见<img src=x onerror=alert(1)></p>', diagnosis: '<script>alert(1)</script><p>结论</p>' }] }]),
    });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(2);
    expect(res.body.items[0]).toMatchObject({ name: '子目录', parentId: folder.body.id, isFolder: true });
    const tpl = res.body.items[0].children[0];
    expect(tpl.finding).not.toMatch(/onclick|onerror|<img/);
    expect(tpl.diagnosis).toBe('<p>结论</p>');
  });

  it('refuses a name clash in the middle of a document and leaves nothing of it', async () => {
    await s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, name: '已存在的模板' } });
    const before = await countIn(s.ids.hospitalId);
    const res = await importInto({
      bucketId: s.ids.hospitalId,
      document: doc([
        { name: '新文件夹一', folder: true, children: [{ name: '新模板一' }, { name: '新模板二' }] },
        { name: '已存在的模板' },
        { name: '新文件夹三', folder: true, children: [] },
      ]),
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('DuplicateName');
    expect(res.body.details).toMatchObject({ name: '已存在的模板', path: 'document.items.1.name' });
    expect(await countIn(s.ids.hospitalId)).toBe(before);

    const twins = await importInto({ bucketId: s.ids.hospitalId, document: doc([{ name: 'A', folder: true, children: [{ name: 'x' }, { name: ' X ' }] }]) });
    expect(twins.body).toMatchObject({ code: 'DuplicateName', details: { name: 'X', path: 'document.items.0.children.1.name' } });
    expect(await countIn(s.ids.hospitalId)).toBe(before);
  });

  it('refuses a bad document with the path of the fault, and writes nothing', async () => {
    const before = await countIn(s.ids.hospitalId);
    const many = Array.from({ length: TEMPLATE_IMPORT_MAX_NODES + 1 }, (_, i) => ({ name: `n${i}` }));
    const cases: [unknown, string][] = [
      [undefined, 'document'],
      ['text', 'document'],
      [{ format: 'report-templates', version: 2, items: [] }, 'document.version'],
      [{ format: 'other', version: 1, items: [] }, 'document.format'],
      [{ format: 'report-templates', version: 1 }, 'document.items'],
      [doc([{ name: '' }]), 'document.items.0.name'],
      [doc([{ name: 'x'.repeat(129) }]), 'document.items.0.name'],
      [doc([{ name: 'ok', modality: 'TOOLONGMOD' }]), 'document.items.0.modality'],
      [doc([{ name: 'ok', bodyPart: 'b'.repeat(65) }]), 'document.items.0.bodyPart'],
      [doc([{ name: 'ok', finding: 'f'.repeat(200_001) }]), 'document.items.0.finding'],
      [doc([{ name: 'ok', children: [] }]), 'document.items.0.children'],
      [doc([{ name: 'ok', folder: true, children: [{ name: 'x', finding: 1 }] }]), 'document.items.0.children.0.finding'],
      [doc([{ name: 'ok', unknown: 1 }]), 'document.items.0'],
      [doc([{ name: 'nul\u0000' }]), 'document.items.0.name'],
      [doc(many), 'document.items'],
    ];
    for (const [document, path] of cases) {
      const res = await importInto({ bucketId: s.ids.hospitalId, document });
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('ParamsError');
      expect(res.body.details.fields[0].path, JSON.stringify(res.body.details)).toBe(path);
    }
    // Nested far deeper than any walk by recursion could go (sent as text: JSON.stringify itself would overflow).
    const depth = 50_000;
    const deep = `{"bucketId":${s.ids.hospitalId},"document":{"format":"report-templates","version":1,"items":[${'{"name":"f","folder":true,"children":['.repeat(depth)}{"name":"leaf"}${']}'.repeat(depth)}]}}`;
    const tooDeep = await s.request('POST', 'report-templates/import', { token: admin, body: deep, headers: { 'content-type': 'application/json' } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.details.fields[0].path).toBe(`document.items${'.0.children'.repeat(8)}`);
    const notFolder = await s.db.db.select().from(t.reportTemplates).where(and(eq(t.reportTemplates.bucketId, s.ids.hospitalId), eq(t.reportTemplates.isFolder, false))).limit(1);
    const underTemplate = await importInto({ bucketId: s.ids.hospitalId, parentId: notFolder[0]!.id, document: doc([{ name: 'x' }]) });
    expect(underTemplate.body.details.fields[0].path).toBe('parentId');
    expect((await importInto({ document: doc([]) })).body.code).toBe('ParamsError');
    expect(await countIn(s.ids.hospitalId)).toBe(before);
  });

  it('takes 2000 nodes in one go', async () => {
    const folders = Array.from({ length: 40 }, (_, f) => ({ name: `批量${f}`, folder: true, children: Array.from({ length: 49 }, (_, i) => ({ name: `模板${i}`, finding: '<p>所见</p>' })) }));
    const res = await importInto({ bucketId: s.ids.expertCentreId, document: doc(folders) });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(2000);
    expect(await countIn(s.ids.expertCentreId)).toBeGreaterThanOrEqual(2000);
  });

  it('imports into the group tree for its administrator only; 404 elsewhere, 403 without template_upsert', async () => {
    const ok = await importInto({ groupId: s.ids.groupId, document: doc([{ name: '集团导入', folder: true, children: [{ name: '集团导入模板' }] }]) });
    expect(ok.status).toBe(200);
    expect(ok.body.items[0]).toMatchObject({ groupId: s.ids.groupId, bucketId: null });
    const asRad = await importInto({ groupId: s.ids.groupId, document: doc([{ name: 'r' }]) }, await tokenOf(s, 'rad1'));
    expect(asRad.status).toBe(403);
    expect((await importInto({ bucketId: s.ids.hospitalId, document: doc([{ name: 'r' }]) }, await tokenOf(s, 'rad1'))).status).toBe(403);
    const other = await createGroup(s);
    expect((await importInto({ bucketId: other.bucketId, document: doc([{ name: 'r' }]) })).status).toBe(404);
    expect((await importInto({ groupId: other.groupId, document: doc([{ name: 'r' }]) })).status).toBe(404);
    expect((await s.request('GET', `report-templates/export?bucketId=${other.bucketId}`, { token: admin })).status).toBe(404);
    expect((await s.request('GET', `report-templates/export?bucketId=${s.ids.hospitalId}`, { token: await tokenOf(s, 'registrar') })).status).toBe(403);
    const group = await s.request('GET', `report-templates/export?groupId=${s.ids.groupId}`, { token: await tokenOf(s, 'rad1') });
    expect(group.status).toBe(200);
    expect(JSON.parse(JSON.stringify(group.body)).items.map((n: { name: string }) => n.name)).toContain('集团导入');
  });
});
