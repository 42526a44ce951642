import { eq } from 'drizzle-orm';
import type { PolicyKind } from '../../../contract/uploads';
import * as t from '../../../server/db/schema';
import type { DemoUsername } from '../../../server/seed/demo';
import { CT_SERIES, asNewInstance, sample, uidOfLength } from '../../support/dicom';
import { form, jpeg, pdf, png } from '../../support/files';
import { insertExam, reportIn, tokenOf } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { CT_SERIES_STUDY, initUpload, putFile } from '../../support/uploads';
import { signedIn, statuses, type MatrixCall, type MatrixRow, type Role } from './types';

/**
 * Uploads and policies (core §7 "Uploads and policies"), into the hospital. Demo rights there: admin and tech hold
 * exam_upload and the attachment actions; admin, the radiologists, chief and tech read exams; the registrar has no
 * exam right; the expert belongs to the expert centre only, so the hospital's objects do not exist for them (404).
 *
 * Routes that take a bearer or a permit (upload credentials, policy and download permits) are called the way each
 * caller would: a signed-in role with its bearer alone, so its own rights decide; an anonymous caller with a valid
 * permit (of an account that may), so the permit decides. Routes whose permit is the only key (file uploads, upload
 * codes, avatars by name) get the valid permit from every role and answer all of them alike.
 */

// ---- Helpers shared by the matrix files of the images area (images.ts, viewer.ts, shares.ts) ----

