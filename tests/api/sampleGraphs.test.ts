import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { fetchLink, form, jpeg, pdf, png } from '../support/files';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Sample graphs (areas §3, §6 manage_sample_graph, §7): members of the organisation read its drawings; holders of
 * manage_sample_graph and its administrators upload, change, re-order and delete them; every write is audited.
 */
let s: TestServer;
let admin: string;
let rad1: string;
let manager: string;
let hospital: number;

beforeAll(async () => {
  s = await startServer({ exams: 0 });
  admin = await tokenOf(s, 'admin');
  rad1 = await tokenOf(s, 'rad1');
  hospital = s.ids.hospitalId;
  const m = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: hospital, actions: ['manage_sample_graph'] }] });
  manager = await s.login(m.username, m.password);
});
afterAll(async () => { await s.close(); });

function upload(token: string, fields: Record<string, string>, file: Buffer = png(32, 24), name = 'body.png', type = 'image/png') {
  return s.request('POST', 'sample-graphs', { token, body: form(file, name, type, fields) });
}
const list = async (token = rad1, bucketId = hospital) => s.request('GET', `sample-graphs/query?bucketId=${bucketId}`, { token });
async function made(name = '示意图', token = manager) {
  const res = await upload(token, { bucketId: String(hospital), name, origin: '胸部' });
  expect(res.status).toBe(201);
  return res.body as { id: number; url: string; index: number };
}
const audits = (id: number) => s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.objectType, 'sampleGraph'), eq(t.auditEvents.objectId, String(id))));

