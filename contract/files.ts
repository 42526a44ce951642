import { KEY_IMAGES_MAX, KEY_IMAGE_MAX_BYTES } from './constants';
import type { PolicyKind } from './uploads';

/** What each upload policy accepts (GET policies/{kind} answers the same; the server enforces it on the bytes). */
export const POLICY_LIMITS: Record<PolicyKind, { maxBytes: number; types: readonly SniffedType[]; maxCount: number | null }> = {
  avatars: { maxBytes: 2 * 1024 * 1024, types: ['image/png', 'image/jpeg', 'image/webp'], maxCount: null },
  forms: { maxBytes: 10 * 1024 * 1024, types: ['image/png', 'image/jpeg', 'application/pdf'], maxCount: null },
  attachments: { maxBytes: 20 * 1024 * 1024, types: ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'], maxCount: null },
  // core §5: report images, at most 6 per report, each 5 MB or smaller.
  images: { maxBytes: KEY_IMAGE_MAX_BYTES, types: ['image/png', 'image/jpeg'], maxCount: KEY_IMAGES_MAX },
};

/**
 * Every image upload (avatars, forms, key images, report attachments, print logos and stamps, sample graphs,
 * signatures, consultation attachments): at most this wide or tall, and this many pixels in all, read from the
 * file's header before anything is stored (server/http/imageLimits.ts; `400 ImageTooLarge`). A scanned A4 page at
 * 600 dpi (4960 × 7016, 35 MP) fits; a 30000 × 30000 decompression bomb (a few hundred KB of PNG) does not.
 */
export const IMAGE_LIMITS = { maxSide: 10_000, maxPixels: 40_000_000 } as const;

export type SniffedType = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';

export const EXTENSIONS: Record<SniffedType, string> = {
  'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'application/pdf': 'pdf',
};

/** The type a file's first bytes say it is, whatever its name claims. */
export function sniffType(bytes: Uint8Array): SniffedType | null {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  if (at(0, 0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return null;
}
