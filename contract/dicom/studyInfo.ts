import { GENDERS } from '../constants';
import type { StudyUploadInput } from '../uploads';
import type { DicomHeader } from './header';
import { storedPersonName } from './personName';

type Gender = (typeof GENDERS)[number];

/** The modality an exam is filed under: the first image series' (a study's SR or PR objects say nothing of it). */
const NON_IMAGE = new Set(['SR', 'PR', 'KO', 'REG', 'SEG', 'RTSTRUCT', 'DOC']);

/**
 * Pre-fills the wizard's exam info from the headers of one study's files (the user corrects it before
 * init). Patient Sex O is kept, anything unknown becomes U; the age is Patient's Age without its zeros.
 */
export function studyInfoFromHeaders(headers: readonly DicomHeader[]): Partial<StudyUploadInput> & { studyInstanceUid: string } {
  if (headers.length === 0) throw new Error('studyInfoFromHeaders needs at least one header');
  const first = headers[0]!;
  const pick = <K extends keyof DicomHeader>(key: K): DicomHeader[K] | null => headers.find((h) => h[key] !== null && h[key] !== '')?.[key] ?? null;
  const modality = headers.find((h) => h.modality && !NON_IMAGE.has(h.modality))?.modality ?? pick('modality');
  const sex = pick('patientSex');
  const age = pick('patientAge')?.match(/^0*(\d{1,3})([YMWD])$/);
  const studyDate = pick('studyDate');
  const studyTime = pick('studyTime') ?? '00:00:00';
  return {
    studyInstanceUid: first.studyInstanceUid,
    patientName: storedPersonName(pick('patientName')) || undefined,
    patientId: pick('patientId') ?? undefined,
    patientGender: (GENDERS as readonly string[]).includes(sex ?? '') ? (sex as Gender) : 'U',
    patientDob: pick('patientBirthDate'),
    visitAge: age ? `${Number(age[1])}${age[2]}` : null,
    modality: modality ?? undefined,
    bodyPart: pick('bodyPartExamined'),
    studyDescription: pick('studyDescription'),
    accessionNumber: pick('accessionNumber'),
    // Study Date/Time are local times of the modality: sent without an offset the server would refuse, so they carry the browser's.
    examTime: studyDate ? localIso(`${studyDate}T${studyTime}`) : null,
  };
}

function localIso(local: string): string | null {
  const d = new Date(local);
  if (Number.isNaN(d.getTime())) return null;
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}
