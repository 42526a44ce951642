import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as dicomParserModule from 'dicom-parser';
import type { DataSet, Element } from 'dicom-parser';
import { inflateSync } from 'fflate';

/**
 * The first frame of a stored DICOM file, decoded on the server for its preview: every transfer syntax the upload
 * accepts (native little/big endian, implicit, deflated, RLE, JPEG baseline/extended/lossless, JPEG-LS, JPEG 2000,
 * HTJ2K) and every photometric interpretation the viewer draws. The compressed syntaxes use the same WebAssembly
 * codecs the viewer's loader does (Cornerstone's, installed with it), started once per process on first need.
 */

const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);

export interface Frame {
  width: number;
  height: number;
  /** 1: one value a pixel (grey, or a palette index); 3: RGB, interleaved, 0–255. */
  samples: 1 | 3;
  values: ArrayLike<number>;
  photometric: string;
  bitsAllocated: number;
  slope: number;
  intercept: number;
  /** The file's first Window Center/Width, if it has one. */
  window: { center: number; width: number } | null;
  /** PALETTE COLOR: the three lookup tables, as 0–255. */
  palette: { first: number; red: number[]; green: number[]; blue: number[] } | null;
}

export class PixelError extends Error {}

const T = {
  implicit: '1.2.840.10008.1.2', explicit: '1.2.840.10008.1.2.1', deflated: '1.2.840.10008.1.2.1.99', bigEndian: '1.2.840.10008.1.2.2',
  rle: '1.2.840.10008.1.2.5',
};
const JPEG_8 = new Set(['1.2.840.10008.1.2.4.50', '1.2.840.10008.1.2.4.51']);
const JPEG_LOSSLESS = new Set(['1.2.840.10008.1.2.4.57', '1.2.840.10008.1.2.4.70']);
const JPEG_LS = new Set(['1.2.840.10008.1.2.4.80', '1.2.840.10008.1.2.4.81']);
const J2K = new Set(['1.2.840.10008.1.2.4.90', '1.2.840.10008.1.2.4.91']);
const HTJ2K = new Set(['1.2.840.10008.1.2.4.201', '1.2.840.10008.1.2.4.202', '1.2.840.10008.1.2.4.203']);

function inflater(bytes: Uint8Array, position: number): Uint8Array {
  const inflated = inflateSync(bytes.subarray(position));
  const out = new Uint8Array(position + inflated.length);
  out.set(bytes.subarray(0, position));
  out.set(inflated, position);
  return out;
}

const num = (ds: DataSet, tag: string, fallback: number) => ds.uint16(tag) ?? fallback;
const dsNumber = (ds: DataSet, tag: string): number | null => {
  const text = ds.string(tag);
  if (!text) return null;
  const value = Number(text.split('\\')[0]);
  return Number.isFinite(value) ? value : null;
};

export function decodeFirstFrame(file: Uint8Array): Promise<Frame> {
  return decodeFrame(file, 0);
}

/** A stored file's data set as the pixel code reads it (deflated data sets inflated). */
export function parsePixelFile(file: Uint8Array): DataSet {
  try {
    return dicomParser.parseDicom(file, { inflater } as never);
  } catch (err) {
    throw new PixelError(`unreadable: ${String((err as { exception?: unknown }).exception ?? err)}`);
  }
}

/** Thrown for a frame number past the file's Number of Frames. */
export class NoSuchFrameError extends PixelError {}

