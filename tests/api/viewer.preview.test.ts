import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader, studyInfoFromHeaders, type DicomHeader } from '../../contract/dicom';
import { dicomInstances, exams } from '../../server/db/schema';
import { writeDicomFile } from '../../server/seed/dicom/writer';
import { PREVIEW_FILE_MAX, previewKey } from '../../server/viewer/routes';
import type { FixtureEntry } from '../fixtures/dicom/generate';
import { startServer, type TestServer } from '../support/server';
import { initUpload, putFile } from '../support/uploads';

/**
 * GET instances/{id}/preview: the first frame as a PNG, windowed as the viewer opens it, for every fixture kind
 * (tests/fixtures/dicom: each transfer syntax, photometric interpretation and bit depth); kept in storage after the
 * first call; the file's readers only (403 without a view right, 404 outside the organisation, a view token of its
 * exam); bad ids 400; a file without pixels 400 InvalidDicom.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/dicom');
const manifest = JSON.parse(readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { study: string; size: number; files: FixtureEntry[] };

let s: TestServer;
let tech: string;
let rad1: string;
let registrar: string;
let expert: string;
let examId: number;
const ids = new Map<string, number>();
let noPixels: number;

/** Reads back a PNG this server wrote (8-bit grey or RGB, filter 0 on every row). */
function readPng(bytes: Buffer): { width: number; height: number; channels: number; pixels: Buffer } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); channels = data[9] === 2 ? 3 : 1; }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * channels + 1)]).toBe(0);
    raw.copy(pixels, y * width * channels, y * (width * channels + 1) + 1, (y + 1) * (width * channels + 1));
  }
  return { width, height, channels, pixels };
}

const get = (id: number | string, opts: { token?: string; query?: string } = {}) =>
  fetch(`${s.url}/api/v1/instances/${id}/preview${opts.query ?? ''}`, { headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} });

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  [tech, rad1, registrar, expert] = await Promise.all(['tech', 'rad1', 'registrar', 'expert'].map((u) => s.login(u)));
  const files = manifest.files.map((f) => readFileSync(path.join(FIXTURES, f.file)));
  const headers = files.map((b) => (readDicomHeader(new Uint8Array(b)) as { header: DicomHeader }).header);
  const info = studyInfoFromHeaders(headers);
  const session = await initUpload(s, tech, s.ids.hospitalId, { ...info, patientName: info.patientName ?? 'X', patientId: info.patientId ?? 'X', modality: 'OT' });
  examId = session.exam.id;
  for (const [i, f] of manifest.files.entries()) {
    const res = await putFile(s, session.credentials.token, files[i]!);
    expect(res.status, f.file).toBe(200);
    ids.set(f.file, res.body.instance.id);
  }
  // A key object without pixel data: stored like any instance of the study, but no picture to preview.
  const bare = writeDicomFile([
    { tag: 0x00080016, vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.88.59' },
    { tag: 0x00080018, vr: 'UI', value: `${manifest.study}.99.1` },
    { tag: 0x00080060, vr: 'CS', value: 'KO' },
    { tag: 0x0020000d, vr: 'UI', value: manifest.study },
    { tag: 0x0020000e, vr: 'UI', value: `${manifest.study}.99` },
  ]);
  const stored = await putFile(s, session.credentials.token, bare);
  expect(stored.status).toBe(200);
  noPixels = stored.body.instance.id;
  await s.request('POST', `exams/${examId}/uploaded`, { token: tech, body: {} });
}, 60_000);
afterAll(async () => { await s.close(); });

