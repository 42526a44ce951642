import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { groupInstances } from '../../contract/dicom';
import { formFromHeaders } from '../../src/features/upload/examForm';
import { HEAD_BYTES, readChosen, readOne, type ReadFile, type SourceFile } from '../../src/features/upload/readFiles';
import { CT_SERIES, ascii, asNewInstance, concat, pixelDataOffset, replaceElement, sample } from '../support/dicom';

/** What the browser hands the wizard: a File, named by its path inside the chosen folder. */
// A copy: File wants bytes over a plain ArrayBuffer.
const source = (bytes: Uint8Array, path: string): SourceFile => ({ file: new File([new Uint8Array(bytes)], path.split('/').pop()!, { lastModified: 1 }), path });
const headersOf = (read: ReadFile[]) => read.map((r) => r.header);

describe('reading chosen files in the browser', () => {
  it('groups the four files of the CT series into one study and one series in instance order', async () => {
    const { read, refused } = await readChosen(CT_SERIES.map((name) => source(sample(name), `cd/${name}`)));
    expect(refused).toEqual([]);
    const { studies } = groupInstances(headersOf(read));
    expect(studies).toHaveLength(1);
    expect(studies[0]!.series).toHaveLength(1);
    expect(studies[0]!.series[0]!.instances.map((i) => i.instanceNumber)).toEqual([18, 180, 181, 182]);
  });

  it('keeps files of different studies apart, one exam form each', async () => {
    const { read } = await readChosen([...CT_SERIES.map((n) => source(sample(n), n)), source(sample('MR_small.dcm'), 'MR_small.dcm')]);
    const { studies } = groupInstances(headersOf(read));
    expect(studies.map((s) => s.instanceCount).sort()).toEqual([1, 4]);
    const forms = studies.map((s) => formFromHeaders(s.series.flatMap((x) => x.instances)));
    expect(forms.map((f) => f.modality).sort()).toEqual(['CT', 'MR']);
  });

  it('names each broken file with its reason and keeps the good ones', async () => {
    const good = sample('CT_small.dcm');
    const { read, refused } = await readChosen([
      source(good, 'good.dcm'),
      source(new Uint8Array(), 'empty.dcm'),
      source(ascii('patient list\nDoe, John\n'), 'notes.txt'),
      source(good.subarray(0, good.length - 500), 'cut.dcm'),
      source(Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251), 'random.bin'),
    ]);
    expect(read.map((r) => r.path)).toEqual(['good.dcm']);
    expect(Object.fromEntries(refused.map((r) => [r.path, r.reason]))).toEqual({
      'empty.dcm': 'empty', 'notes.txt': 'notDicom', 'cut.dcm': 'truncated', 'random.bin': 'notDicom',
    });
    expect(refused.every((r) => r.detail.length > 0)).toBe(true);
  });

  it('leaves out the same image chosen twice, and one chosen in an earlier pick', async () => {
    const ct = sample('CT_small.dcm');
    const first = await readChosen([source(ct, 'a/CT_small.dcm'), source(ct, 'b/CT_small.dcm')]);
    expect(first.read).toHaveLength(1);
    expect(first.refused.map((r) => [r.path, r.reason])).toEqual([['b/CT_small.dcm', 'duplicate']]);
    const again = await readChosen([source(ct, 'c/CT_small.dcm'), source(asNewInstance(ct, 7), 'c/other.dcm')], new Set([first.read[0]!.header.sopInstanceUid]));
    expect(again.read.map((r) => r.path)).toEqual(['c/other.dcm']);
    expect(again.refused[0]!.reason).toBe('duplicate');
  });

  it('reads a file larger than the head it reads, and notices one whose pixel data is cut short', async () => {
    const ct = sample('CT_small.dcm');
    const at = pixelDataOffset(ct);
    // Pixel data longer than the head that is read: its declared length is checked against the file's size.
    const length = HEAD_BYTES + 4096;
    const header = new Uint8Array(ct.subarray(0, at));
    new DataView(header.buffer).setUint32(at - 4, length, true);
    const whole = await readOne(source(concat(header, new Uint8Array(length)), 'big.dcm'));
    expect('header' in whole && whole.header.sopInstanceUid).toBeTruthy();
    const cut = await readOne(source(concat(header, new Uint8Array(length - 2048)), 'big-cut.dcm'));
    expect('reason' in cut && cut.reason).toBe('truncated');
  });
});

describe('pre-filling the exam from the headers', () => {
  it('decodes a UTF-8 (ISO_IR 192) name and keeps both of its groups as read (each language shows its own)', async () => {
    const { read } = await readChosen([source(sample('chrX1.dcm'), 'chrX1.dcm')]);
    expect(read[0]!.header.patientName).toBe('Wang^XiaoDong=王^小東=');
    expect(formFromHeaders(headersOf(read)).patientName).toBe('Wang XiaoDong=王小東');
  });

  it('decodes a GB18030 name', async () => {
    let bytes = replaceElement(sample('CT_small.dcm'), 'x00080005', ascii('GB18030'));
    bytes = replaceElement(bytes, 'x00100010', new Uint8Array(iconv.encode('Zhang^San=张^三丰', 'gb18030')));
    const { read } = await readChosen([source(bytes, 'gb.dcm')]);
    expect(formFromHeaders(headersOf(read)).patientName).toBe('Zhang San=张三丰');
  });

  it('fills patient, study and time fields from the CT series', async () => {
    const { read } = await readChosen(CT_SERIES.map((n) => source(sample(n), n)));
    const form = formFromHeaders(headersOf(read));
    expect(form).toMatchObject({ patientName: 'Doe Archibald', modality: 'CT', studyInstanceUid: read[0]!.header.studyInstanceUid });
    expect(form.patientId).not.toBe('');
    expect(form.examTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });
});
