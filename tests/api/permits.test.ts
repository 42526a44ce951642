import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyUploadInput, UploadCredentials } from '../../contract/uploads';
import { buckets, dicomInstances, exams, reportOrderTargets } from '../../server/db/schema';
import { createAccount } from '../support/accounts';
import { CT_SERIES, asNewInstance, sample } from '../support/dicom';
import { fetchLink, form, png } from '../support/files';
import { startServer, type TestServer } from '../support/server';
import { CT_SERIES_STUDY, initUpload, putFile } from '../support/uploads';

/**
 * Permits die with their cause (docs/api.md "Permits"): upload credentials with their upload code, organisation
 * token or session; view permits with their film; download and policy permits with their session. And someone
 * holding only an upload code or an organisation token learns nothing about the organisation's patients.
 */
let s: TestServer;
let tech: string;
let admin: string;

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  [tech, admin] = await Promise.all(['tech', 'admin'].map((u) => s.login(u)));
});
afterAll(async () => { await s.close(); });

let serial = 0;
/** A Study Instance UID no other test uses. */
const newUid = () => `1.2.826.0.1.3680043.8.498.99.${Date.now() % 1_000_000}.${++serial}`;
/** A DICOM file of that study (a new instance each time). */
const dicomOf = (study: string) => asNewInstance(sample(CT_SERIES[0]!), 7000 + ++serial, { study });
const studyInput = (studyInstanceUid: string): StudyUploadInput => ({ ...CT_SERIES_STUDY, studyInstanceUid });
const nowSeconds = () => Math.floor(s.clock.now().getTime() / 1000);
/** The expiry of a bearer (JWT) in unix seconds. */
const bearerExpiry = (bearer: string): number => JSON.parse(Buffer.from(bearer.split('.')[1]!, 'base64url').toString('utf8')).exp;

const refresh = (c: Pick<UploadCredentials, 'bucketId' | 'examId' | 'token'>, delta = 7200) =>
  s.request('GET', `buckets/${c.bucketId}/studies/refresh-upload-credentials?examId=${c.examId}&delta=${delta}&token=${c.token}`);
const complete = (examId: number, token: string) => s.request('POST', `exams/${examId}/uploaded`, { body: { token } });

