import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Writing templates of the report workspace (areas §5: names must not repeat within a folder). */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  admin = await tokenOf(s, 'admin');
});
afterAll(async () => { await s.close(); });

const upsert = (body: Record<string, unknown>) => s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, ...body } });

describe('report templates', () => {
  it('serves the organisation\'s tree, folders first, each with its templates', async () => {
    const res = await s.request('GET', `report-templates?bucketId=${s.ids.hospitalId}`, { token: await tokenOf(s, 'rad1') });
    expect(res.status).toBe(200);
    const ct = res.body.items.find((n: { name: string }) => n.name === 'CT');
    expect(ct).toMatchObject({ isFolder: true, modality: 'CT', parentId: null });
    expect(ct.children.map((c: { name: string }) => c.name)).toContain('胸部正常');
    expect(ct.children.every((c: { isFolder: boolean; parentId: number }) => !c.isFolder && c.parentId === ct.id)).toBe(true);
  });

  it('finds templates by name or text, best name matches first', async () => {
    const res = await s.request('GET', `report-templates/search?bucketId=${s.ids.hospitalId}&q=${encodeURIComponent('腰椎')}&modality=MR`, { token: await tokenOf(s, 'rad2') });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((i: { modality: string; isFolder: boolean }) => i.modality === 'MR' && !i.isFolder)).toBe(true);
    expect(res.body.items[0].name).toContain('腰椎');
    const literal = await s.request('GET', `report-templates/search?bucketId=${s.ids.hospitalId}&q=${encodeURIComponent('100%_')}`, { token: admin });
    expect(literal.body.items).toEqual([]);
  });

  it('refuses a name already used in the same folder, in any letter case, and allows it in another folder', async () => {
    const a = await upsert({ name: 'Folder A', isFolder: true });
    const b = await upsert({ name: 'Folder B', isFolder: true });
    expect((await upsert({ name: 'Chest normal', parentId: a.body.id })).status).toBe(200);
    const twin = await upsert({ name: '  chest NORMAL ', parentId: a.body.id });
    expect(twin.status).toBe(409);
    expect(twin.body.code).toBe('DuplicateName');
    expect((await upsert({ name: 'Chest normal', parentId: b.body.id })).status).toBe(200);
    expect((await upsert({ name: 'folder a', isFolder: true })).body.code).toBe('DuplicateName');
  });

  it('settles two simultaneous creations of one name with one template', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => upsert({ name: '并发同名模板' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('renames and moves a template, but never into a non-folder, another organisation or itself', async () => {
    const folder = await upsert({ name: '移动目标', isFolder: true });
    const sub = await upsert({ name: '子文件夹', isFolder: true, parentId: folder.body.id });
    const tpl = await upsert({ name: '待移动', finding: '<p>所见</p>' });
    const moved = await upsert({ id: tpl.body.id, name: '已移动', parentId: folder.body.id, finding: '<p>所见</p>' });
    expect(moved.body).toMatchObject({ id: tpl.body.id, name: '已移动', parentId: folder.body.id });
    expect((await upsert({ id: tpl.body.id, name: 'x', parentId: tpl.body.id })).body.code).toBe('ParamsError');
    expect((await upsert({ id: folder.body.id, name: '移动目标', isFolder: true, parentId: sub.body.id })).body.code).toBe('ParamsError');
    const elsewhere = await s.request('POST', 'report-templates/upsert', {
      token: admin, body: { bucketId: s.ids.expertCentreId, name: 'x', parentId: folder.body.id },
    });
    expect(elsewhere.body.code).toBe('ParamsError');
    expect((await upsert({ id: tpl.body.id, name: 'x', isFolder: true })).body.code).toBe('ParamsError');
  });

  it('deletes a template, and a folder only once it is empty', async () => {
    const folder = await upsert({ name: '待删除文件夹', isFolder: true });
    const tpl = await upsert({ name: '待删除模板', parentId: folder.body.id });
    const del = (id: number) => s.request('DELETE', `report-templates/${id}`, { token: admin });
    const full = await del(folder.body.id);
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('TemplateFolderNotEmpty');
    expect((await del(tpl.body.id)).status).toBe(204);
    expect((await del(folder.body.id)).status).toBe(204);
    expect((await del(folder.body.id)).status).toBe(404);
  });
});
