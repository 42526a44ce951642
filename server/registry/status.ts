import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Registration, RegistrationStatus } from '../../contract/registry';
import { applyEvent, type RegistrationEvent } from '../../machines/registration';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import { enqueueArrived, leaveQueue } from '../calling/checkIn';
import type { Db } from '../db/client';
import { exams, procedureSteps, registrations, reports } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { syncExams } from '../reports/examSync';
import { registryDesk, type RegistryDesk, type RegistryRight } from './access';
import { bumpVersion, loadRegistration, lockRegistration } from './lines';
import { contextOf, liveLine } from './present';

/**
 * What happens to one exam line: check-in, perform, revoke, cancel, match, extension, delete. Each locks the
 * registration at the version the caller read (a stale action is VersionConflict and changes nothing), asks the
 * registration machine (InvalidTransition when it refuses), writes where the machine went and its trace.
 */
type ExamRow = typeof exams.$inferSelect;

interface Step {
  tx: Db;
  exam: ExamRow;
  desk: RegistryDesk;
  now: Date;
}

export async function lineOf(db: Db, examId: number): Promise<ExamRow> {
  const [exam] = await db.select().from(exams).where(and(eq(exams.id, examId), liveLine));
  if (!exam) throw new ApiError('NotFound');
  return exam;
}

async function onLine(deps: Deps, access: Access, examId: number, version: number, right: RegistryRight, run: (step: Step) => Promise<void>): Promise<Registration> {
  const found = await lineOf(deps.db, examId);
  const desk = await registryDesk(deps.db, access, found.bucketId, right);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await lockRegistration(tx, found.registrationId!, version);
    // The version first (the row is locked already): a check-in's queue number is then the transaction's last
    // statement, and the queue's counter lock is held only to the commit (server/calling/checkIn.ts, issue 37).
    await bumpVersion(tx, found.registrationId!);
    const exam = await lineOf(tx, examId);
    await run({ tx, exam, desk, now });
  });
  return loadRegistration(deps.db, found.registrationId!, desk.rights);
}

/** The machine's next line, or InvalidTransition. */
function next(exam: ExamRow, event: RegistrationEvent) {
  const after = applyEvent(contextOf(exam), event);
  if (!after) throw new ApiError('InvalidTransition', `The ${event.type} is not possible for a line that is ${exam.examStatus}`, { status: exam.examStatus });
  return after;
}

/** The line's new state, the state before kept for revoke, and the exam time the worklist sorts by. */
function moved(exam: ExamRow, after: ReturnType<typeof next>) {
  const arrived = after.arrivedTime === null ? null : new Date(after.arrivedTime);
  return {
    examStatus: after.status, arrivedTime: arrived,
    prevExamStatus: after.previous?.status ?? null,
    prevArrivedTime: after.previous?.arrivedTime ? new Date(after.previous.arrivedTime) : null,
    cancelReason: after.cancelReason,
    examTime: arrived ?? exam.scheduledTime ?? exam.examTime,
  };
}

async function trace(step: Step, actorId: number, action: string, before: RegistrationStatus, extra: Record<string, unknown> = {}) {
  const [row] = await step.tx.select({ examStatus: exams.examStatus, arrivedTime: exams.arrivedTime }).from(exams).where(eq(exams.id, step.exam.id));
  await recordAudit(step.tx, {
    at: step.now, actorId, bucketId: step.desk.bucketId, area: 'registry', action, objectType: 'exam', objectId: step.exam.id,
    before: { status: before, arrivedTime: step.exam.arrivedTime?.toISOString() ?? null },
    after: { status: row?.examStatus ?? null, arrivedTime: row?.arrivedTime?.toISOString() ?? null, ...extra },
  });
}