/** Frame `index` (from 0) of a stored file, decoded (the preview's first frame; DICOMweb's frames and rendered). */
export async function decodeFrame(file: Uint8Array, index: number, parsed?: DataSet): Promise<Frame> {
  const ds = parsed ?? parsePixelFile(file);
  const frameCount = Math.max(1, Number(ds.intString('x00280008') ?? 1) || 1);
  if (!Number.isInteger(index) || index < 0 || index >= frameCount) throw new NoSuchFrameError(`no frame ${index + 1}`);
  const pixel = ds.elements.x7fe00010;
  if (!pixel) throw new PixelError('no pixel data');
  const syntax = ds.string('x00020010') ?? T.explicit;
  const height = num(ds, 'x00280010', 0);
  const width = num(ds, 'x00280011', 0);
  if (!width || !height) throw new PixelError('no rows or columns');
  const spp = num(ds, 'x00280002', 1) === 3 ? 3 : 1;
  const bitsAllocated = num(ds, 'x00280100', 16);
  const signed = num(ds, 'x00280103', 0) === 1;
  const planar = num(ds, 'x00280006', 0);
  let photometric = (ds.string('x00280004') ?? 'MONOCHROME2').trim().toUpperCase();
  const center = dsNumber(ds, 'x00281050');
  const widthW = dsNumber(ds, 'x00281051');
  const frameInfo = { width, height, spp, bitsAllocated, signed };

  let values: ArrayLike<number>;
  if (pixel.encapsulatedPixelData) {
    const bytes = encapsulatedFrame(ds, pixel, frameCount, index);
    if (syntax === T.rle) values = decodeRle(bytes, frameInfo);
    else {
      const decoded = await decodeCompressed(syntax, bytes, frameInfo);
      values = decoded.values;
      // The JPEG codecs hand colour back as RGB whatever the file's YBR said.
      if (decoded.rgb && spp === 3) photometric = 'RGB';
    }
  } else {
    values = nativeFrame(ds.byteArray, pixel, syntax, frameInfo, index);
    if (spp === 3 && planar === 1) values = interleave(values, width * height);
  }
  if (spp === 3 && photometric.startsWith('YBR_FULL')) values = ybrToRgb(values);
  return {
    width, height, samples: spp, values, photometric, bitsAllocated,
    slope: dsNumber(ds, 'x00281053') ?? 1, intercept: dsNumber(ds, 'x00281052') ?? 0,
    window: center !== null && widthW !== null && widthW > 0 ? { center, width: widthW } : null,
    palette: photometric === 'PALETTE COLOR' ? readPalette(ds, ds.byteArray) : null,
  };
}

interface FrameInfo { width: number; height: number; spp: number; bitsAllocated: number; signed: boolean }

function encapsulatedFrame(ds: DataSet, pixel: Element, frames: number, index: number): Uint8Array {
  const fragments = pixel.fragments ?? [];
  if (fragments.length === 0) throw new PixelError('no fragments');
  if (pixel.basicOffsetTable && pixel.basicOffsetTable.length > 0) return dicomParser.readEncapsulatedImageFrame(ds, pixel, index);
  // Without an offset table: one frame is all fragments; of several, one fragment a frame (the first frame's start,
  // at least, when there are more fragments than frames).
  if (frames <= 1) return dicomParser.readEncapsulatedPixelDataFromFragments(ds, pixel, 0, fragments.length);
  if (index > 0 && fragments.length !== frames) throw new PixelError('frames without an offset table');
  return dicomParser.readEncapsulatedPixelDataFromFragments(ds, pixel, index, 1);
}

function nativeFrame(file: Uint8Array, pixel: Element, syntax: string, f: FrameInfo, index: number): ArrayLike<number> {
  const count = f.width * f.height * f.spp;
  if (f.bitsAllocated === 1) {
    // 1-bit frames follow one another bit by bit (PS3.5 8.1.1), not byte by byte.
    const all = file.subarray(pixel.dataOffset, pixel.dataOffset + pixel.length);
    const first = index * count;
    if (all.length * 8 < first + count) throw new PixelError('pixel data too short');
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) out[i] = (all[(first + i) >> 3]! >> ((first + i) & 7)) & 1;
    return out;
  }
  const bytes = f.bitsAllocated / 8;
  const data = file.subarray(pixel.dataOffset + index * count * bytes, pixel.dataOffset + pixel.length);
  if (data.length < count * bytes) throw new PixelError('pixel data too short');
  const little = syntax !== T.bigEndian;
  const view = new DataView(data.buffer, data.byteOffset, count * bytes);
  if (bytes === 1) return data.subarray(0, count);
  if (bytes === 2) {
    const out = f.signed ? new Int16Array(count) : new Uint16Array(count);
    for (let i = 0; i < count; i++) out[i] = f.signed ? view.getInt16(i * 2, little) : view.getUint16(i * 2, little);
    return out;
  }
  if (bytes === 4) {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) out[i] = f.signed ? view.getInt32(i * 4, little) : view.getUint32(i * 4, little);
    return out;
  }
  throw new PixelError(`bits allocated ${f.bitsAllocated}`);
}

