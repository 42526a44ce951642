import type { PresignedUrl, ReportAttachment } from '../../../../contract/images';
import type { UploadCodeCreated, UploadPolicy } from '../../../../contract/uploads';
import { http, type RequestOptions } from '@/lib/http';
import { postForm } from '@/lib/http/form';

/** A report's attachments (docs/api.md "Key images and attachments", "Upload codes"). */
export const attachmentApi = {
  list: (reportId: number, options?: RequestOptions) => http.get<ReportAttachment[]>(`reports/${reportId}/attachments`, options),
  presign: (reportId: number, attachmentId: number) => http.get<PresignedUrl>(`reports/${reportId}/attachments/${attachmentId}/presign-url`),
  remove: (reportId: number, attachmentId: number) => http.delete(`reports/${reportId}/attachments/${attachmentId}`),
  policy: (options?: RequestOptions) => http.get<UploadPolicy>('policies/attachments', options),
  createCode: (bucketId: number, reportId: number, ttlHours: number) =>
    http.post<UploadCodeCreated>('upload-codes', { kind: 'attachment', bucketId, reportId, ttlHours }),
};

/**
 * Sends one file to the policy's upload path with its permit (the `token` field goes first: the server reads the
 * form in order). Through XMLHttpRequest for the progress a 20 MB scan deserves.
 */
export function sendAttachment(policy: UploadPolicy, reportId: number, file: File, onProgress: (sent: number) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('token', policy.token);
  form.append('file', file, file.name);
  return postForm<ReportAttachment>(policy.uploadPath.replace('{id}', String(reportId)), form, onProgress, signal);
}

/** The address to hand out: this site's origin and the public page's path (/attachments/upload?code=…). */
export const codeUrl = (made: Pick<UploadCodeCreated, 'path'>) => `${window.location.origin}${made.path}`;