describe('instance preview', () => {
  it('draws the first frame of every kind as the viewer opens it', async () => {
    for (const f of manifest.files) {
      const res = await get(ids.get(f.file)!, { token: rad1 });
      expect(res.status, f.file).toBe(200);
      expect(res.headers.get('content-type'), f.file).toBe('image/png');
      const png = readPng(Buffer.from(await res.arrayBuffer()));
      expect([png.width, png.height], f.file).toEqual([manifest.size, manifest.size]);
      const q = manifest.size / 4;
      const got = [[q, q], [3 * q, q], [q, 3 * q], [3 * q, 3 * q]].map(([x, y]) => {
        const i = (y! * png.width + x!) * png.channels;
        return png.channels === 1 ? [png.pixels[i]!, png.pixels[i]!, png.pixels[i]!] : [...png.pixels.subarray(i, i + 3)];
      });
      got.forEach((rgb, quadrant) => rgb.forEach((v, c) => expect(Math.abs(v - f.expected[quadrant]![c]!), `${f.file} quadrant ${quadrant}`).toBeLessThanOrEqual(f.tolerance)));
    }
  });

  it('is made once and kept in storage: it still answers when the DICOM file is gone', async () => {
    const id = ids.get('jpeg2000.dcm')!;
    const [row] = await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.id, id));
    const first = Buffer.from(await (await get(id, { token: rad1 })).arrayBuffer());
    expect(await s.storage.head(previewKey(row!))).not.toBeNull();
    await s.storage.delete(row!.storageKey);
    const again = await get(id, { token: rad1 });
    expect(again.status).toBe(200);
    expect(again.headers.get('cache-control')).toContain('private');
    expect(Buffer.from(await again.arrayBuffer()).equals(first)).toBe(true);
    // Without a kept preview, a missing file is 404, not 500.
    await s.storage.delete(previewKey(row!));
    const gone = await get(id, { token: rad1 });
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe('NotFound');
  });

  it('is for whoever may view the exam: 403 without the right, 404 outside, a view token of the exam', async () => {
    const id = ids.get('rle.dcm')!;
    expect((await get(id, { token: tech })).status).toBe(200);
    const denied = await get(id, { token: registrar });
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('Forbidden');
    const outside = await get(id, { token: expert });
    expect(outside.status).toBe(404);
    expect((await outside.json()).code).toBe('NotFound');
    expect((await get(id)).status).toBe(401);

    const view = (await s.request('POST', `viewers/${examId}/path`, { token: rad1 })).body.token as string;
    expect((await get(id, { query: `?token=${encodeURIComponent(view)}` })).status).toBe(200);
    const [other] = await s.db.db.select({ id: exams.id }).from(exams).where(eq(exams.bucketId, s.ids.hospitalId)).limit(1);
    const otherView = (await s.request('POST', `viewers/${other!.id}/path`, { token: rad1 })).body.token as string;
    const wrong = await get(id, { query: `?token=${encodeURIComponent(otherView)}` });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).code).toBe('FileTokenInvalid');
  });

  it('refuses bad ids with 400, unknown ones with 404 and a file without pixels with 400 InvalidDicom', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await get(bad, { token: rad1 });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).code, bad).toBe('ParamsError');
    }
    expect((await get(2_000_000_000, { token: rad1 })).status).toBe(404);
    const bare = await get(noPixels, { token: rad1 });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ code: 'InvalidDicom', details: { reason: 'pixels' } });
    const tooLong = await get(ids.get('rle.dcm')!, { token: rad1, query: `?token=${'x'.repeat(5000)}` });
    expect(tooLong.status).toBe(400);
    // A file too large to decode in memory has no preview (its row says how large it is).
    const huge = ids.get('explicit-le-rgb.dcm')!;
    const [row] = await s.db.db.update(dicomInstances).set({ size: PREVIEW_FILE_MAX + 1 }).where(eq(dicomInstances.id, huge)).returning();
    await s.storage.delete(previewKey(row!));
    const large = await get(huge, { token: rad1 });
    expect(large.status).toBe(400);
    expect(await large.json()).toMatchObject({ code: 'InvalidDicom', details: { reason: 'tooLarge' } });
  });

  it('follows the exam: a deleted exam has no previews (404)', async () => {
    const id = ids.get('rle-rgb.dcm')!;
    expect((await get(id, { token: rad1 })).status).toBe(200);
    await s.db.db.update(exams).set({ deletedTime: new Date() }).where(eq(exams.id, examId));
    expect((await get(id, { token: rad1 })).status).toBe(404);
  });
});
