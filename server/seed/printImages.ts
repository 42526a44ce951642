import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { encodePng } from '../http/png';
import { printTemplates } from '../db/schema';
import { printImageKey } from '../organizations/printTemplates';
import type { Storage } from '../storage/types';

/**
 * The demo print templates' logo and stamp, drawn at seed time as small PNGs (server/http/png.ts): a square 128 × 128 logo (areas §9's recommended size) and a round red stamp on a
 * transparent background (areas §5).
 */
type Pixel = readonly [number, number, number, number];

export function pngOf(width: number, height: number, pixel: (x: number, y: number) => Pixel, alpha = true): Buffer {
  const channels = alpha ? 4 : 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = pixel(x, y);
      for (let c = 0; c < channels; c++) pixels[(y * width + x) * channels + c] = p[c]!;
    }
  }
  return encodePng(width, height, channels, pixels, { level: 9 });
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
