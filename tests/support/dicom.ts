import * as dicomParserModule from 'dicom-parser';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDicomFile, type Element } from '../../server/seed/dicom/writer';

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

/**
 * A DICOM file in the encodings the samples lack (implicit VR, big endian, a bare data set), through the product's
 * one writer (server/seed/dicom/writer.ts).
 */
export function writeDicom(opts: {
  transferSyntax: '1.2.840.10008.1.2' | '1.2.840.10008.1.2.1' | '1.2.840.10008.1.2.2';
  elements: Element[];
  /** false: no preamble and no meta header, a bare data set. */
  part10?: boolean;
}): Uint8Array {
  return writeDicomFile(opts.elements, { transferSyntax: opts.transferSyntax, part10: opts.part10 });
}

/** Where the pixel data's value starts: a head that ends just past it is what the server keeps of a very large file. */
export function pixelDataOffset(bytes: Uint8Array): number {
  const el = parsed(bytes).elements.x7fe00010;
  if (!el) throw new Error('no pixel data');
  return el.dataOffset;
}
