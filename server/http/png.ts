import { crc32, deflateSync } from 'node:zlib';

/**
 * The one PNG writer of the server, the seed, the tests and the benches: 8-bit greyscale, grey + alpha, RGB or
 * RGBA, no interlace, one deflated IDAT. Previews, demo logos and drawings, and test files need nothing more, and no
 * PNG library is among the dependencies (docs/decisions.md). Readers walk chunks with `pngChunks`.
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
