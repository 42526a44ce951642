/**
 * The one DICOM Part 10 writer of the product's own files: the demo images, the viewer's test fixtures
 * (tests/fixtures/dicom/generate.ts), the tests' files in older encodings (tests/support/dicom.ts writeDicom) and the
 * benches' CT studies (bench/support/orthanc.ts, bench/uploads.ts). UTF-8 text (ISO_IR 192), one image per file, its
 * pixels native or one encapsulated frame (JPEG 2000, HTJ2K) under the file meta's transfer syntax. The data set is
 * Explicit VR Little Endian, or Implicit VR Little Endian / Explicit VR Big Endian when the meta names those; it can
 * also be written bare (no preamble, no meta). The upload path reads the result like any modality's file.
 */
export type ElementValue = string | number | readonly number[] | Uint8Array | Uint16Array | Int16Array;
export interface Element {
  tag: number;
  vr: string;
  value: ElementValue;
}

export const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';
export const IMPLICIT_LITTLE = '1.2.840.10008.1.2';
export const EXPLICIT_BIG = '1.2.840.10008.1.2.2';
const IMPLEMENTATION_UID = '1.2.826.0.1.3680043.8.498.1';
const LONG_VRS = new Set(['OB', 'OW', 'OF', 'SQ', 'UT', 'UN']);
const utf8 = new TextEncoder();

/** How a data set's elements are laid out: the meta group is always explicit little endian. */
interface Layout { implicit: boolean; little: boolean }
const META_LAYOUT: Layout = { implicit: false, little: true };
const layoutOf = (transferSyntax: string): Layout => ({ implicit: transferSyntax === IMPLICIT_LITTLE, little: transferSyntax !== EXPLICIT_BIG });

function bytesOf(vr: string, value: ElementValue, little: boolean): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof Uint16Array || value instanceof Int16Array) {
    const out = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (little) return out;
    // Words in big endian: each pair of bytes turned round (a copy; the caller's array stays as it was).
    const swapped = new Uint8Array(out.length);
    for (let i = 0; i < out.length; i += 2) { swapped[i] = out[i + 1]!; swapped[i + 1] = out[i]!; }
    return swapped;
  }
  const numbers = typeof value === 'number' ? [value] : typeof value === 'string' ? null : value;
  if (numbers && (vr === 'US' || vr === 'UL' || vr === 'SS')) {
    const size = vr === 'UL' ? 4 : 2;
    const out = new Uint8Array(numbers.length * size);
    const view = new DataView(out.buffer);
    numbers.forEach((n, i) => (size === 4 ? view.setUint32(i * size, n, little) : vr === 'SS' ? view.setInt16(i * 2, n, little) : view.setUint16(i * 2, n, little)));
    return out;
  }
  return utf8.encode(numbers ? numbers.join('\\') : String(value));
}

