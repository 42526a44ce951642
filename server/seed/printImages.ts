import { crc32, deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { printTemplates } from '../db/schema';
import { printImageKey } from '../organizations/printTemplates';
import type { Storage } from '../storage/types';

/**
 * The demo print templates' logo and stamp, drawn at seed time as small PNGs (written by hand: a signature, IHDR,
 * one deflated IDAT, IEND): a square 128 × 128 logo (areas §9's recommended size) and a round red stamp on a
 * transparent background (areas §5).
 */
type Pixel = readonly [number, number, number, number];

export function pngOf(width: number, height: number, pixel: (x: number, y: number) => Pixel, alpha = true): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const channels = alpha ? 4 : 3;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = alpha ? 6 : 2; // RGBA or RGB
  const raw = Buffer.alloc((width * channels + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * channels + 1); // each row opens with filter type 0
    for (let x = 0; x < width; x++) {
      const p = pixel(x, y);
      for (let c = 0; c < channels; c++) raw[row + 1 + x * channels + c] = p[c]!;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A hospital emblem: a white cross on a teal disc, on white. */
export function demoLogo(size = 128): Buffer {
  const c = (size - 1) / 2;
  return pngOf(size, size, (x, y) => {
    const d = Math.hypot(x - c, y - c);
    const arm = size * 0.11;
    const cross = (Math.abs(x - c) < arm && Math.abs(y - c) < size * 0.3) || (Math.abs(y - c) < arm && Math.abs(x - c) < size * 0.3);
    if (d > size * 0.47) return [255, 255, 255, 255];
    return cross ? [255, 255, 255, 255] : [13, 122, 120, 255];
  }, false);
}

/** A round red seal: two rings and a five-pointed flower at the centre, everything else transparent. */
export function demoStamp(size = 160): Buffer {
  const c = (size - 1) / 2;
  return pngOf(size, size, (x, y) => {
    const d = Math.hypot(x - c, y - c);
    const ring = (d > size * 0.42 && d < size * 0.48) || (d > size * 0.36 && d < size * 0.38);
    const a = Math.atan2(y - c, x - c) - Math.PI / 2;
    const flower = d < size * 0.16 * (0.65 + 0.35 * Math.cos(5 * a));
    return ring || flower ? [200, 30, 35, 235] : [0, 0, 0, 0];
  });
}

/** Gives every exam print template of the organisation the demo logo and stamp. */
export async function seedPrintTemplateImages(db: Db, storage: Storage, bucketId: number): Promise<void> {
  const rows = await db.select({ id: printTemplates.id }).from(printTemplates)
    .where(and(eq(printTemplates.bucketId, bucketId), eq(printTemplates.layoutType, 1)));
  const logo = demoLogo();
  const stamp = demoStamp();
  for (const row of rows) {
    const logoKey = printImageKey(bucketId, row.id, 'image/png');
    const stampKey = printImageKey(bucketId, row.id, 'image/png');
    await storage.put(logoKey, logo, { contentType: 'image/png' });
    await storage.put(stampKey, stamp, { contentType: 'image/png' });
    await db.update(printTemplates).set({ logo: logoKey, stamp: stampKey }).where(eq(printTemplates.id, row.id));
  }
}
