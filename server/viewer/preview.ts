import { naturalWindow, windowRange } from '../../contract/dicom/window';
import jpeg from 'jpeg-js';
import { decodeFirstFrame, decodeFrame, type Frame } from './pixels';
import { encodePng } from '../http/png';

/** Previews are at most this many pixels on their longer side (thumbnails of the drawer, key-image strip, shares). */
export const PREVIEW_MAX = 256;

/**
 * The first frame as the viewer opens it: grey images through the file's window (or, without one and for 1-bit
 * frames, their real range: contract/dicom/window.ts, the viewer's rule), MONOCHROME1 inverted, colour as RGB,
 * palette colour through its tables; scaled down to PREVIEW_MAX by averaging.
 */
export async function renderPreview(file: Uint8Array): Promise<Buffer> {
  const frame = await decodeFirstFrame(file);
  const { channels, pixels } = display(frame);
  const scaled = shrink(pixels, frame.width, frame.height, channels, PREVIEW_MAX);
  return encodePng(scaled.width, scaled.height, channels, scaled.pixels);
}

/**
 * Frame `index` (from 0) drawn by the same rule as the preview, at most `max` pixels on its longer side (its own
 * size without), as PNG or JPEG (DICOMweb's rendered resources).
 */
export async function renderFrame(file: Uint8Array, index: number, opts: { max?: number; format: 'png' | 'jpeg'; quality?: number }): Promise<Buffer> {
  const frame = await decodeFrame(file, index);
  const { channels, pixels } = display(frame);
  const scaled = shrink(pixels, frame.width, frame.height, channels, opts.max ?? Infinity);
  if (opts.format === 'png') return encodePng(scaled.width, scaled.height, channels, scaled.pixels);
  const count = scaled.width * scaled.height;
  const rgba = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = scaled.pixels[i * channels + (channels === 3 ? c : 0)]!;
    rgba[i * 4 + 3] = 255;
  }
  return jpeg.encode({ data: rgba, width: scaled.width, height: scaled.height }, opts.quality ?? 90).data;
}

export function display(frame: Frame): { channels: 1 | 3; pixels: Uint8Array } {
  const count = frame.width * frame.height;
  if (frame.samples === 3) return { channels: 3, pixels: Uint8Array.from({ length: count * 3 }, (_, i) => frame.values[i] ?? 0) };
  if (frame.palette) {
    const { first, red, green, blue } = frame.palette;
    const out = new Uint8Array(count * 3);
    for (let i = 0; i < count; i++) {
      const at = Math.min(red.length - 1, Math.max(0, frame.values[i]! - first));
      out[i * 3] = red[at]!;
      out[i * 3 + 1] = green[at]!;
      out[i * 3 + 2] = blue[at]!;
    }
    return { channels: 3, pixels: out };
  }
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < count; i++) {
    const v = frame.values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const window = naturalWindow({
    color: false, bitsAllocated: frame.bitsAllocated, fileWindow: frame.window !== null, min, max, slope: frame.slope, intercept: frame.intercept,
  }) ?? frame.window ?? { center: 0, width: 1 };
  const { lower, upper } = windowRange(window);
  const invert = frame.photometric === 'MONOCHROME1';
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const v = frame.values[i]! * frame.slope + frame.intercept;
    const g = upper > lower ? Math.round(Math.min(1, Math.max(0, (v - lower) / (upper - lower))) * 255) : v > lower ? 255 : 0;
    out[i] = invert ? 255 - g : g;
  }
  return { channels: 1, pixels: out };
}

function shrink(pixels: Uint8Array, width: number, height: number, channels: number, max: number): { width: number; height: number; pixels: Uint8Array } {
  const factor = Math.max(width, height) / max;
  if (factor <= 1) return { width, height, pixels };
  const w = Math.max(1, Math.round(width / factor));
  const h = Math.max(1, Math.round(height / factor));
  const out = new Uint8Array(w * h * channels);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * height) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / w));
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) sum += pixels[(yy * width + xx) * channels + c]!;
        out[(y * w + x) * channels + c] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
      }
    }
  }
  return { width: w, height: h, pixels: out };
}
