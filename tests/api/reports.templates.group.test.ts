import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The group's shared template tree (isGroupKb): read by the members of the group's organisations who read templates,
 * written by the group's administrators; an organisation's tree and the group's never exchange templates.
 */
let s: TestServer;
let admin: string;
let rad1: string;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  admin = await tokenOf(s, 'admin');
  rad1 = await tokenOf(s, 'rad1');
});
afterAll(async () => { await s.close(); });

const setGroupKb = (on: boolean) => s.db.db.update(t.groups).set({ isGroupKb: on }).where(eq(t.groups.id, s.ids.groupId));
const groupUpsert = (token: string, body: Record<string, unknown>) =>
  s.request('POST', 'report-templates/upsert', { token, body: { groupId: s.ids.groupId, ...body } });
const auditOf = (id: number) => s.db.db.select().from(t.auditEvents)
  .where(and(eq(t.auditEvents.objectType, 'reportTemplate'), eq(t.auditEvents.objectId, String(id))));

describe('the group tree', () => {
  it('comes with the organisation\'s tree when the group shares one, and is read on its own by groupId', async () => {
    const res = await s.request('GET', `report-templates?bucketId=${s.ids.hospitalId}`, { token: rad1 });
    expect(res.status).toBe(200);
    expect(res.body.items.some((n: { name: string }) => n.name === 'CT')).toBe(true);
    expect(res.body.group).toMatchObject({ groupId: s.ids.groupId, canWrite: false });
    const folder = res.body.group.items.find((n: { name: string }) => n.name === '集团规范');
    expect(folder.children.map((c: { name: string }) => c.name)).toContain('甲状腺结节 TI-RADS');
    expect(folder).toMatchObject({ bucketId: null, groupId: s.ids.groupId });
    expect((await s.request('GET', `report-templates?bucketId=${s.ids.hospitalId}`, { token: admin })).body.group.canWrite).toBe(true);

    const own = await s.request('GET', `report-templates?groupId=${s.ids.groupId}`, { token: rad1 });
    expect(own.status).toBe(200);
    expect(own.body.group).toBeNull();
    expect(own.body.items.map((n: { name: string }) => n.name)).toContain('集团规范');
  });

  it('is hidden while the group does not share templates: no group field, 403 by groupId, writes refused', async () => {
    await setGroupKb(false);
    try {
      const res = await s.request('GET', `report-templates?bucketId=${s.ids.hospitalId}`, { token: rad1 });
      expect(res.body.group).toBeNull();
      const direct = await s.request('GET', `report-templates?groupId=${s.ids.groupId}`, { token: admin });
      expect(direct.status).toBe(403);
      expect((await groupUpsert(admin, { name: '关闭时新建' })).status).toBe(403);
    } finally {
      await setGroupKb(true);
    }
  });

  it('is written by the group administrator only, with an audit event for each write', async () => {
    const refused = await groupUpsert(rad1, { name: '医生不可写' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('Forbidden');
    // An organisation admin who is not the group's administrator cannot write it either.
    expect((await groupUpsert(await tokenOf(s, 'orgadmin'), { name: '科室管理员不可写' })).status).toBe(403);

    const folder = await groupUpsert(admin, { name: '集团文件夹', isFolder: true });
    expect(folder.status).toBe(200);
    expect(folder.body).toMatchObject({ bucketId: null, groupId: s.ids.groupId, isFolder: true });
    const tpl = await groupUpsert(admin, { name: '集团模板', parentId: folder.body.id, finding: '<p>所见<script>x()</script></p>', diagnosis: '<p>结论</p>' });
    expect(tpl.status).toBe(200);
    expect(tpl.body.finding).toBe('<p>所见</p>');
    const renamed = await groupUpsert(admin, { id: tpl.body.id, name: '集团模板改名', parentId: null, finding: '<p>所见</p>' });
    expect(renamed.body).toMatchObject({ name: '集团模板改名', parentId: null });
    expect((await groupUpsert(admin, { name: '集团模板改名' })).body.code).toBe('DuplicateName');

    expect((await s.request('DELETE', `report-templates/${tpl.body.id}`, { token: rad1 })).status).toBe(403);
    expect((await s.request('DELETE', `report-templates/${tpl.body.id}`, { token: admin })).status).toBe(204);
    const trail = await auditOf(tpl.body.id);
    expect(trail.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(trail.every((e) => e.area === 'templates' && e.actorId === s.ids.accounts.admin && e.bucketId === null)).toBe(true);
    expect(JSON.stringify(trail[1]!.before)).toContain('集团模板');
  });

  it('never moves a template between an organisation\'s tree and the group\'s', async () => {
    const groupFolder = await groupUpsert(admin, { name: '集团目标', isFolder: true });
    const orgTpl = await s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, name: '院内模板-不可移' } });
    const intoGroup = await groupUpsert(admin, { id: orgTpl.body.id, name: '院内模板-不可移' });
    expect(intoGroup.status).toBe(400);
    expect(intoGroup.body.details.fields[0].path).toBe('groupId');
    const underGroupFolder = await s.request('POST', 'report-templates/upsert', {
      token: admin, body: { bucketId: s.ids.hospitalId, name: 'x', parentId: groupFolder.body.id },
    });
    expect(underGroupFolder.body.details.fields[0].path).toBe('parentId');
    const groupTpl = await groupUpsert(admin, { name: '集团模板-不可移' });
    const intoOrg = await s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, id: groupTpl.body.id, name: 'y' } });
    expect(intoOrg.status).toBe(400);
    expect(intoOrg.body.details.fields[0].path).toBe('bucketId');
    const [still] = await s.db.db.select().from(t.reportTemplates).where(eq(t.reportTemplates.id, groupTpl.body.id));
    expect(still).toMatchObject({ bucketId: null, groupId: s.ids.groupId, name: '集团模板-不可移' });
  });

  it('is not there for another group\'s members (404), nor for a member without a template right (403)', async () => {
    const other = await createGroup(s);
    const outsider = await createAccount(s, { groupId: other.groupId, groupAdmin: true, buckets: [{ bucketId: other.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(outsider.username, outsider.password);
    expect((await s.request('GET', `report-templates?groupId=${s.ids.groupId}`, { token })).status).toBe(404);
    expect((await groupUpsert(token, { name: '外组' })).status).toBe(404);
    expect((await s.request('GET', `report-templates/export?groupId=${s.ids.groupId}`, { token })).status).toBe(404);
    const [groupTpl] = await s.db.db.select().from(t.reportTemplates).where(and(eq(t.reportTemplates.groupId, s.ids.groupId), isNull(t.reportTemplates.bucketId))).limit(1);
    expect((await s.request('DELETE', `report-templates/${groupTpl!.id}`, { token })).status).toBe(404);
    // Its own group, without isGroupKb: forbidden, not missing.
    expect((await s.request('GET', `report-templates?groupId=${other.groupId}`, { token })).status).toBe(403);

    const registrar = await tokenOf(s, 'registrar');
    expect((await s.request('GET', `report-templates?groupId=${s.ids.groupId}`, { token: registrar })).status).toBe(403);
  });

  it('refuses a query naming both trees or neither', async () => {
    for (const q of ['', `bucketId=${s.ids.hospitalId}&groupId=${s.ids.groupId}`, 'groupId=abc']) {
      const res = await s.request('GET', `report-templates?${q}`, { token: admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    const both = await s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, groupId: s.ids.groupId, name: 'x' } });
    expect(both.body.code).toBe('ParamsError');
  });
});
