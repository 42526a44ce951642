import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { pngChunk } from '../../server/http/png';
import { accountRow, createAccount } from '../support/accounts';
import { fetchLink, form, jpeg, pdf, png } from '../support/files';
import { reportIn, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Settings: the signature image (areas §5 "Signature cannot be empty") and the notification switches. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 2 }); });
afterAll(async () => { await s.close(); });

/** An RGBA PNG of w×h, transparent, with `ink(x, y)` pixels drawn black; rows use filter `filter` (0–4). */
function rgbaPng(w: number, h: number, ink: (x: number, y: number) => boolean, filter = 0, background = [0, 0, 0, 0]): Buffer {
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 6;
  const stride = w * 4;
  const pixels = Buffer.alloc(stride * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels.set(ink(x, y) ? [0, 0, 0, 255] : background, y * stride + x * 4);
  // Filtered rows: the server must undo each filter to see the ink.
  const raw = Buffer.alloc((stride + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (stride + 1)] = filter;
    for (let i = 0; i < stride; i++) {
      const cur = pixels[y * stride + i]!;
      const a = i >= 4 ? pixels[y * stride + i - 4]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const c = i >= 4 && y > 0 ? pixels[(y - 1) * stride + i - 4]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      raw[y * (stride + 1) + 1 + i] = (cur - predictor) & 0xff;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}
/** A stroke: a thick diagonal line across the pad. */
const stroke = (x: number, y: number) => Math.abs(y - Math.round(x / 3)) < 3 && x > 10 && x < 290;

const upload = (token: string, file: Buffer, name = 'sign.png', type = 'image/png') =>
  s.request('POST', 'accounts/me/signature', { token, body: form(file, name, type) });

async function fresh() {
  const account = await createAccount(s);
  return { ...account, token: await s.login(account.username, account.password) };
}

describe('POST accounts/me/signature', () => {
  it.each([0, 1, 2, 3, 4])('stores a drawn PNG (rows filtered with %i), sets accounts.signature and serves it', async (filter) => {
    const me = await fresh();
    const image = rgbaPng(300, 100, stroke, filter);
    const res = await upload(me.token, image);
    expect(res.status).toBe(200);
    expect(res.body.signature).toMatch(new RegExp(`^/api/v1/signatures/${me.id}/[a-f0-9]{24}\\.png$`));
    expect((await accountRow(s, me.id)).signature).toBe(res.body.signature);
    const served = await fetchLink(s, res.body.signature);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.bytes.equals(image)).toBe(true);
  });

  it('replaces the old image (deleted) and writes the audit trail', async () => {
    const me = await fresh();
    const first = (await upload(me.token, rgbaPng(300, 100, stroke))).body.signature as string;
    const second = (await upload(me.token, rgbaPng(300, 100, (x, y) => stroke(x, y) || (y > 80 && x > 20 && x < 200)))).body.signature as string;
    expect(second).not.toBe(first);
    expect((await fetchLink(s, first)).status).toBe(404);
    expect((await fetchLink(s, second)).status).toBe(200);
    const trail = await s.db.db.select().from(t.auditEvents).where(eq(t.auditEvents.objectId, String(me.id)));
    expect(trail.filter((e) => e.action === 'signature')).toHaveLength(2);
  });

  it('refuses a blank pad, a white one and a few stray pixels with SignatureEmpty', async () => {
    const me = await fresh();
    for (const image of [
      rgbaPng(300, 100, () => false),
      rgbaPng(300, 100, () => false, 2, [255, 255, 255, 255]),
      rgbaPng(300, 100, (x, y) => x < 5 && y < 5),
    ]) {
      const res = await upload(me.token, image);
      expect([res.status, res.body.code]).toEqual([400, 'SignatureEmpty']);
    }
    expect((await accountRow(s, me.id)).signature).toBeNull();
  });

  it('refuses an image too small to be a signature with SignatureEmpty', async () => {
    const me = await fresh();
    const res = await upload(me.token, rgbaPng(40, 20, () => true));
    expect([res.status, res.body.code]).toEqual([400, 'SignatureEmpty']);
  });

  it('refuses what is not a PNG or JPEG by its bytes (UnsupportedFileType), whatever its name', async () => {
    const me = await fresh();
    for (const [file, name, type] of [[pdf(), 'sign.png', 'image/png'], [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'sign.svg', 'image/svg+xml'], [Buffer.from('RIFF0000WEBPVP8 '), 'a.webp', 'image/webp']] as const) {
      const res = await upload(me.token, file, name, type);
      expect([res.status, res.body.code]).toEqual([400, 'UnsupportedFileType']);
    }
  });

  it('accepts a JPEG by its frame header and end marker (its ink is not judged) and serves it as image/jpeg', async () => {
    const me = await fresh();
    const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x64, 0x01, 0x2c, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
    const soiApp0 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const file = Buffer.concat([soiApp0, sof, Buffer.alloc(300, 0x55), Buffer.from([0xff, 0xd9])]);
    const res = await upload(me.token, file, 'sign.jpg', 'image/jpeg');
    expect(res.status).toBe(200);
    expect(res.body.signature).toMatch(/\.jpg$/);
    expect((await fetchLink(s, res.body.signature)).headers.get('content-type')).toBe('image/jpeg');
    const tiny = Buffer.concat([soiApp0, Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]), Buffer.from([0xff, 0xd9])]);
    expect((await upload(me.token, tiny, 'tiny.jpg', 'image/jpeg')).body.code).toBe('SignatureEmpty');
  });

  it('refuses a damaged image with ImageBroken', async () => {
    const me = await fresh();
    const whole = rgbaPng(300, 100, stroke);
    const cut = await upload(me.token, whole.subarray(0, whole.length - 30));
    expect([cut.status, cut.body.code]).toEqual([400, 'ImageBroken']);
    const junk = Buffer.concat([whole.subarray(0, 41), Buffer.from('IDAT'), Buffer.alloc(60, 9)]);
    expect((await upload(me.token, junk)).body.code).toBe('ImageBroken');
    const frameless = Buffer.concat([jpeg().subarray(0, 20), jpeg().subarray(33)]); // no SOF: the size cannot be read
    const badJpeg = await upload(me.token, frameless, 'sign.jpg', 'image/jpeg');
    expect([badJpeg.status, badJpeg.body.code]).toEqual([400, 'ImageBroken']);
  });

  it('refuses an image over 512 KB with UploadTooLarge', async () => {
    const me = await fresh();
    const res = await upload(me.token, png(300, 100, 600 * 1024));
    expect([res.status, res.body.code]).toEqual([400, 'UploadTooLarge']);
  });

  it('refuses a request without a file, or not form data, with ParamsError; without a token 401', async () => {
    const me = await fresh();
    const empty = new FormData();
    empty.append('x', 'y');
    expect((await s.request('POST', 'accounts/me/signature', { token: me.token, body: empty })).body.code).toBe('ParamsError');
    expect((await s.request('POST', 'accounts/me/signature', { token: me.token, body: { file: 'x' } })).body.code).toBe('ParamsError');
    expect((await s.request('POST', 'accounts/me/signature', { body: form(rgbaPng(300, 100, stroke), 's.png', 'image/png') })).status).toBe(401);
  });

  it('serves signatures only by their exact stored name (404 otherwise, 400 for a malformed name)', async () => {
    const me = await fresh();
    expect((await s.request('GET', `signatures/${me.id}/${'0'.repeat(24)}.png`)).status).toBe(404);
    expect((await s.request('GET', `signatures/${me.id}/..%2Fx.png`)).body.code).toBe('ParamsError');
    expect((await s.request('GET', `signatures/${me.id}/abc.svg`)).body.code).toBe('ParamsError');
  });

  it('PATCH accounts/me refuses an empty signature with SignatureEmpty', async () => {
    const me = await fresh();
    for (const signature of ['', '   ']) {
      const res = await s.request('PATCH', 'accounts/me', { token: me.token, body: { signature } });
      expect([res.status, res.body.code]).toEqual([400, 'SignatureEmpty']);
    }
  });

  it('puts the saved signature on the printed report (print-data), and the address loads without a token', async () => {
    const chief = await s.login('chief');
    const url = (await upload(chief, rgbaPng(300, 100, stroke))).body.signature as string;
    const report = await reportIn(s, 'corrected');
    const data = await s.request('GET', `reports/${report.id}/print-data`, { token: await tokenOf(s, 'rad1') });
    expect(data.body.signature).toBe(url);
    expect((await fetchLink(s, data.body.signature)).status).toBe(200);
  });
});

