import { count, countDistinct, eq } from 'drizzle-orm';
import {
  DICOM_MAX_BYTES, UPLOAD_CREDENTIALS_TTL_SECONDS, UPLOAD_FILES_PATH,
  type UploadCompleted, type UploadCredentials, type UploadExam, type UploadSession,
} from '../../contract/uploads';
import { dicomInstances, exams } from '../db/schema';
import type { Deps } from '../deps';
import { issue, type UploadClaims } from '../auth/permits';
import type { ExamRow } from '../exams/create';

export function uploadCredentials(deps: Deps, exam: Pick<ExamRow, 'id' | 'bucketId'>, accountId: number | null, ttlSeconds = UPLOAD_CREDENTIALS_TTL_SECONDS): UploadCredentials {
  const { token, expires } = issue<UploadClaims>(deps, 'upload', { b: exam.bucketId, e: exam.id, a: accountId }, ttlSeconds);
  return { token, expires, bucketId: exam.bucketId, examId: exam.id, uploadPath: UPLOAD_FILES_PATH, maxFileBytes: DICOM_MAX_BYTES };
}

export async function uploadSession(deps: Deps, exam: ExamRow, created: boolean, accountId: number | null): Promise<UploadSession> {
  const stored = await deps.db.select({ uid: dicomInstances.sopInstanceUid }).from(dicomInstances).where(eq(dicomInstances.examId, exam.id));
  return {
    exam: toUploadExam(exam, stored.length),
    created,
    credentials: uploadCredentials(deps, exam, accountId),
    storedSopInstanceUids: stored.map((r) => r.uid),
  };
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