async function newCode(body: Record<string, unknown> = {}): Promise<{ code: string; expires: number }> {
  const res = await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'serviceOrder', bucketId: s.ids.hospitalId, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function orgToken(): Promise<string> {
  const [bucket] = await s.db.db.select({ token: buckets.publicUploadToken }).from(buckets).where(eq(buckets.id, s.ids.hospitalId));
  return bucket!.token!;
}

/** A signed-in account of the demo group with no right in the hospital: it can only use the organisation token. */
async function outsider(): Promise<{ username: string; bearer: string }> {
  const { username } = await createAccount(s, { groupId: s.ids.groupId });
  return { username, bearer: await s.login(username) };
}

/** An exam of the hospital that has a study (the demo's). */
async function existingExam() {
  const [exam] = await s.db.db.select().from(exams).where(and(eq(exams.bucketId, s.ids.hospitalId), isNotNull(exams.storeUid))).orderBy(exams.id).limit(1);
  return exam!;
}

describe('upload credentials die with what issued them', () => {
  it('a revoked upload code ends the credentials it issued and every renewal of them', async () => {
    const { code } = await newCode();
    const uid = newUid();
    const session = await s.request('POST', `upload-codes/${code}/studies`, { body: studyInput(uid) });
    expect(session.status).toBe(200);
    const credentials = session.body.credentials as UploadCredentials;
    expect((await putFile(s, credentials.token, dicomOf(uid))).body.status).toBe('stored');
    const renewed = await refresh(credentials);
    expect(renewed.status).toBe(200);

    expect((await s.request('DELETE', `upload-codes/${code}`, { token: tech })).status).toBe(204);
    for (const token of [credentials.token, renewed.body.token as string]) {
      const put = await putFile(s, token, dicomOf(uid));
      expect([put.status, put.body.code]).toEqual([403, 'FileTokenInvalid']);
      const again = await refresh({ ...credentials, token });
      expect([again.status, again.body.code]).toEqual([403, 'FileTokenInvalid']);
      expect((await complete(credentials.examId, token)).body.code).toBe('FileTokenInvalid');
    }
  });

  it('never renews credentials past the end of their upload code, and they stop when it expires', async () => {
    const { code, expires } = await newCode({ ttlHours: 1 });
    const uid = newUid();
    const session = await s.request('POST', `upload-codes/${code}/studies`, { body: studyInput(uid) });
    const credentials = session.body.credentials as UploadCredentials;
    s.clock.advance(10 * 60_000);
    // Asked for two hours, renewed to the code's last second; again and again, never further.
    for (let i = 0; i < 2; i++) {
      const renewed = await refresh(credentials);
      expect([renewed.status, renewed.body.expires]).toEqual([200, expires]);
    }
    const last = (await refresh(credentials)).body as UploadCredentials;
    s.clock.advance(50 * 60_000);
    const put = await putFile(s, last.token, dicomOf(uid));
    expect([put.status, put.body.code]).toEqual([403, 'FileTokenExpired']);
    expect((await refresh(last)).body.code).toBe('FileTokenExpired');
    [tech, admin] = await Promise.all(['tech', 'admin'].map((u) => s.login(u)));
  });

  it('logout ends the credentials of an organisation-token upload; the next sign-in opens the study again', async () => {
    const { bearer, username } = await outsider();
    const uid = newUid();
    const init = await s.request('POST', `upload-tokens/${await orgToken()}/studies`, { token: bearer, body: studyInput(uid) });
    expect(init.status).toBe(200);
    const credentials = init.body.credentials as UploadCredentials;
    expect((await putFile(s, credentials.token, dicomOf(uid))).body.status).toBe('stored');
    const renewed = await refresh(credentials);
    expect(renewed.body.expires).toBeLessThanOrEqual(bearerExpiry(bearer));

    expect((await s.request('POST', 'accounts/logout', { token: bearer })).status).toBe(204);
    for (const token of [credentials.token, renewed.body.token as string]) {
      const put = await putFile(s, token, dicomOf(uid));
      expect([put.status, put.body.code]).toEqual([403, 'FileTokenExpired']);
      expect((await refresh({ ...credentials, token })).body.code).toBe('FileTokenExpired');
    }

    const again = await s.login(username);
    const reopened = await s.request('POST', `upload-tokens/${await orgToken()}/studies`, { token: again, body: studyInput(uid) });
    expect(reopened.body).toMatchObject({ created: false, exam: { id: credentials.examId, instanceCount: 1 } });
    expect((await putFile(s, reopened.body.credentials.token, dicomOf(uid))).body.status).toBe('stored');
  });

  it("disabling the account ends a member's credentials; they never outlive the member's bearer", async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_upload'] }] });
    const bearer = await s.login(member.username);
    const uid = newUid();
    const session = await initUpload(s, bearer, s.ids.hospitalId, studyInput(uid));
    expect((await putFile(s, session.credentials.token, dicomOf(uid))).body.status).toBe('stored');
    const renewed = await refresh(session.credentials);
    expect(renewed.status).toBe(200);
    expect(renewed.body.expires).toBe(bearerExpiry(bearer));
    expect(renewed.body.expires).toBeLessThan(nowSeconds() + 7200);
    const byBearer = await s.request('GET', `buckets/${s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${session.exam.id}&delta=7200`, { token: bearer });
    expect(byBearer.body.expires).toBe(bearerExpiry(bearer));

    expect((await s.request('POST', `accounts/${member.id}/status`, { token: admin, body: { status: 1 } })).status).toBe(204);
    for (const token of [session.credentials.token, renewed.body.token as string, byBearer.body.token as string]) {
      const put = await putFile(s, token, dicomOf(uid));
      expect([put.status, put.body.code]).toEqual([403, 'FileTokenInvalid']);
      expect((await refresh({ ...session.credentials, token })).body.code).toBe('FileTokenInvalid');
    }
  });

  // A member's permit is checked with the exam in one statement (server/uploads/statements.ts): the session's end is
  // the answer before the exam's, and a deleted exam takes no more files.
  it("a member's credentials: a deleted exam is NotFound, and logout ends them whatever the exam", async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_upload'] }] });
    const bearer = await s.login(member.username);
    const [first, second] = [newUid(), newUid()];
    const kept = await initUpload(s, bearer, s.ids.hospitalId, studyInput(first));
    const gone = await initUpload(s, bearer, s.ids.hospitalId, studyInput(second));
    expect((await putFile(s, kept.credentials.token, dicomOf(first))).body.status).toBe('stored');
    expect((await putFile(s, gone.credentials.token, dicomOf(second))).body.status).toBe('stored');

    await s.db.db.update(exams).set({ deletedTime: s.clock.now() }).where(eq(exams.id, gone.exam.id));
    const toDeleted = await putFile(s, gone.credentials.token, dicomOf(second));
    expect([toDeleted.status, toDeleted.body.code]).toEqual([404, 'NotFound']);
    expect((await putFile(s, kept.credentials.token, dicomOf(first))).body.status).toBe('stored');

    expect((await s.request('POST', 'accounts/logout', { token: bearer })).status).toBe(204);
    for (const [session, uid] of [[kept, first], [gone, second]] as const) {
      const put = await putFile(s, session.credentials.token, dicomOf(uid));
      expect([put.status, put.body.code]).toEqual([403, 'FileTokenExpired']);
    }
  });

  it("a member's next files are answered by the permit as it is now: a dead one before a broken file or another study, a changed Study UID as changed", async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_upload'] }] });
    const bearer = await s.login(member.username);
    const [uid, moved] = [newUid(), newUid()];
    const session = await initUpload(s, bearer, s.ids.hospitalId, studyInput(uid));
    // The first file reads the permit; the next ones are written against it as read.
    expect((await putFile(s, session.credentials.token, dicomOf(uid))).body.status).toBe('stored');
    const broken = await putFile(s, session.credentials.token, new TextEncoder().encode('not a DICOM file at all'));
    expect([broken.status, broken.body.code]).toEqual([400, 'NotDicom']);
    const elsewhere = await putFile(s, session.credentials.token, dicomOf(newUid()));
    expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 'StudyMismatch']);

    await s.db.db.update(exams).set({ storeUid: moved }).where(eq(exams.id, session.exam.id));
    expect((await putFile(s, session.credentials.token, dicomOf(moved))).body.status).toBe('stored');
    const old = await putFile(s, session.credentials.token, dicomOf(uid));
    expect([old.status, old.body.code, old.body.details?.expected]).toEqual([409, 'StudyMismatch', moved]);

    expect((await s.request('POST', 'accounts/logout', { token: bearer })).status).toBe(204);
    for (const body of [dicomOf(moved), new TextEncoder().encode('not a DICOM file at all'), dicomOf(newUid())]) {
      const put = await putFile(s, session.credentials.token, body);
      expect([put.status, put.body.code]).toEqual([403, 'FileTokenExpired']);
    }
    expect(await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.examId, session.exam.id))).toHaveLength(2);
  });

  it('a regenerated organisation token ends the credentials issued through the old one', async () => {
    const { bearer } = await outsider();
    const uid = newUid();
    const init = await s.request('POST', `upload-tokens/${await orgToken()}/studies`, { token: bearer, body: studyInput(uid) });
    const credentials = init.body.credentials as UploadCredentials;
    expect((await putFile(s, credentials.token, dicomOf(uid))).body.status).toBe('stored');
    expect((await s.request('POST', `buckets/${s.ids.hospitalId}/upload-token/regenerate`, { token: admin })).status).toBe(200);
    const put = await putFile(s, credentials.token, dicomOf(uid));
    expect([put.status, put.body.code]).toEqual([403, 'FileTokenInvalid']);
    expect((await refresh(credentials)).body.code).toBe('FileTokenInvalid');
  });
});

