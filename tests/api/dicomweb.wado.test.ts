import * as dicomParserModule from 'dicom-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CT_SERIES, asNewInstance, sample, uidOfLength } from '../support/dicom';
import { pngChunks } from '../../server/http/png';
import { DW, getBytes, splitMultipart, stow, stowBody, value } from '../support/dicomweb';
import { startServer, type TestServer } from '../support/server';

/**
 * WADO-RS (PS3.18 10.4) and STOW-RS (10.5): files back byte for byte in multipart/related, metadata as DICOM JSON,
 * frames uncompressed, rendered JPEG/PNG; stored through the one ingest path and then found by QIDO.
 */
const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);

let s: TestServer;
let rad1: string;
let tech: string;
const CT_STUDY = '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.1';
const CT_SERIES_UID = '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.2';
const RLE = {
  study: '1.2.826.0.1.3680043.8.498.12406831542731051035295345080039845114',
  series: '1.2.826.0.1.3680043.8.498.16157229083793556332623330502397121062',
  sop: '1.2.826.0.1.3680043.8.498.49043964482360854182530167603505525116',
};
const CT_SMALL = {
  study: '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322', series: '1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322',
  sop: '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322',
};
const WANG = {
  study: '1.3.6.1.4.1.5962.1.2.0.1175775771.5711.0', series: '1.3.6.1.4.1.5962.1.3.0.1.1175775771.5711.0',
  sop: '1.3.6.1.4.1.5962.1.1.0.1.1.1175775771.5711.0',
};
const instancePath = (i: { study: string; series: string; sop: string }) => `studies/${i.study}/series/${i.series}/instances/${i.sop}`;

beforeAll(async () => {
  s = await startServer({ exams: 3 });
  tech = await s.login('tech');
  rad1 = await s.login('rad1');
  const stored = await stow(s, tech, [...CT_SERIES.map(sample), sample('SC_rgb_rle_2frame.dcm'), sample('CT_small.dcm'), sample('chrX1.dcm')]);
  expect(stored.status).toBe(200);
});
afterAll(async () => { await s.close(); });

