import { UPLOAD_TOKEN_HEADER, type UploadFileResult } from '../../../contract/uploads';
import { sendWithProgress } from '@/lib/http/form';

export interface SendFileOptions {
  /** Relative to /api/v1/ (the session's uploadPath). */
  path: string;
  token: string;
  file: Blob;
  onProgress: (sent: number) => void;
  signal?: AbortSignal;
}

/** Sends one file as the raw body of PUT uploads/files with the session's credentials, reporting progress. */
export function sendFile({ path, token, file, onProgress, signal }: SendFileOptions): Promise<UploadFileResult> {
  return sendWithProgress<UploadFileResult>({
    method: 'PUT', path, body: file, headers: { 'content-type': 'application/dicom', [UPLOAD_TOKEN_HEADER]: token }, onProgress, signal,
  });
}
