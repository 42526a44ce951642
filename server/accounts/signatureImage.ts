import { imageSize } from 'image-size';
import { SIGNATURE_MAX_SIDE, SIGNATURE_MIN_SIZE } from '../../contract/accounts';
import { sniffType } from '../../contract/files';
import { ApiError } from '../http/errors';
import { assertSizeWithinLimits } from '../http/imageLimits';
import { PNG_CHANNELS, PngBroken, pngChunks, pngImage, pngRows } from '../http/png';

/**
 * Areas §5 "Signature cannot be empty", judged on the bytes of a signature image (POST accounts/me/signature):
 * - PNG or JPEG by their first bytes, whatever the name says (UnsupportedFileType, details.accepted);
 * - whole and readable: a PNG's chunks and compressed rows, a JPEG's frame header and end marker (ImageBroken);
 * - 64×24 to 4000×4000 pixels (SignatureEmpty below, ImageBroken above: no signature is that large);
 * - a PNG must hold ink: at least 50 pixels (and 0.1 % of them) that are visible (alpha ≥ 32) and dark
 *   (luma ≤ 200 of 255); a blank or white pad is SignatureEmpty. The rows are inflated and unfiltered, nothing more.
 *   A JPEG is not decoded (that would be heavy): its ink is not judged, only its type, size and integrity.
 * The size limit (512 KB, UploadTooLarge) is the upload's.
 */
export const INK = { minPixels: 50, minShare: 0.001, minAlpha: 32, maxLuma: 200 } as const;

const ACCEPTED = ['image/png', 'image/jpeg'];

export interface SignatureImage { type: 'image/png' | 'image/jpeg'; width: number; height: number; inkPixels: number | null }

export function checkSignatureImage(bytes: Buffer): SignatureImage {
  const type = sniffType(bytes);
  if (type !== 'image/png' && type !== 'image/jpeg') throw new ApiError('UnsupportedFileType', undefined, { accepted: ACCEPTED });
  const image = type === 'image/png' ? readPng(bytes) : readJpeg(bytes);
  if (image.width < SIGNATURE_MIN_SIZE.width || image.height < SIGNATURE_MIN_SIZE.height) {
    throw new ApiError('SignatureEmpty', 'The signature image is too small', { width: image.width, height: image.height });
  }
  if (image.inkPixels !== null && image.inkPixels < Math.max(INK.minPixels, INK.minShare * image.width * image.height)) {
    throw new ApiError('SignatureEmpty', undefined, { inkPixels: image.inkPixels });
  }
  return image;
}

const broken = (why: string) => new ApiError('ImageBroken', `The image is damaged: ${why}`);

function readJpeg(bytes: Buffer): SignatureImage {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw broken('no JPEG frame header');
  }
  // A JPEG ends with EOI (FF D9); some writers pad after it, so look near the end.
  if (!bytes.subarray(Math.max(0, bytes.length - 64)).includes(Buffer.from([0xff, 0xd9]))) throw broken('the JPEG is cut short');
  const { width = 0, height = 0 } = size;
  assertSizeWithinLimits(width, height);
  assertSides(width, height);
  return { type: 'image/jpeg', width, height, inkPixels: null };
}

function assertSides(width: number, height: number) {
  if (width > SIGNATURE_MAX_SIDE || height > SIGNATURE_MAX_SIDE) throw broken(`${width}×${height} is larger than ${SIGNATURE_MAX_SIDE} pixels a side`);
}

function readPng(bytes: Buffer): SignatureImage {
  const chunks = pngChunks(bytes);
  if (!chunks) throw broken('a chunk is cut short or damaged, or the PNG ends before IEND');
  const image = asBroken(() => pngImage(chunks));
  const { width, height, depth, colour, interlace, palette, alphas } = image;
  if (width === 0 || height === 0) throw new ApiError('SignatureEmpty', 'The signature image is empty', { width, height });
  // Every image upload's size rule first (ImageTooLarge), then the signature's own smaller limit.
  assertSizeWithinLimits(width, height);
  assertSides(width, height);
  const channels = PNG_CHANNELS[colour];
  if (channels === undefined || interlace !== 0 || !(depth === 8 || depth === 16 || (colour === 3 && depth < 8))) {
    throw new ApiError('UnsupportedFileType', 'Only non-interlaced PNGs of 8 or 16 bits (or a palette) are accepted', { accepted: ACCEPTED });
  }
  if (colour === 3 && !palette) throw broken('a palette PNG without its palette');

  // Count ink row by row as the rows are unfiltered.
  let ink = 0;
  const sample = (r: Buffer, offset: number) => r[offset]!; // 16-bit: the high byte is enough
  asBroken(() => pngRows(image, (row) => {
    for (let x = 0; x < width; x++) {
      let r: number; let g: number; let bl: number; let alpha = 255;
      if (colour === 3) {
        const bit = x * depth;
        const index = (row[bit >> 3]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
        if (index * 3 + 2 >= palette!.length) throw broken('a pixel outside the palette');
        r = palette![index * 3]!; g = palette![index * 3 + 1]!; bl = palette![index * 3 + 2]!;
        if (alphas && index < alphas.length) alpha = alphas[index]!;
      } else {
        const o = x * channels * (depth >> 3);
        const s = (k: number) => sample(row, o + k * (depth >> 3));
        if (colour === 0 || colour === 4) {
          r = g = bl = s(0);
          if (colour === 4) alpha = s(1);
        } else {
          r = s(0); g = s(1); bl = s(2);
          if (colour === 6) alpha = s(3);
        }
      }
      const luma = 0.299 * r + 0.587 * g + 0.114 * bl;
      if (alpha >= INK.minAlpha && luma <= INK.maxLuma) ink++;
    }
  }));
  return { type: 'image/png', width, height, inkPixels: ink };
}

/** The PNG module's PngBroken as this check's ImageBroken, with the same words. */
function asBroken<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof PngBroken) throw broken(e.why);
    throw e;
  }
}