describe('WADO-RS', () => {
  it('retrieves a study, a series and an instance as multipart/related application/dicom, equal to the stored bytes', async () => {
    const ct = new Map(CT_SERIES.map((f) => [sopOf(sample(f)), sample(f)]));
    for (const path of [`studies/${CT_STUDY}`, `studies/${CT_STUDY}/series/${CT_SERIES_UID}`]) {
      const res = await getBytes(s, rad1, path, 'multipart/related; type="application/dicom"; transfer-syntax=*');
      expect(res.status).toBe(200);
      expect(res.contentType).toMatch(/^multipart\/related; type="application\/dicom"; boundary=/);
      const parts = splitMultipart(res.bytes, res.contentType);
      expect(parts).toHaveLength(4);
      for (const part of parts) {
        expect(part.headers['content-type']).toBe('application/dicom; transfer-syntax=1.2.840.10008.1.2.1');
        expect(Buffer.compare(part.body, ct.get(sopOf(part.body))!)).toBe(0);
      }
    }
    const one = await getBytes(s, rad1, instancePath(RLE));
    const parts = splitMultipart(one.bytes, one.contentType);
    expect(parts).toHaveLength(1);
    expect(Buffer.compare(parts[0]!.body, sample('SC_rgb_rle_2frame.dcm'))).toBe(0);
  });

  it('answers metadata as DICOM JSON read from the file (names decoded, pixel data as a bulk data link)', async () => {
    const res = await s.request('GET', `${DW}/${instancePath(WANG)}/metadata`, { token: rad1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/dicom\+json/);
    const [d] = res.body;
    expect(d['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: 'Wang^XiaoDong', Ideographic: '王^小東' }] });
    expect(value(d, '00080018')).toBe(WANG.sop);
    expect(value(d, '00020010')).toBe('1.2.840.10008.1.2.1');
    expect(d['7FE00010'].BulkDataURI).toBe(`${s.url}${DW}/${instancePath(WANG)}/frames`);
    const study = await s.request('GET', `${DW}/studies/${CT_STUDY}/metadata`, { token: rad1 });
    expect(study.body.map((x: Record<string, { Value?: unknown[] }>) => value(x, '00200013'))).toEqual([18, 180, 181, 182]);
    expect(value(study.body[0], '00280010')).toBe(16);
    const series = await s.request('GET', `${DW}/studies/${CT_STUDY}/series/${CT_SERIES_UID}/metadata`, { token: rad1 });
    expect(series.body).toHaveLength(4);
    // An RLE colour file's frames are served decoded to interleaved RGB: the metadata says so.
    const rle = await s.request('GET', `${DW}/${instancePath(RLE)}/metadata`, { token: rad1 });
    expect(value(rle.body[0], '00280004')).toBe('RGB');
    expect(value(rle.body[0], '00280006')).toBe(0);
  });

  it('answers frames uncompressed: a native frame is its own bytes, an RLE frame decoded', async () => {
    const native = await getBytes(s, rad1, `${instancePath(CT_SMALL)}/frames/1`, 'multipart/related; type=application/octet-stream; transfer-syntax=*');
    expect(native.status).toBe(200);
    const [frame] = splitMultipart(native.bytes, native.contentType);
    expect(frame!.headers['content-type']).toBe('application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1');
    const file = sample('CT_small.dcm');
    const pixel = dicomParser.parseDicom(file).elements.x7fe00010!;
    expect(Buffer.compare(frame!.body, file.subarray(pixel.dataOffset, pixel.dataOffset + 128 * 128 * 2))).toBe(0);

    const two = await getBytes(s, rad1, `${instancePath(RLE)}/frames/1,2`);
    const parts = splitMultipart(two.bytes, two.contentType);
    expect(parts.map((p) => p.body.length)).toEqual([100 * 100 * 3, 100 * 100 * 3]);
    expect(Buffer.compare(parts[0]!.body, parts[1]!.body)).not.toBe(0);
    expect((await getBytes(s, rad1, `${instancePath(RLE)}/frames/3`)).status).toBe(404);
    expect((await getBytes(s, rad1, `${instancePath(RLE)}/frames/0`)).status).toBe(404);
    expect((await getBytes(s, rad1, `${instancePath(RLE)}/frames/x`)).status).toBe(400);
  });

  it('renders an instance and a frame as JPEG (the default) or PNG, from the preview code', async () => {
    const jpeg = await getBytes(s, rad1, `${instancePath(CT_SMALL)}/rendered`, 'image/jpeg');
    expect(jpeg.status).toBe(200);
    expect(jpeg.contentType).toBe('image/jpeg');
    expect([...jpeg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const png = await getBytes(s, rad1, `${instancePath(CT_SMALL)}/rendered`, 'image/png');
    expect(png.contentType).toBe('image/png');
    const ihdr = pngChunks(png.bytes)!.find((c) => c.type === 'IHDR')!;
    expect(ihdr.data.readUInt32BE(0)).toBe(128);
    const small = await getBytes(s, rad1, `${instancePath(CT_SMALL)}/rendered?accept=image/png&viewport=64,64`);
    expect(pngChunks(small.bytes)!.find((c) => c.type === 'IHDR')!.data.readUInt32BE(0)).toBe(64);
    const frame2 = await getBytes(s, rad1, `${instancePath(RLE)}/frames/2/rendered`);
    expect(frame2.status).toBe(200);
    expect(frame2.contentType).toBe('image/jpeg');
    expect((await getBytes(s, rad1, `${instancePath(CT_SMALL)}/rendered`, 'image/gif')).status).toBe(406);
  });

  it('is 404 for a study of another organisation or none, 401 without a token, 406 for a type it cannot give', async () => {
    const expert = await s.login('expert');
    expect((await getBytes(s, expert, `studies/${CT_STUDY}`)).status).toBe(404);
    expect((await getBytes(s, expert, `${instancePath(CT_SMALL)}/metadata`)).status).toBe(404);
    expect((await getBytes(s, rad1, 'studies/1.2.3.4.5')).status).toBe(404);
    expect((await getBytes(s, rad1, `studies/${CT_STUDY}/series/1.2.3`)).status).toBe(404);
    expect((await getBytes(s, undefined, `studies/${CT_STUDY}`)).status).toBe(401);
    expect((await getBytes(s, rad1, `studies/${CT_STUDY}`, 'application/zip')).status).toBe(406);
    expect((await getBytes(s, rad1, 'studies/not-a-uid')).status).toBe(400);
    // The registrar belongs to the hospital without exam reading: 403, as the viewer answers.
    expect((await getBytes(s, await s.login('registrar'), `studies/${CT_STUDY}`)).status).toBe(403);
  });
});

describe('STOW-RS', () => {
  it('stores every sample through the one ingest path; QIDO then finds them; a re-sent instance is not doubled', async () => {
    const study = uidOfLength(40, 9001);
    const files = [asNewInstance(sample('MR_small.dcm'), 1, { study }), asNewInstance(sample('MR_small.dcm'), 2, { study })];
    const res = await stow(s, tech, files);
    expect(res.status).toBe(200);
    expect(res.body['00081199'].Value).toHaveLength(2);
    expect(value(res.body, '00081190')).toBe(`${s.url}${DW}/studies/${study}`);
    expect(res.body['00081198']).toBeUndefined();
    const found = await s.request('GET', `${DW}/studies?StudyInstanceUID=${study}`, { token: rad1 });
    expect(value(found.body[0], '00201208')).toBe(2);
    expect(value(found.body[0], '00100010')).toBe('CompressedSamples^MR1');
    // Sent again: stored once.
    expect((await stow(s, tech, files)).status).toBe(200);
    const again = await s.request('GET', `${DW}/studies?StudyInstanceUID=${study}`, { token: rad1 });
    expect(value(again.body[0], '00201208')).toBe(2);
    // The exam the worklist shows is the one the images went to.
    const exams = await s.request('GET', `${DW}/studies/${study}/instances`, { token: rad1 });
    expect(exams.body).toHaveLength(2);
  });

  it('answers failed parts in FailedSOPSequence with their reason (202 some stored, 409 none)', async () => {
    const study = uidOfLength(40, 9002);
    const good = asNewInstance(sample('CT_small.dcm'), 3, { study });
    const broken = Buffer.from(good).subarray(0, 400);
    const mixed = await stow(s, tech, [good, Buffer.from('not dicom at all'), broken]);
    expect(mixed.status).toBe(202);
    expect(mixed.body['00081199'].Value).toHaveLength(1);
    const reasons = mixed.body['00081198'].Value.map((f: Record<string, { Value?: unknown[] }>) => value(f, '00081197'));
    expect(reasons).toEqual([0xc000, 0xc000]);
    const none = await stow(s, tech, [Buffer.from('junk')]);
    expect(none.status).toBe(409);
    // POST studies/{study}: an instance of another study is refused (0xA900), the study's own stored.
    const other = asNewInstance(sample('CT_small.dcm'), 4, { study: uidOfLength(40, 9003) });
    const own = asNewInstance(sample('CT_small.dcm'), 5, { study });
    const scoped = await stow(s, tech, [other, own], `studies/${study}`);
    expect(scoped.status).toBe(202);
    expect(value(scoped.body['00081198'].Value[0], '00081197')).toBe(0xa900);
  });

  it('stores into the caller\'s upload organisation; several need ?bucketId; no upload right is 403', async () => {
    const file = asNewInstance(sample('CT_small.dcm'), 6, { study: uidOfLength(40, 9004) });
    const admin = await s.login('admin');
    const several = await stow(s, admin, [file]);
    expect(several.status).toBe(400);
    expect(several.body.details.fields).toEqual(['bucketId']);
    expect((await stow(s, admin, [file], `studies?bucketId=${s.ids.hospitalId}`)).status).toBe(200);
    expect((await stow(s, rad1, [file])).status).toBe(403);
    expect((await stow(s, await s.login('expert'), [file], `studies?bucketId=${s.ids.hospitalId}`)).status).toBe(404);
    expect((await stow(s, tech, [file], 'studies?bucketId=x')).status).toBe(400);
  });

  it('refuses a body that is not well-formed multipart/related', async () => {
    const { body } = stowBody([sample('CT_small.dcm')]);
    const noBoundary = await s.request('POST', `${DW}/studies`, { token: tech, body, headers: { 'content-type': 'multipart/related; type="application/dicom"' } });
    expect(noBoundary.status).toBe(400);
    const cut = await s.request('POST', `${DW}/studies`, { token: tech, body: body.subarray(0, 200), headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=test-boundary-7d1f' } });
    expect(cut.status).toBe(400);
    const xml = await s.request('POST', `${DW}/studies`, { token: tech, body, headers: { 'content-type': 'multipart/related; type="application/dicom+xml"; boundary=test-boundary-7d1f' } });
    expect(xml.status).toBe(406);
    expect((await s.request('POST', `${DW}/studies`, { body, headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=test-boundary-7d1f' } })).status).toBe(401);
  });
});

function sopOf(bytes: Uint8Array): string {
  return dicomParser.parseDicom(bytes).string('x00080018')!;
}
