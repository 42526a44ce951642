import type { DicomHeader } from '../../../contract/dicom';
import { studyInfoFromHeaders } from '../../../contract/dicom';
import type { GENDERS } from '../../../contract/constants';
import { studyUploadInput, type StudyUploadInput } from '../../../contract/uploads';

/** The exam info step's fields as the inputs hold them (strings), one form per study. */
export interface ExamForm {
  studyInstanceUid: string;
  patientName: string;
  patientId: string;
  patientGender: (typeof GENDERS)[number];
  patientDob: string;
  visitAge: string;
  modality: string;
  bodyPart: string;
  studyDescription: string;
  accessionNumber: string;
  /** datetime-local value: the modality's local time, 'YYYY-MM-DDTHH:MM(:SS)'. */
  examTime: string;
}

export type ExamFormField = Exclude<keyof ExamForm, 'studyInstanceUid'>;

/** Pre-filled from the files' headers (names decoded by their Specific Character Set); the user corrects it. */
export function formFromHeaders(headers: readonly DicomHeader[]): ExamForm {
  const info = studyInfoFromHeaders(headers);
  return {
    studyInstanceUid: info.studyInstanceUid,
    patientName: info.patientName ?? '',
    patientId: info.patientId ?? '',
    patientGender: info.patientGender ?? 'U',
    patientDob: info.patientDob ?? '',
    visitAge: info.visitAge ?? '',
    modality: info.modality ?? '',
    bodyPart: info.bodyPart ?? '',
    studyDescription: info.studyDescription ?? '',
    accessionNumber: info.accessionNumber ?? '',
    examTime: info.examTime ? info.examTime.slice(0, 19) : '',
  };
}

/** 'YYYY-MM-DDTHH:MM[:SS]' in the browser's zone → ISO with this zone's offset (the server wants one). */
export function withLocalOffset(local: string): string | null {
  const full = local.length === 16 ? `${local}:00` : local;
  const date = new Date(full);
  if (Number.isNaN(date.getTime())) return null;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${full}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

export type FormProblems = Partial<Record<ExamFormField, 'required' | 'invalid'>>;

/** The form as the upload init takes it, checked by the contract's own schema (the server checks again). */
export function toStudyInput(form: ExamForm): { input: StudyUploadInput | null; problems: FormProblems } {
  const blank = (v: string) => (v.trim() === '' ? null : v.trim());
  const candidate = {
    studyInstanceUid: form.studyInstanceUid,
    patientName: form.patientName.trim(),
    patientId: form.patientId.trim(),
    patientGender: form.patientGender,
    patientDob: blank(form.patientDob),
    visitAge: blank(form.visitAge)?.toUpperCase() ?? null,
    modality: form.modality.trim().toUpperCase(),
    bodyPart: blank(form.bodyPart),
    studyDescription: blank(form.studyDescription),
    accessionNumber: blank(form.accessionNumber),
    examTime: form.examTime ? withLocalOffset(form.examTime) ?? 'invalid' : null,
  };
  const parsed = studyUploadInput.safeParse(candidate);
  if (parsed.success) return { input: parsed.data, problems: {} };
  const problems: FormProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ExamFormField;
    if (field && !(field in problems)) problems[field] = String(candidate[field as keyof typeof candidate] ?? '').trim() === '' ? 'required' : 'invalid';
  }
  return { input: null, problems };
}
