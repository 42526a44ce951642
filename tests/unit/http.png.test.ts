import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng, PngBroken, pngChunk, pngChunks, pngImage, pngRows } from '../../server/http/png';

const rowsOf = (bytes: Buffer): number[][] => {
  const image = pngImage(pngChunks(bytes)!);
  const rows: number[][] = [];
  pngRows(image, (row) => rows.push([...row]));
  return rows;
};

describe('the one PNG module (server/http/png.ts)', () => {
  it('reads back what it writes: header, chunks and rows', () => {
    const pixels = Uint8Array.from([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110]);
    const bytes = encodePng(2, 2, 3, pixels);
    expect(pngChunks(bytes)!.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(pngImage(pngChunks(bytes)!)).toMatchObject({ width: 2, height: 2, depth: 8, colour: 2, interlace: 0 });
    expect(rowsOf(bytes)).toEqual([[0, 10, 20, 30, 40, 50], [60, 70, 80, 90, 100, 110]]);
  });

  it('refuses a chunk whose CRC is wrong and a file cut before IEND', () => {
    const bytes = encodePng(1, 1, 1, Uint8Array.from([7]));
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 14]! ^= 0xff; // inside the IDAT
    expect(pngChunks(damaged)).toBeNull();
    expect(pngChunks(bytes.subarray(0, bytes.length - 12))).toBeNull();
  });

  it('unfilters the four predictors (sub, up, average, Paeth)', () => {
    // One grey column of four rows, each row filtered differently: every row decodes to 5, 9, 12, 14 (running sums).
    const header = Buffer.alloc(13);
    header.writeUInt32BE(1, 0); header.writeUInt32BE(4, 4); header[8] = 8; header[9] = 0;
    const raw = Buffer.from([1, 5, 2, 4, 3, 7, 4, 2]);
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', new Uint8Array(0))]);
    // sub: a = 0 → 5; up: b = 5 → 9; average: (0 + 9) >> 1 = 4 → 11; Paeth with a = c = 0, b = 11 → 11 + 2 = 13.
    expect(rowsOf(bytes)).toEqual([[5], [9], [11], [13]]);
  });

  it('says why a PNG cannot be read', () => {
    expect(() => pngImage([])).toThrow(PngBroken);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(1, 0); header.writeUInt32BE(1, 4); header[8] = 8;
    const image = pngImage([{ type: 'IHDR', data: header }, { type: 'IDAT', data: deflateSync(Buffer.from([9, 0])) }]);
    expect(() => pngRows(image, () => undefined)).toThrow('unknown row filter 9');
    const short = pngImage([{ type: 'IHDR', data: header }, { type: 'IDAT', data: deflateSync(Buffer.from([0])) }]);
    expect(() => pngRows(short, () => undefined)).toThrow('the rows do not fill the image');
  });
});