describe('notification switches (PATCH accounts/me notificationPrefs)', () => {
  it('are on by default, switch one at a time, and persist', async () => {
    const me = await fresh();
    expect((await s.request('GET', 'accounts/me', { token: me.token })).body.notificationPrefs).toEqual({ examSound: true, consultationSound: true });
    const off = await s.request('PATCH', 'accounts/me', { token: me.token, body: { notificationPrefs: { examSound: false } } });
    expect(off.body.notificationPrefs).toEqual({ examSound: false, consultationSound: true });
    await s.request('PATCH', 'accounts/me', { token: me.token, body: { notificationPrefs: { consultationSound: false } } });
    expect((await s.request('GET', 'accounts/me', { token: me.token })).body.notificationPrefs).toEqual({ examSound: false, consultationSound: false });
    expect((await accountRow(s, me.id)).notificationPrefs).toEqual({ examSound: false, consultationSound: false });
  });

  it.each([{ examSound: 'no' }, { other: true }, { examSound: null }, []])('refuses %j with ParamsError', async (notificationPrefs) => {
    const me = await fresh();
    const res = await s.request('PATCH', 'accounts/me', { token: me.token, body: { notificationPrefs } });
    expect([res.status, res.body.code]).toEqual([400, 'ParamsError']);
  });
});
