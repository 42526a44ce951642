import { eq } from 'drizzle-orm';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { DICOM_MAX_BYTES, UPLOAD_CREDENTIALS_TTL_SECONDS, type UploadSession } from '../../contract/uploads';
import { buckets, dicomInstances, exams } from '../../server/db/schema';
import { createAccount } from '../support/accounts';
import { CT_SERIES, ascii, asNewInstance, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { CT_SERIES_STUDY, initUpload, postFileForm, putFile } from '../support/uploads';

let s: TestServer;
let tech: string;
let rad1: string;
let registrar: string;
let expert: string;
let session: UploadSession;

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  [tech, rad1, registrar, expert] = await Promise.all(['tech', 'rad1', 'registrar', 'expert'].map((u) => s.login(u)));
  session = await initUpload(s, tech, s.ids.hospitalId);
});
afterAll(async () => { await s.close(); });

function studyUid(name: string): string {
  const read = readDicomHeader(sample(name));
  if (!read.ok) throw new Error(name);
  return read.header.studyInstanceUid;
}

const instancesOf = (examId: number) => s.db.db.select().from(dicomInstances).where(eq(dicomInstances.examId, examId));

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of s.storage.list('dicom/')) keys.push(o.key);
  return keys;
}

describe('organisations to upload into', () => {
  it('lists the organisations where the account has exam_upload', async () => {
    expect((await s.request('GET', 'buckets/uploadable', { token: tech })).body.map((b: { id: number }) => b.id)).toEqual([s.ids.hospitalId]);
    expect((await s.request('GET', 'buckets/uploadable', { token: rad1 })).body).toEqual([]);
    const admin = await s.login('admin');
    expect((await s.request('GET', 'buckets/uploadable', { token: admin })).body.map((b: { id: number }) => b.id).sort())
      .toEqual([s.ids.hospitalId, s.ids.expertCentreId].sort());
  });
});

