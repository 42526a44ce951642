import * as t from '../../server/db/schema';
import { CT_SERIES_STUDY } from '../support/uploads';
import { asNewInstance, CT_SERIES, sample } from '../support/dicom';
import { call, type Cluster } from './harness';

/**
 * The work a department does, as API calls against any base URL (the balancer's or one process's): the pieces of the
 * cluster tests and of bench/cluster.ts.
 */
let serial = 0;

export async function newExam(c: Cluster, bucketId = c.ids.hospitalId): Promise<number> {
  serial += 1;
  const now = new Date();
  const [row] = await c.database.db.insert(t.exams).values({
    bucketId, patientName: '集群患者', patientId: `C${Date.now().toString(36)}${serial}`, modality: 'CT', bodyPart: '胸部', hasImage: false,
    examTime: now, created: now,
  }).returning({ id: t.exams.id });
  return row!.id;
}

export async function newQueue(base: string, token: string, bucketId: number): Promise<number> {
  serial += 1;
  const prefix = String.fromCharCode(65 + (serial % 26));
  const res = await call(base, 'POST', `buckets/${bucketId}/queue-types`, { token, body: { prefix, name: `队列${serial}`, modality: 'CT', room: `${serial} 室` } });
  if (res.status !== 200) throw new Error(`queue type: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

export async function checkIn(c: Cluster, base: string, token: string, queueTypeId: number): Promise<void> {
  const examId = await newExam(c);
  const res = await call(base, 'POST', 'queue-exams/check-in', { token, body: { examId, queueTypeId } });
  if (res.status !== 200) throw new Error(`check-in: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function screenToken(base: string, token: string, bucketId: number): Promise<string> {
  const res = await call(base, 'POST', `buckets/${bucketId}/screen-tokens`, { token, body: { name: '候诊大厅' } });
  if (res.status !== 200) throw new Error(`screen token: ${res.status}`);
  return res.body.token as string;
}

export const callNext = (base: string, token: string, queueTypeId: number) => call(base, 'POST', `queue-types/${queueTypeId}/call-next`, { token, body: {} });

/** A study upload: the session opened through `init`, one file stored through `put` (both base URLs). */
export async function uploadOne(init: string, put: string, token: string, bucketId: number, file = CT_SERIES[0]!): Promise<{ examId: number; status: number; bytes?: Uint8Array }> {
  serial += 1;
  // A study of its own each time: the file's UIDs are rewritten to match the session's.
  const studyInstanceUid = `1.2.826.0.1.3680043.10.543.${process.pid}.${Date.now() % 1e9}.${serial}`;
  const study = { ...CT_SERIES_STUDY, studyInstanceUid, patientId: `U${serial}` };
  const session = await call(init, 'POST', `buckets/${bucketId}/studies/upload`, { token, body: study });
  if (session.status !== 200) return { examId: 0, status: session.status };
  const bytes = asNewInstance(sample(file), serial, { study: studyInstanceUid });
  const res = await call(put, 'PUT', 'uploads/files', { raw: bytes, headers: { 'content-type': 'application/dicom', 'x-upload-token': session.body.credentials.token } });
  return { examId: session.body.exam.id as number, status: res.status === 200 && res.body.status === 'stored' ? 200 : res.status, bytes };
}

/** A report written and saved (the draft's text), answered with its id and version. */
export async function newReport(c: Cluster, base: string, token: string): Promise<{ id: number; version: number }> {
  const examId = await newExam(c);
  const res = await call(base, 'POST', `exams/${examId}/reports`, { token });
  if (res.status !== 200 && res.status !== 201) throw new Error(`report: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, version: res.body.version };
}

export const saveReport = (base: string, token: string, r: { id: number; version: number }, finding: string) =>
  call(base, 'POST', `reports/${r.id}/save`, { token, body: { version: r.version, finding: `<p>${finding}</p>`, diagnosis: '<p>未见异常。</p>' } });

/** An expert report request paid by credit (the charge token made once): the order id and the answer's status. */
export async function applyAndPay(c: Cluster, base: string, token: string, chargeToken: string): Promise<{ orderId: number; status: number }> {
  const examId = await newExam(c);
  const applied = await call(base, 'POST', 'report-requests/apply', { token, body: { examId, type: 'expert', bucketIds: [c.ids.expertCentreId], agreeTerms: true } });
  if (applied.status !== 201) return { orderId: 0, status: applied.status };
  const paid = await call(base, 'POST', 'credits/charge', { token, body: { orderId: applied.body.id }, headers: { 'charge-authorization': `Bearer ${chargeToken}` } });
  return { orderId: applied.body.id as number, status: paid.status };
}
