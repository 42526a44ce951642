import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { studyUploadInput } from '../../contract/uploads';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { assigneeForNewExam } from './assign';

/**
 * Making exams: the study upload's init today, the registry's registration next. Exam creation lives with the exams,
 * so every area that makes one makes it the same way.
 */
export type ExamRow = typeof exams.$inferSelect;
type StudyInput = z.output<typeof studyUploadInput>;

/** The exam a file or a completion is for: it must exist, be in the organisation and not be deleted. */
export async function examInBucket(db: Db, examId: number, bucketId: number): Promise<ExamRow> {
  const [exam] = await db.select().from(exams).where(and(eq(exams.id, examId), eq(exams.bucketId, bucketId), isNull(exams.deletedTime)));
  if (!exam) throw new ApiError('NotFound');
  return exam;
}

/**
 * Upload init: the study is found again by its Study Instance UID in the organisation (uploading more
 * of it, or resuming), else a new exam is made from the wizard's exam info. An advisory lock on the
 * (organisation, UID) pair keeps two simultaneous inits of one study from making two exams.
 */
export async function findOrCreateExam(deps: Deps, bucketId: number, input: StudyInput): Promise<{ exam: ExamRow; created: boolean }> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`exam-upload:${bucketId}:${input.studyInstanceUid}`}))`);
    const [found] = await tx.select().from(exams)
      .where(and(eq(exams.bucketId, bucketId), eq(exams.storeUid, input.studyInstanceUid), isNull(exams.deletedTime)))
      .orderBy(exams.id).limit(1);
    if (found) return { exam: found, created: false };
    const now = deps.clock.now();
    // The group's assign rules give a new exam its reporter (server/groups/assign.ts).
    const assigneeId = await assigneeForNewExam(tx, bucketId, input.modality);
    const [exam] = await tx.insert(exams).values({
      bucketId,
      assigneeId,
      storeUid: input.studyInstanceUid,
      patientName: input.patientName,
      patientId: input.patientId,
      patientKeyId: input.patientId,
      patientGender: input.patientGender,
      patientDob: input.patientDob ?? null,
      visitAge: input.visitAge ?? null,
      modality: input.modality,
      bodyPart: input.bodyPart ?? null,
      studyDescription: input.studyDescription ?? null,
      accessionNumber: input.accessionNumber ?? null,
      serviceRequestId: input.serviceRequestId ?? null,
      clinicImpression: input.clinicImpression ?? null,
      applyDept: input.applyDept ?? null,
      patientSource: input.patientSource ?? null,
      inpatientId: input.inpatientId ?? null,
      bedNum: input.bedNum ?? null,
      outpatientId: input.outpatientId ?? null,
      physicalExamId: input.physicalExamId ?? null,
      examTime: input.examTime ? new Date(input.examTime) : now,
      created: now,
    }).returning();
    return { exam: exam!, created: true };
  });
}


/** A code or service order naming one exam: the first init ties the exam to its study; another study is refused. */
export async function bindStudy(deps: Deps, exam: ExamRow, studyInstanceUid: string): Promise<ExamRow> {
  if (exam.storeUid === studyInstanceUid) return exam;
  if (exam.storeUid) throw new ApiError('StudyMismatch', undefined, { expected: exam.storeUid, received: studyInstanceUid });
  const [bound] = await deps.db.update(exams).set({ storeUid: studyInstanceUid })
    .where(and(eq(exams.id, exam.id), isNull(exams.storeUid))).returning();
  if (!bound) return bindStudy(deps, (await examInBucket(deps.db, exam.id, exam.bucketId)), studyInstanceUid);
  return bound;
}
