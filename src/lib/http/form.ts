import { HttpError, errorFromBody } from './errors';
import { apiBase } from './rules';

export interface ProgressRequest {
  method: 'POST' | 'PUT';
  /** Relative to /api/v1/. */
  path: string;
  body: Blob | FormData;
  headers?: Record<string, string>;
  onProgress: (sent: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a body that carries its own permit (an upload token, a policy token, an upload code) and reports upload
 * progress. XMLHttpRequest rather than the app's fetch client: only it reports progress. No bearer (the permit is
 * the authority, core §7) and no timeout: a large file on a slow line takes what it takes; a dead connection ends
 * in an error event. Failures reject with the HttpError the client gives (catalogue code, status, details), so
 * screens translate them the same way.
 */
export function sendWithProgress<T>({ method, path, body, headers = {}, onProgress, signal }: ProgressRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, apiBase(import.meta.env.VITE_API_PREFIX ?? '') + path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
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
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** POSTs form data (a report attachment with its policy token, a file by upload code) with upload progress. */
export function postForm<T>(path: string, form: FormData, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<T> {
  return sendWithProgress<T>({ method: 'POST', path, body: form, onProgress, signal });
}
