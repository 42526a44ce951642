import type { StudyUploadInput, UploadCompleted, UploadCredentials, UploadSession } from '../../../contract/uploads';
import { http } from '@/lib/http';

/**
 * Where a wizard uploads to: an organisation of the signed-in account (exam_upload), an organisation's
 * public token (/upload?token, any signed-in account) or an upload code (/service-orders/upload?code, no
 * account). The three differ only in how a session opens and how credentials are renewed and used.
 */
export type UploadTarget =
  | { kind: 'bucket'; bucketId: number }
  | { kind: 'orgToken'; token: string }
  | { kind: 'code'; code: string };

export function openSession(target: UploadTarget, input: StudyUploadInput): Promise<UploadSession> {
  switch (target.kind) {
    case 'bucket': return http.post<UploadSession>(`buckets/${target.bucketId}/studies/upload`, input);
    case 'orgToken': return http.post<UploadSession>(`upload-tokens/${encodeURIComponent(target.token)}/studies`, input);
    case 'code': return http.post<UploadSession>(`upload-codes/${encodeURIComponent(target.code)}/studies`, input);
  }
}

/** Uploaders without exam_upload renew with their current, still valid credentials. */
export function refreshCredentials(target: UploadTarget, current: UploadCredentials): Promise<UploadCredentials> {
  return http.get<UploadCredentials>(`buckets/${current.bucketId}/studies/refresh-upload-credentials`, {
    query: { examId: current.examId, token: target.kind === 'bucket' ? undefined : current.token },
  });
}

/** The last step over every exam of this upload at once (the server checks them all before completing any). */
export async function completeUploads(target: UploadTarget, sessions: readonly UploadCredentials[]): Promise<UploadCompleted[]> {
  const items = sessions.map((c) => ({ examId: c.examId, token: target.kind === 'bucket' ? undefined : c.token }));
  const answer = await http.post<{ items: UploadCompleted[] } | undefined>('exams/post-upload', { items });
  // Core §5: upload init and complete fail with a generic error when no data comes back.
  if (!answer?.items) throw new Error('empty answer');
  return answer.items;
}

/** Credentials are renewed this long before they expire, so no file starts with a permit about to die. */
export const REFRESH_MARGIN_SECONDS = 60;

export function needsRefresh(credentials: UploadCredentials, nowSeconds: number): boolean {
  return credentials.expires - nowSeconds < REFRESH_MARGIN_SECONDS;
}