/** POST exam/status: Arrived (check-in; a step read during the exam needs no images, so it is Performed at once) or Performed. */
export function setStatus(deps: Deps, access: Access, examId: number, status: 'Arrived' | 'Performed', version: number) {
  return onLine(deps, access, examId, version, 'registry_update', async (step) => {
    const { exam, now } = step;
    let event: RegistrationEvent = { type: 'perform', now: now.getTime() };
    if (status === 'Arrived') {
      const [stepRow] = exam.procedureStepId === null ? [] : await step.tx.select({ during: procedureSteps.reportDuringExam }).from(procedureSteps).where(eq(procedureSteps.id, exam.procedureStepId));
      event = { type: 'check-in', now: now.getTime(), needsImages: !(stepRow?.during ?? false) };
    }
    const after = next(exam, event);
    await step.tx.update(exams).set(moved(exam, after)).where(eq(exams.id, exam.id));
    await trace(step, access.accountId, event.type, contextOf(exam).status);
    // A checked-in line enters today's queue of its modality, when the organisation runs one (issue 11).
    if (event.type === 'check-in') await enqueueArrived(step.tx, exam, { now, actorId: access.accountId });
  });
}

/** Revoke: exactly one step back. Leaving Performed deletes the completed exam's report (kept in the trace) and any match. */
export function revokeLine(deps: Deps, access: Access, examId: number, version: number) {
  return onLine(deps, access, examId, version, 'registry_update', async (step) => {
    const { exam, tx, now } = step;
    const after = next(exam, { type: 'revoke' });
    const wasPerformed = contextOf(exam).status === 'Performed';
    // The exam's own reports go (soft-deleted, their texts kept in the trace); a joint report's other exams follow.
    const dropped = wasPerformed
      ? await tx.update(reports).set({ deletedTime: now }).where(and(eq(reports.examId, exam.id), isNull(reports.deletedTime)))
        .returning({ id: reports.id, status: reports.status, creatorId: reports.creatorId, finding: reports.finding, diagnosis: reports.diagnosis, jointExamIds: reports.jointExamIds })
      : [];
    await tx.update(exams).set(moved(exam, after)).where(eq(exams.id, exam.id));
    if (dropped.length > 0) await syncExams(tx, [exam.id, ...dropped.flatMap((r) => r.jointExamIds)]);
    if (wasPerformed) await tx.update(exams).set({ matchedScheduleId: null }).where(eq(exams.matchedScheduleId, exam.id));
    await trace(step, access.accountId, 'revoke', contextOf(exam).status, dropped.length > 0 ? { deletedReports: dropped } : {});
    // Back before arrival: the patient is no longer waiting to be called.
    if (after.arrivedTime === null) await leaveQueue(tx, exam, { now, actorId: access.accountId });
  });
}

export function cancelLine(deps: Deps, access: Access, examId: number, version: number, reason: string) {
  return onLine(deps, access, examId, version, 'registry_update', async (step) => {
    const after = next(step.exam, { type: 'cancel', reason });
    await step.tx.update(exams).set(moved(step.exam, after)).where(eq(exams.id, step.exam.id));
    await trace(step, access.accountId, 'cancel', contextOf(step.exam).status, { reason });
    await leaveQueue(step.tx, step.exam, { now: step.now, actorId: access.accountId });
  });
}

export function extendLine(deps: Deps, access: Access, examId: number, version: number, extension: Record<string, unknown>) {
  return onLine(deps, access, examId, version, 'registry_update', async (step) => {
    const merged = { ...step.exam.scheduledExtension, ...extension };
    await step.tx.update(exams).set({ scheduledExtension: merged }).where(eq(exams.id, step.exam.id));
    await recordAudit(step.tx, {
      at: step.now, actorId: access.accountId, bucketId: step.desk.bucketId, area: 'registry', action: 'extension', objectType: 'exam',
      objectId: step.exam.id, before: { extension: step.exam.scheduledExtension }, after: { extension: merged },
    });
  });
}

/**
 * POST exams/{completedId}/match/{scheduledId}: the scheduled line was done as an exam that arrived another way
 * (uploaded from the modality): the line becomes Performed and the completed exam records which line it took over.
 */
