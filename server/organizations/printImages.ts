import { PRINT_IMAGE_TYPES, type PrintImage } from '../../contract/printTemplates';
import { ApiError } from '../http/errors';
import { assertImageWithinLimits } from '../http/imageLimits';
import { pngChunks } from '../http/png';

/**
 * A print template's logo or stamp, judged on its bytes (never its name; areas §5): the logo a square JPEG or PNG,
 * the stamp a PNG that can be transparent (an alpha channel, colour type 4 or 6, or a tRNS chunk). A file cut short
 * or with a broken PNG chunk is ImageBroken; another kind of file ImageType.
 */
export type PrintImageType = 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function typeOf(bytes: Uint8Array): PrintImageType | 'other' {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return 'other';
}

interface PngFacts { colourType: number; hasTrns: boolean }

/** A PNG's facts when it is whole (lengths inside the file, CRCs right, IHDR first, IEND last); null otherwise. */
export function pngFacts(bytes: Buffer): PngFacts | null {
  const chunks = pngChunks(bytes);
  const header = chunks?.[0];
  if (!chunks || header?.type !== 'IHDR' || header.data.length !== 13) return null;
  return { colourType: header.data[9]!, hasTrns: chunks.some((c) => c.type === 'tRNS') };
}

/** A JPEG that ends with its end-of-image marker (a file cut short does not). */
function jpegWhole(bytes: Buffer): boolean {
  let end = bytes.length;
  while (end > 2 && bytes[end - 1] === 0x00) end--;
  return bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
}

/** The file's type and size when it is acceptable as `kind`; the catalogue's 400 otherwise. */
export function checkPrintImage(kind: PrintImage, bytes: Buffer): { type: PrintImageType; width: number; height: number } {
  const type = typeOf(bytes);
  if (type === 'other' || !PRINT_IMAGE_TYPES[kind].includes(type)) throw new ApiError('ImageType', undefined, { accepted: PRINT_IMAGE_TYPES[kind] });
  const png = type === 'image/png' ? pngFacts(bytes) : null;
  if (type === 'image/png' ? !png : !jpegWhole(bytes)) throw new ApiError('ImageBroken');
  // Every image upload's size rule (ImageTooLarge; an unreadable size is ImageBroken), before the logo's shape.
  const { width, height } = assertImageWithinLimits(bytes);
  if (kind === 'logo' && width !== height) throw new ApiError('LogoNotSquare', undefined, { width, height });
  if (kind === 'stamp' && !(png!.colourType === 4 || png!.colourType === 6 || png!.hasTrns)) throw new ApiError('StampNotTransparent');
  return { type, width, height };
}
