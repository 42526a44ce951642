import { eq, sql, type SQL } from 'drizzle-orm';
import type { RegistrationStatus, RegistryAction, RegistryRow } from '../../contract/registry';
import { REGISTRATION_STATUSES } from '../../contract/registry';
import { mppsProgressOf } from '../../contract/mpps';
import { allowedActions, type RegistrationContext } from '../../machines/registration';
import type { Db } from '../db/client';
import { buckets, exams, procedureSteps, registrations } from '../db/schema';
import { mppsColumn } from '../dicom/progress';
import type { RegistryRight } from './access';

/** One exam line as the registry reads it: the exam row, its registration and step. */
export const lineColumns = {
  exam: exams,
  version: registrations.version,
  orderId: registrations.orderId,
  bucketName: buckets.name,
  stepName: procedureSteps.name,
  mpps: mppsColumn,
};

export function selectLines(db: Db) {
  return db.select(lineColumns).from(exams)
    .innerJoin(registrations, eq(registrations.id, exams.registrationId))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(procedureSteps, eq(procedureSteps.id, exams.procedureStepId));
}

export type LineRow = { exam: typeof exams.$inferSelect; version: number; orderId: string | null; bucketName: string; stepName: string | null; mpps: string | null };

/** Live registry lines only: deleted exams and exams matched away are not on the desk. */
export const liveLine: SQL = sql`${exams.deletedTime} is null and ${exams.registrationId} is not null`;

export function statusOf(exam: typeof exams.$inferSelect): RegistrationStatus {
  return (REGISTRATION_STATUSES as readonly string[]).includes(exam.examStatus ?? '') ? (exam.examStatus as RegistrationStatus) : 'Registered';
}

/** The machine's view of a line: its status and arrival, and what revoke would restore. */
export function contextOf(exam: typeof exams.$inferSelect): RegistrationContext {
  const prev = exam.prevExamStatus && (REGISTRATION_STATUSES as readonly string[]).includes(exam.prevExamStatus) ? exam.prevExamStatus as RegistrationStatus : null;
  return {
    status: statusOf(exam),
    arrivedTime: exam.arrivedTime ? exam.arrivedTime.getTime() : null,
    previous: prev ? { status: prev, arrivedTime: exam.prevArrivedTime ? exam.prevArrivedTime.getTime() : null } : null,
    cancelReason: exam.cancelReason,
  };
}

const NEEDS: Record<RegistryAction, RegistryRight> = {
  edit: 'registry_update', 'check-in': 'registry_update', perform: 'registry_update', revoke: 'registry_update',
  cancel: 'registry_update', match: 'registry_update', delete: 'registry_delete',
};

/** What the caller may do to the line now: the machine's answer, cut to the caller's rights. */
export function transitionsOf(exam: typeof exams.$inferSelect, rights: readonly RegistryRight[]): RegistryAction[] {
  return allowedActions(contextOf(exam)).filter((a) => rights.includes(NEEDS[a]));
}

export function presentLine(row: LineRow, rights: readonly RegistryRight[]): RegistryRow {
  const e = row.exam;
  return {
    examId: e.id,
    registrationId: e.registrationId!,
    version: row.version,
    bucketId: e.bucketId,
    bucketName: row.bucketName,
    status: statusOf(e),
    scheduledTime: (e.scheduledTime ?? e.examTime).toISOString(),
    arrivedTime: e.arrivedTime ? e.arrivedTime.toISOString() : null,
    created: e.created.toISOString(),
    cancelReason: e.cancelReason,
    accessionNumber: e.accessionNumber ?? '',
    modality: e.modality,
    bodyPart: e.bodyPart,
    procedureStep: e.procedureStepId !== null && row.stepName !== null ? { id: e.procedureStepId, name: row.stepName } : null,
    urgentFlag: e.urgentFlag,
    patientName: e.patientName,
    patientId: e.patientId,
    patientGender: e.patientGender,
    patientDob: e.patientDob,
    visitAge: e.visitAge,
    phone: e.patientPhone,
    patientSource: e.patientSource,
    inpatientId: e.inpatientId,
    bedNum: e.bedNum,
    outpatientId: e.outpatientId,
    physicalExamId: e.physicalExamId,
    extension: e.scheduledExtension,
    transitions: transitionsOf(e, rights),
    mpps: mppsProgressOf(row.mpps),
  };
}
