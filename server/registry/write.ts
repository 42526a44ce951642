import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { dayIn } from '../../contract/days';
import type { Registration, registryCreateInput, registryUpdateInput } from '../../contract/registry';
import { REGISTRY_MAX_EXAMS } from '../../contract/registry';
import { applyEvent } from '../../machines/registration';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import { exams, registrations } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { registryDesk, type RegistryDesk } from './access';
import { bumpVersion, insertLines, lineColumns, loadRegistration, lockRegistration, newPatientId, patientColumns, type PatientColumns } from './lines';
import { contextOf } from './present';
import { checkLines, checkPatient, type CheckedLine } from './rules';

/** POST registry and PUT registry: a registration and its lines, all or nothing. */
type CreateInput = z.output<typeof registryCreateInput>;
type UpdateInput = z.output<typeof registryUpdateInput>;

export async function createRegistration(deps: Deps, access: Access, input: CreateInput): Promise<Registration> {
  const desk = await registryDesk(deps.db, access, input.bucketId, 'registry_create');
  const now = deps.clock.now();
  checkPatient(desk, input.patient);
  const lines = await checkLines(deps.db, desk, input.exams, now);
  const patientOf = (registrationId: number) =>
    patientColumns(input.patient, input.patient.patientId ?? newPatientId(registrationId, now, desk.timeZone), now, desk.timeZone);
  const id = await register(deps, access, desk, { lines, now, orderId: input.orderId, patientOf });
  return loadRegistration(deps.db, id, desk.rights);
}

/**
 * One new registration with its (checked) lines and its trace, in one transaction: POST registry, and booking more
 * exams for the patient of an exam (POST exams/{id}/schedules, `fromExamId`).
 */
export async function register(deps: Deps, access: Access, desk: RegistryDesk, what: {
  lines: readonly CheckedLine[]; now: Date; orderId: string | null; patientOf: (registrationId: number) => PatientColumns; fromExamId?: number;
}): Promise<number> {
  const { now } = what;
  return deps.db.transaction(async (tx) => {
    const [reg] = await tx.insert(registrations).values({ bucketId: desk.bucketId, orderId: what.orderId, createdBy: access.accountId, created: now }).returning();
    const patient = what.patientOf(reg!.id);
    const examIds = await insertLines(tx, desk, reg!, patient, what.lines, now);
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId: desk.bucketId, area: 'registry', action: 'register', objectType: 'registration', objectId: reg!.id,
      after: { patientName: patient.patientName, patientId: patient.patientId, examIds, orderId: what.orderId, ...(what.fromExamId ? { fromExamId: what.fromExamId } : {}) },
    });
    return reg!.id;
  });
}

/**
 * The patient's details on every line; the lines that may still be edited (Registered, Scheduled) as sent: changed,
 * added, or — when absent — deleted. Lines past that (arrived, performed, cancelled) keep their exam, and count
 * towards the five.
 */
export async function updateRegistration(deps: Deps, access: Access, input: UpdateInput): Promise<Registration> {
  const [found] = await deps.db.select({ bucketId: registrations.bucketId }).from(registrations).where(eq(registrations.id, input.registrationId));
  if (!found) throw new ApiError('NotFound');
  const desk = await registryDesk(deps.db, access, found.bucketId, 'registry_update');
  const now = deps.clock.now();
  checkPatient(desk, input.patient);
  const today = dayIn(now, desk.timeZone);
  await deps.db.transaction(async (tx) => {
    const reg = await lockRegistration(tx, input.registrationId, input.version);
    const current = await tx.select().from(exams).where(and(eq(exams.registrationId, reg.id), isNull(exams.deletedTime)));
    const editable = current.filter((e) => applyEvent(contextOf(e), { type: 'edit', scheduledDay: today, today }) !== null);
    for (const line of input.exams) {
      if (line.examId === undefined) continue;
      const exam = current.find((e) => e.id === line.examId);
      if (!exam) throw new ApiError('NotFound', 'The exam line is not one of this registration', { examId: line.examId });
      if (!editable.includes(exam)) throw new ApiError('InvalidTransition', 'This exam line can no longer be edited', { examId: exam.id, status: exam.examStatus });
    }
    const sent = new Set(input.exams.map((l) => l.examId).filter((id): id is number => id !== undefined));
    const removed = editable.filter((e) => !sent.has(e.id));
    if (removed.length > 0 && !desk.rights.includes('registry_delete')) throw new ApiError('Forbidden', 'Removing an exam line needs registry_delete');
    const kept = current.length - editable.length;
    const unsafe = removed.find((e) => e.hasImage || e.reportId !== null);
    if (unsafe) throw new ApiError('InvalidTransition', 'An exam line with images or a report is not deleted', { examId: unsafe.id });
    if (kept + input.exams.length > REGISTRY_MAX_EXAMS) throw new ApiError('RegistryTooManyExams', undefined, { max: REGISTRY_MAX_EXAMS });
    const lines = await checkLines(tx, desk, input.exams, now, new Map(current.map((e) => [e.id, (e.scheduledTime ?? e.examTime).getTime()])));

    const patientId = input.patient.patientId ?? current[0]?.patientId ?? newPatientId(reg.id, now, desk.timeZone);
    const patient = patientColumns(input.patient, patientId, now, desk.timeZone);
    await tx.update(exams).set(patient).where(and(eq(exams.registrationId, reg.id), isNull(exams.deletedTime)));
    for (const line of lines.filter((l) => l.examId !== undefined)) {
      const exam = current.find((e) => e.id === line.examId)!;
      const columns = lineColumns(line, desk.timeZone, now);
      const next = applyEvent(contextOf(exam), { type: 'edit', scheduledDay: dayIn(columns.scheduledTime, desk.timeZone), today });
      await tx.update(exams).set({ ...columns, examStatus: next!.status }).where(eq(exams.id, exam.id));
    }
    for (const exam of removed) await tx.delete(exams).where(eq(exams.id, exam.id));
    const added = await insertLines(tx, desk, reg, patient, lines.filter((l) => l.examId === undefined), now);
    if (input.orderId !== null && input.orderId !== reg.orderId) {
      await tx.update(registrations).set({ orderId: input.orderId }).where(eq(registrations.id, reg.id));
      await tx.update(exams).set({ orderId: input.orderId }).where(eq(exams.registrationId, reg.id));
    }
    await bumpVersion(tx, reg.id);
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId: desk.bucketId, area: 'registry', action: 'update', objectType: 'registration', objectId: reg.id,
      before: { patientName: current[0]?.patientName ?? null, examIds: current.map((e) => e.id) },
      after: { patientName: input.patient.patientName, removed: removed.map((e) => e.id), added },
    });
  });
  return loadRegistration(deps.db, input.registrationId, desk.rights);
}
