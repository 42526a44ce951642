import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptList, multipartStream, parseMultipart } from '../../server/dicomweb/multipart';
import { ApiError } from '../../server/http/errors';

/** STOW-RS bodies are split by our own multipart/related parser (server/dicomweb/multipart.ts). */
const TYPE = 'multipart/related; type="application/dicom"; boundary="b-1"';
const enc = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('multipart/related parser', () => {
  it('splits parts with their headers, after a preamble, with transport padding, and without headers', () => {
    const body = enc('preamble\r\n--b-1  \r\nContent-Type: application/dicom\r\nX-Extra: 1\r\n\r\nAB\r\n--b-1\r\n\r\nCD--b-1 no\r\n\r\n--b-1\r\n\r\n\r\n--b-1--\r\nepilogue');
    const parts = parseMultipart(body, TYPE);
    expect(parts.map((p) => Buffer.from(p.body).toString('latin1'))).toEqual(['AB', 'CD--b-1 no\r\n', '']);
    expect(parts[0]!.headers).toEqual({ 'content-type': 'application/dicom', 'x-extra': '1' });
    expect(parts[0]!.contentType).toBe('application/dicom');
    expect(parts[1]!.contentType).toBe('text/plain');
  });

  it('reads back what the answer writer writes, bytes of every value included', async () => {
    const payloads = [new Uint8Array([0, 13, 10, 45, 45, 255]), new Uint8Array(1000).map((_, i) => i & 255)];
    const chunks: Buffer[] = [];
    for await (const c of multipartStream('zz', payloads.map((p) => ({ contentType: 'application/dicom', body: async () => p })))) chunks.push(c as Buffer);
    const parts = parseMultipart(Buffer.concat(chunks), 'multipart/related; boundary=zz');
    expect(parts.map((p) => [...p.body])).toEqual(payloads.map((p) => [...p]));
  });

  it('refuses a missing or bad boundary, another type and a cut body with ParamsError', () => {
    const ok = enc('--b-1\r\n\r\nAB\r\n--b-1--');
    for (const [body, type] of [
      [ok, 'multipart/related; type="application/dicom"'], [ok, 'multipart/related; boundary=""'], [ok, 'multipart/form-data; boundary=b-1'],
      [enc('--b-1\r\n\r\nAB'), TYPE], [enc('--b-1\r\nNoColon\r\n\r\nAB\r\n--b-1--'), TYPE], [enc('nothing here'), TYPE], [enc('--b-1XX'), TYPE],
    ] as const) {
      expect(() => parseMultipart(body, type)).toThrow(ApiError);
    }
  });

  it('never fails other than with ApiError on any cut or change of a body (bounded fuzz)', () => {
    const good = enc('--b-1\r\nContent-Type: application/dicom\r\n\r\nDICM\r\n--b-1\r\n\r\nXY\r\n--b-1--\r\n');
    fc.assert(fc.property(fc.nat(good.length), fc.nat(good.length), fc.integer({ min: 0, max: 255 }), (cut, at, byte) => {
      const body = good.slice(0, cut);
      if (at < body.length) body[at] = byte;
      try {
        parseMultipart(body, TYPE);
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
      }
    }), { numRuns: 2000, seed: 33 });
  });
});

describe('Accept header', () => {
  it('reads media types with quoted parameters and drops q=0', () => {
    expect(acceptList('multipart/related; type="application/dicom"; transfer-syntax=*, application/json;q=0, */*;q=0.1')).toEqual([
      { type: 'multipart/related', params: { type: 'application/dicom', 'transfer-syntax': '*' } },
      { type: '*/*', params: { q: '0.1' } },
    ]);
    expect(acceptList(undefined)).toEqual([{ type: '*/*', params: {} }]);
  });
});
