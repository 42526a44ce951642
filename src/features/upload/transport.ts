import { UPLOAD_TOKEN_HEADER, type UploadFileResult } from '../../../contract/uploads';
import { HttpError, errorFromBody } from '@/lib/http/errors';
import { apiBase } from '@/lib/http/rules';

export interface SendFileOptions {
  /** Relative to /api/v1/ (the session's uploadPath). */
  path: string;
  token: string;
  file: Blob;
  onProgress: (sent: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends one file as the raw body of PUT uploads/files with the session's credentials. XMLHttpRequest
 * rather than the app's fetch client: only it reports upload progress. No timeout: a large file on a
 * slow line takes what it takes; a dead connection ends in an error event. Failures reject with the
 * same HttpError the client gives (catalogue code, status, details).
 */
export function sendFile({ path, token, file, onProgress, signal }: SendFileOptions): Promise<UploadFileResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', apiBase(import.meta.env.VITE_API_PREFIX ?? '') + path);
    xhr.setRequestHeader('content-type', 'application/dicom');
    xhr.setRequestHeader(UPLOAD_TOKEN_HEADER, token);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as UploadFileResult);
        } catch {
          reject(new HttpError('UnknownError', xhr.status, 'Unreadable answer'));
        }
      } else reject(errorFromBody(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new HttpError('NetworkError', 0, 'The connection failed'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** POSTs form data (an attachment by upload code) with upload progress; answers the parsed JSON. */
export function sendForm<T>(path: string, form: FormData, onProgress: (sent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiBase(import.meta.env.VITE_API_PREFIX ?? '') + path);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(new HttpError('UnknownError', xhr.status, 'Unreadable answer'));
        }
      } else reject(errorFromBody(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new HttpError('NetworkError', 0, 'The connection failed'));
    xhr.send(form);
  });
}
