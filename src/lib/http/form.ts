import { HttpError, errorFromBody } from './errors';
import { apiBase } from './rules';

/**
 * POSTs form data that carries its own permit (a policy token, an upload code) and reports upload progress.
 * XMLHttpRequest rather than the app's fetch client: only it reports progress. No bearer (the form's permit is
 * the authority, core §7) and no timeout: a large file on a slow line takes what it takes. Failures reject with
 * the HttpError the client gives, so screens translate them the same way.
 */
export function postForm<T>(path: string, form: FormData, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<T> {
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
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
