import { EXAM_GENDERS, missingSourceFields, type ExamListItem, type ExamUpdateInput } from '../../../contract/exams';
import { PATIENT_SOURCES } from '../../../contract/constants';

/** The fields the edit screen offers, as text while typed (the exam's own order). */
export const TEXT_FIELDS = [
  'patientName', 'patientId', 'patientDob', 'visitAge', 'accessionNumber', 'modality', 'bodyPart', 'studyDescription',
  'applyDept', 'clinicImpression', 'inpatientId', 'bedNum', 'outpatientId', 'physicalExamId',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export interface ExamForm extends Record<TextField, string> {
  patientGender: (typeof EXAM_GENDERS)[number];
  patientSource: (typeof PATIENT_SOURCES)[number] | '';
  urgentFlag: boolean;
}

export function formOf(exam: ExamListItem): ExamForm {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, (exam[f] as string | null) ?? ''])) as Record<TextField, string>;
  return {
    ...text,
    patientGender: (EXAM_GENDERS as readonly string[]).includes(exam.patientGender) ? exam.patientGender as ExamForm['patientGender'] : 'U',
    patientSource: (PATIENT_SOURCES as readonly string[]).includes(exam.patientSource ?? '') ? exam.patientSource as ExamForm['patientSource'] : '',
    urgentFlag: exam.urgentFlag,
  };
}

/** Fields the server clears with null when left empty (the others are required, or sent only when filled). */
const NULLABLE: ReadonlySet<TextField> = new Set(['patientDob', 'visitAge', 'accessionNumber', 'bodyPart', 'studyDescription', 'applyDept', 'clinicImpression', 'inpatientId', 'bedNum', 'outpatientId', 'physicalExamId']);

/** The POST exams/{id} body: only the fields that differ from the exam as read, with its version. */
export function changesOf(exam: ExamListItem, form: ExamForm): ExamUpdateInput {
  const before = formOf(exam);
  const body: Record<string, unknown> = { version: exam.version };
  for (const field of TEXT_FIELDS) {
    const value = form[field].trim();
    if (value === before[field].trim()) continue;
    body[field] = value === '' && NULLABLE.has(field) ? null : field === 'modality' ? value.toUpperCase() : value;
  }
  if (form.patientGender !== before.patientGender) body.patientGender = form.patientGender;
  if (form.patientSource !== before.patientSource) body.patientSource = form.patientSource === '' ? null : form.patientSource;
  if (form.urgentFlag !== before.urgentFlag) body.urgentFlag = form.urgentFlag;
  return body as ExamUpdateInput;
}

/** The fields the chosen patient source needs and the form leaves empty (core §3; the server checks it too). */
export function missingFor(form: ExamForm): string[] {
  return missingSourceFields({ ...form, patientSource: form.patientSource || null });
}
