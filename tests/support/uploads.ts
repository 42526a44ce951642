import type { StudyUploadInput, UploadSession } from '../../contract/uploads';
import type { TestServer } from './server';

/** Exam info of the ct-series study, as the wizard would send it after reading the files. */
export const CT_SERIES_STUDY: StudyUploadInput = {
  studyInstanceUid: '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.1',
  patientName: 'Doe Archibald', patientId: '77654033', patientGender: 'U', modality: 'CT', bodyPart: 'HEAD',
  studyDescription: 'CT, HEAD/BRAIN WO CONTRAST', accessionNumber: '2', examTime: '1995-09-03T17:30:32+08:00',
};

export async function initUpload(s: TestServer, token: string, bucketId: number, study: StudyUploadInput = CT_SERIES_STUDY): Promise<UploadSession> {
  const res = await s.request('POST', `buckets/${bucketId}/studies/upload`, { token, body: study });
  if (res.status !== 200) throw new Error(`init failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as UploadSession;
}

/** PUT one file with the session's credentials, as the wizard does (no bearer). */
export function putFile(s: TestServer, credentials: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return s.request('PUT', 'uploads/files', { body: bytes, headers: { 'content-type': 'application/dicom', 'x-upload-token': credentials, ...headers } });
}

/** The same as form data with the token field first (the client then sends no bearer). */
export function postFileForm(s: TestServer, credentials: string, bytes: Uint8Array, name = 'image.dcm') {
  const form = new FormData();
  form.append('token', credentials);
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/dicom' }), name);
  return s.request('POST', 'uploads/files', { body: form });
}
