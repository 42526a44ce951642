/**
 * The window an image opens with. A file's own Window Center/Width is kept; without one (and always for a 1-bit
 * frame, whose 0/1 values no bit-depth window can show) the window spans the frame's real range of values, so a
 * segmentation mask or a frame holding 0–3 in 16 bits is drawn black to white instead of black. Colour images keep
 * what the loader gave them (they are not windowed).
 */
export interface FrameFacts {
  color: boolean;
  bitsAllocated: number | null;
  /** The file carries Window Center and Width (0028,1050/1051). */
  fileWindow: boolean;
  /** Smallest and largest stored value of the decoded frame. */
  min: number;
  max: number;
  /** Rescale (modality LUT): windows are in rescaled units. */
  slope: number;
  intercept: number;
}

export interface Window {
  center: number;
  width: number;
}

/** The window to open the frame with, or null to keep the loader's. */
export function naturalWindow(f: FrameFacts): Window | null {
  if (f.color) return null;
  if (f.fileWindow && f.bitsAllocated !== 1) return null;
  if (!Number.isFinite(f.min) || !Number.isFinite(f.max)) return null;
  const a = f.min * f.slope + f.intercept;
  const b = f.max * f.slope + f.intercept;
  const lower = Math.min(a, b);
  const upper = Math.max(a, b);
  // DICOM's linear function (PS3.3 C.11.2.1.2.1, as Cornerstone applies it) maps c - 0.5 ± (w - 1) / 2 to black and
  // white: this window draws the smallest value black and the largest white (a flat frame: a one-unit window at it).
  return { center: (lower + upper) / 2 + 0.5, width: upper - lower + 1 };
}

/** The values a window draws black and white under DICOM's linear function. */
export function windowRange({ center, width }: Window): { lower: number; upper: number } {
  return { lower: center - 0.5 - (width - 1) / 2, upper: center - 0.5 + (width - 1) / 2 };
}
