import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KbItem, KbPage } from '../../contract/kb';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { createAccount } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The knowledge base (areas §3, §4, §7): one tree per organisation of folders, template links and texts. Read by
 * members with a report action or template_upsert, written with template_upsert; another organisation's items are
 * not there (404). Deleting takes the descendants in the same transaction; sorting stays inside one folder level.
 */
let s: TestServer;
let admin: string;
let rad1: string;
let hospital: number;
let centre: number;

const create = (body: unknown, token = admin) => s.request('POST', 'kb-items', { token, body });
const patch = (id: number, body: unknown, token = admin) => s.request('PATCH', `kb-items/${id}`, { token, body });
const remove = (id: number, token = admin) => s.request('DELETE', `kb-items/${id}`, { token });
const resort = (id: number, preId: unknown, token = admin) => s.request('POST', `kb-items/${id}/resort`, { token, body: { preId } });
const query = async (bucketId = hospital, token = rad1) => {
  const res = await s.request('GET', `kb-items/query?bucketId=${bucketId}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as KbPage;
};
async function item(body: Record<string, unknown>): Promise<KbItem> {
  const res = await create({ bucketId: hospital, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as KbItem;
}
const folder = (name: string, parentId: number | null = null) => item({ type: 'folder', name, parentId });
const textItem = (name: string, parentId: number | null = null, content = '<p>正文</p>') => item({ type: 'text', name, parentId, content });
/** The level's ids in order, as the query answers them. */
const level = async (parentId: number | null) => (await query()).items.filter((i) => i.parentId === parentId).map((i) => i.id);
const sortsOf = async (parentId: number | null) => (await s.db.db.select({ sort: t.kbItems.sort }).from(t.kbItems)
  .where(and(eq(t.kbItems.bucketId, hospital), parentId === null ? isNull(t.kbItems.parentId) : eq(t.kbItems.parentId, parentId)))).map((r) => r.sort).sort((a, b) => a - b);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function templateOf(bucketId: number) {
  const [row] = await s.db.db.select().from(t.reportTemplates).where(and(eq(t.reportTemplates.bucketId, bucketId), eq(t.reportTemplates.isFolder, false))).limit(1);
  return row!;
}

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  admin = await tokenOf(s, 'orgadmin');
  rad1 = await tokenOf(s, 'rad1');
  hospital = s.ids.hospitalId;
  centre = s.ids.expertCentreId;
});
afterAll(async () => s?.close());

describe('reading the tree', () => {
  it('answers the organisation\'s items in tree order: each parent before its children, siblings in their order', async () => {
    const root = await folder('读片笔记');
    const a = await textItem('甲', root.id);
    const sub = await folder('子目录', root.id);
    const b = await textItem('乙', sub.id);
    const c = await textItem('丙', root.id);
    const { items, total } = await query();
    expect(total).toBe(items.length);
    const ids = items.map((i) => i.id);
    expect(ids.indexOf(root.id)).toBeLessThan(ids.indexOf(a.id));
    const mine = ids.filter((id) => [root.id, a.id, sub.id, b.id, c.id].includes(id));
    expect(mine).toEqual([root.id, a.id, sub.id, b.id, c.id]);
    expect(items.every((i) => i.bucketId === hospital)).toBe(true);
    // Every parent comes before its children.
    const seen = new Set<number>();
    for (const i of items) {
      if (i.parentId !== null) expect(seen.has(i.parentId)).toBe(true);
      seen.add(i.id);
    }
  });

  it('is read by members with a report or template action; others 403, outsiders 404', async () => {
    expect((await s.request('GET', `kb-items/query?bucketId=${hospital}`, { token: await tokenOf(s, 'chief') })).status).toBe(200);
    for (const user of ['registrar', 'tech']) {
      const res = await s.request('GET', `kb-items/query?bucketId=${hospital}`, { token: await tokenOf(s, user) });
      expect(res.status, user).toBe(403);
      expect(res.body.code).toBe('Forbidden');
    }
    const printer = await createAccount(s, { buckets: [{ bucketId: hospital, actions: ['report_print'] }] });
    expect((await s.request('GET', `kb-items/query?bucketId=${hospital}`, { token: await s.login(printer.username) })).status).toBe(200);
    const res = await s.request('GET', `kb-items/query?bucketId=${centre}`, { token: rad1 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NotFound');
    expect((await s.request('GET', 'kb-items/query?bucketId=999999', { token: rad1 })).status).toBe(404);
    expect((await s.request('GET', `kb-items/query?bucketId=${hospital}`)).status).toBe(401);
  });

  it('refuses a bad bucketId with ParamsError', async () => {
    for (const q of ['', '?bucketId=', '?bucketId=abc', '?bucketId=0', '?bucketId=1.5', '?bucketId=0x10', '?bucketId=99999999999']) {
      const res = await s.request('GET', `kb-items/query${q}`, { token: rad1 });
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });
});

describe('creating', () => {
  it('creates folders, texts (sanitised) and template links (named by the template), each last in its level', async () => {
    const root = await folder('新建测试');
    const text = await textItem('规范', root.id, '<p onclick="x()">肺结节<script>alert(1)</script><b>随访</b></p>');
    expect(text.content).toBe('<p>肺结节<b>随访</b></p>');
    const template = await templateOf(hospital);
    const link = await item({ type: 'template', referenceId: template.id, parentId: root.id });
    expect(link).toMatchObject({ type: 'template', referenceId: template.id, name: template.name, content: '' });
    expect(link.template).toMatchObject({ id: template.id, finding: template.finding, diagnosis: template.diagnosis });
    const named = await item({ type: 'template', referenceId: template.id, parentId: root.id, name: '我的链接' });
    expect(named.name).toBe('我的链接');
    expect(await level(root.id)).toEqual([text.id, link.id, named.id]);
    expect(await sortsOf(root.id)).toEqual([1, 2, 3]);
    const trail = await auditTrail(s.db.db, 'kb-item', text.id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ area: 'kb', action: 'kb-create', bucketId: hospital });
  });

  it('needs a folder of the same organisation as the parent, and a template of the organisation', async () => {
    const text = await textItem('不是目录');
    const [foreignFolder] = await s.db.db.insert(t.kbItems).values({ bucketId: centre, type: 'folder', name: '外院目录' }).returning();
    for (const parentId of [text.id, foreignFolder!.id, 999999]) {
      const res = await create({ bucketId: hospital, type: 'folder', name: 'x', parentId });
      expect(res.status, String(parentId)).toBe(400);
      expect(res.body).toMatchObject({ code: 'UnknownReference', details: { field: 'parentId' } });
    }
    const foreignTemplate = await templateOf(centre);
    const [templateFolder] = await s.db.db.select().from(t.reportTemplates).where(and(eq(t.reportTemplates.bucketId, hospital), eq(t.reportTemplates.isFolder, true))).limit(1);
    for (const referenceId of [foreignTemplate.id, templateFolder!.id, 999999]) {
      const res = await create({ bucketId: hospital, type: 'template', referenceId });
      expect(res.status, String(referenceId)).toBe(400);
      expect(res.body).toMatchObject({ code: 'UnknownReference', details: { field: 'referenceId' } });
    }
  });

  it('refuses bad inputs with ParamsError and writes nothing', async () => {
    const [before] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(t.kbItems);
    const bad = [
      {}, { bucketId: hospital }, { bucketId: hospital, type: 'video', name: 'x' }, { bucketId: hospital, type: 'folder' },
      { bucketId: hospital, type: 'folder', name: '   ' }, { bucketId: hospital, type: 'folder', name: 'x'.repeat(129) },
      { bucketId: hospital, type: 'folder', name: 'x', parentId: 0 }, { bucketId: hospital, type: 'folder', name: 'x', parentId: 'a' },
      { bucketId: 'x', type: 'folder', name: 'x' }, { bucketId: hospital, type: 'template', name: 'x' },
      { bucketId: hospital, type: 'folder', name: 'x', content: '<p>a</p>' }, { bucketId: hospital, type: 'text', name: 'x', content: 5 },
      { bucketId: hospital, type: 'text', name: 'x', content: 'a'.repeat(300_000) }, { bucketId: hospital, type: 'folder', name: 'a\u0000b' },
      { bucketId: hospital, type: 'folder', name: 'x', extra: true }, [], 'folder',
    ];
    for (const body of bad) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    const [after] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(t.kbItems);
    expect(after!.n).toBe(before!.n);
  });

  it('writes with template_upsert only (403 without it) and never into another organisation (404)', async () => {
    const res = await create({ bucketId: hospital, type: 'folder', name: '医生不能写' }, rad1);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('Forbidden');
    const editor = await createAccount(s, { buckets: [{ bucketId: hospital, actions: ['template_upsert'] }] });
    expect((await create({ bucketId: hospital, type: 'folder', name: '模板编辑可写' }, await s.login(editor.username))).status).toBe(200);
    const outside = await create({ bucketId: centre, type: 'folder', name: '外院' }, rad1);
    expect(outside.status).toBe(404);
  });
});

describe('changing', () => {
  it('renames and rewrites a text (sanitised); content only on texts', async () => {
    const text = await textItem('旧名');
    const res = await patch(text.id, { name: '新名', content: '<p>新<img src=x onerror=alert(1)>内容</p>' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: '新名', content: '<p>新内容</p>' });
    expect(res.body.updated).not.toBeNull();
    const dir = await folder('目录');
    const refused = await patch(dir.id, { content: '<p>x</p>' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'ParamsError', details: { fields: [{ path: 'content' }] } });
    for (const body of [{}, { name: '' }, { name: 5 }, { parentId: 0 }, { parentId: 'x' }, { type: 'folder' }, { sort: 1 }, null]) {
      const bad = await patch(text.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.code).toBe('ParamsError');
    }
    for (const id of ['0', 'abc', '1.5']) expect((await s.request('PATCH', `kb-items/${id}`, { token: admin, body: { name: 'x' } })).status).toBe(400);
    const trail = await auditTrail(s.db.db, 'kb-item', text.id);
    expect(trail.map((e) => e.action)).toEqual(['kb-create', 'kb-update']);
    expect(trail[1]).toMatchObject({ before: { name: '旧名' }, after: { name: '新名' } });
  });

  it('moves an item to another folder, last in the new level, closing the gap in the old one', async () => {
    const from = await folder('来源');
    const to = await folder('目标');
    const [a, b, c] = [await textItem('一', from.id), await textItem('二', from.id), await textItem('三', from.id)];
    const x = await textItem('已在目标', to.id);
    const res = await patch(b.id, { parentId: to.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ parentId: to.id, sort: 2 });
    expect(await level(to.id)).toEqual([x.id, b.id]);
    expect(await level(from.id)).toEqual([a.id, c.id]);
    expect(await sortsOf(from.id)).toEqual([1, 2]);
    // To the top level.
    const top = await patch(c.id, { parentId: null });
    expect(top.body.parentId).toBeNull();
    const roots = await level(null);
    expect(roots[roots.length - 1]).toBe(c.id);
    expect(await sortsOf(null)).toEqual(oneTo(roots.length));
    // A folder moves with what it holds.
    expect((await patch(from.id, { parentId: to.id })).status).toBe(200);
    expect((await query()).items.find((i) => i.id === a.id)!.parentId).toBe(from.id);
    expect((await auditTrail(s.db.db, 'kb-item', b.id)).map((e) => e.action)).toContain('kb-move');
  });

  it('refuses a move into the item itself or its own descendants (KbMoveIntoItself)', async () => {
    const top = await folder('顶层');
    const mid = await folder('中层', top.id);
    const low = await folder('底层', mid.id);
    for (const parentId of [top.id, mid.id, low.id]) {
      const res = await patch(top.id, { parentId });
      expect(res.status, String(parentId)).toBe(400);
      expect(res.body.code).toBe('KbMoveIntoItself');
    }
    expect((await patch(mid.id, { parentId: low.id })).body.code).toBe('KbMoveIntoItself');
    expect((await query()).items.find((i) => i.id === top.id)!.parentId).toBeNull();
  });

  it('refuses a move under a text, a link, or a folder of another organisation', async () => {
    const text = await textItem('正文');
    const moving = await folder('要移动');
    const [foreign] = await s.db.db.insert(t.kbItems).values({ bucketId: centre, type: 'folder', name: '外院' }).returning();
    for (const parentId of [text.id, foreign!.id]) {
      const res = await patch(moving.id, { parentId });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'UnknownReference', details: { field: 'parentId' } });
    }
  });

  it('answers another organisation\'s item 404 and a missing action 403', async () => {
    const [foreign] = await s.db.db.insert(t.kbItems).values({ bucketId: centre, type: 'text', name: '外院正文' }).returning();
    expect((await patch(foreign!.id, { name: 'x' })).status).toBe(404);
    expect((await remove(foreign!.id)).status).toBe(404);
    expect((await resort(foreign!.id, null)).status).toBe(404);
    const mine = await textItem('本院');
    for (const res of [await patch(mine.id, { name: 'x' }, rad1), await remove(mine.id, rad1), await resort(mine.id, null, rad1)]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('Forbidden');
    }
    expect((await patch(999999, { name: 'x' })).status).toBe(404);
  });
});

describe('deleting', () => {
  it('removes the item and all its descendants, answers how many, and closes the gap', async () => {
    const before = await textItem('前');
    const dir = await folder('要删除');
    const after = await textItem('后');
    const sub = await folder('子', dir.id);
    const kids = [await textItem('子一', dir.id), await textItem('孙一', sub.id), await textItem('孙二', sub.id)];
    const res = await remove(dir.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.removed).toBe(5);
    expect([...res.body.ids].sort()).toEqual([dir.id, sub.id, ...kids.map((k) => k.id)].sort());
    const left = await s.db.db.select({ id: t.kbItems.id }).from(t.kbItems).where(sql`${t.kbItems.id} in (${sql.join([dir.id, sub.id, ...kids.map((k) => k.id)], sql`, `)})`);
    expect(left).toEqual([]);
    const roots = await level(null);
    expect(roots.indexOf(after.id)).toBe(roots.indexOf(before.id) + 1);
    expect(await sortsOf(null)).toEqual(oneTo(roots.length));
    expect((await auditTrail(s.db.db, 'kb-item', dir.id)).at(-1)).toMatchObject({ action: 'kb-delete', before: { removedIds: res.body.ids } });
    expect((await remove(dir.id)).status).toBe(404);
  });

  it('takes the descendants in the same transaction: a failure deep down leaves the whole subtree', async () => {
    const dir = await folder('原子删除');
    const sub = await folder('子', dir.id);
    const deep = await textItem('不可删', sub.id);
    await s.db.db.execute(sql.raw(`create or replace function kb_test_refuse() returns trigger language plpgsql as $$
      begin if old.id = ${deep.id} then raise exception 'refused by the test'; end if; return old; end $$`));
    await s.db.db.execute(sql.raw('create trigger kb_test_refuse before delete on kb_items for each row execute function kb_test_refuse()'));
    try {
      const res = await remove(dir.id);
      expect(res.status).toBe(500);
      const still = (await query()).items.map((i) => i.id);
      expect(still).toEqual(expect.arrayContaining([dir.id, sub.id, deep.id]));
      expect((await auditTrail(s.db.db, 'kb-item', dir.id)).map((e) => e.action)).toEqual(['kb-create']);
    } finally {
      await s.db.db.execute(sql.raw('drop trigger kb_test_refuse on kb_items'));
      await s.db.db.execute(sql.raw('drop function kb_test_refuse()'));
    }
    expect((await remove(dir.id)).body.removed).toBe(3);
  });
});

describe('re-sorting', () => {
  it('puts the item after preId, or first with null, and numbers the level 1…n', async () => {
    const dir = await folder('排序');
    const [a, b, c, d] = [await textItem('A', dir.id), await textItem('B', dir.id), await textItem('C', dir.id), await textItem('D', dir.id)];
    const res = await resort(d.id, a.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ parentId: dir.id, order: [a.id, d.id, b.id, c.id] });
    expect(await level(dir.id)).toEqual([a.id, d.id, b.id, c.id]);
    await resort(c.id, null);
    expect(await level(dir.id)).toEqual([c.id, a.id, d.id, b.id]);
    await resort(c.id, b.id);
    expect(await level(dir.id)).toEqual([a.id, d.id, b.id, c.id]);
    expect(await sortsOf(dir.id)).toEqual([1, 2, 3, 4]);
    expect((await auditTrail(s.db.db, 'kb-item', c.id)).at(-1)).toMatchObject({ action: 'kb-resort', after: { preId: b.id } });
  });

  it('refuses a preId from another level or organisation (KbResortOtherLevel) and changes nothing', async () => {
    const one = await folder('层一');
    const two = await folder('层二');
    const a = await textItem('甲', one.id);
    const b = await textItem('乙', one.id);
    const other = await textItem('别层', two.id);
    const [foreign] = await s.db.db.insert(t.kbItems).values({ bucketId: centre, type: 'text', name: '外院' }).returning();
    for (const preId of [other.id, two.id, one.id, foreign!.id, 999999, a.id]) {
      const res = await resort(a.id, preId);
      expect(res.status, String(preId)).toBe(400);
      expect(res.body.code).toBe('KbResortOtherLevel');
    }
    expect(await level(one.id)).toEqual([a.id, b.id]);
    for (const body of [{}, { preId: 'x' }, { preId: 0 }, { preId: -1 }, { preId: 1.5 }, { preId: null, extra: 1 }]) {
      const res = await s.request('POST', `kb-items/${a.id}/resort`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    expect((await resort(999999, null)).status).toBe(404);
  });

  it('keeps the level whole under concurrent re-sorts and moves: numbers 1…n, every item once', async () => {
    const dir = await folder('并发');
    const items: KbItem[] = [];
    for (let i = 0; i < 8; i++) items.push(await textItem(`项${i}`, dir.id));
    const ids = items.map((i) => i.id);
    const other = await folder('并发目标');
    const calls = [
      ...ids.slice(0, 6).map((id, i) => resort(id, i % 2 === 0 ? null : ids[7]!)),
      patch(ids[7]!, { parentId: other.id }),
      resort(ids[6]!, ids[0]!),
      create({ bucketId: hospital, type: 'text', name: '并发新增', parentId: dir.id }),
    ];
    const results = await Promise.all(calls);
    // ids[7] may have left before the re-sorts that name it: those are refused, the others succeed.
    for (const r of results) expect([200, 400], JSON.stringify(r.body)).toContain(r.status);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.code).toBe('KbResortOtherLevel');
    const after = await level(dir.id);
    expect(after).toHaveLength(8);
    expect(new Set(after).size).toBe(8);
    expect(after).not.toContain(ids[7]);
    expect(await sortsOf(dir.id)).toEqual(oneTo(8));
    expect(await level(other.id)).toEqual([ids[7]]);
  });

  it('lets two crossing moves never make a cycle', async () => {
    const a = await folder('交叉甲');
    const b = await folder('交叉乙');
    const [one, two] = await Promise.all([patch(a.id, { parentId: b.id }), patch(b.id, { parentId: a.id })]);
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    expect([one, two].find((r) => r.status === 400)!.body.code).toBe('KbMoveIntoItself');
    const { items } = await query();
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.has(a.id) && byId.has(b.id)).toBe(true);
  });
});