describe('an upload code or organisation token reveals no patient and reaches no other exam', () => {
  it("refuses the Study UID of an existing exam, saying nothing about it", async () => {
    const exam = await existingExam();
    const { bearer } = await outsider();
    const { code } = await newCode();
    const byToken = await s.request('POST', `upload-tokens/${await orgToken()}/studies`, { token: bearer, body: studyInput(exam.storeUid!) });
    const byCode = await s.request('POST', `upload-codes/${code}/studies`, { body: studyInput(exam.storeUid!) });
    for (const res of [byToken, byCode]) {
      expect([res.status, res.body.code]).toEqual([403, 'Forbidden']);
      const text = JSON.stringify(res.body);
      for (const secret of [exam.patientName, exam.patientId]) expect(text).not.toContain(secret);
    }
    // Nothing was made either: the organisation still has that study once.
    const same = await s.db.db.select({ id: exams.id }).from(exams).where(and(eq(exams.bucketId, s.ids.hospitalId), eq(exams.storeUid, exam.storeUid!)));
    expect(same).toHaveLength(1);
  });

  it("resumes a code's own study with the patient masked; another code or token holder cannot reach it", async () => {
    const mine = await newCode();
    const other = await newCode();
    const uid = newUid();
    const first = await s.request('POST', `upload-codes/${mine.code}/studies`, { body: studyInput(uid) });
    expect(first.body).toMatchObject({ created: true, exam: { patientName: 'D** A********', patientId: '********' } });
    expect((await putFile(s, first.body.credentials.token, dicomOf(uid))).body.status).toBe('stored');

    const again = await s.request('POST', `upload-codes/${mine.code}/studies`, { body: studyInput(uid) });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, exam: { id: first.body.exam.id, patientName: 'D** A********', patientId: '********' } });
    expect(again.body.storedSopInstanceUids).toHaveLength(1);

    expect((await s.request('POST', `upload-codes/${other.code}/studies`, { body: studyInput(uid) })).status).toBe(403);
    const { bearer } = await outsider();
    expect((await s.request('POST', `upload-tokens/${await orgToken()}/studies`, { token: bearer, body: studyInput(uid) })).status).toBe(403);
    // A member with exam_upload who comes by the token is a member: the exam, in clear.
    const member = await s.request('POST', `upload-tokens/${await orgToken()}/studies`, { token: tech, body: studyInput(uid) });
    expect(member.body).toMatchObject({ created: false, exam: { id: first.body.exam.id, patientName: CT_SERIES_STUDY.patientName, patientId: CT_SERIES_STUDY.patientId } });
  });

  it('shows the exam a code names masked, and not the study it is bound to', async () => {
    const [exam] = await s.db.db.select().from(exams).where(eq(exams.bucketId, s.ids.hospitalId)).orderBy(exams.id).offset(5).limit(1);
    await s.db.db.update(exams).set({ storeUid: null, patientName: '王小明', patientId: 'P0001234' }).where(eq(exams.id, exam!.id));
    const { code } = await newCode({ examId: exam!.id });
    const uid = newUid();
    const session = await s.request('POST', `upload-codes/${code}/studies`, { body: studyInput(uid) });
    expect(session.body).toMatchObject({ created: false, exam: { id: exam!.id, storeUid: uid, patientName: '王*明', patientId: '********' } });
    expect(JSON.stringify(session.body)).not.toContain('P0001234');
    const mismatch = await s.request('POST', `upload-codes/${code}/studies`, { body: studyInput(newUid()) });
    expect([mismatch.status, mismatch.body.code]).toEqual([409, 'StudyMismatch']);
    expect(JSON.stringify(mismatch.body)).not.toContain(uid);
  });

  it('gives the demo exams random Study UIDs under the product root, not made of ids, times or counters', async () => {
    const rows = await s.db.db.select({ id: exams.id, uid: exams.storeUid, created: exams.created }).from(exams)
      .where(and(isNotNull(exams.storeUid), eq(exams.bucketId, s.ids.expertCentreId)));
    const hospital = await s.db.db.select({ id: exams.id, uid: exams.storeUid, created: exams.created }).from(exams)
      .where(and(isNotNull(exams.storeUid), eq(exams.bucketId, s.ids.hospitalId)));
    // The expert centre's copies of exams sent to it for a report share their original's study (payments' dispatch).
    const copies = new Set((await s.db.db.select({ id: reportOrderTargets.expertExamId }).from(reportOrderTargets)).map((r) => r.id));
    const seeded = [...rows, ...hospital].filter((r) => !copies.has(r.id)).filter((r) => r.uid!.startsWith('1.2.826.0.1.3680043.8.498.') && !r.uid!.startsWith('1.2.826.0.1.3680043.8.498.99.'));
    expect(seeded.length).toBeGreaterThan(10);
    for (const { id, uid, created } of seeded) {
      expect(uid).toMatch(/^1\.2\.826\.0\.1\.3680043\.8\.498\.[1-9]\d{19,}$/);
      // Room for the demo images' series and instance UIDs (".1.8") within DICOM's 64 characters.
      expect(uid!.length).toBeLessThanOrEqual(60);
      expect(uid).not.toContain(String(created.getTime()));
      expect(uid!.endsWith(`.${id}`)).toBe(false);
    }
    expect(new Set(seeded.map((r) => r.uid)).size).toBe(seeded.length);
  });
});