export function matchLine(deps: Deps, access: Access, completedId: number, scheduledId: number, version: number) {
  return onLine(deps, access, scheduledId, version, 'registry_update', async (step) => {
    const { exam, tx } = step;
    const [done] = await tx.select().from(exams).where(and(eq(exams.id, completedId), isNull(exams.deletedTime), ne(exams.id, exam.id)));
    if (!done || done.bucketId !== exam.bucketId || done.patientId !== exam.patientId || done.registrationId === exam.registrationId) {
      throw new ApiError('MatchMismatch');
    }
    const after = next(exam, { type: 'match', now: step.now.getTime() });
    await tx.update(exams).set(moved(exam, after)).where(eq(exams.id, exam.id));
    await tx.update(exams).set({ matchedScheduleId: exam.id }).where(eq(exams.id, done.id));
    await trace(step, access.accountId, 'match', contextOf(exam).status, { completedExamId: done.id });
  });
}

/** DELETE scheduled-exams/{id}: a line nobody checked in; the registration goes with its last line. */
export async function deleteLine(deps: Deps, access: Access, examId: number, version: number): Promise<{ deleted: true; registrationId: number }> {
  const found = await lineOf(deps.db, examId);
  const desk = await registryDesk(deps.db, access, found.bucketId, 'registry_delete');
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const reg = await lockRegistration(tx, found.registrationId!, version);
    const exam = await lineOf(tx, examId);
    next(exam, { type: 'delete' });
    if (exam.hasImage || exam.reportId !== null) throw new ApiError('InvalidTransition', 'An exam line with images or a report is not deleted');
    await tx.delete(exams).where(eq(exams.id, exam.id));
    const [left] = await tx.select({ n: sql<number>`count(*)::int` }).from(exams).where(eq(exams.registrationId, reg.id));
    if (Number(left?.n ?? 0) === 0) await tx.delete(registrations).where(eq(registrations.id, reg.id));
    else await bumpVersion(tx, reg.id);
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId: desk.bucketId, area: 'registry', action: 'delete', objectType: 'exam', objectId: exam.id,
      before: { status: exam.examStatus, patientName: exam.patientName, accessionNumber: exam.accessionNumber, registrationId: reg.id },
    });
  });
  return { deleted: true, registrationId: found.registrationId! };
}

/**
 * A line's event sent by a modality (MPPS over the DICOM listener, server/dicom/mpps.ts): no account and no version
 * read, so the registration is locked as it is; the machine decides as for every other action, and a refusal is
 * traced too. Answers where the line went, or that the machine refused (with the status it was in).
 */
export async function deviceEvent(deps: Deps, examId: number, bucketId: number, event: RegistrationEvent, source: Record<string, unknown>):
  Promise<{ ok: boolean; status: RegistrationStatus | null }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [exam] = await tx.select().from(exams).where(and(eq(exams.id, examId), eq(exams.bucketId, bucketId), liveLine));
    if (!exam) return { ok: false, status: null };
    await tx.select({ id: registrations.id }).from(registrations).where(eq(registrations.id, exam.registrationId!)).for('update');
    const [line] = await tx.select().from(exams).where(eq(exams.id, examId));
    const before = contextOf(line!).status;
    const after = applyEvent(contextOf(line!), event);
    if (!after) {
      await recordAudit(tx, {
        at: now, actorId: null, bucketId, area: 'registry', action: `${event.type}-refused`, objectType: 'exam', objectId: examId,
        before: { status: before }, after: { ...source },
      });
      return { ok: false, status: before };
    }
    await tx.update(exams).set(moved(line!, after)).where(eq(exams.id, examId));
    await bumpVersion(tx, exam.registrationId!);
    await recordAudit(tx, {
      at: now, actorId: null, bucketId, area: 'registry', action: event.type, objectType: 'exam', objectId: examId,
      before: { status: before, arrivedTime: line!.arrivedTime?.toISOString() ?? null },
      after: { status: after.status, arrivedTime: after.arrivedTime === null ? null : new Date(after.arrivedTime).toISOString(), ...source },
    });
    if (event.type === 'cancel') await leaveQueue(tx, line!, { now, actorId: null });
    return { ok: true, status: after.status };
  });
}
