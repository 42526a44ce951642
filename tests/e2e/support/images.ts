import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDicomHeader, studyInfoFromHeaders, type DicomHeader } from '../../../contract/dicom';
import type { UploadCompleted, UploadSession, UploadableBucket } from '../../../contract/uploads';

/** The shared samples, read in place (never copied into the repository). */
export const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/dicom-samples');
export const CT_SERIES_FILES = ['17106.dcm', '17136.dcm', '17166.dcm', '17196.dcm'].map((f) => path.join(SAMPLES, 'ct-series', f));

/** Signs in through the API and answers the access token. */
export async function apiToken(baseURL: string, username: string, password = 'Demo1234'): Promise<string> {
  const res = await fetch(new URL('/api/v1/accounts/login', baseURL), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function api<T>(baseURL: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(`/api/v1/${url}`, baseURL), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Uploads files of one study through the API as the wizard does (init, one PUT per file, complete):
 * for tests and benchmarks that need an exam with images without going through the wizard.
 */
export async function uploadStudy(baseURL: string, token: string, files: string[]): Promise<{ examId: number; completed: UploadCompleted }> {
  const bytes = files.map((f) => new Uint8Array(readFileSync(f)));
  const headers = bytes.map((b) => {
    const read = readDicomHeader(b);
    if (!read.ok) throw new Error(`not DICOM: ${read.message}`);
    return read.header;
  }) as DicomHeader[];
  const info = studyInfoFromHeaders(headers);
  const [bucket] = await api<UploadableBucket[]>(baseURL, token, 'GET', 'buckets/uploadable');
  const session = await api<UploadSession>(baseURL, token, 'POST', `buckets/${bucket!.id}/studies/upload`, {
    ...info, patientName: info.patientName ?? 'Anonymous', patientId: info.patientId ?? 'UNKNOWN', modality: info.modality ?? 'OT',
  });
  for (const b of bytes) {
    const res = await fetch(new URL(`/api/v1/${session.credentials.uploadPath}`, baseURL), {
      method: 'PUT', headers: { 'content-type': 'application/dicom', 'x-upload-token': session.credentials.token }, body: b,
    });
    if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
  }
  const completed = await api<UploadCompleted>(baseURL, token, 'POST', `exams/${session.exam.id}/uploaded`, {});
  return { examId: session.exam.id, completed };
}

/** How many different colours the viewer's canvas shows (read back through a 2D canvas). */
export async function coloursOnCanvas(page: Page): Promise<number> {
  return page.getByTestId('viewer-viewport').evaluate((root) => {
    const source = root.querySelector('canvas');
    if (!source) return 0;
    const copy = document.createElement('canvas');
    copy.width = source.width;
    copy.height = source.height;
    const context = copy.getContext('2d')!;
    context.drawImage(source, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    const seen = new Set<number>();
    for (let i = 0; i < data.length && seen.size < 64; i += 4 * 7) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return seen.size;
  });
}