describe('upload init', () => {
  it('creates the exam from the exam info and hands out credentials scoped to it', async () => {
    expect(session.created).toBe(true);
    expect(session.exam).toMatchObject({ bucketId: s.ids.hospitalId, storeUid: CT_SERIES_STUDY.studyInstanceUid, patientName: 'Doe Archibald', modality: 'CT', hasImage: false, instanceCount: 0 });
    expect(session.credentials).toMatchObject({ bucketId: s.ids.hospitalId, examId: session.exam.id, uploadPath: 'uploads/files', maxFileBytes: DICOM_MAX_BYTES });
    expect(session.credentials.expires).toBe(Math.floor(s.clock.now().getTime() / 1000) + UPLOAD_CREDENTIALS_TTL_SECONDS);
    const [exam] = await s.db.db.select().from(exams).where(eq(exams.id, session.exam.id));
    expect(exam!.examTime.toISOString()).toBe('1995-09-03T09:30:32.000Z');
  });

  it('finds the same study again instead of making a second exam', async () => {
    const again = await initUpload(s, tech, s.ids.hospitalId);
    expect(again.created).toBe(false);
    expect(again.exam.id).toBe(session.exam.id);
  });

  it('makes one exam when two inits of a new study race', async () => {
    const study = { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.4.5.6.7.8.1' };
    const [a, b] = await Promise.all([initUpload(s, tech, s.ids.hospitalId, study), initUpload(s, tech, s.ids.hospitalId, study)]);
    expect(a.exam.id).toBe(b.exam.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
  });

  it('refuses an organisation without exam_upload (403) and one the account is not in (404)', async () => {
    expect((await s.request('POST', `buckets/${s.ids.hospitalId}/studies/upload`, { token: rad1, body: CT_SERIES_STUDY })).status).toBe(403);
    expect((await s.request('POST', `buckets/${s.ids.expertCentreId}/studies/upload`, { token: tech, body: CT_SERIES_STUDY })).status).toBe(404);
  });

  it('refuses bad exam info with ParamsError naming the fields', async () => {
    const res = await s.request('POST', `buckets/${s.ids.hospitalId}/studies/upload`, {
      token: tech, body: { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.abc', patientName: '', patientSource: 'I' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    expect(res.body.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['bedNum', 'inpatientId', 'patientName', 'studyInstanceUid']);
  });
});

describe('uploading files', () => {
  it('stores each file of the series and indexes its header', async () => {
    for (const f of CT_SERIES) {
      const res = await putFile(s, session.credentials.token, sample(f));
      expect(res.status, f).toBe(200);
      expect(res.body.status).toBe('stored');
    }
    const rows = await instancesOf(session.exam.id);
    expect(rows.map((r) => r.instanceNumber).sort((a, b) => a! - b!)).toEqual([18, 180, 181, 182]);
    expect(rows[0]).toMatchObject({ studyInstanceUid: CT_SERIES_STUDY.studyInstanceUid, modality: 'CT', rows: 16, columns: 16, frames: 1, transferSyntaxUid: '1.2.840.10008.1.2.1', bucketId: s.ids.hospitalId });
  });

  it('answers duplicate for a file sent again and keeps one copy', async () => {
    const before = (await storedKeys()).length;
    const res = await putFile(s, session.credentials.token, sample(CT_SERIES[0]!));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('duplicate');
    expect((await instancesOf(session.exam.id))).toHaveLength(4);
    expect((await storedKeys()).length).toBe(before);
  });

  it('takes the file as form data with the credentials in the form', async () => {
    const res = await postFileForm(s, session.credentials.token, asNewInstance(sample(CT_SERIES[1]!), 1001));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('stored');
    expect(await instancesOf(session.exam.id)).toHaveLength(5);
  });

  it('refuses broken files with a reason while the good ones of the same batch are stored', async () => {
    const good = [1, 2, 3].map((n) => asNewInstance(sample(CT_SERIES[2]!), 2000 + n));
    const ct = sample(CT_SERIES[3]!);
    const batch: [string, Uint8Array][] = [
      ['good', good[0]!], ['empty', new Uint8Array()], ['good', good[1]!], ['text', ascii('not an image\n'.repeat(30))],
      ['truncated', asNewInstance(ct, 2100).subarray(0, ct.length - 100)], ['good', good[2]!],
    ];
    const results = await Promise.all(batch.map(([, bytes]) => putFile(s, session.credentials.token, bytes)));
    expect(results.map((r) => [r.status, r.body.code ?? r.body.status, r.body.details?.reason ?? null])).toEqual([
      [200, 'stored', null], [400, 'NotDicom', 'empty'], [200, 'stored', null], [400, 'NotDicom', 'notDicom'],
      [400, 'InvalidDicom', 'truncated'], [200, 'stored', null],
    ]);
    expect(results[4]!.body.message).toMatch(/ends before/);
    expect(await instancesOf(session.exam.id)).toHaveLength(8);
    // Refused files leave nothing behind in storage.
    const rows = await s.db.db.select({ key: dicomInstances.storageKey }).from(dicomInstances);
    expect((await storedKeys()).sort()).toEqual(rows.map((r) => r.key).sort());
  });

  it('refuses a file of another study than the exam', async () => {
    const res = await putFile(s, session.credentials.token, sample('CT_small.dcm'));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('StudyMismatch');
    expect(res.body.details).toEqual({ expected: CT_SERIES_STUDY.studyInstanceUid, received: studyUid('CT_small.dcm') });
  });

  it('refuses a file announced over the size limit before reading it', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${s.url}/api/v1/uploads/files`, {
        method: 'PUT', headers: { 'content-type': 'application/dicom', 'content-length': String(DICOM_MAX_BYTES + 1), 'x-upload-token': session.credentials.token },
      }, (res) => { let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode ?? 0, body })); });
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
      // The server answers without waiting for the gigabyte; end the request so the socket closes.
      setTimeout(() => req.destroy(), 2000);
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'UploadTooLarge', details: { maxBytes: DICOM_MAX_BYTES } });
  });

  /** A PUT by hand: `declared` bytes announced (or chunked when null), `parts` written, then ended or cut off. */
  function rawPut(token: string, parts: Uint8Array[], declared: number | null, cut: boolean): Promise<{ status: number; body: string } | 'cut'> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${s.url}/api/v1/uploads/files`, {
        method: 'PUT',
        headers: { 'content-type': 'application/dicom', 'x-upload-token': token, ...(declared === null ? {} : { 'content-length': String(declared) }) },
      }, (res) => { let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode ?? 0, body })); });
      req.on('error', (err) => (cut ? resolve('cut') : reject(err)));
      for (const part of parts) req.write(part);
      if (cut) setTimeout(() => { req.destroy(); resolve('cut'); }, 300);
      else req.end();
    });
  }

  // A study of its own, so the other tests' counts of the shared session's exam stay as they are.
  const BY_HAND_UID = CT_SERIES_STUDY.studyInstanceUid.replace(/\d$/, '7');
  const byHand = () => initUpload(s, tech, s.ids.hospitalId, { ...CT_SERIES_STUDY, studyInstanceUid: BY_HAND_UID });

  it('stores nothing of a file whose connection breaks before its declared length arrived, and goes on', async () => {
    const own = await byHand();
    const file = asNewInstance(sample(CT_SERIES[0]!), 3001, { study: BY_HAND_UID });
    const keysBefore = await storedKeys();
    expect(await rawPut(own.credentials.token, [file.subarray(0, file.length >> 1)], file.length, true)).toBe('cut');
    // The server has let go of the half (no file, no row) and takes the whole file after it.
    await new Promise((r) => setTimeout(r, 200));
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await instancesOf(own.exam.id)).toHaveLength(0);
    const whole = await rawPut(own.credentials.token, [file], file.length, false);
    expect(whole).toMatchObject({ status: 200 });
    expect(JSON.parse((whole as { body: string }).body)).toMatchObject({ status: 'stored', instance: { size: file.length } });
  });

  it('stores a file sent without a length (chunked) the same way, streamed', async () => {
    const own = await byHand();
    const file = asNewInstance(sample(CT_SERIES[0]!), 3002, { study: BY_HAND_UID });
    const res = await rawPut(own.credentials.token, [file.subarray(0, 1000), file.subarray(1000)], null, false);
    expect(res).toMatchObject({ status: 200 });
    const body = JSON.parse((res as { body: string }).body) as { status: string; instance: { id: number; size: number } };
    expect(body).toMatchObject({ status: 'stored', instance: { size: file.length } });
    const [row] = await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.id, body.instance.id));
    const stored = await s.storage.get(row!.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    expect(Buffer.compare(Buffer.concat(chunks), Buffer.from(file))).toBe(0);
  });

  it("keeps each file's own bytes when files of one size come together and one after another (their buffers are reused)", async () => {
    const own = await byHand();
    const files = Array.from({ length: 12 }, (_, i) => asNewInstance(sample(CT_SERIES[i % CT_SERIES.length]!), 3100 + i, { study: BY_HAND_UID }));
    const sendAll = async (batch: Uint8Array[]) => Promise.all(batch.map((f) => putFile(s, own.credentials.token, f)));
    const answers = [...await sendAll(files.slice(0, 8))];
    for (const f of files.slice(8)) answers.push(await putFile(s, own.credentials.token, f));
    for (const [i, res] of answers.entries()) {
      expect(res.status, `file ${i}`).toBe(200);
      const [row] = await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.id, res.body.instance.id));
      const chunks: Buffer[] = [];
      for await (const chunk of await s.storage.get(row!.storageKey)) chunks.push(chunk as Buffer);
      expect(Buffer.compare(Buffer.concat(chunks), Buffer.from(files[i]!)), `file ${i}`).toBe(0);
    }
  });

  it("answers a dead permit while its file is still arriving, stores nothing, and takes the next file", async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_upload'] }] });
    const bearer = await s.login(member.username);
    const mine = await initUpload(s, bearer, s.ids.hospitalId, { ...CT_SERIES_STUDY, studyInstanceUid: BY_HAND_UID.replace(/\d$/, '3') });
    expect((await s.request('POST', 'accounts/logout', { token: bearer })).status).toBe(204);
    const file = asNewInstance(sample(CT_SERIES[0]!), 3201, { study: BY_HAND_UID.replace(/\d$/, '3') });
    const keysBefore = await storedKeys();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${s.url}/api/v1/uploads/files`, {
        method: 'PUT', headers: { 'content-type': 'application/dicom', 'content-length': String(file.length), 'x-upload-token': mine.credentials.token },
      }, (res) => { let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode ?? 0, body })); });
      req.on('error', reject);
      req.write(file.subarray(0, 100));
      setTimeout(() => req.end(file.subarray(100)), 300);
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'FileTokenExpired' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await instancesOf(mine.exam.id)).toHaveLength(0);
    const next = await putFile(s, (await byHand()).credentials.token, asNewInstance(sample(CT_SERIES[0]!), 3202, { study: BY_HAND_UID }));
    expect([next.status, next.body.status]).toEqual([200, 'stored']);
  });

  it('refuses a body that is not sent as a file', async () => {
    const res = await s.request('PUT', 'uploads/files', { body: { some: 'json' }, headers: { 'x-upload-token': session.credentials.token } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
  });

  it('refuses missing, forged and foreign credentials', async () => {
    expect((await putFile(s, '', sample(CT_SERIES[0]!))).body.code).toBe('FileTokenInvalid');
    // The signature's first character changed (all six of its bits count; the last character's low bits do not).
    const forged = session.credentials.token.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect((await putFile(s, forged, sample(CT_SERIES[0]!))).body.code).toBe('FileTokenInvalid');
    // A session bearer is not upload credentials.
    expect((await putFile(s, tech, sample(CT_SERIES[0]!))).body.code).toBe('FileTokenInvalid');
    // Credentials of one exam renew only for that exam and organisation.
    const other = await s.request('GET', `buckets/${s.ids.expertCentreId}/studies/refresh-upload-credentials?examId=${session.exam.id}&token=${session.credentials.token}`);
    expect([other.status, other.body.code]).toEqual([403, 'FileTokenInvalid']);
  });
});

describe('credentials expire', () => {
  it('refuses expired credentials with FileTokenExpired, and renewed ones work', async () => {
    const fresh = await initUpload(s, tech, s.ids.hospitalId);
    s.clock.advance((UPLOAD_CREDENTIALS_TTL_SECONDS - 60) * 1000);
    // Still valid: renew with the credentials alone (no bearer), for 30 minutes.
    const renewed = await s.request('GET', `buckets/${s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${fresh.exam.id}&delta=1800&token=${fresh.credentials.token}`);
    expect(renewed.status).toBe(200);
    expect(renewed.body.expires).toBe(Math.floor(s.clock.now().getTime() / 1000) + 1800);
    s.clock.advance(120_000);
    const expired = await putFile(s, fresh.credentials.token, asNewInstance(sample(CT_SERIES[0]!), 3001));
    expect([expired.status, expired.body.code]).toEqual([403, 'FileTokenExpired']);
    const stale = await s.request('GET', `buckets/${s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${fresh.exam.id}&token=${fresh.credentials.token}`);
    expect(stale.body.code).toBe('FileTokenExpired');
    expect((await putFile(s, renewed.body.token, asNewInstance(sample(CT_SERIES[0]!), 3001))).body.status).toBe('stored');
    // A member renews with the bearer.
    const byBearer = await s.request('GET', `buckets/${s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${fresh.exam.id}&delta=300`, { token: tech });
    expect(byBearer.status).toBe(200);
    expect((await s.request('GET', `buckets/${s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${fresh.exam.id}`, { token: rad1 })).status).toBe(403);
    expect((await s.request('GET', `buckets/${s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${fresh.exam.id}&delta=5`, { token: tech })).status).toBe(400);
  });
});

describe('completing an upload', () => {
  it('sets hasImage and the upload time', async () => {
    const res = await s.request('POST', `exams/${session.exam.id}/uploaded`, { token: tech, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ examId: session.exam.id, hasImage: true, instanceCount: 9, seriesCount: 1, uploadTime: s.clock.now().toISOString() });
    const [exam] = await s.db.db.select().from(exams).where(eq(exams.id, session.exam.id));
    expect(exam).toMatchObject({ hasImage: true, uploadTime: s.clock.now() });
  });

  it('completes with the session credentials alone, and refuses a member without exam_upload', async () => {
    const fresh = await initUpload(s, tech, s.ids.hospitalId, { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.4.5.6.7.8.2' });
    const res = await s.request('POST', `exams/${fresh.exam.id}/uploaded`, { body: { token: fresh.credentials.token } });
    expect(res.body).toMatchObject({ hasImage: false, instanceCount: 0 });
    expect((await s.request('POST', `exams/${fresh.exam.id}/uploaded`, { token: rad1, body: {} })).status).toBe(403);
    expect((await s.request('POST', `exams/${session.exam.id}/uploaded`, { body: { token: fresh.credentials.token } })).body.code).toBe('FileTokenInvalid');
  });

  it('completes several exams at once, or none when one is refused', async () => {
    const other = await initUpload(s, tech, s.ids.hospitalId, { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.4.5.6.7.8.3' });
    const ok = await s.request('POST', 'exams/post-upload', { token: tech, body: { items: [{ examId: session.exam.id }, { examId: other.exam.id }] } });
    expect(ok.body.items.map((i: { examId: number }) => i.examId)).toEqual([session.exam.id, other.exam.id]);
    const before = (await s.db.db.select().from(exams).where(eq(exams.id, other.exam.id)))[0]!.uploadTime;
    s.clock.advance(1000);
    const refused = await s.request('POST', 'exams/post-upload', { token: rad1, body: { items: [{ examId: other.exam.id, token: other.credentials.token }, { examId: session.exam.id }] } });
    expect(refused.status).toBe(403);
    expect((await s.db.db.select().from(exams).where(eq(exams.id, other.exam.id)))[0]!.uploadTime).toEqual(before);
  });
});

describe('upload by organisation token (/upload?token)', () => {
  it('lets a signed-in account from elsewhere upload into the organisation of the token', async () => {
    const [bucket] = await s.db.db.select().from(buckets).where(eq(buckets.id, s.ids.hospitalId));
    const info = await s.request('GET', `upload-tokens/${bucket!.publicUploadToken}`, { token: expert });
    expect(info.body).toEqual({ bucketId: s.ids.hospitalId, bucketName: bucket!.name });
    const study = { ...CT_SERIES_STUDY, studyInstanceUid: studyUid('MR_small.dcm'), modality: 'MR' };
    const init = await s.request('POST', `upload-tokens/${bucket!.publicUploadToken}/studies`, { token: expert, body: study });
    expect(init.status).toBe(200);
    expect((await putFile(s, init.body.credentials.token, sample('MR_small.dcm'))).body.status).toBe('stored');
    expect((await s.request('POST', `upload-tokens/${'x'.repeat(32)}/studies`, { token: expert, body: study })).status).toBe(404);
    expect((await s.request('POST', `upload-tokens/${bucket!.publicUploadToken}/studies`, { body: study })).status).toBe(401);
  });
});

describe('reading instances back', () => {
  it('lists the series with their instances in order and streams each file', async () => {
    const res = await s.request('GET', `exams/${session.exam.id}/series`, { token: rad1 });
    expect(res.status).toBe(200);
    expect(res.body.series).toHaveLength(1);
    const numbers = res.body.series[0].instances.map((i: { instanceNumber: number }) => i.instanceNumber);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const first = res.body.series[0].instances.find((i: { instanceNumber: number }) => i.instanceNumber === 18);
    const file = await fetch(`${s.url}/api/v1/${first.path}`, { headers: { authorization: `Bearer ${rad1}` } });
    expect(file.headers.get('content-type')).toBe('application/dicom');
    expect(Buffer.compare(Buffer.from(await file.arrayBuffer()), sample(CT_SERIES[0]!))).toBe(0);
  });

  it('streams with a viewer token of that exam or a download permit, not without', async () => {
    const [instance] = await instancesOf(session.exam.id);
    const path = `instances/${instance!.id}/file`;
    expect((await s.request('GET', path)).status).toBe(401);
    const viewer = await s.request('POST', `viewers/${session.exam.id}/path`, { token: rad1 });
    expect(viewer.body.path).toBe(`/viewer/${session.exam.id}?token=${viewer.body.token}`);
    expect((await s.request('GET', `${path}?token=${viewer.body.token}`)).status).toBe(200);
    expect((await s.request('GET', `exams/${session.exam.id}/series?token=${viewer.body.token}`)).body.instanceCount).toBe(9);
    const download = await s.request('GET', 'policies/download-token', { token: rad1 });
    expect((await s.request('GET', `${path}?token=${download.body.token}`)).status).toBe(200);
    // A viewer token of another exam opens nothing here.
    const other = (await s.db.db.select().from(exams).where(eq(exams.bucketId, s.ids.hospitalId)).limit(1))[0]!;
    const otherViewer = await s.request('POST', `viewers/${other.id}/path`, { token: rad1 });
    expect((await s.request('GET', `${path}?token=${otherViewer.body.token}`)).body.code).toBe('FileTokenInvalid');
    s.clock.advance(3 * 3600_000);
    expect((await s.request('GET', `${path}?token=${viewer.body.token}`)).body.code).toBe('FileTokenExpired');
  });

  it('refuses a member who may not see images, and an account from elsewhere', async () => {
    [registrar, expert] = await Promise.all([s.login('registrar'), s.login('expert')]);
    expect((await s.request('GET', `exams/${session.exam.id}/series`, { token: registrar })).status).toBe(403);
    expect((await s.request('GET', `exams/${session.exam.id}/series`, { token: expert })).status).toBe(404);
    expect((await s.request('POST', `viewers/${session.exam.id}/path`, { token: expert })).status).toBe(404);
  });
});