function interleave(planes: ArrayLike<number>, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) for (let c = 0; c < 3; c++) out[i * 3 + c] = planes[c * pixels + i]!;
  return out;
}

function ybrToRgb(ybr: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(ybr.length);
  const clamp = (v: number) => Math.min(255, Math.max(0, Math.round(v)));
  for (let i = 0; i < ybr.length; i += 3) {
    const y = ybr[i]!;
    const cb = ybr[i + 1]! - 128;
    const cr = ybr[i + 2]! - 128;
    out[i] = clamp(y + 1.402 * cr);
    out[i + 1] = clamp(y - 0.344136 * cb - 0.714136 * cr);
    out[i + 2] = clamp(y + 1.772 * cb);
  }
  return out;
}

/** RLE Lossless (PS3.5 G): a 64-byte header of segment offsets, each segment PackBits; bytes of a sample most significant first. */
function decodeRle(data: Uint8Array, f: FrameInfo): ArrayLike<number> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 64) throw new PixelError('RLE header cut off');
  const segments = view.getUint32(0, true);
  const bytesPerSample = Math.max(1, f.bitsAllocated / 8);
  if (segments !== f.spp * bytesPerSample) throw new PixelError('RLE segment count');
  const pixels = f.width * f.height;
  const planes: Uint8Array[] = [];
  for (let s = 0; s < segments; s++) {
    const start = view.getUint32(4 + s * 4, true);
    const end = s + 1 < segments ? view.getUint32(8 + s * 4, true) : data.length;
    const out = new Uint8Array(pixels);
    let at = start;
    let o = 0;
    while (at < end && o < pixels) {
      const n = (data[at++]! << 24) >> 24;
      if (n >= 0) { out.set(data.subarray(at, at + n + 1).subarray(0, pixels - o), o); o += n + 1; at += n + 1; }
      else if (n !== -128) { out.fill(data[at++]!, o, Math.min(pixels, o - n + 1)); o += -n + 1; }
    }
    planes.push(out);
  }
  if (bytesPerSample === 1) return f.spp === 3 ? interleave(concatPlanes(planes), pixels) : planes[0]!;
  const out = f.signed ? new Int16Array(pixels) : new Uint16Array(pixels);
  for (let i = 0; i < pixels; i++) out[i] = (planes[0]![i]! << 8) | planes[1]![i]!;
  return out;
}

function concatPlanes(planes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(planes.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of planes) { out.set(p, at); at += p.length; }
  return out;
}

// ------------------------------------------------------------------------------------------------ compressed
interface WasmDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getDecodedBuffer(): Uint8Array;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned: boolean };
  delete(): void;
}
type Factory = (module?: object) => Promise<Record<string, new () => WasmDecoder>>;
const require = createRequire(import.meta.url);
const modules = new Map<string, Promise<Record<string, new () => WasmDecoder>>>();
function codec(name: string): Promise<Record<string, new () => WasmDecoder>> {
  let started = modules.get(name);
  if (!started) {
    // The codecs' own logging (OpenJPEG's [INFO] lines) stays out of the server's output.
    started = (require(name) as Factory)({ print: () => undefined, printErr: () => undefined });
    modules.set(name, started);
  }
  return started;
}

