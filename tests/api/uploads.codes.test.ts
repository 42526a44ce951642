import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../server/db/schema';
import { CT_SERIES, sample } from '../support/dicom';
import { fetchLink, form, jpeg, pdf, png } from '../support/files';
import { startServer, type TestServer } from '../support/server';
import { CT_SERIES_STUDY, putFile } from '../support/uploads';

let s: TestServer;
let tech: string;
let rad1: string;
let registrar: string;

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  [tech, rad1, registrar] = await Promise.all(['tech', 'rad1', 'registrar'].map((u) => s.login(u)));
});
afterAll(async () => { await s.close(); });

describe('service order upload codes (/service-orders/upload?code)', () => {
  it('lets someone without an account upload a study into the exam the code names', async () => {
    const [exam] = await s.db.db.select().from(exams).where(eq(exams.bucketId, s.ids.hospitalId)).orderBy(exams.id).limit(1);
    await s.db.db.update(exams).set({ storeUid: null, patientName: '王小明' }).where(eq(exams.id, exam!.id));
    expect((await s.request('POST', 'upload-codes', { token: rad1, body: { kind: 'serviceOrder', bucketId: s.ids.hospitalId, examId: exam!.id } })).status).toBe(403);
    const code = await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'serviceOrder', bucketId: s.ids.hospitalId, examId: exam!.id } });
    expect(code.status).toBe(201);
    expect(code.body.code).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(code.body.path).toBe(`/service-orders/upload?code=${code.body.code}`);
    expect(code.body.expires).toBe(Math.floor(s.clock.now().getTime() / 1000) + 72 * 3600);

    const info = await s.request('GET', `upload-codes/${code.body.code}`);
    expect(info.body).toMatchObject({ kind: 'serviceOrder', bucketName: '市第一人民医院放射科', exam: { patientName: '王*明', modality: exam!.modality } });

    const session = await s.request('POST', `upload-codes/${code.body.code}/studies`, { body: CT_SERIES_STUDY });
    expect(session.status).toBe(200);
    expect(session.body.exam).toMatchObject({ id: exam!.id, storeUid: CT_SERIES_STUDY.studyInstanceUid });
    for (const f of CT_SERIES) expect((await putFile(s, session.body.credentials.token, sample(f))).body.status).toBe('stored');
    const done = await s.request('POST', `exams/${exam!.id}/uploaded`, { body: { token: session.body.credentials.token } });
    expect(done.body).toMatchObject({ hasImage: true, instanceCount: 4 });

    // The exam is now tied to its study: another study through the same code is refused.
    const other = await s.request('POST', `upload-codes/${code.body.code}/studies`, { body: { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.999' } });
    expect([other.status, other.body.code]).toEqual([409, 'StudyMismatch']);
    // An attachment code's route does not take a service order code.
    expect((await s.request('POST', `upload-codes/${code.body.code}/attachments`, { body: form(pdf(), 'a.pdf', 'application/pdf') })).status).toBe(404);
  });

  it('makes or finds the exam by study when the code names no exam', async () => {
    const code = await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'serviceOrder', bucketId: s.ids.hospitalId, ttlHours: 1 } });
    const first = await s.request('POST', `upload-codes/${code.body.code}/studies`, { body: { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.4.77' } });
    expect(first.body.created).toBe(true);
    expect(first.body.credentials.examId).toBe(first.body.exam.id);
    s.clock.advance(3600_000);
    const expired = await s.request('POST', `upload-codes/${code.body.code}/studies`, { body: CT_SERIES_STUDY });
    expect([expired.status, expired.body.code, expired.body.details.reason]).toEqual([410, 'LinkExpired', 'expired']);
    expect((await s.request('GET', `upload-codes/${'A'.repeat(24)}`)).status).toBe(404);
    [tech, rad1, registrar] = await Promise.all(['tech', 'rad1', 'registrar'].map((u) => s.login(u)));
  });

  it('refuses a code for an organisation the account is not in, and odd input', async () => {
    expect((await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'serviceOrder', bucketId: s.ids.expertCentreId } })).status).toBe(404);
    expect((await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'attachment', bucketId: s.ids.hospitalId } })).status).toBe(400);
    expect((await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'serviceOrder', bucketId: s.ids.hospitalId, ttlHours: 10_000 } })).status).toBe(400);
  });
});

describe('avatars and application forms through their policies', () => {
  it('stores an avatar from a policy token and serves it by its unguessable name', async () => {
    const policy = await s.request('GET', 'policies/avatars', { token: rad1 });
    expect(policy.body).toMatchObject({ kind: 'avatars', maxBytes: 2 * 1024 * 1024, uploadPath: 'uploads/avatars' });
    const res = await s.request('POST', 'uploads/avatars', { body: form(png(16, 16), 'me.png', 'image/png', { token: policy.body.token }) });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(new RegExp(`^/api/v1/avatars/${s.ids.accounts.rad1}/[A-Za-z0-9_-]+\\.png$`));
    const served = await fetchLink(s, res.body.url);
    expect(served.bytes.equals(png(16, 16))).toBe(true);
    expect((await s.request('POST', 'uploads/avatars', { token: rad1, body: form(pdf(), 'me.png', 'image/png') })).body.code).toBe('UnsupportedFileType');
    expect((await s.request('POST', 'uploads/avatars', { token: rad1, body: form(png(64, 64, 3 * 1024 * 1024), 'big.png', 'image/png') })).body.code).toBe('UploadTooLarge');
    expect((await s.request('POST', 'uploads/avatars', { body: form(png(), 'me.png', 'image/png') })).status).toBe(401);
  });

  it('answers a name no stored file can have with 400, not a storage error', async () => {
    for (const name of ['-abcdefgh.png', '_abcdefgh.png', 'abc.png', 'abcdefgh.exe']) {
      const res = await s.request('GET', `avatars/${s.ids.accounts.rad1}/${name}`);
      expect([name, res.status, res.body.code]).toEqual([name, 400, 'ParamsError']);
    }
  });

  it('adds an application form to an exam and serves it to those who may see the exam', async () => {
    const [exam] = await s.db.db.select().from(exams).where(eq(exams.bucketId, s.ids.hospitalId)).orderBy(exams.id).offset(3).limit(1);
    const res = await s.request('POST', `exams/${exam!.id}/forms`, { token: tech, body: form(jpeg(), 'form.jpg', 'image/jpeg') });
    expect(res.status).toBe(201);
    expect(res.body.formImgUrls).toContain(res.body.url);
    expect((await s.request('POST', `exams/${exam!.id}/forms`, { token: rad1, body: form(jpeg(), 'form.jpg', 'image/jpeg') })).status).toBe(403);
    expect((await fetchLink(s, res.body.url)).status).toBe(401);
    const download = await s.request('GET', 'policies/download-token', { token: rad1 });
    const got = await fetchLink(s, `${res.body.url}?token=${download.body.token}`);
    expect([got.status, got.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const registrarToken = await s.request('GET', 'policies/download-token', { token: registrar });
    expect((await fetchLink(s, `${res.body.url}?token=${registrarToken.body.token}`)).status).toBe(403);
  });
});