/** A setup call through the real API as a demo user; anything but a 2xx stops the row with the server's answer. */
export async function api(s: TestServer, user: DemoUsername, method: string, path: string, body?: unknown) {
  const res = await s.request(method, path, { token: await tokenOf(s, user), body });
  if (res.status < 200 || res.status > 299) throw new Error(`matrix setup: ${user} ${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A fixture made once per server, for rows whose calls only read it. */
export function once<T>(make: (s: TestServer) => Promise<T>): (s: TestServer) => Promise<T> {
  const made = new WeakMap<TestServer, Promise<T>>();
  return (s) => {
    let fixture = made.get(s);
    if (!fixture) made.set(s, (fixture = make(s)));
    return fixture;
  };
}

/** A policy permit (the form's `token`) of `user` for `kind`. */
export const policyPermit = async (s: TestServer, user: DemoUsername, kind: PolicyKind): Promise<string> => (await api(s, user, 'GET', `policies/${kind}`)).token;
/** A download permit (`?token=`) of `user`. */
export const downloadPermit = async (s: TestServer, user: DemoUsername): Promise<string> => (await api(s, user, 'GET', 'policies/download-token')).token;
/** The permit an anonymous caller brings; signed-in roles bring their bearer instead. */
export const permitFor = (role: Role, make: () => Promise<string>): Promise<string | null> => (role === 'anonymous' ? make() : Promise.resolve(null));
/** `?token=` when the call carries a permit. */
export const tokenQuery = (permit: string | null, sep = '?') => (permit ? `${sep}token=${encodeURIComponent(permit)}` : '');
/** A form with the permit field first (when there is one) and then the file. */
export const formWith = (permit: string | null, file: Buffer, name: string, type: string) => form(file, name, type, permit ? { token: permit } : {});

/** Readers of the hospital's exams and reports (exam_get or report rights): admin, radiologists, chief, tech. */
export const examReaders = (ok: number) => signedIn(403, { admin: ok, rad1: ok, rad2: ok, chief: ok, tech: ok, expert: 404 });
/** Holders of exam_upload (and of the attachment actions) in the hospital: admin and tech. */
export const uploaders = (ok: number) => signedIn(403, { admin: ok, tech: ok, expert: 404 });

let serial = 0;
/** A study no other call has used: the wizard's exam info and one CT file rewritten to belong to it. */
export function freshStudy() {
  serial += 1;
  const n = serial * 1000 + Math.floor(Math.random() * 1000);
  const studyInstanceUid = uidOfLength(CT_SERIES_STUDY.studyInstanceUid.length, n);
  return { study: { ...CT_SERIES_STUDY, studyInstanceUid }, file: Buffer.from(asNewInstance(sample(CT_SERIES[0]!), n, { study: studyInstanceUid })) };
}

/** An upload session (a new exam and its credentials) opened by tech in the hospital, and a file of its study. */
export async function uploadSession(s: TestServer) {
  const { study, file } = freshStudy();
  const session = await initUpload(s, await tokenOf(s, 'tech'), s.ids.hospitalId, study);
  return { examId: session.exam.id, credentials: session.credentials.token, file };
}

/** An exam of the hospital with one stored instance, uploaded and completed by tech. */
export const uploadedExam = once(async (s: TestServer) => {
  const { examId, credentials, file } = await uploadSession(s);
  const stored = await putFile(s, credentials, file);
  if (stored.status !== 200) throw new Error(`matrix setup: upload → ${stored.status} ${JSON.stringify(stored.body)}`);
  await api(s, 'tech', 'POST', `exams/${examId}/uploaded`, {});
  return { examId, instanceId: stored.body.instance.id as number };
});

/** An upload code made by tech: serviceOrder (for `examId`, or any study) or attachment (for `reportId`). */
async function uploadCode(s: TestServer, target: { examId?: number; reportId?: number } = {}): Promise<string> {
  const kind = target.reportId ? 'attachment' : 'serviceOrder';
  return (await api(s, 'tech', 'POST', 'upload-codes', { kind, bucketId: s.ids.hospitalId, ...target })).code;
}

const hospitalUploadToken = once(async (s: TestServer) => {
  const [bucket] = await s.db.db.select({ token: t.buckets.publicUploadToken }).from(t.buckets).where(eq(t.buckets.id, s.ids.hospitalId));
  if (!bucket?.token) throw new Error('matrix setup: the hospital has no upload token');
  return bucket.token;
});

/** An avatar rad1 uploaded, by its API path. */
const avatar = once(async (s: TestServer) => (await api(s, 'rad1', 'POST', 'uploads/avatars', form(png(8, 8), 'me.png', 'image/png'))).url as string);

/** An application form tech added to a fresh exam. */
const examForm = once(async (s: TestServer) => {
  const examId = await insertExam(s);
  const { url } = await api(s, 'tech', 'POST', `exams/${examId}/forms`, form(jpeg(), 'form.jpg', 'image/jpeg'));
  return url as string;
});

const apiPath = (url: string) => url.replace(/^\/api\/v1/, '');
/** A session opened for this call; anonymous callers also get its credentials. */
const sessionFor = async (s: TestServer, role: Role) => ({ ...(await uploadSession(s)), anonymous: role === 'anonymous' });
type Session = Awaited<ReturnType<typeof sessionFor>>;
const credentialsIfAnonymous = ({ fixture }: MatrixCall) => ((fixture as Session).anonymous ? (fixture as Session).credentials : null);

export const rows: MatrixRow[] = [
  // Organisations to upload into, and the upload session.
  { method: 'GET', route: '/buckets/uploadable', expect: signedIn(200) },
  {
    method: 'POST', route: '/buckets/:id/studies/upload', path: ({ s }) => `/buckets/${s.ids.hospitalId}/studies/upload`,
    body: () => freshStudy().study, expect: uploaders(200),
  },
  {
    // Members renew with their bearer (exam_upload); an uploader by organisation token or code, with the current credentials.
    method: 'GET', route: '/buckets/:id/studies/refresh-upload-credentials', setup: sessionFor,
    path: (call) => `/buckets/${call.s.ids.hospitalId}/studies/refresh-upload-credentials?examId=${call.fixture.examId}${tokenQuery(credentialsIfAnonymous(call), '&')}`,
    expect: { ...uploaders(200), anonymous: 200 },
  },
  // One file: the session's credentials are the only key, whoever sends them.
  {
    method: 'PUT', route: '/uploads/files', setup: (s) => uploadSession(s),
    path: ({ fixture }) => `/uploads/files?token=${encodeURIComponent(fixture.credentials)}`, body: ({ fixture }) => fixture.file, expect: statuses(200),
  },
  {
    method: 'POST', route: '/uploads/files', setup: (s) => uploadSession(s),
    body: ({ fixture }) => form(fixture.file, 'image.dcm', 'application/dicom', { token: fixture.credentials }), expect: statuses(200),
  },
  // Completion: a member with exam_upload, or whoever holds the exam's credentials.
  {
    method: 'POST', route: '/exams/:id/uploaded', setup: sessionFor, path: ({ fixture }) => `/exams/${fixture.examId}/uploaded`,
    body: (call) => { const token = credentialsIfAnonymous(call); return token ? { token } : {}; },
    expect: { ...uploaders(200), anonymous: 200 },
  },
  {
    method: 'POST', route: '/exams/post-upload', setup: sessionFor,
    body: (call) => { const token = credentialsIfAnonymous(call); return { items: [token ? { examId: call.fixture.examId, token } : { examId: call.fixture.examId }] }; },
    expect: { ...uploaders(200), anonymous: 200 },
  },
  // The organisation's token (/upload?token): any signed-in account uploads there.
  { method: 'GET', route: '/upload-tokens/:token', setup: hospitalUploadToken, path: ({ fixture }) => `/upload-tokens/${fixture}`, expect: signedIn(200) },
  {
    method: 'POST', route: '/upload-tokens/:token/studies', setup: hospitalUploadToken, path: ({ fixture }) => `/upload-tokens/${fixture}/studies`,
    body: () => freshStudy().study, expect: signedIn(200),
  },
  // Upload codes: handing one out needs exam_upload (serviceOrder) or attachment_create (attachment); holding one is the key.
  {
    method: 'POST', route: '/upload-codes', setup: (s) => insertExam(s),
    body: ({ s, fixture }) => ({ kind: 'serviceOrder', bucketId: s.ids.hospitalId, examId: fixture, ttlHours: 24 }), expect: uploaders(201),
  },
  { method: 'DELETE', route: '/upload-codes/:code', setup: (s) => uploadCode(s), path: ({ fixture }) => `/upload-codes/${fixture}`, expect: uploaders(204) },
  {
    method: 'GET', route: '/upload-codes/:code', setup: async (s) => uploadCode(s, { examId: await insertExam(s) }),
    path: ({ fixture }) => `/upload-codes/${fixture}`, expect: statuses(200),
  },
  {
    method: 'POST', route: '/upload-codes/:code/studies', setup: async (s) => uploadCode(s, { examId: await insertExam(s) }),
    path: ({ fixture }) => `/upload-codes/${fixture}/studies`, body: () => freshStudy().study, expect: statuses(200),
  },
  {
    method: 'POST', route: '/upload-codes/:code/attachments', setup: async (s) => uploadCode(s, { reportId: (await reportIn(s, 'partial')).id }),
    path: ({ fixture }) => `/upload-codes/${fixture}/attachments`, body: () => form(pdf(), '检查单.pdf', 'application/pdf'), expect: statuses(201),
  },
  // Policies: permits for the signed-in account.
  { method: 'GET', route: '/policies/download-token', expect: signedIn(200) },
  { method: 'GET', route: '/policies/:kind', path: () => '/policies/images', expect: signedIn(200) },
  // Avatars: any account its own; shown to everyone by an unguessable name.
  {
    method: 'POST', route: '/uploads/avatars', setup: (s, role) => permitFor(role, () => policyPermit(s, 'rad1', 'avatars')),
    body: ({ fixture }) => formWith(fixture, png(16, 16), 'me.png', 'image/png'), expect: statuses(201),
  },
  { method: 'GET', route: '/avatars/:accountId/:name', setup: avatar, path: ({ fixture }) => apiPath(fixture), expect: statuses(200) },
  // Application forms: added with exam_upload (or upload_apply_forms), read by those who may see the exam.
  {
    method: 'POST', route: '/exams/:id/forms',
    setup: async (s, role) => ({ examId: await insertExam(s), permit: await permitFor(role, () => policyPermit(s, 'tech', 'forms')) }),
    path: ({ fixture }) => `/exams/${fixture.examId}/forms`, body: ({ fixture }) => formWith(fixture.permit, jpeg(), 'form.jpg', 'image/jpeg'),
    // chief holds upload_apply_forms (the demo's order actions), which adds application forms too.
    expect: { ...uploaders(201), chief: 201, anonymous: 201 },
  },
  {
    method: 'GET', route: '/exams/:id/forms/:name',
    setup: async (s, role) => ({ url: await examForm(s), permit: await permitFor(role, () => downloadPermit(s, 'rad1')) }),
    path: ({ fixture }) => `${apiPath(fixture.url)}${tokenQuery(fixture.permit)}`, expect: { ...examReaders(200), anonymous: 200 },
  },
];