async function wasmDecode(module: string, className: string, bytes: Uint8Array, f: FrameInfo): Promise<ArrayLike<number>> {
  const Decoder = (await codec(module))[className];
  if (!Decoder) throw new PixelError(`${className} missing`);
  const decoder = new Decoder();
  try {
    decoder.getEncodedBuffer(bytes.length).set(bytes);
    decoder.decode();
    const info = decoder.getFrameInfo();
    const decoded = decoder.getDecodedBuffer();
    const copy = new Uint8Array(decoded.length);
    copy.set(decoded);
    if (info.bitsPerSample > 8) return (f.signed || info.isSigned) ? new Int16Array(copy.buffer) : new Uint16Array(copy.buffer);
    return copy;
  } finally {
    decoder.delete();
  }
}

let jpeg12: Promise<new () => { parse(data: Uint8Array): void; getData16(w: number, h: number): Uint16Array; getData(w: number, h: number): Uint8Array; width: number; height: number }> | null = null;

async function decodeCompressed(syntax: string, bytes: Uint8Array, f: FrameInfo): Promise<{ values: ArrayLike<number>; rgb: boolean }> {
  if (JPEG_8.has(syntax)) {
    if (f.bitsAllocated <= 8) return { values: await wasmDecode('@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs', 'JPEGDecoder', bytes, f), rgb: true };
    // 12-bit JPEG extended: the loader's own JavaScript decoder (libjpeg-turbo is built for 8 bits).
    jpeg12 ??= import(pathToFileURL(require.resolve('@cornerstonejs/dicom-image-loader').replace(/index\.js$/, 'codecs/jpeg.js')).href).then((m: { default: never }) => m.default);
    const JpegImage = await jpeg12;
    const image = new JpegImage();
    image.parse(bytes);
    return { values: image.getData16(image.width, image.height), rgb: false };
  }
  if (JPEG_LOSSLESS.has(syntax)) {
    const { Decoder } = await import('@cornerstonejs/jpeg-lossless-decoder-js') as unknown as { Decoder: new () => { decode(buffer: ArrayBufferLike, offset: number, length: number, bytes: number): ArrayLike<number> & { buffer: ArrayBufferLike } } };
    const copy = bytes.slice();
    const out = new Decoder().decode(copy.buffer, 0, copy.length, f.bitsAllocated <= 8 ? 1 : 2);
    if (f.bitsAllocated <= 8) return { values: new Uint8Array(out.buffer), rgb: false };
    return { values: f.signed ? new Int16Array(out.buffer) : new Uint16Array(out.buffer), rgb: false };
  }
  if (JPEG_LS.has(syntax)) return { values: await wasmDecode('@cornerstonejs/codec-charls/decodewasmjs', 'JpegLSDecoder', bytes, f), rgb: false };
  if (J2K.has(syntax)) return { values: await wasmDecode('@cornerstonejs/codec-openjpeg/decodewasmjs', 'J2KDecoder', bytes, f), rgb: false };
  if (HTJ2K.has(syntax)) return { values: await wasmDecode('@cornerstonejs/codec-openjph', 'HTJ2KDecoder', bytes, f), rgb: false };
  throw new PixelError(`transfer syntax ${syntax}`);
}

function readPalette(ds: DataSet, file: Uint8Array): Frame['palette'] {
  const lut = (descriptorTag: string, dataTag: string): { first: number; values: number[] } => {
    const el = ds.elements[descriptorTag];
    const data = ds.elements[dataTag];
    if (!el || !data) throw new PixelError('palette missing');
    const count = ds.uint16(descriptorTag, 0) || 65536;
    const first = ds.uint16(descriptorTag, 1) ?? 0;
    const bits = ds.uint16(descriptorTag, 2) ?? 16;
    const values: number[] = [];
    const view = new DataView(file.buffer, file.byteOffset + data.dataOffset, data.length);
    for (let i = 0; i < count; i++) {
      if (bits === 8) values.push(i < data.length ? view.getUint8(i) : 0);
      else values.push(i * 2 + 1 < data.length ? view.getUint16(i * 2, true) >> 8 : 0);
    }
    return { first, values };
  };
  const red = lut('x00281101', 'x00281201');
  return { first: red.first, red: red.values, green: lut('x00281102', 'x00281202').values, blue: lut('x00281103', 'x00281203').values };
}