describe('view and download permits die with what issued them', () => {
  /** An exam of the hospital with one stored instance. */
  async function examWithImage(): Promise<{ examId: number; instanceId: number }> {
    const uid = newUid();
    const session = await initUpload(s, tech, s.ids.hospitalId, studyInput(uid));
    const put = await putFile(s, session.credentials.token, dicomOf(uid));
    expect(put.body.status).toBe('stored');
    return { examId: session.exam.id, instanceId: put.body.instance.id };
  }

  it("revoking a film ends the view permit it gave: no more series or instance files", async () => {
    const { examId, instanceId } = await examWithImage();
    const film = await s.request('POST', 'film-share/share', { token: tech, body: { examId } });
    const view = await s.request('POST', 'film-share/find-and-verify', { body: { link: film.body.link, code: film.body.code } });
    const token = view.body.viewer.token as string;
    expect((await s.request('GET', `exams/${examId}/series?token=${token}`)).status).toBe(200);
    expect((await fetchLink(s, `/api/v1/instances/${instanceId}/file?token=${token}`)).status).toBe(200);

    expect((await s.request('POST', `film-share/${film.body.link}/revoke`, { token: tech })).status).toBe(204);
    const series = await s.request('GET', `exams/${examId}/series?token=${token}`);
    expect([series.status, series.body.code]).toEqual([403, 'FileTokenInvalid']);
    expect((await fetchLink(s, `/api/v1/instances/${instanceId}/file?token=${token}`)).status).toBe(403);
    // A bearer still reads the images (the permit is only ignored when a session is there).
    expect((await s.request('GET', `exams/${examId}/series?token=${token}`, { token: tech })).status).toBe(200);
  });

  it("logout ends a member's viewer permit; a share path handed outside lives its hours", async () => {
    const { examId, instanceId } = await examWithImage();
    const reader = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_get'] }] });
    const bearer = await s.login(reader.username);
    const viewer = await s.request('POST', `viewers/${examId}/path`, { token: bearer });
    expect(viewer.status).toBe(200);
    const token = viewer.body.token as string;
    expect(viewer.body.expires).toBeLessThanOrEqual(bearerExpiry(bearer));
    expect((await s.request('GET', `exams/${examId}/series?token=${token}`)).status).toBe(200);
    const shared = await s.request('POST', `viewers/${examId}/share-path`, { token: tech, body: { ttlHours: 24 } });
    expect(shared.status).toBe(200);

    expect((await s.request('POST', 'accounts/logout', { token: bearer })).status).toBe(204);
    const series = await s.request('GET', `exams/${examId}/series?token=${token}`);
    expect([series.status, series.body.code]).toEqual([403, 'FileTokenExpired']);
    expect((await fetchLink(s, `/api/v1/instances/${instanceId}/file?token=${token}`)).status).toBe(403);
    expect((await s.request('GET', `exams/${examId}/series?token=${shared.body.token as string}`)).status).toBe(200);
  });

  it('logout ends download and policy permits at once', async () => {
    const { instanceId } = await examWithImage();
    const reader = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_get'] }] });
    const bearer = await s.login(reader.username);
    const download = (await s.request('GET', 'policies/download-token', { token: bearer })).body.token as string;
    const policy = (await s.request('GET', 'policies/avatars', { token: bearer })).body.token as string;
    expect((await fetchLink(s, `/api/v1/instances/${instanceId}/file?token=${download}`)).status).toBe(200);

    expect((await s.request('POST', 'accounts/logout', { token: bearer })).status).toBe(204);
    const file = await s.request('GET', `instances/${instanceId}/file?token=${download}`);
    expect([file.status, file.body.code]).toEqual([403, 'FileTokenExpired']);
    const avatar = await s.request('POST', 'uploads/avatars', { body: form(png(16, 16), 'me.png', 'image/png', { token: policy }) });
    expect([avatar.status, avatar.body.code]).toEqual([403, 'FileTokenExpired']);
  });
});