function encode(e: Element, layout: Layout = META_LAYOUT): Uint8Array {
  const { implicit, little } = layout;
  let value = bytesOf(e.vr, e.value, little);
  if (value.length % 2) {
    const padded = new Uint8Array(value.length + 1);
    padded.set(value);
    padded[value.length] = e.vr === 'UI' || e.vr === 'OB' ? 0 : 0x20;
    value = padded;
  }
  const long = !implicit && LONG_VRS.has(e.vr);
  const out = new Uint8Array((long ? 12 : 8) + value.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, e.tag >>> 16, little);
  view.setUint16(2, e.tag & 0xffff, little);
  if (implicit) view.setUint32(4, value.length, little);
  else {
    out[4] = e.vr.charCodeAt(0);
    out[5] = e.vr.charCodeAt(1);
    if (long) view.setUint32(8, value.length, little);
    else view.setUint16(6, value.length, little);
  }
  out.set(value, long ? 12 : 8);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface WriteOptions {
  /**
   * The file meta's transfer syntax (default Explicit VR Little Endian). The data set is written in Implicit VR Little
   * Endian or Explicit VR Big Endian when this names one of those, else in Explicit VR Little Endian (the encapsulated
   * syntaxes' own).
   */
  transferSyntax?: string;
  /** false: the data set alone, no preamble and no meta group (a bare data set, as some old systems send). */
  part10?: boolean;
  implementationUid?: string;
  /** One compressed frame, written as encapsulated pixel data after the data set. */
  encapsulatedFrame?: Uint8Array;
}

/** Encapsulated pixel data: an empty offset table, one fragment, the sequence delimiter. */
export function encapsulated(frame: Uint8Array): Uint8Array {
  const item = (bytes: Uint8Array) => {
    const even = bytes.length % 2 ? concat([bytes, new Uint8Array(1)]) : bytes;
    const head = new Uint8Array(8);
    const view = new DataView(head.buffer);
    view.setUint16(0, 0xfffe, true);
    view.setUint16(2, 0xe000, true);
    view.setUint32(4, even.length, true);
    return concat([head, even]);
  };
  const head = new Uint8Array(12);
  const view = new DataView(head.buffer);
  view.setUint16(0, 0x7fe0, true);
  view.setUint16(2, 0x0010, true);
  head[4] = 0x4f; // O
  head[5] = 0x42; // B
  view.setUint32(8, 0xffffffff, true);
  const end = new Uint8Array(8);
  new DataView(end.buffer).setUint16(0, 0xfffe, true);
  new DataView(end.buffer).setUint16(2, 0xe0dd, true);
  return concat([head, item(new Uint8Array(0)), item(frame), end]);
}

/** The file: preamble, 'DICM', the meta group (its SOP class and instance from the data set), then the data set in tag order. */
export function writeDicomFile(elements: readonly Element[], options: WriteOptions = {}): Uint8Array {
  const find = (tag: number) => String(elements.find((e) => e.tag === tag)?.value ?? '');
  const meta = concat([
    encode({ tag: 0x00020001, vr: 'OB', value: new Uint8Array([0, 1]) }),
    encode({ tag: 0x00020002, vr: 'UI', value: find(0x00080016) }),
    encode({ tag: 0x00020003, vr: 'UI', value: find(0x00080018) }),
    encode({ tag: 0x00020010, vr: 'UI', value: options.transferSyntax ?? EXPLICIT_LITTLE }),
    encode({ tag: 0x00020012, vr: 'UI', value: options.implementationUid ?? IMPLEMENTATION_UID }),
  ]);
  const layout = layoutOf(options.transferSyntax ?? EXPLICIT_LITTLE);
  const body = concat([...elements].sort((a, b) => a.tag - b.tag).map((e) => encode(e, layout)));
  if (options.part10 === false) return body;
  const preamble = new Uint8Array(132);
  preamble.set(utf8.encode('DICM'), 128);
  return concat([
    preamble, encode({ tag: 0x00020000, vr: 'UL', value: meta.length }), meta, body,
    options.encapsulatedFrame ? encapsulated(options.encapsulatedFrame) : new Uint8Array(0),
  ]);
}

/**
 * The image pixel module's description of the pixels (PS3.3 C.7.6.3): samples per pixel, photometric
 * interpretation, bits allocated and stored, the high bit just under the stored ones, and the sign.
 */
export function pixelDescription(o: { samples: number; photometric: string; bitsAllocated: number; bitsStored?: number; signed?: boolean }): Element[] {
  const stored = o.bitsStored ?? o.bitsAllocated;
  return [
    { tag: 0x00280002, vr: 'US', value: o.samples },
    { tag: 0x00280004, vr: 'CS', value: o.photometric },
    { tag: 0x00280100, vr: 'US', value: o.bitsAllocated },
    { tag: 0x00280101, vr: 'US', value: stored },
    { tag: 0x00280102, vr: 'US', value: stored - 1 },
    { tag: 0x00280103, vr: 'US', value: o.signed ? 1 : 0 },
  ];
}
