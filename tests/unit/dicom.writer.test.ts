import { describe, expect, it } from 'vitest';
import { readDicomHeader, type DicomHeader } from '../../contract/dicom';
import { EXPLICIT_BIG, EXPLICIT_LITTLE, IMPLICIT_LITTLE, pixelDescription, writeDicomFile, type Element } from '../../server/seed/dicom/writer';

function header(bytes: Uint8Array): DicomHeader {
  const result = readDicomHeader(bytes);
  if (!result.ok) throw new Error(`${result.code} ${result.reason}: ${result.message}`);
  return result.header;
}

const elements: Element[] = [
  { tag: 0x00080016, vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
  { tag: 0x00080018, vr: 'UI', value: '1.2.3.4.5.6.7' },
  { tag: 0x00080060, vr: 'CS', value: 'CT' },
  { tag: 0x0020000d, vr: 'UI', value: '1.2.3.4' },
  { tag: 0x0020000e, vr: 'UI', value: '1.2.3.4.5' },
  { tag: 0x00280010, vr: 'US', value: 2 },
  { tag: 0x00280011, vr: 'US', value: 3 },
  ...pixelDescription({ samples: 1, photometric: 'MONOCHROME2', bitsAllocated: 16, bitsStored: 12, signed: true }),
  { tag: 0x7fe00010, vr: 'OW', value: new Int16Array([1, -2, 3, -4, 5, -6]) },
];

describe('the one DICOM writer (server/seed/dicom/writer.ts)', () => {
  it.each([EXPLICIT_LITTLE, IMPLICIT_LITTLE, EXPLICIT_BIG])('writes a file the upload reads in %s', (transferSyntax) => {
    const h = header(writeDicomFile(elements, { transferSyntax }));
    expect(h).toMatchObject({ transferSyntaxUid: transferSyntax, modality: 'CT', rows: 2, columns: 3, bitsAllocated: 16, sopInstanceUid: '1.2.3.4.5.6.7' });
    expect(h.hasPixelData).toBe(true);
  });

  it('turns 16-bit words round in big endian and leaves the caller\'s array as it was', () => {
    const pixels = new Uint16Array([0x0102]);
    const little = writeDicomFile([{ tag: 0x7fe00010, vr: 'OW', value: pixels }], { part10: false });
    const big = writeDicomFile([{ tag: 0x7fe00010, vr: 'OW', value: pixels }], { transferSyntax: EXPLICIT_BIG, part10: false });
    expect([...little.subarray(-2)]).toEqual([0x02, 0x01]);
    expect([...big.subarray(-2)]).toEqual([0x01, 0x02]);
    expect(pixels[0]).toBe(0x0102);
  });

  it('writes a bare data set when asked: no preamble, no meta', () => {
    const bare = writeDicomFile(elements, { transferSyntax: IMPLICIT_LITTLE, part10: false });
    expect(new TextDecoder().decode(bare.subarray(128, 132))).not.toBe('DICM');
    expect(header(bare)).toMatchObject({ bareDataSet: true, sopInstanceUid: '1.2.3.4.5.6.7', rows: 2 });
  });

  it('describes the pixels with the high bit under the stored bits', () => {
    expect(pixelDescription({ samples: 3, photometric: 'RGB', bitsAllocated: 8 }).map((e) => e.value)).toEqual([3, 'RGB', 8, 8, 7, 0]);
  });
});
