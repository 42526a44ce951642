import { and, count, countDistinct, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  DICOM_MAX_BYTES, UPLOAD_CREDENTIALS_TTL_SECONDS, UPLOAD_FILES_PATH,
  type UploadCompleted, type UploadCredentials, type UploadExam, type UploadSession, type studyUploadInput,
} from '../../contract/uploads';
import type { Db } from '../db/client';
import { dicomInstances, exams, uploadOrigins } from '../db/schema';
import type { Deps } from '../deps';
import { issue, type UploadClaims } from '../auth/permits';
import { findOrCreateExam, type ExamRow } from '../exams/create';
import { ApiError } from '../http/errors';
import { maskId, maskName } from './mask';

/** What an upload permit is issued through (UploadClaims.by) and the end of that cause (unix seconds), which it never passes. */
export interface UploadGrant {
  by: UploadClaims['by'];
  until: number | null;
}

export function uploadCredentials(deps: Deps, exam: Pick<ExamRow, 'id' | 'bucketId'>, grant: UploadGrant, ttlSeconds = UPLOAD_CREDENTIALS_TTL_SECONDS): UploadCredentials {
  const { token, expires } = issue<UploadClaims>(deps, 'upload', { b: exam.bucketId, e: exam.id, by: grant.by }, ttlSeconds, grant.until);
  return { token, expires, bucketId: exam.bucketId, examId: exam.id, uploadPath: UPLOAD_FILES_PATH, maxFileBytes: DICOM_MAX_BYTES };
}

/**
 * The init answer. `outsider`: the uploader holds only an upload code or an organisation token, so the exam's
 * patient is shown masked (as GET upload-codes/{code} does), never in clear.
 */
export async function uploadSession(deps: Deps, exam: ExamRow, created: boolean, grant: UploadGrant, opts: { outsider: boolean }): Promise<UploadSession> {
  const stored = await deps.db.select({ uid: dicomInstances.sopInstanceUid }).from(dicomInstances).where(eq(dicomInstances.examId, exam.id));
  const shown = toUploadExam(exam, stored.length);
  return {
    exam: opts.outsider ? { ...shown, patientName: maskName(shown.patientName), patientId: maskId(shown.patientId) } : shown,
    created,
    credentials: uploadCredentials(deps, exam, grant),
    storedSopInstanceUids: stored.map((r) => r.uid),
  };
}

/** Who made an exam from outside: an upload code, or an account through the organisation's token. */
export type UploadOrigin = { code: string } | { accountId: number };

/**
 * An outsider's init (an upload code naming no exam, an organisation token without exam_upload): the study is
 * found again only among the exams this same code (or this same account by token) made, so an interrupted
 * upload resumes; a new study makes an exam remembered as theirs. A study that is already in the organisation
 * through anyone else is refused with 403 Forbidden, saying nothing about it: an outsider never reads or adds
 * to an exam that was not made or named for them.
 */
export async function openOutsiderStudy(deps: Deps, bucketId: number, input: z.output<typeof studyUploadInput>, origin: UploadOrigin): Promise<{ exam: ExamRow; created: boolean }> {
  return deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const { exam, created } = await findOrCreateExam({ ...deps, db }, bucketId, input);
    if (created) {
      await db.insert(uploadOrigins).values({ examId: exam.id, ...('code' in origin ? { code: origin.code } : { accountId: origin.accountId }) });
      return { exam, created };
    }
    const [own] = await db.select({ examId: uploadOrigins.examId }).from(uploadOrigins).where(and(
      eq(uploadOrigins.examId, exam.id),
      'code' in origin ? eq(uploadOrigins.code, origin.code) : eq(uploadOrigins.accountId, origin.accountId),
    ));
    if (!own) throw new ApiError('Forbidden', 'This study cannot be uploaded here; ask the organisation for an upload code for its exam');
    return { exam, created };
  });
}

export function toUploadExam(exam: ExamRow, instanceCount: number): UploadExam {
  return {
    id: exam.id, bucketId: exam.bucketId, storeUid: exam.storeUid, patientName: exam.patientName, patientId: exam.patientId,
    modality: exam.modality, hasImage: exam.hasImage, uploadTime: exam.uploadTime?.toISOString() ?? null, instanceCount,
  };
}

/** Upload complete: the exam has images when any instance is stored; the upload time is now. */
export async function completeUpload(deps: Deps, exam: ExamRow): Promise<UploadCompleted> {
  const [stats] = await deps.db.select({ n: count(), series: countDistinct(dicomInstances.seriesInstanceUid) })
    .from(dicomInstances).where(eq(dicomInstances.examId, exam.id));
  const hasImage = (stats?.n ?? 0) > 0;
  const [updated] = await deps.db.update(exams).set({ hasImage, uploadTime: deps.clock.now() }).where(eq(exams.id, exam.id)).returning();
  return {
    examId: exam.id, hasImage, uploadTime: updated?.uploadTime?.toISOString() ?? null,
    instanceCount: stats?.n ?? 0, seriesCount: stats?.series ?? 0,
  };
}
