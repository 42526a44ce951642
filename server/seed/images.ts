import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import type { Clock } from '../deps';
import type { Storage } from '../storage/types';
import { ingestDicom } from '../uploads/ingest';
import { ctSlice, mammogram, mrSlice, projection, regionOf, ultrasound, type Picture } from './dicom/phantoms';
import { pixelDescription, writeDicomFile, type Element } from './dicom/writer';

/**
 * Images for the demo's exams, made at seed time and stored through the upload path (ingestDicom: the same storage
 * keys, instance rows and checks as a modality's files), so the viewer, key images, study packages and films work
 * on them. Each exam gets a study whose UIDs hang off its own storeUid: CT and MR a series of slices, the other
 * modalities one image.
 */
const SOP_CLASS: Record<string, string> = {
  CT: '1.2.840.10008.5.1.4.1.1.2',
  MR: '1.2.840.10008.5.1.4.1.1.4',
  CR: '1.2.840.10008.5.1.4.1.1.1',
  DX: '1.2.840.10008.5.1.4.1.1.1.1',
  MG: '1.2.840.10008.5.1.4.1.1.1.2',
  US: '1.2.840.10008.5.1.4.1.1.6.1',
};
export const SLICES = 8;

type ExamRow = Pick<typeof exams.$inferSelect, 'id' | 'bucketId' | 'modality' | 'bodyPart' | 'patientName' | 'patientId' | 'patientGender'
  | 'patientDob' | 'accessionNumber' | 'examTime' | 'storeUid' | 'studyDescription'>;

function pictures(exam: ExamRow, seed: number): Picture[] {
  const region = regionOf(exam.bodyPart ?? '');
  switch (exam.modality) {
    case 'CT': return Array.from({ length: SLICES }, (_, i) => ctSlice(region, i / (SLICES - 1), seed + i));
    case 'MR': return Array.from({ length: SLICES }, (_, i) => mrSlice(region, i / (SLICES - 1), seed + i));
    case 'MG': return [mammogram(seed)];
    case 'US': return [ultrasound(seed)];
    default: return [projection(region, seed)];
  }
}

const da = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
const tm = (d: Date) => d.toISOString().slice(11, 19).replaceAll(':', '');

/** The DICOM files of one exam's study. */
export function studyFiles(exam: ExamRow, seed: number): Uint8Array[] {
  const study = exam.storeUid!;
  const series = `${study}.1`;
  return pictures(exam, seed).map((p, i) => {
    const elements: Element[] = [
      { tag: 0x00080005, vr: 'CS', value: 'ISO_IR 192' },
      { tag: 0x00080016, vr: 'UI', value: SOP_CLASS[exam.modality] ?? SOP_CLASS.DX! },
      { tag: 0x00080018, vr: 'UI', value: `${series}.${i + 1}` },
      { tag: 0x00080020, vr: 'DA', value: da(exam.examTime) },
      { tag: 0x00080030, vr: 'TM', value: tm(exam.examTime) },
      { tag: 0x00080050, vr: 'SH', value: (exam.accessionNumber ?? '').slice(0, 16) },
      { tag: 0x00080060, vr: 'CS', value: exam.modality },
      { tag: 0x00081030, vr: 'LO', value: exam.studyDescription ?? exam.modality },
      { tag: 0x0008103e, vr: 'LO', value: `${exam.modality} ${exam.bodyPart ?? ''}`.trim() },
      { tag: 0x00100010, vr: 'PN', value: exam.patientName },
      { tag: 0x00100020, vr: 'LO', value: exam.patientId },
      { tag: 0x00100030, vr: 'DA', value: (exam.patientDob ?? '').replaceAll('-', '') },
      { tag: 0x00100040, vr: 'CS', value: exam.patientGender === 'M' || exam.patientGender === 'F' ? exam.patientGender : 'O' },
      { tag: 0x0020000d, vr: 'UI', value: study },
      { tag: 0x0020000e, vr: 'UI', value: series },
      { tag: 0x00200011, vr: 'IS', value: '1' },
      { tag: 0x00200013, vr: 'IS', value: String(i + 1) },
      { tag: 0x00200032, vr: 'DS', value: [-100, -100, i * 5] },
      { tag: 0x00200037, vr: 'DS', value: [1, 0, 0, 0, 1, 0] },
      { tag: 0x00201041, vr: 'DS', value: String(i * 5) },
      ...pixelDescription({ samples: 1, photometric: 'MONOCHROME2', bitsAllocated: p.bits, bitsStored: p.bits === 8 ? 8 : 12, signed: p.signed }),
      { tag: 0x00280010, vr: 'US', value: p.rows },
      { tag: 0x00280011, vr: 'US', value: p.columns },
      { tag: 0x00280030, vr: 'DS', value: [0.8, 0.8] },
      { tag: 0x00281050, vr: 'DS', value: String(p.windowCenter) },
      { tag: 0x00281051, vr: 'DS', value: String(p.windowWidth) },
      { tag: 0x00281052, vr: 'DS', value: '0' },
      { tag: 0x00281053, vr: 'DS', value: '1' },
      { tag: 0x7fe00010, vr: p.bits === 8 ? 'OB' : 'OW', value: p.pixels },
    ];
    return writeDicomFile(elements);
  });
}

/** Stores the studies of `examIds` and marks those exams as having images. */
export async function seedImages(deps: { db: Db; storage: Storage; clock: Clock }, examIds: readonly number[], opts: { uploaderId: number }): Promise<number> {
  if (examIds.length === 0) return 0;
  const rows = await deps.db.select().from(exams).where(inArray(exams.id, [...examIds]));
  let files = 0;
  for (const exam of rows) {
    if (!exam.storeUid) continue;
    for (const file of studyFiles(exam, exam.id * 97)) {
      await ingestDicom(deps, { bucketId: exam.bucketId, examId: exam.id, storeUid: exam.storeUid, accountId: opts.uploaderId }, file);
      files += 1;
    }
  }
  await deps.db.update(exams).set({ hasImage: true, uploadTime: sql`${exams.examTime} + interval '3 minutes'` }).where(inArray(exams.id, [...examIds]));
  return files;
}
