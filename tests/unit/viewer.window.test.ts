import { describe, expect, it } from 'vitest';
import { naturalWindow, personNameFor, storedPersonName, windowRange, type FrameFacts } from '../../contract/dicom';

const grey = (f: Partial<FrameFacts>): FrameFacts => ({ color: false, bitsAllocated: 16, fileWindow: false, min: 0, max: 4095, slope: 1, intercept: 0, ...f });

describe('the window a frame opens with', () => {
  it('spans the real range of a 1-bit frame: 0 black, 1 white (not a 255/128 bit-depth window)', () => {
    const window = naturalWindow(grey({ bitsAllocated: 1, min: 0, max: 1 }))!;
    expect(windowRange(window)).toEqual({ lower: 0, upper: 1 });
    // A segmentation's own window tag does not hide its 0/1 values either.
    expect(windowRange(naturalWindow(grey({ bitsAllocated: 1, fileWindow: true, min: 0, max: 1 }))!)).toEqual({ lower: 0, upper: 1 });
  });

  it('spans the real range of a low-range frame without a window (0–3 in 16 bits)', () => {
    expect(windowRange(naturalWindow(grey({ min: 0, max: 3 }))!)).toEqual({ lower: 0, upper: 3 });
  });

  it('keeps the file window and leaves colour alone', () => {
    expect(naturalWindow(grey({ fileWindow: true, min: 0, max: 3 }))).toBeNull();
    expect(naturalWindow(grey({ color: true, bitsAllocated: 8, min: 0, max: 3 }))).toBeNull();
  });

  it('is in rescaled units (a CT frame without a window), also for a negative slope', () => {
    expect(windowRange(naturalWindow(grey({ min: 0, max: 2000, intercept: -1024 }))!)).toEqual({ lower: -1024, upper: 976 });
    expect(windowRange(naturalWindow(grey({ min: 0, max: 10, slope: -1 }))!)).toEqual({ lower: -10, upper: 0 });
  });

  it('gives a one-unit window at the value of a flat frame, and none for an unknown range', () => {
    expect(windowRange(naturalWindow(grey({ min: 7, max: 7 }))!)).toEqual({ lower: 7, upper: 7 });
    expect(naturalWindow(grey({ min: Number.NaN, max: 3 }))).toBeNull();
  });
});

describe('the viewer header names the patient as the rest of the product does', () => {
  it('shows the group of the reader’s language of a multi-group DICOM name', () => {
    expect(personNameFor('Wang^XiaoDong=王^小东', 'en')).toBe('Wang XiaoDong');
    expect(personNameFor('Wang^XiaoDong=王^小东', 'chs')).toBe('王小东');
    expect(personNameFor('Wang^XiaoDong=王^小东', 'tib')).toBe('王小东');
    // As an upload stores it, and a name with an empty ideographic group.
    expect(personNameFor(storedPersonName('Wang^XiaoDong=王^小东'), 'chs')).toBe('王小东');
    expect(personNameFor('Wang^XiaoDong=', 'chs')).toBe('Wang XiaoDong');
  });
});
