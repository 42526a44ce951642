import { crc32, deflateSync, inflateSync } from 'node:zlib';

/**
 * The one PNG module of the server, the seed, the tests and the benches. Writing: 8-bit greyscale, grey + alpha, RGB
 * or RGBA, no interlace, one deflated IDAT; previews, demo logos and drawings, and test files need nothing more.
 * Reading: `pngChunks` walks the chunks and checks each CRC (the print images' check), `pngImage` gathers the image
 * chunks and `pngRows` inflates and unfilters the rows (the signature's ink check). No PNG library is among the
 * dependencies (docs/decisions.md).
 */
export type PngChannels = 1 | 2 | 3 | 4;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG colour types by channel count: grey, grey + alpha, RGB, RGBA. */
const COLOUR_TYPE: Record<PngChannels, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };

export function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export interface PngOptions {
  /** zlib level (default 6); the seed's drawings use 9, they are stored once. */
  level?: number;
  /** Chunks put before IEND (tests pad files with a private chunk). */
  extra?: Buffer[];
}

/** `pixels`: rows top to bottom, `channels` bytes a pixel. */
export function encodePng(width: number, height: number, channels: PngChannels, pixels: Uint8Array, options: PngOptions = {}): Buffer {
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height); // each row opens with filter type 0
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOUR_TYPE[channels];
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: options.level ?? 6 })),
    ...(options.extra ?? []),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

export interface PngChunkView {
  type: string;
  data: Buffer;
}

/**
 * The chunks of a PNG, each checked against its CRC, up to IEND; null when the signature, a length or a CRC is
 * wrong or IEND never comes (a damaged or cut file).
 */
export function pngChunks(bytes: Buffer): PngChunkView[] | null {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) return null;
  const chunks: PngChunkView[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    if (at + 12 + length > bytes.length) return null;
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) return null;
    const type = bytes.toString('latin1', at + 4, at + 8);
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    if (type === 'IEND') return chunks;
    at += 12 + length;
  }
  return null;
}

/** A PNG that cannot be read; `why` says what is wrong, in words a 400's message can carry. */
export class PngBroken extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

/** Samples a pixel by colour type: grey, RGB, palette index, grey + alpha, RGBA. */
export const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface PngImage {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlace: number;
  palette: Buffer | null;
  alphas: Buffer | null;
  data: Buffer[];
}

/** The image's header, palette, transparency and compressed data from whole chunks (`pngChunks`); PngBroken without IHDR or data. */
export function pngImage(chunks: readonly PngChunkView[]): PngImage {
  let header: Pick<PngImage, 'width' | 'height' | 'depth' | 'colour' | 'interlace'> | null = null;
  let palette: Buffer | null = null;
  let alphas: Buffer | null = null;
  const data: Buffer[] = [];
  for (const { type, data: body } of chunks) {
    if (type === 'IHDR') {
      if (body.length < 13) throw new PngBroken('a short IHDR');
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colour: body[9]!, interlace: body[12]! };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') alphas = body;
    else if (type === 'IDAT') data.push(body);
  }
  if (!header) throw new PngBroken('no IHDR');
  if (data.length === 0) throw new PngBroken('the PNG has no image data');
  return { ...header, palette, alphas, data };
}

/**
 * Inflates and unfilters (PNG filter types 0–4) a non-interlaced image's rows, handing each to `onRow` top to bottom;
 * the row buffer is reused, so read it there. PngBroken when the data does not inflate, does not fill the image or
 * names an unknown filter. The caller has checked the colour type and depth (PNG_CHANNELS).
 */
export function pngRows(image: PngImage, onRow: (row: Buffer, y: number) => void): void {
  const { width, height, depth, colour, data } = image;
  const bitsPerPixel = PNG_CHANNELS[colour]! * depth;
  const rowBytes = Math.ceil((width * bitsPerPixel) / 8);
  const step = Math.max(1, bitsPerPixel >> 3);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(data), { maxOutputLength: (rowBytes + 1) * height });
  } catch {
    throw new PngBroken('the compressed rows do not inflate');
  }
  if (raw.length !== (rowBytes + 1) * height) throw new PngBroken('the rows do not fill the image');

  let previous = Buffer.alloc(rowBytes);
  let row = Buffer.alloc(rowBytes);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowBytes + 1)]!;
    const line = raw.subarray(y * (rowBytes + 1) + 1, (y + 1) * (rowBytes + 1));
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= step ? row[i - step]! : 0;
      const b = previous[i]!;
      const c = i >= step ? previous[i - step]! : 0;
      let predictor: number;
      switch (filter) {
        case 0: predictor = 0; break;
        case 1: predictor = a; break;
        case 2: predictor = b; break;
        case 3: predictor = (a + b) >> 1; break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new PngBroken(`unknown row filter ${filter}`);
      }
      row[i] = (line[i]! + predictor) & 0xff;
    }
    onRow(row, y);
    [previous, row] = [row, previous];
  }
}
