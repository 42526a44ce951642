import { imageSize } from 'image-size';
import { IMAGE_LIMITS } from '../../contract/files';
import { ApiError } from './errors';

/**
 * The one size rule of every image upload (issue 32 "Decompression bombs"; contract/files.ts IMAGE_LIMITS): the
 * width and height are read from the file's header (image-size: PNG, JPEG, GIF, WebP, BMP, TIFF…), nothing is
 * decoded, and a file is refused before it is stored when a side is over `maxSide` or the pixels over `maxPixels`
 * (`400 ImageTooLarge`, `details: { width, height, maxSide, maxPixels }`). A header that cannot be read, or says
 * 0 pixels, is `400 ImageBroken`: an image whose size is unknown is not taken on trust.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } {
  let size: { width?: number; height?: number; orientation?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new ApiError('ImageBroken', 'The image is damaged: its size cannot be read from its header');
  }
  const { width = 0, height = 0 } = size;
  if (!(width > 0 && height > 0)) throw new ApiError('ImageBroken', 'The image is damaged: its header says it has no pixels');
  return { width, height };
}

/** The image's width and height when within IMAGE_LIMITS; ImageTooLarge (or ImageBroken) otherwise. */
export function assertImageWithinLimits(bytes: Uint8Array): { width: number; height: number } {
  const { width, height } = imageDimensions(bytes);
  assertSizeWithinLimits(width, height);
  return { width, height };
}

/** The rule itself, for a reader that has the header's width and height already (the signature's PNG reader). */
export function assertSizeWithinLimits(width: number, height: number): void {
  const { maxSide, maxPixels } = IMAGE_LIMITS;
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    throw new ApiError('ImageTooLarge', `The image is ${width}×${height} pixels: at most ${maxSide} pixels a side and ${maxPixels} pixels in all`, { width, height, maxSide, maxPixels });
  }
}
