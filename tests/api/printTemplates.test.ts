import { deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { demoLogo, demoStamp, pngOf } from '../../server/seed/printImages';
import { createGroup } from '../support/accounts';
import { fetchLink, form, jpeg, png } from '../support/files';
import { reportIn, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Print templates (areas §3 "Report template", §5, §9; docs/api.md "Print templates"): CRUD by the organisation's
 * admins, names unique in any case, QR text at most 10, one default per organisation + layout + modality, logo and
 * stamp judged on their bytes, and the print using them.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const base = () => `buckets/${s.ids.hospitalId}/print-templates`;
const as = async (user: string, method: string, path: string, body?: unknown) => s.request(method, path, { token: await tokenOf(s, user), body });
let n = 0;
const fresh = async (extra: Record<string, unknown> = {}, user = 'orgadmin') => {
  const res = await as(user, 'POST', base(), { name: `测试模板${++n}-${Date.now()}`, titles: ['影像诊断报告单'], ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; isDefault: boolean; logo: string | null; stamp: string | null };
};
const upload = async (id: number, kind: 'logo' | 'stamp', bytes: Buffer, name = 'picture.png', type = 'image/png', user = 'orgadmin') =>
  s.request('PUT', `${base()}/${id}/${kind}`, { token: await tokenOf(s, user), body: form(bytes, name, type) });
const row = async (id: number) => (await s.db.db.select().from(t.printTemplates).where(eq(t.printTemplates.id, id)))[0]!;
const audits = (id: number) => s.db.db.select().from(t.auditEvents).where(and(eq(t.auditEvents.objectType, 'print-template'), eq(t.auditEvents.objectId, String(id))));

/** A PNG of one colour type with real chunks (pngOf writes RGB or RGBA; grey + alpha is written here). */
function greyAlphaPng(size: number): Buffer {
  const rgba = pngOf(size, size, () => [0, 0, 0, 0]);
  // Rewrite IHDR's colour type to 4 (grey + alpha) with data of 2 bytes a pixel, and fix the CRCs by building anew.
  const raw = Buffer.alloc((size * 2 + 1) * size);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0); body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.from(rgba.subarray(16, 29)); ihdr[9] = 4;
  return Buffer.concat([rgba.subarray(0, 8), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
function crc(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) { c ^= b; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; }
  return (c ^ 0xffffffff) >>> 0;
}
/** An RGB PNG with a tRNS chunk (one colour is transparent) before IDAT. */
function trnsPng(size: number): Buffer {
  const plain = pngOf(size, size, () => [255, 255, 255, 255], false);
  const trns = Buffer.alloc(6 + 12);
  trns.writeUInt32BE(6, 0); trns.write('tRNS', 4, 'latin1'); trns.writeUInt16BE(255, 8); trns.writeUInt16BE(255, 10); trns.writeUInt16BE(255, 12);
  trns.writeUInt32BE(crc(trns.subarray(4, 14)), 14);
  return Buffer.concat([plain.subarray(0, 33), trns, plain.subarray(33)]);
}
const gif = () => Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([8, 0, 8, 0, 0x80, 0, 0]), Buffer.alloc(6), Buffer.from([0x2c, 0, 0, 0, 0, 8, 0, 8, 0, 0, 2, 2, 0x44, 1, 0, 0x3b])]);

describe('print templates: reading and writing', () => {
  it('lists the seeded templates by layout, with the default marked, and reads one', async () => {
    const all = await as('rad1', 'GET', base());
    expect(all.status).toBe(200);
    expect(all.body.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['标准报告单', '精确时间报告单', '会诊报告单']));
    const exam = await as('rad1', 'GET', `${base()}?layoutType=1`);
    expect(exam.body.every((x: { layoutType: number }) => x.layoutType === 1)).toBe(true);
    expect(exam.body.find((x: { name: string }) => x.name === '标准报告单')).toMatchObject({ isDefault: true, modality: null, qrMode: 'static', qrText: 'REPORT' });
    const consult = await as('rad1', 'GET', `${base()}?layoutType=3`);
    expect(consult.body).toEqual([expect.objectContaining({ name: '会诊报告单', layoutType: 3, isDefault: true })]);
    expect((await as('rad1', 'GET', `${base()}?layoutType=2`)).status).toBe(400);
    const one = await as('rad1', 'GET', `${base()}/${exam.body[0].id}`);
    expect(one.body).toEqual(exam.body[0]);
  });

  it('creates, updates and deletes with an audit event for each write', async () => {
    const created = await fresh({ modality: 'ct', qrMode: 'static', qrText: 'ABCDEFGHIJ', exactTime: true, pageNumbers: false, signatureOf: 'creator', titles: ['甲', '乙'] });
    expect(created).toMatchObject({ isDefault: false, logo: null, stamp: null });
    const got = await as('orgadmin', 'GET', `${base()}/${created.id}`);
    expect(got.body).toMatchObject({ modality: 'CT', layoutType: 1, qrText: 'ABCDEFGHIJ', exactTime: true, pageNumbers: false, signatureOf: 'creator', titles: ['甲', '乙'] });
    const updated = await as('admin', 'PUT', `${base()}/${created.id}`, { name: `${created.name} 改`, titles: [], qrMode: 'dynamic', modality: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: `${created.name} 改`, titles: [], qrMode: 'dynamic', modality: null, signatureOf: 'approver', updated: s.clock.now().toISOString() });
    const gone = await as('orgadmin', 'DELETE', `${base()}/${created.id}`);
    expect(gone.status).toBe(204);
    expect((await as('orgadmin', 'GET', `${base()}/${created.id}`)).status).toBe(404);
    expect((await audits(created.id)).map((a) => a.action)).toEqual(['print-template-create', 'print-template-update', 'print-template-delete']);
  });

  it('refuses a repeated name in any case (also on rename) with DuplicateName, and allows it in another organisation', async () => {
    const a = await fresh();
    const dup = await as('orgadmin', 'POST', base(), { name: a.name.toUpperCase() === a.name ? ` ${a.name} ` : a.name });
    expect([dup.status, dup.body.code]).toEqual([409, 'DuplicateName']);
    const b = await fresh();
    const rename = await as('orgadmin', 'PUT', `${base()}/${b.id}`, { name: a.name });
    expect([rename.status, rename.body.code]).toEqual([409, 'DuplicateName']);
    expect((await as('orgadmin', 'PUT', `${base()}/${b.id}`, { name: b.name, titles: ['新'] })).status).toBe(200);
    const latin = await fresh({ name: `Plain ${Date.now()}` });
    expect((await as('orgadmin', 'POST', base(), { name: latin.name.toLowerCase() })).body.code).toBe('DuplicateName');
    const other = await as('admin', 'POST', `buckets/${s.ids.expertCentreId}/print-templates`, { name: a.name });
    expect(other.status).toBe(201);
  });

  it('refuses bad input with ParamsError: QR text over 10, a static code without text, unknown values, blank names', async () => {
    const bad = [
      { name: 'x', qrText: 'ABCDEFGHIJK' },
      { name: 'x', qrMode: 'static' },
      { name: 'x', qrMode: 'static', qrText: '   ' },
      { name: 'x', qrMode: 'sometimes' },
      { name: 'x', signatureOf: 'nobody' },
      { name: 'x', layoutType: 2 },
      { name: '   ' },
      { name: 'x'.repeat(65) },
      { name: 'x', modality: 'C T' },
      { name: 'x', modality: 'VERYLONGMOD' },
      { name: 'x', titles: ['a', 'b', 'c', 'd'] },
      { name: 'x', titles: [''] },
      { name: 'x', exactTime: 'yes' },
      { name: 'x\u0000' },
      {},
    ];
    for (const body of bad) {
      const res = await as('orgadmin', 'POST', base(), body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'ParamsError']);
    }
    const tenChinese = await fresh({ qrMode: 'static', qrText: '一二三四五六七八九十' });
    expect((await as('orgadmin', 'GET', `${base()}/${tenChinese.id}`)).body.qrText).toBe('一二三四五六七八九十');
  });

  it('keeps one default per organisation, layout and modality; the general default is the one without a modality', async () => {
    const ctA = await fresh({ modality: 'MR' });
    const ctB = await fresh({ modality: 'MR' });
    const general = await fresh();
    expect((await as('orgadmin', 'POST', `${base()}/${ctA.id}/default`)).body.isDefault).toBe(true);
    expect((await as('orgadmin', 'POST', `${base()}/${ctB.id}/default`)).body.isDefault).toBe(true);
    expect((await row(ctA.id)).isDefault).toBe(false);
    const seeded = (await s.db.db.select().from(t.printTemplates).where(and(eq(t.printTemplates.bucketId, s.ids.hospitalId), eq(t.printTemplates.name, '标准报告单'))))[0]!;
    expect(seeded.isDefault).toBe(true); // another slot (no modality): untouched
    await as('orgadmin', 'POST', `${base()}/${general.id}/default`);
    expect((await row(seeded.id)).isDefault).toBe(false);
    expect((await row(ctB.id)).isDefault).toBe(true);
    const consult = (await as('orgadmin', 'GET', `${base()}?layoutType=3`)).body[0];
    expect(consult.isDefault).toBe(true); // layout 3 is its own slot
    // A default moved to another modality takes that slot's default over.
    const moved = await as('orgadmin', 'PUT', `${base()}/${ctB.id}`, { name: ctB.name, modality: null });
    expect(moved.body).toMatchObject({ isDefault: true, modality: null });
    expect((await row(general.id)).isDefault).toBe(false);
    const defaults = await s.db.db.select().from(t.printTemplates).where(and(eq(t.printTemplates.bucketId, s.ids.hospitalId), eq(t.printTemplates.isDefault, true), eq(t.printTemplates.layoutType, 1)));
    expect(defaults.filter((d) => d.modality === null)).toHaveLength(1);
    expect((await audits(general.id)).map((a) => a.action)).toContain('print-template-default');
    await as('orgadmin', 'POST', `${base()}/${seeded.id}/default`);
  });

  it('sets defaults concurrently without leaving two', async () => {
    const a = await fresh({ modality: 'DX' });
    const b = await fresh({ modality: 'DX' });
    const c = await fresh({ modality: 'DX' });
    const token = await tokenOf(s, 'orgadmin');
    const answers = await Promise.all([a, b, c, a, b].map((x) => s.request('POST', `${base()}/${x.id}/default`, { token })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const defaults = await s.db.db.select().from(t.printTemplates).where(and(eq(t.printTemplates.bucketId, s.ids.hospitalId), eq(t.printTemplates.modality, 'DX'), eq(t.printTemplates.isDefault, true)));
    expect(defaults).toHaveLength(1);
  });

  it('answers 403 to members who do not administer it, 404 outside the group and for unknown ids', async () => {
    const mine = await fresh();
    for (const [method, path, body] of [
      ['POST', base(), { name: 'nope' }], ['PUT', `${base()}/${mine.id}`, { name: 'nope' }], ['DELETE', `${base()}/${mine.id}`],
      ['POST', `${base()}/${mine.id}/default`], ['DELETE', `${base()}/${mine.id}/logo`],
    ] as const) {
      const res = await as('rad1', method, path, body);
      expect([res.status, res.body.code], path).toEqual([403, 'Forbidden']);
    }
    expect((await upload(mine.id, 'logo', demoLogo(), 'l.png', 'image/png', 'rad1')).status).toBe(403);
    // expert belongs to the group but not to the hospital: it may neither read nor write.
    expect((await as('expert', 'GET', base())).status).toBe(403);
    const elsewhere = await createGroup(s);
    const [outside] = await s.db.db.insert(t.printTemplates).values({ bucketId: elsewhere.bucketId, name: '别处' }).returning();
    for (const [method, path] of [['GET', `buckets/${elsewhere.bucketId}/print-templates`], ['POST', `buckets/${elsewhere.bucketId}/print-templates/${outside!.id}/default`]] as const) {
      expect((await as('admin', method, path)).status).toBe(404);
    }
    // Another organisation's template under this organisation's path is not found either.
    for (const [method, path] of [['GET', `${base()}/${outside!.id}`], ['PUT', `${base()}/${outside!.id}`], ['DELETE', `${base()}/${outside!.id}`], ['POST', `${base()}/${outside!.id}/default`]] as const) {
      const res = await as('admin', method, path, method === 'PUT' ? { name: 'x' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await upload(outside!.id, 'logo', demoLogo(), 'l.png', 'image/png', 'admin')).status).toBe(404);
    expect((await row(outside!.id)).name).toBe('别处');
    expect((await as('admin', 'GET', `${base()}/abc`)).status).toBe(400);
    expect((await s.request('GET', base())).status).toBe(401);
  });
});

describe('logo and stamp', () => {
  it('stores a square PNG or JPEG logo and a transparent PNG stamp, served sandboxed as images, and removes them', async () => {
    const tpl = await fresh();
    const logo = await upload(tpl.id, 'logo', demoLogo(), 'anything.gif', 'image/gif');
    expect(logo.status).toBe(200);
    expect(logo.body.logo).toMatch(/^(\/api\/v1\/files\?token=|https?:\/\/)/);
    const served = await fetchLink(s, logo.body.logo);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(served.bytes.equals(demoLogo())).toBe(true);
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('content-disposition')).toBeNull();
    const stamp = await upload(tpl.id, 'stamp', demoStamp(), 'seal.jpg', 'image/jpeg');
    expect(stamp.status).toBe(200);
    expect((await fetchLink(s, stamp.body.stamp)).bytes.equals(demoStamp())).toBe(true);
    // Grey + alpha, and a tRNS chunk, are transparent too; a square JPEG is a logo.
    expect((await upload(tpl.id, 'stamp', greyAlphaPng(32))).status).toBe(200);
    expect((await upload(tpl.id, 'stamp', trnsPng(32))).status).toBe(200);
    const jpg = await upload(tpl.id, 'logo', squareJpeg(), 'logo.jpg', 'image/jpeg');
    expect(jpg.status).toBe(200);
    expect((await fetchLink(s, jpg.body.logo)).headers.get('content-type')).toBe('image/jpeg');
    // The replaced file is gone from storage; removing clears the column and the file.
    const before = await row(tpl.id);
    expect(await s.storage.head(before.logo!)).not.toBeNull();
    const removed = await as('orgadmin', 'DELETE', `${base()}/${tpl.id}/logo`);
    expect([removed.status, removed.body.logo]).toEqual([200, null]);
    expect(await s.storage.head(before.logo!)).toBeNull();
    expect((await as('orgadmin', 'DELETE', `${base()}/${tpl.id}/stamp`)).body.stamp).toBeNull();
    const stored: string[] = [];
    for await (const o of s.storage.list(`print-templates/${s.ids.hospitalId}/${tpl.id}/`)) stored.push(o.key);
    expect(stored).toEqual([]);
    expect((await audits(tpl.id)).map((a) => a.action)).toEqual(expect.arrayContaining(['print-template-logo', 'print-template-stamp', 'print-template-logo-remove', 'print-template-stamp-remove']));
  });

  it('refuses every wrong file with its code, whatever the file is called, and keeps the old image', async () => {
    const tpl = await fresh();
    await upload(tpl.id, 'logo', demoLogo());
    await upload(tpl.id, 'stamp', demoStamp());
    const kept = await row(tpl.id);
    const whole = demoLogo();
    const cases: [string, 'logo' | 'stamp', Buffer, string, Record<string, unknown>?][] = [
      ['a logo that is not square', 'logo', pngOf(40, 20, () => [0, 0, 0, 255], false), 'LogoNotSquare', { width: 40, height: 20 }],
      ['a GIF logo', 'logo', gif(), 'ImageType', { accepted: ['image/jpeg', 'image/png'] }],
      ['a WebP logo', 'logo', Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(16)]), 'ImageType'],
      ['a PDF named .png', 'logo', Buffer.from('%PDF-1.4\n%%EOF\n'), 'ImageType'],
      ['a JPEG stamp', 'stamp', squareJpeg(), 'ImageType', { accepted: ['image/png'] }],
      ['an opaque PNG stamp', 'stamp', pngOf(32, 32, () => [200, 0, 0, 255], false), 'StampNotTransparent'],
      ['a grey opaque PNG stamp', 'stamp', png(16, 16), 'StampNotTransparent'],
      ['a PNG cut short', 'logo', whole.subarray(0, whole.length - 20), 'ImageBroken'],
      ['a PNG signature only', 'logo', whole.subarray(0, 8), 'ImageBroken'],
      ['a PNG with a broken CRC', 'logo', Buffer.concat([whole.subarray(0, 30), Buffer.from([whole[30]! ^ 0xff]), whole.subarray(31)]), 'ImageBroken'],
      ['a JPEG cut short', 'logo', squareJpeg().subarray(0, 40), 'ImageBroken'],
      ['a stamp cut short', 'stamp', demoStamp().subarray(0, 100), 'ImageBroken'],
      ['an empty file', 'logo', Buffer.alloc(0), 'ImageType'],
    ];
    for (const [what, kind, bytes, code, details] of cases) {
      const res = await upload(tpl.id, kind, bytes, 'logo.png', 'image/png');
      expect([res.status, res.body.code], what).toEqual([400, code]);
      if (details) expect(res.body.details, what).toMatchObject(details);
    }
    const big = await upload(tpl.id, 'logo', png(64, 64, 1024 * 1024 + 10));
    expect([big.status, big.body.code]).toEqual([400, 'UploadTooLarge']);
    const noFile = await as('orgadmin', 'PUT', `${base()}/${tpl.id}/logo`, { logo: 'x' });
    expect([noFile.status, noFile.body.code]).toEqual([400, 'ParamsError']);
    const after = await row(tpl.id);
    expect([after.logo, after.stamp]).toEqual([kept.logo, kept.stamp]);
    const stored: string[] = [];
    for await (const o of s.storage.list(`print-templates/${s.ids.hospitalId}/${tpl.id}/`)) stored.push(o.key);
    expect(stored.sort()).toEqual([kept.logo!, kept.stamp!].sort());
  });

  it('deletes a template\'s stored files with it', async () => {
    const tpl = await fresh();
    await upload(tpl.id, 'logo', demoLogo());
    const key = (await row(tpl.id)).logo!;
    expect((await as('orgadmin', 'DELETE', `${base()}/${tpl.id}`)).status).toBe(204);
    expect(await s.storage.head(key)).toBeNull();
  });
});