describe('sample graphs', () => {
  it('are uploaded as PNG or JPEG by a manager, listed in order for members, and served from their link', async () => {
    const a = await made('甲');
    const b = await upload(admin, { bucketId: String(hospital), name: '乙' }, jpeg(), 'b.jpg', 'image/jpeg');
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ bucketId: hospital, name: '乙', origin: '', points: [], index: a.index + 1 });
    const res = await list();
    expect(res.status).toBe(200);
    const ids = res.body.map((g: { id: number }) => g.id);
    expect(ids.slice(-2)).toEqual([a.id, b.body.id]);
    expect(res.body.map((g: { index: number }) => g.index)).toEqual(ids.map((_: number, i: number) => i));
    const file = await fetchLink(s, a.url);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(png(32, 24))).toBe(true);
    const jpg = await fetchLink(s, b.body.url);
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect((await audits(a.id)).map((e) => e.action)).toEqual(['create']);
  });

  it('refuse files that are not PNG or JPEG by their bytes, whatever their name, and files over the limit', async () => {
    const pdfAsPng = await upload(manager, { bucketId: String(hospital), name: 'x' }, pdf(), 'x.png', 'image/png');
    expect(pdfAsPng.status).toBe(400);
    expect(pdfAsPng.body.code).toBe('UnsupportedFileType');
    await s.db.db.update(t.globalConfigs).set({ value: 1 }).where(eq(t.globalConfigs.key, 'sampleGraphMaxMb'));
    try {
      const big = await upload(manager, { bucketId: String(hospital), name: 'big' }, png(8, 8, 1024 * 1024 + 10));
      expect(big.status).toBe(400);
      expect(big.body).toMatchObject({ code: 'UploadTooLarge', details: { maxBytes: 1024 * 1024 } });
      expect((await upload(manager, { bucketId: String(hospital), name: 'fits' }, png(8, 8, 1024 * 1024 - 200))).status).toBe(201);
    } finally {
      await s.db.db.update(t.globalConfigs).set({ value: 5 }).where(eq(t.globalConfigs.key, 'sampleGraphMaxMb'));
    }
  });

  it('refuse bad form fields and a request without a file with ParamsError', async () => {
    const cases: Record<string, string>[] = [{ name: 'x' }, { bucketId: 'abc', name: 'x' }, { bucketId: String(hospital) }, { bucketId: String(hospital), name: '   ' },
      { bucketId: String(hospital), name: 'x'.repeat(65) }, { bucketId: String(hospital), name: 'x', origin: 'o'.repeat(65) }, { bucketId: String(hospital), name: 'x', extra: '1' }];
    for (const fields of cases) {
      const res = await upload(manager, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    const noFile = new FormData();
    noFile.append('bucketId', String(hospital));
    expect((await s.request('POST', 'sample-graphs', { token: manager, body: noFile })).body.code).toBe('ParamsError');
    expect((await s.request('POST', 'sample-graphs', { token: manager, body: { bucketId: hospital, name: 'x' } })).body.code).toBe('ParamsError');
  });

  it('keep points as fractions with #rrggbb colours, and refuse anything else', async () => {
    const g = await made('点');
    const points = [{ x: 0, y: 1, color: '#E03131' }, { x: 0.5, y: 0.25, color: '#1971c2', label: '病灶' }];
    const res = await s.request('PATCH', `sample-graphs/${g.id}`, { token: manager, body: { points, name: '点 2' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: g.id, name: '点 2', origin: '胸部', points });
    expect((await list()).body.find((x: { id: number }) => x.id === g.id).points).toEqual(points);
    const bad: unknown[] = [
      { points: [{ x: -0.01, y: 0, color: '#000000' }] }, { points: [{ x: 0, y: 1.01, color: '#000000' }] },
      { points: [{ x: 0, y: 0, color: 'red' }] }, { points: [{ x: 0, y: 0, color: '#000' }] }, { points: [{ x: 0, y: 0 }] },
      { points: [{ x: '0.5', y: 0, color: '#000000' }] }, { points: [{ x: 0, y: 0, color: '#000000', z: 1 }] },
      { points: [{ x: 0, y: 0, color: '#000000', label: 'l'.repeat(33) }] },
      { points: Array.from({ length: 201 }, () => ({ x: 0, y: 0, color: '#000000' })) },
      {}, { name: '' }, { name: 'n'.repeat(65) }, { bucketId: 2 }, { points: 'none' },
    ];
    for (const body of bad) {
      const r = await s.request('PATCH', `sample-graphs/${g.id}`, { token: manager, body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.code).toBe('ParamsError');
    }
    expect((await s.request('PATCH', 'sample-graphs/abc', { token: manager, body: { name: 'x' } })).body.code).toBe('ParamsError');
    expect((await audits(g.id)).map((e) => e.action)).toEqual(['create', 'update']);
  });

  it('move a drawing after preId (null: first) and refuse a preId from elsewhere or itself', async () => {
    const before = (await list()).body.map((g: { id: number }) => g.id) as number[];
    const last = before.at(-1)!;
    const first = await s.request('POST', `sample-graphs/${last}/resort`, { token: manager, body: { preId: null } });
    expect(first.status).toBe(200);
    expect(first.body.ids).toEqual([last, ...before.slice(0, -1)]);
    const back = await s.request('POST', `sample-graphs/${last}/resort`, { token: manager, body: { preId: before.at(-2) } });
    expect(back.body.ids).toEqual(before);
    expect((await list()).body.map((g: { id: number }) => g.id)).toEqual(before);
    expect((await s.request('POST', `sample-graphs/${last}/resort`, { token: manager, body: { preId: last } })).body.code).toBe('InvalidOrder');
    const other = await createGroup(s);
    const [foreign] = await s.db.db.insert(t.sampleGraphs).values({ bucketId: other.bucketId, name: 'f', url: 'sample-graphs/x/y.png' }).returning();
    expect((await s.request('POST', `sample-graphs/${last}/resort`, { token: manager, body: { preId: foreign!.id } })).body.code).toBe('InvalidOrder');
    for (const body of [{}, { preId: 0 }, { preId: 'a' }, { preId: null, x: 1 }]) {
      expect((await s.request('POST', `sample-graphs/${last}/resort`, { token: manager, body })).body.code).toBe('ParamsError');
    }
  });

  it('are deleted with their file', async () => {
    const g = await made('删');
    const key = (await s.db.db.select().from(t.sampleGraphs).where(eq(t.sampleGraphs.id, g.id)))[0]!.url;
    expect(await s.storage.head(key)).not.toBeNull();
    expect((await s.request('DELETE', `sample-graphs/${g.id}`, { token: manager })).status).toBe(204);
    expect(await s.storage.head(key)).toBeNull();
    expect((await s.request('DELETE', `sample-graphs/${g.id}`, { token: manager })).status).toBe(404);
    expect((await list()).body.some((x: { id: number }) => x.id === g.id)).toBe(false);
    expect((await audits(g.id)).map((e) => e.action)).toEqual(['create', 'delete']);
  });

  it('need manage_sample_graph for writes (403) and hide other organisations (404)', async () => {
    const g = await made('权限');
    expect((await upload(rad1, { bucketId: String(hospital), name: 'x' })).status).toBe(403);
    expect((await s.request('PATCH', `sample-graphs/${g.id}`, { token: rad1, body: { name: 'x' } })).status).toBe(403);
    expect((await s.request('POST', `sample-graphs/${g.id}/resort`, { token: rad1, body: { preId: null } })).status).toBe(403);
    expect((await s.request('DELETE', `sample-graphs/${g.id}`, { token: rad1 })).status).toBe(403);
    // orgadmin administers the hospital without holding the action through a role.
    expect((await s.request('PATCH', `sample-graphs/${g.id}`, { token: await tokenOf(s, 'orgadmin'), body: { origin: '腹部' } })).status).toBe(200);
    const expert = await tokenOf(s, 'expert');
    expect((await list(expert)).status).toBe(404);
    expect((await upload(expert, { bucketId: String(hospital), name: 'x' })).status).toBe(404);
    expect((await s.request('PATCH', `sample-graphs/${g.id}`, { token: expert, body: { name: 'x' } })).status).toBe(404);
    expect((await s.request('DELETE', `sample-graphs/${g.id}`, { token: expert })).status).toBe(404);
    const other = await createGroup(s);
    const outsider = await createAccount(s, { groupId: other.groupId, buckets: [{ bucketId: other.bucketId, accessLevel: 'admin' }] });
    const out = await s.login(outsider.username, outsider.password);
    expect((await list(out)).status).toBe(404);
    expect((await s.request('DELETE', `sample-graphs/${g.id}`, { token: out })).status).toBe(404);
    expect((await list(out, 2_000_000)).status).toBe(404);
    expect((await s.request('PATCH', 'sample-graphs/2000000', { token: manager, body: { name: 'x' } })).status).toBe(404);
    expect((await s.request('GET', 'sample-graphs/query?bucketId=x', { token: rad1 })).body.code).toBe('ParamsError');
    expect((await s.request('GET', `sample-graphs/query?bucketId=${hospital}`)).status).toBe(401);
  });
});
