import { describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { studyFiles, SLICES } from '../../server/seed/images';
import { reportTimes } from '../../server/seed/exams';

/** The demo's images are real DICOM files the upload path reads, one study per exam, with the exam's facts. */
const exam = (modality: string, bodyPart: string) => ({
  id: 7, bucketId: 1, modality, bodyPart, patientName: '王小东', patientId: 'P00000007', patientGender: 'M', patientDob: '1980-05-01',
  accessionNumber: 'A2026112401', examTime: new Date('2026-11-24T08:30:00Z'), storeUid: '1.2.826.0.1.3680043.8.498.1.1764000000000.7',
  studyDescription: `${modality} ${bodyPart}`,
});

describe('demo images', () => {
  it.each([['CT', '胸部', SLICES], ['MR', '头颅', SLICES], ['DX', '胸部', 1], ['CR', '膝关节', 1], ['MG', '双侧乳腺', 1], ['US', '甲状腺', 1]] as const)(
    '%s %s: %i files of one series that parse with the exam\'s facts', (modality, bodyPart, count) => {
      const files = studyFiles(exam(modality, bodyPart), 1);
      expect(files).toHaveLength(count);
      const headers = files.map((file) => {
        const read = readDicomHeader(file);
        if (!read.ok) throw new Error(read.message);
        return read.header;
      });
      expect(new Set(headers.map((h) => h.sopInstanceUid)).size).toBe(count);
      for (const h of headers) {
        expect(h).toMatchObject({ modality, patientName: '王小东', patientId: 'P00000007', studyInstanceUid: exam(modality, bodyPart).storeUid, frames: 1 });
        expect(h.rows).toBeGreaterThan(0);
        expect(h.sopInstanceUid.length).toBeLessThanOrEqual(64);
      }
    });
});

describe('demo report times', () => {
  const created = new Date('2026-11-24T08:00:00Z');
  it('keeps the work in order and in the past, squeezing it for an exam that arrived minutes ago', () => {
    const now = new Date('2026-11-24T08:10:00Z');
    const times = reportTimes(created, now, [200, 20, 200, 10]);
    for (let i = 1; i < times.length; i++) expect(times[i]!.getTime()).toBeGreaterThan(times[i - 1]!.getTime());
    expect(times.at(-1)!.getTime()).toBeLessThan(now.getTime());
    expect(times[0]!.getTime()).toBeGreaterThan(created.getTime());
  });

  it('leaves the offsets as they are when there is room', () => {
    const times = reportTimes(created, new Date('2026-11-25T08:00:00Z'), [30, 10]);
    expect(times.map((t) => t.toISOString())).toEqual(['2026-11-24T08:30:00.000Z', '2026-11-24T08:40:00.000Z']);
  });
});
