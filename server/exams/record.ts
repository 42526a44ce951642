import { and, eq, gte, isNotNull, isNull } from 'drizzle-orm';
import { missingSourceFields, type ExamListItem, type ExamUpdateInput } from '../../contract/exams';
import { assertCan, type Access } from '../access/access';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { deletedSince } from './filters';
import { loadListItem } from './query';
import { assertCanReadExam } from './scope';

/**
 * An exam the caller may read: live, or deleted within the recovery window (the deleted view still opens it).
 * Unknown ids, other organisations' exams and exams deleted longer ago are all 404.
 */
export async function readableExam(deps: Deps, access: Access, id: number): Promise<ExamListItem> {
  const exam = await loadListItem(deps.db, id, access);
  if (!exam || (exam.deletedTime !== null && Date.parse(exam.deletedTime) < deletedSince(deps.clock.now()).getTime())) throw new ApiError('NotFound');
  assertCanReadExam(access, exam.bucketId);
  return exam;
}

type ExamRow = typeof exams.$inferSelect;

/** The live exam row for a write: 404 when absent, deleted or elsewhere, 403 without `action` there. */
async function liveExamFor(db: Db, access: Access, id: number, action: 'exam_update' | 'exam_delete'): Promise<ExamRow> {
  const [row] = await db.select().from(exams).where(and(eq(exams.id, id), isNull(exams.deletedTime))).for('update');
  if (!row) throw new ApiError('NotFound');
  assertCan(access, action, row.bucketId);
  return row;
}

/** Null for "clear", trimmed text otherwise; empty strings are stored as null. */
const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/** A stored or given value as the audit trail and the comparison read it (dates as ISO text). */
const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/**
 * POST exams/{id}: the given fields replace the stored ones; the patient-source rule of core §3 is checked on
 * the result (the stored fields count), so changing only the source to I needs an inpatient id already there.
 * With `version`, another edit since answers 409 VersionConflict (the row is locked, so two edits cannot both pass).
 * A change raises the version and is written to the audit trail with the fields it touched, before and after.
 */
export async function updateExam(deps: Deps, access: Access, id: number, input: ExamUpdateInput): Promise<ExamListItem> {
  await deps.db.transaction(async (tx) => {
    const row = await liveExamFor(tx, access, id, 'exam_update');
    if (input.version !== undefined && input.version !== row.version) {
      throw new ApiError('VersionConflict', 'The exam was changed by someone else; reload it', { version: row.version });
    }
    const patch: Partial<typeof exams.$inferInsert> = {
      patientName: input.patientName,
      patientId: input.patientId,
      patientGender: input.patientGender,
      patientDob: input.patientDob,
      visitAge: input.visitAge,
      weight: input.weight,
      height: input.height,
      patientClass: blankToNull(input.patientClass),
      patientSource: input.patientSource,
      inpatientId: blankToNull(input.inpatientId),
      bedNum: blankToNull(input.bedNum),
      outpatientId: blankToNull(input.outpatientId),
      physicalExamId: blankToNull(input.physicalExamId),
      serviceRequestId: blankToNull(input.serviceRequestId),
      accessionNumber: blankToNull(input.accessionNumber),
      orderId: blankToNull(input.orderId),
      modality: input.modality,
      bodyPart: blankToNull(input.bodyPart),
      bodyPartCount: input.bodyPartCount,
      studyDescription: blankToNull(input.studyDescription),
      clinicImpression: blankToNull(input.clinicImpression),
      applyDept: blankToNull(input.applyDept),
      urgentFlag: input.urgentFlag,
      examTime: input.examTime === undefined ? undefined : new Date(input.examTime),
      extensions: input.extensions,
    };
    const given = Object.entries(patch).filter(([, v]) => v !== undefined);
    const missing = missingSourceFields({ ...row, ...Object.fromEntries(given) });
    if (missing.length > 0) {
      throw new ApiError('ParamsError', undefined, {
        fields: missing.map((path) => ({ path, message: `required when patientSource is ${patch.patientSource ?? row.patientSource}` })),
      });
    }
    // Only what differs is written and audited: saving an unchanged form changes nothing and leaves no event.
    const stored = row as Record<string, unknown>;
    const changed = given.filter(([key, v]) => JSON.stringify(plain(v)) !== JSON.stringify(plain(stored[key])));
    if (changed.length === 0) return;
    await tx.update(exams).set({ ...Object.fromEntries(changed), version: row.version + 1 }).where(eq(exams.id, id));
    await recordAudit(tx, {
      at: deps.clock.now(), actorId: access.accountId, bucketId: row.bucketId, area: 'exams', action: 'update', objectType: 'exam', objectId: id,
      before: Object.fromEntries(changed.map(([key]) => [key, plain(stored[key])])),
      after: Object.fromEntries(changed.map(([key, v]) => [key, plain(v)])),
    });
  });
  return (await loadListItem(deps.db, id, access))!;
}

/** DELETE exams/{id}/delete: soft; the exam leaves the list and can be recovered for 30 days. */
export async function deleteExam(deps: Deps, access: Access, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await liveExamFor(tx, access, id, 'exam_delete');
    await tx.update(exams).set({ deletedTime: deps.clock.now() }).where(eq(exams.id, id));
  });
}

/** POST exams/{id}/recover: back to the list, if deleted within the last 30 days (else it is gone: 404). */
export async function recoverExam(deps: Deps, access: Access, id: number): Promise<ExamListItem> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(exams)
      .where(and(eq(exams.id, id), isNotNull(exams.deletedTime), gte(exams.deletedTime, deletedSince(deps.clock.now()))))
      .for('update');
    if (!row) throw new ApiError('NotFound');
    assertCan(access, 'exam_delete', row.bucketId);
    await tx.update(exams).set({ deletedTime: null }).where(eq(exams.id, id));
  });
  return (await loadListItem(deps.db, id, access))!;
}