describe('the print uses the templates', () => {
  const printData = async (id: number, query = '') => as('rad1', 'GET', `reports/${id}/print-data${query}`);

  it('prints the default\'s logo and stamp as loadable links, lists the exam templates, and prints with another on ?templateId', async () => {
    const seeded = (await as('orgadmin', 'GET', `${base()}?layoutType=1`)).body.find((x: { name: string }) => x.name === '标准报告单');
    await upload(seeded.id, 'logo', demoLogo());
    await upload(seeded.id, 'stamp', demoStamp());
    const r = await reportIn(s, 'corrected');
    const res = await printData(r.id);
    expect(res.status).toBe(200);
    expect(res.body.template.id).toBe(seeded.id);
    for (const url of [res.body.template.logo, res.body.template.stamp]) {
      const got = await fetchLink(s, url);
      expect([got.status, got.headers.get('content-type')]).toEqual([200, 'image/png']);
    }
    const names = res.body.templates.map((c: { name: string }) => c.name);
    expect(names).toContain('精确时间报告单');
    expect(names).not.toContain('会诊报告单');
    expect(res.body.templates.find((c: { id: number }) => c.id === seeded.id)).toMatchObject({ isDefault: true, modality: null });

    const other = res.body.templates.find((c: { name: string }) => c.name === '精确时间报告单');
    const chosen = await printData(r.id, `?templateId=${other.id}`);
    expect(chosen.body.template).toMatchObject({ id: other.id, exactTime: true, signatureOf: 'creator', qrMode: 'dynamic', titles: ['影像诊断报告单', '（复印无效）'] });
    expect(chosen.body.qrText).toBe(`R${r.id.toString(36).toUpperCase()}`);
    // A consultation layout, another organisation's template, junk: not found / refused.
    const consult = (await as('orgadmin', 'GET', `${base()}?layoutType=3`)).body[0];
    expect((await printData(r.id, `?templateId=${consult.id}`)).status).toBe(404);
    const [centre] = await s.db.db.select().from(t.printTemplates).where(eq(t.printTemplates.bucketId, s.ids.expertCentreId));
    expect((await printData(r.id, `?templateId=${centre!.id}`)).status).toBe(404);
    expect((await printData(r.id, '?templateId=x')).status).toBe(400);
  });

  it('says "no default chosen" after the default is deleted, and prints again once another is made the default', async () => {
    const r = await reportIn(s, 'corrected');
    const current = (await printData(r.id)).body.template;
    const kept = await row(current.id);
    expect((await as('orgadmin', 'DELETE', `${base()}/${current.id}`)).status).toBe(204);
    const refused = await printData(r.id);
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([400, 'NoPrintTemplate', 'No print template configured or no default chosen']);
    // ?templateId still prints with a chosen one.
    const other = (await as('orgadmin', 'GET', `${base()}?layoutType=1`)).body.find((x: { name: string }) => x.name === '精确时间报告单');
    expect((await printData(r.id, `?templateId=${other.id}`)).status).toBe(200);
    const { id: _id, ...rest } = kept;
    const [back] = await s.db.db.insert(t.printTemplates).values({ ...rest, isDefault: false, logo: null, stamp: null }).returning();
    await as('orgadmin', 'POST', `${base()}/${back!.id}/default`);
    expect((await printData(r.id)).body.template.id).toBe(back!.id);
  });
});

/** A small square JPEG header image-size can read: SOI, APP0, SOF0 (8 × 8), EOI. */
function squareJpeg(): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
  const base0 = jpeg();
  return Buffer.concat([base0.subarray(0, 20), sof, base0.subarray(20)]);
}
