import { missingSourceFields } from '../../../../contract/exams';
import type { PatientRecord, RegistryCreateInput, RegistryRow, RegistrySetup } from '../../../../contract/registry';
import { REGISTRY_MAX_EXAMS } from '../../../../contract/registry';
import { type AGE_UNITS, PATIENT_SOURCES } from '../../../../contract/constants';
import { instantOf, dayIn, timeIn } from '../../../../contract/days';

/**
 * The registration form as data: what the registrar typed, the rules the server enforces (areas §5) checked
 * before sending so the form says what is wrong beside the field, and the request it becomes.
 */
export type AgeUnit = (typeof AGE_UNITS)[number];
export type PatientSource = (typeof PATIENT_SOURCES)[number];

export interface LineDraft {
  /** React's key for the line; never sent. */
  key: number;
  examId?: number;
  procedureStepId: number | null;
  modality: string;
  bodyPart: string;
  day: string;
  time: string;
  urgent: boolean;
}

export interface RegistrationDraft {
  registrationId: number | null;
  version: number | null;
  patientName: string;
  patientId: string;
  patientGender: string;
  patientDob: string;
  age: string;
  ageUnit: AgeUnit;
  phone: string;
  patientSource: PatientSource;
  inpatientId: string;
  bedNum: string;
  outpatientId: string;
  physicalExamId: string;
  applyDept: string;
  clinicImpression: string;
  lines: LineDraft[];
}

let nextKey = 1;
export const newLine = (day: string, time: string, from: Partial<Omit<LineDraft, 'key'>> = {}): LineDraft => ({
  procedureStepId: null, modality: '', bodyPart: '', day, time, urgent: false, ...from, key: nextKey++,
});

/** A new patient: no sex chosen (the registrar must say, Unknown included: issue 32), source outpatient, one exam line. */
export function emptyDraft(day: string, time: string): RegistrationDraft {
  return {
    registrationId: null, version: null, patientName: '', patientId: '', patientGender: '', patientDob: '', age: '', ageUnit: 'Y',
    phone: '', patientSource: 'O', inpatientId: '', bedNum: '', outpatientId: '', physicalExamId: '', applyDept: '', clinicImpression: '',
    lines: [newLine(day, time)],
  };
}

/** Fills the patient's part from an earlier record; the exam lines stay as typed. */
export function withRecord(draft: RegistrationDraft, record: PatientRecord): RegistrationDraft {
  const source = (PATIENT_SOURCES as readonly string[]).includes(record.patientSource ?? '') ? (record.patientSource as PatientSource) : draft.patientSource;
  return {
    ...draft,
    patientName: record.patientName, patientId: record.patientId, patientGender: record.patientGender, patientDob: record.patientDob ?? '',
    phone: record.phone ?? '', patientSource: source, inpatientId: record.inpatientId ?? '', bedNum: record.bedNum ?? '',
    outpatientId: record.outpatientId ?? '', physicalExamId: record.physicalExamId ?? '',
  };
}

/** A registration's lines back in the form, for editing. */
export function draftOf(rows: readonly RegistryRow[], timeZone: string): RegistrationDraft {
  const first = rows[0]!;
  const age = /^(\d+)([YMWD])$/.exec(first.visitAge ?? '');
  return {
    registrationId: first.registrationId, version: first.version, patientName: first.patientName, patientId: first.patientId,
    patientGender: first.patientGender, patientDob: first.patientDob ?? '', age: age?.[1] ?? '', ageUnit: (age?.[2] as AgeUnit | undefined) ?? 'Y',
    phone: first.phone ?? '', patientSource: (first.patientSource as PatientSource | null) ?? 'O', inpatientId: first.inpatientId ?? '',
    bedNum: first.bedNum ?? '', outpatientId: first.outpatientId ?? '', physicalExamId: first.physicalExamId ?? '', applyDept: '', clinicImpression: '',
    lines: rows.map((r) => newLine(dayIn(new Date(r.scheduledTime), timeZone), timeIn(new Date(r.scheduledTime), timeZone), {
      examId: r.examId, procedureStepId: r.procedureStep?.id ?? null, modality: r.modality, bodyPart: r.bodyPart ?? '', urgent: r.urgentFlag,
    })),
  };
}

/** i18n keys of what is wrong, by field: `patientName`, `inpatientId`, `lines.0.modality`, `lines` ... */
export type DraftErrors = Record<string, string>;

export function validate(draft: RegistrationDraft, today: string, genders: readonly string[]): DraftErrors {
  const errors: DraftErrors = {};
  if (draft.patientName.trim() === '') errors.patientName = 'registry.errors.required';
  if (!genders.includes(draft.patientGender)) errors.patientGender = 'registry.errors.gender';
  if (draft.age.trim() !== '' && !/^\d{1,3}$/.test(draft.age.trim())) errors.age = 'registry.errors.age';
  if (draft.phone.trim() !== '' && !/^[0-9+\- ]{1,32}$/.test(draft.phone.trim())) errors.phone = 'registry.errors.phone';
  for (const field of missingSourceFields({ ...draft })) errors[field] = 'registry.errors.sourceId';
  if (draft.lines.length === 0) errors.lines = 'registry.errors.noLines';
  if (draft.lines.length > REGISTRY_MAX_EXAMS) errors.lines = 'registry.errors.tooManyLines';
  draft.lines.forEach((line, i) => {
    if (line.procedureStepId === null && line.modality.trim() === '') errors[`lines.${i}.procedureStepId`] = 'registry.errors.procedure';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(line.day)) errors[`lines.${i}.day`] = 'registry.errors.required';
    else if (line.examId === undefined && line.day < today) errors[`lines.${i}.day`] = 'registry.errors.past';
    if (!/^\d{2}:\d{2}$/.test(line.time)) errors[`lines.${i}.time`] = 'registry.errors.required';
  });
  return errors;
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

export function toInput(draft: RegistrationDraft, bucketId: number, setup: Pick<RegistrySetup, 'timeZone' | 'steps'>): RegistryCreateInput {
  return {
    bucketId,
    patient: {
      patientName: draft.patientName.trim(), patientId: orNull(draft.patientId), patientGender: draft.patientGender as RegistryCreateInput['patient']['patientGender'],
      patientDob: orNull(draft.patientDob), age: draft.age.trim() === '' ? null : Number(draft.age), ageUnit: draft.ageUnit, phone: orNull(draft.phone),
      patientSource: draft.patientSource, inpatientId: orNull(draft.inpatientId), bedNum: orNull(draft.bedNum), outpatientId: orNull(draft.outpatientId),
      physicalExamId: orNull(draft.physicalExamId), applyDept: orNull(draft.applyDept), clinicImpression: orNull(draft.clinicImpression),
    },
    exams: draft.lines.map((line) => {
      const step = setup.steps.find((s) => s.id === line.procedureStepId);
      return {
        ...(line.examId !== undefined ? { examId: line.examId } : {}),
        procedureStepId: line.procedureStepId,
        modality: step ? step.modality : orNull(line.modality),
        bodyPart: orNull(line.bodyPart) ?? step?.bodyPart ?? null,
        scheduledTime: instantOf(line.day, line.time, setup.timeZone).toISOString(),
        urgentFlag: line.urgent,
      };
    }),
  };
}
