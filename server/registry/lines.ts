import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { dayIn } from '../../contract/days';
import type { Registration } from '../../contract/registry';
import { initialStatus } from '../../machines/registration';
import type { Db } from '../db/client';
import { exams, registrations } from '../db/schema';
import { ApiError } from '../http/errors';
import { newStudyUid } from '../dicom/uid';
import type { RegistryDesk } from './access';
import { presentLine, selectLines } from './present';
import { visitAge, type CheckedLine, type PatientInput } from './rules';

/** Exam lines as exams rows: one exam table, so the worklist shows them like uploaded exams. */
const pad = (n: number, width: number) => String(n).padStart(width, '0');

type Nullable = string | null;
/** The exam columns the patient part of a registration fills, on every line. */
export interface PatientColumns {
  patientName: string; patientId: string; patientKeyId: Nullable; patientGender: string; patientDob: Nullable; visitAge: Nullable;
  patientPhone: Nullable; patientSource: Nullable; inpatientId: Nullable; bedNum: Nullable; outpatientId: Nullable; physicalExamId: Nullable;
  applyDept: Nullable; clinicImpression: Nullable;
}

export function patientColumns(patient: PatientInput, patientId: string, now: Date, timeZone: string): PatientColumns {
  return {
    patientName: patient.patientName, patientId, patientKeyId: patientId, patientGender: patient.patientGender,
    patientDob: patient.patientDob ?? null, visitAge: visitAge(patient, now, timeZone), patientPhone: patient.phone ?? null,
    patientSource: patient.patientSource, inpatientId: patient.inpatientId, bedNum: patient.bedNum, outpatientId: patient.outpatientId,
    physicalExamId: patient.physicalExamId, applyDept: patient.applyDept, clinicImpression: patient.clinicImpression,
  };
}

/** The same columns copied from an exam of the patient (booking more exams for the patient of an exam). */
export function patientColumnsOf(exam: typeof exams.$inferSelect): PatientColumns {
  return {
    patientName: exam.patientName, patientId: exam.patientId, patientKeyId: exam.patientKeyId ?? exam.patientId, patientGender: exam.patientGender,
    patientDob: exam.patientDob, visitAge: exam.visitAge, patientPhone: exam.patientPhone, patientSource: exam.patientSource,
    inpatientId: exam.inpatientId, bedNum: exam.bedNum, outpatientId: exam.outpatientId, physicalExamId: exam.physicalExamId,
    applyDept: exam.applyDept, clinicImpression: exam.clinicImpression,
  };
}

/** The columns one line sets: what, when, and the status its day gives (Registered today, Scheduled later). */
export function lineColumns(line: CheckedLine, timeZone: string, now: Date) {
  const at = new Date(line.scheduledTime);
  return {
    procedureStepId: line.procedureStepId ?? null, modality: line.modality, bodyPart: line.bodyPart, studyDescription: line.stepName,
    urgentFlag: line.urgentFlag, scheduledTime: at, examTime: at,
    examStatus: initialStatus(dayIn(at, timeZone), dayIn(now, timeZone)),
  };
}

/** New lines of registration `registrationId`, each with its accession number (R, day, organisation, exam id). */
export async function insertLines(tx: Db, desk: RegistryDesk, registration: { id: number; orderId: string | null }, patient: PatientColumns,
  lines: readonly CheckedLine[], now: Date): Promise<number[]> {
  if (lines.length === 0) return [];
  const inserted = await tx.insert(exams).values(lines.map((line) => ({
    bucketId: desk.bucketId, registrationId: registration.id, orderId: registration.orderId, ...patient, ...lineColumns(line, desk.timeZone, now), created: now,
    // The Study Instance UID the Modality Worklist hands the modality, so its images come back to this line (server/dicom).
    scheduledStudyUid: newStudyUid(),
  }))).returning({ id: exams.id });
  const day = dayIn(now, desk.timeZone).replaceAll('-', '');
  for (const { id } of inserted) {
    await tx.update(exams).set({ accessionNumber: `R${day}${pad(desk.bucketId, 2)}${pad(id, 7)}` }).where(eq(exams.id, id));
  }
  return inserted.map((r) => r.id);
}

/** A new patient's id when the desk typed none: P, the day, the registration. */
export function newPatientId(registrationId: number, now: Date, timeZone: string): string {
  return `P${dayIn(now, timeZone).replaceAll('-', '')}${pad(registrationId, 6)}`;
}

/** A registration with its live lines, as every write answers it. */
export async function loadRegistration(db: Db, registrationId: number, rights: RegistryDesk['rights']): Promise<Registration> {
  const [reg] = await db.select().from(registrations).where(eq(registrations.id, registrationId));
  if (!reg) throw new ApiError('NotFound');
  const rows = await selectLines(db).where(and(eq(exams.registrationId, registrationId), isNull(exams.deletedTime))).orderBy(asc(exams.id));
  return { id: reg.id, bucketId: reg.bucketId, version: reg.version, orderId: reg.orderId, lines: rows.map((r) => presentLine(r, rights)) };
}

/** The registration row, locked for the rest of the transaction, at the version the caller read. */
export async function lockRegistration(tx: Db, registrationId: number, version: number) {
  const [reg] = await tx.select().from(registrations).where(eq(registrations.id, registrationId)).for('update');
  if (!reg) throw new ApiError('NotFound');
  if (reg.version !== version) throw new ApiError('VersionConflict', 'The registration was changed by someone else; reload it', { version: reg.version });
  return reg;
}

export async function bumpVersion(tx: Db, registrationId: number): Promise<void> {
  await tx.update(registrations).set({ version: sql`${registrations.version} + 1` }).where(eq(registrations.id, registrationId));
}
