import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { missingSourceFields } from '../../contract/exams';
import { dayIn } from '../../contract/days';
import { HUMAN_GENDERS, PET_GENDERS, REGISTRY_MAX_EXAMS, type registryCreateInput, type registryExamLine } from '../../contract/registry';
import type { Db } from '../db/client';
import { procedureSteps } from '../db/schema';
import { ApiError } from '../http/errors';
import type { RegistryDesk } from './access';

/**
 * The registry's rules (areas §5), checked before anything is written; each answers its catalogue code, so the form
 * can say which field is wrong. The form checks the same (src/features/registry/form/draft.ts).
 */
export type PatientInput = z.output<typeof registryCreateInput>['patient'];
export type LineInput = z.output<typeof registryExamLine>;

export interface CheckedLine extends LineInput {
  modality: string;
  bodyPart: string | null;
  /** The step's flag: no images needed, so arrival makes the line Performed. */
  reportDuringExam: boolean;
  stepName: string | null;
}

export function checkPatient(desk: RegistryDesk, patient: PatientInput): void {
  const genders: readonly string[] = desk.isPet ? PET_GENDERS : HUMAN_GENDERS;
  if (!genders.includes(patient.patientGender)) {
    throw new ApiError('ParamsError', undefined, { fields: [{ path: 'patient.patientGender', message: `one of ${genders.join(', ')}` }] });
  }
  const missing = missingSourceFields(patient);
  if (missing.length > 0) throw new ApiError('SourceIdRequired', undefined, { fields: missing });
}

/**
 * The exam lines: at most 5, each with a step of this organisation or a modality, none before today (in the
 * organisation's zone). `kept` lines (already saved, unchanged time) may stay on an earlier day.
 */
export async function checkLines(db: Db, desk: RegistryDesk, lines: readonly LineInput[], now: Date, kept: ReadonlyMap<number, number> = new Map()): Promise<CheckedLine[]> {
  if (lines.length > REGISTRY_MAX_EXAMS) throw new ApiError('RegistryTooManyExams', undefined, { max: REGISTRY_MAX_EXAMS });
  if (lines.length === 0) throw new ApiError('ParamsError', undefined, { fields: [{ path: 'exams', message: 'at least one exam' }] });
  const ids = [...new Set(lines.map((l) => l.procedureStepId).filter((id): id is number => typeof id === 'number'))];
  const steps = ids.length === 0 ? [] : await db.select().from(procedureSteps)
    .where(and(eq(procedureSteps.bucketId, desk.bucketId), inArray(procedureSteps.id, ids)));
  const today = dayIn(now, desk.timeZone);
  return lines.map((line, index) => {
    const step = line.procedureStepId ? steps.find((s) => s.id === line.procedureStepId) : undefined;
    if (line.procedureStepId && !step) throw new ApiError('UnknownProcedureStep', undefined, { line: index, procedureStepId: line.procedureStepId });
    const modality = step?.modality ?? line.modality ?? null;
    if (!modality) throw new ApiError('ProcedureRequired', undefined, { line: index });
    const at = new Date(line.scheduledTime);
    const unchanged = line.examId !== undefined && kept.get(line.examId) === at.getTime();
    if (!unchanged && dayIn(at, desk.timeZone) < today) throw new ApiError('ScheduledTimeInPast', undefined, { line: index, today });
    return {
      ...line, modality, bodyPart: line.bodyPart ?? step?.bodyPart ?? null,
      reportDuringExam: step?.reportDuringExam ?? false, stepName: step?.name ?? null,
    };
  });
}

/** The visit age the exam keeps: "46Y", from the age typed or the date of birth. */
export function visitAge(patient: PatientInput, now: Date, timeZone: string): string | null {
  if (patient.age !== null && patient.age !== undefined) return `${patient.age}${patient.ageUnit}`;
  if (!patient.patientDob) return null;
  const [y, m, d] = patient.patientDob.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = dayIn(now, timeZone).split('-').map(Number) as [number, number, number];
  const years = ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
  if (years >= 1) return `${years}Y`;
  const months = (ty - y) * 12 + (tm - m) - (td < d ? 1 : 0);
  return months >= 1 ? `${months}M` : `${Math.max(0, Math.round((now.getTime() - Date.UTC(y, m - 1, d)) / 86_400_000))}D`;
}
