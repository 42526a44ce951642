import * as dicomParserModule from 'dicom-parser';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared DICOM samples (read in place, never copied into the repository) and byte-level helpers to vary them. */
// DICOM_SAMPLES_DIR: for a checkout that is not next to shared/ (a git worktree elsewhere).
export const SAMPLES_DIR = process.env.DICOM_SAMPLES_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/dicom-samples');
export const SINGLE_SAMPLES = ['CT_small.dcm', 'MR_small.dcm', 'JPGExtended.dcm', 'SC_rgb_rle_2frame.dcm', 'chrX1.dcm'] as const;
export const CT_SERIES = readdirSync(path.join(SAMPLES_DIR, 'ct-series')).filter((f) => f.endsWith('.dcm')).sort().map((f) => `ct-series/${f}`);

export function sample(name: string): Buffer {
  return readFileSync(path.join(SAMPLES_DIR, name));
}

const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);

function parsed(bytes: Uint8Array) {
  return dicomParser.parseDicom(bytes, {});
}

/** A UID of exactly `length` characters under the UUID arc 2.25 (so it can replace another in place). */
export function uidOfLength(length: number, n: number): string {
  const digits = length - 5;
  if (digits < 1) throw new Error('UID too short');
  const body = String(n).padStart(digits, '0');
  return `2.25.${body.length > digits ? body.slice(-digits) : `9${body.slice(1)}`}`;
}

/**
 * Replaces one element's value (top level, explicit VR little endian, or the meta header), fixing its
 * length field and the group length of its group when the file has one. Values are padded to even length.
 */
export function replaceElement(bytes: Uint8Array, tag: string, value: Uint8Array, pad = 0x20): Uint8Array {
  // Meta header elements are found in the meta header alone, so the data set may be anything (deflated, say).
  const ds = tag.startsWith('x0002') ? dicomParser.readPart10Header(bytes) : parsed(bytes);
  const el = ds.elements[tag];
  if (!el) throw new Error(`no ${tag}`);
  const padded = value.length % 2 ? concat(value, new Uint8Array([pad])) : value;
  const delta = padded.length - el.length;
  const out = concat(bytes.subarray(0, el.dataOffset), padded, bytes.subarray(el.dataOffset + el.length));
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const longLength = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN', 'UC', 'UR'].includes(el.vr ?? '');
  if (longLength) view.setUint32(el.dataOffset - 4, padded.length, true);
  else view.setUint16(el.dataOffset - 2, padded.length, true);
  const groupLength = ds.elements[`${tag.slice(0, 5)}0000`];
  if (groupLength && delta !== 0) {
    const at = groupLength.dataOffset + (groupLength.dataOffset > el.dataOffset ? delta : 0);
    view.setUint32(at, view.getUint32(at, true) + delta, true);
  }
  return out;
}

export const ascii = (s: string) => new TextEncoder().encode(s);

/** The same image as a new instance: new SOP Instance UID (in the data set and the meta header), same length. */
export function asNewInstance(bytes: Uint8Array, n: number, opts: { series?: string; study?: string } = {}): Uint8Array {
  const ds = parsed(bytes);
  const sop = uidOfLength(ds.string('x00080018')!.length, n);
  let out = replaceElement(bytes, 'x00080018', ascii(sop), 0);
  out = replaceElement(out, 'x00020003', ascii(sop), 0);
  if (opts.series) out = replaceElement(out, 'x0020000e', ascii(opts.series), 0);
  if (opts.study) out = replaceElement(out, 'x0020000d', ascii(opts.study), 0);
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** A minimal DICOM file written from scratch, for encodings the samples lack (implicit VR, big endian, bare data sets). */
export function writeDicom(opts: {
  transferSyntax: '1.2.840.10008.1.2' | '1.2.840.10008.1.2.1' | '1.2.840.10008.1.2.2';
  elements: { tag: number; vr: string; value: Uint8Array | string | number }[];
  /** false: no preamble and no meta header, a bare data set (only for the little endian syntaxes). */
  part10?: boolean;
}): Uint8Array {
  const implicit = opts.transferSyntax === '1.2.840.10008.1.2';
  const big = opts.transferSyntax === '1.2.840.10008.1.2.2';
  const encode = (e: { tag: number; vr: string; value: Uint8Array | string | number }, asImplicit: boolean, asBig: boolean) => {
    let value: Uint8Array;
    if (typeof e.value === 'number') {
      value = new Uint8Array(2);
      new DataView(value.buffer).setUint16(0, e.value, !asBig);
    } else value = typeof e.value === 'string' ? ascii(e.value) : e.value;
    if (value.length % 2) value = concat(value, new Uint8Array([e.vr === 'UI' || e.vr === 'OB' ? 0 : 0x20]));
    const long = ['OB', 'OW', 'SQ', 'UT', 'UN'].includes(e.vr);
    const header = new Uint8Array(asImplicit ? 8 : long ? 12 : 8);
    const v = new DataView(header.buffer);
    v.setUint16(0, e.tag >>> 16, !asBig);
    v.setUint16(2, e.tag & 0xffff, !asBig);
    if (asImplicit) v.setUint32(4, value.length, !asBig);
    else {
      header[4] = e.vr.charCodeAt(0); header[5] = e.vr.charCodeAt(1);
      if (long) v.setUint32(8, value.length, !asBig); else v.setUint16(6, value.length, !asBig);
    }
    return concat(header, value);
  };
  const body = concat(...[...opts.elements].sort((a, b) => a.tag - b.tag).map((e) => encode(e, implicit, big)));
  if (opts.part10 === false) return body;
  const sop = opts.elements.find((e) => e.tag === 0x00080018)?.value as string;
  const metaElements = [
    encode({ tag: 0x00020001, vr: 'OB', value: new Uint8Array([0, 1]) }, false, false),
    encode({ tag: 0x00020002, vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' }, false, false),
    encode({ tag: 0x00020003, vr: 'UI', value: sop }, false, false),
    encode({ tag: 0x00020010, vr: 'UI', value: opts.transferSyntax }, false, false),
  ];
  const metaBody = concat(...metaElements);
  const groupLength = new Uint8Array(4);
  new DataView(groupLength.buffer).setUint32(0, metaBody.length, true);
  const meta = concat(encode({ tag: 0x00020000, vr: 'UL', value: groupLength }, false, false), metaBody);
  return concat(new Uint8Array(128), ascii('DICM'), meta, body);
}

/** Where the pixel data's value starts: a head that ends just past it is what the server keeps of a very large file. */
export function pixelDataOffset(bytes: Uint8Array): number {
  const el = parsed(bytes).elements.x7fe00010;
  if (!el) throw new Error('no pixel data');
  return el.dataOffset;
}
