import multipart from '@fastify/multipart';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { idParam } from '../../contract/common';
import {
  DICOM_MAX_BYTES, UPLOAD_TOKEN_HEADER, postUploadInput, refreshCredentialsQuery, studyUploadInput, uploadedInput,
  type UploadCompleted, type UploadFileResult, type UploadSession, type UploadTokenInfo, type UploadableBucket,
} from '../../contract/uploads';
import { assertCan, bucketsWith, can } from '../access/access';
import { authOf, type Auth } from '../auth/plugin';
import { buckets, exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { codeRoutes } from './codes';
import { examInBucket, findOrCreateExam, type ExamRow } from '../exams/create';
import { completeUpload, openOutsiderStudy, uploadCredentials, uploadSession, type UploadGrant } from './exams';
import { ingestDicom } from './ingest';
import { formFile } from '../http/multipart';
import { accountOf, assertSessionLive, check, checkLive, liveCause, orgTokenFingerprint, sessionCause, type UploadClaims } from '../auth/permits';
import { examStoreUidStatement, sessionTargetStatement } from './statements';
import { permitRead, rememberPermit } from './permitsRead';
import { policyFileRoutes } from './policyFiles';
import { policyRoutes } from './policies';

const pub = { config: { public: true } };
/**
 * A study's files, one request each (a CT series is hundreds), are not logged one by one: two info lines per file were
 * a tenth of the ingest path's CPU (issue 18). The session, the completion and every failure the server logs as a
 * warning or worse still are.
 */
const perFile = { ...pub, logLevel: 'warn' as const };
const tokenParam = z.object({ token: z.string().min(16).max(64) });
const fileQuery = z.object({ token: z.string().max(4096).optional() });

/** core §7 "Uploads and policies": sessions, per-file upload, completion, organisation tokens, codes, policies. */
export async function uploadRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;
  await app.register(multipart);
  // Raw file bodies stay streams: the upload handler pipes them to storage as they arrive.
  app.addContentTypeParser(['application/dicom', 'application/octet-stream'], (_req, payload, done) => done(null, payload));

  app.get('/buckets/uploadable', async (req): Promise<UploadableBucket[]> => {
    const ids = bucketsWith(await authOf(req).access(), 'exam_upload');
    if (ids.length === 0) return [];
    const rows = await db.select({ id: buckets.id, name: buckets.name, code: buckets.code, groupId: buckets.groupId }).from(buckets);
    return rows.filter((b) => ids.includes(b.id)).sort((a, b) => a.id - b.id);
  });

  /** A member's permit lives with the bearer's session (its account, token version and expiry). */
  const memberGrant = (auth: Auth): UploadGrant => ({ by: sessionCause(auth), until: auth.claims.exp });

  app.post('/buckets/:id/studies/upload', async (req): Promise<UploadSession> => {
    const { id } = parse(idParam, req.params);
    const auth = authOf(req);
    assertCan(await auth.access(), 'exam_upload', id);
    const input = parse(studyUploadInput, req.body);
    const { exam, created } = await findOrCreateExam(deps, id, input);
    return uploadSession(deps, exam, created, memberGrant(auth), { outsider: false });
  });

  // Public to the hook: uploaders by organisation token or code renew with their current credentials. A renewal is
  // a new permit from the same cause, checked alive now, and never past its end (docs/api.md "Permits").
  app.get('/buckets/:id/studies/refresh-upload-credentials', pub, async (req) => {
    const { id } = parse(idParam, req.params);
    const q = parse(refreshCredentialsQuery, req.query);
    if (q.token) {
      const { claims, until } = await checkLive<UploadClaims>(deps, 'upload', q.token);
      if (claims.b !== id || claims.e !== q.examId) throw new ApiError('FileTokenInvalid');
      return uploadCredentials(deps, await examInBucket(db, q.examId, id), { by: claims.by, until }, q.delta);
    }
    const auth = authOf(req);
    assertCan(await auth.access(), 'exam_upload', id);
    return uploadCredentials(deps, await examInBucket(db, q.examId, id), memberGrant(auth), q.delta);
  });

  /** The session's credentials say where the file goes; they (and what issued them) are checked before a byte is stored. */
  async function targetOf(token: string | undefined) {
    if (!token) throw new ApiError('FileTokenInvalid', 'No upload credentials');
    const claims = check<UploadClaims>(deps, 'upload', token);
    const target = (storeUid: string | null) => ({ bucketId: claims.b, examId: claims.e, storeUid, accountId: accountOf(claims.by) });
    const exam = { exam: claims.e, bucket: claims.b };
    // A member's permit (nearly every file): its account and the exam's study UID in one prepared statement. Only the
    // study UID is needed of the exam (the whole row is ~70 columns to read and map, per file).
    if (claims.by?.k === 'session') {
      const by = claims.by;
      const permit = { account: by.a, tokenVersion: by.v, bucket: claims.b, exam: claims.e };
      const read = async () => {
        const [row] = await sessionTargetStatement(db).execute({ ...exam, account: by.a });
        assertSessionLive(row, by);
        if (row.examId === null) throw new ApiError('NotFound');
        rememberPermit(db, permit, row.storeUid);
        return target(row.storeUid);
      };
      // A study's next files: the permit as read for its first, confirmed by the file's own insert (permitsRead.ts).
      const storeUid = permitRead(db, permit);
      if (storeUid === undefined) return read();
      return { ...target(storeUid), asRead: { permit: { account: by.a, tokenVersion: by.v, storeUid }, again: read } };
    }
    // Other causes: the cause and the exam are read side by side (two connections on PostgreSQL: one round trip of
    // waiting per file instead of two); a dead permit is the answer whatever the exam's read says.
    const [live, found] = await Promise.allSettled([liveCause(deps, 'upload', claims.by), examStoreUidStatement(db).execute(exam)]);
    if (live.status === 'rejected') throw live.reason;
    if (found.status === 'rejected') throw found.reason;
    const [row] = found.value;
    if (!row) throw new ApiError('NotFound');
    return target(row.storeUid);
  }

  app.put('/uploads/files', perFile, async (req): Promise<UploadFileResult> => {
    const header = req.headers[UPLOAD_TOKEN_HEADER];
    // The permit is checked while the body arrives (ingestDicom); its answer comes before any other.
    const target = targetOf(typeof header === 'string' ? header : parse(fileQuery, req.query).token);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > DICOM_MAX_BYTES) {
      await target;
      throw new ApiError('UploadTooLarge', undefined, { maxBytes: DICOM_MAX_BYTES });
    }
    if (!(req.body instanceof Readable)) {
      await target;
      throw new ApiError('ParamsError', 'Send the file as application/dicom or application/octet-stream');
    }
    // A body of declared length (what browsers and the wizard send) is read into one buffer and written at once.
    return ingestDicom(deps, target, req.body, Number.isFinite(declared) && declared >= 0 ? { length: declared } : {});
  });

  // The same as form data { token, file }: the client leaves out the bearer when the form carries a token (core §7).
  app.post('/uploads/files', perFile, async (req): Promise<UploadFileResult> => {
    const { fields, file } = await formFile(req, DICOM_MAX_BYTES + 1);
    const target = await targetOf(fields.token);
    return ingestDicom(deps, target, file.file);
  });

  /** Completion by a member with exam_upload, or by whoever holds the exam's upload credentials. */
  async function examForCompletion(req: FastifyRequest, examId: number, token: string | undefined): Promise<ExamRow> {
    if (token) {
      const { claims } = await checkLive<UploadClaims>(deps, 'upload', token);
      if (claims.e !== examId) throw new ApiError('FileTokenInvalid');
      return examInBucket(db, claims.e, claims.b);
    }
    const [exam] = await db.select().from(exams).where(and(eq(exams.id, examId), isNull(exams.deletedTime)));
    const access = await authOf(req).access();
    if (!exam) throw new ApiError('NotFound');
    assertCan(access, 'exam_upload', exam.bucketId);
    return exam;
  }

  app.post('/exams/:id/uploaded', pub, async (req): Promise<UploadCompleted> => {
    const { id } = parse(idParam, req.params);
    const { token } = parse(uploadedInput, req.body);
    return completeUpload(deps, await examForCompletion(req, id, token));
  });

  // The wizard's last step over every study of one upload: all are checked before any is completed.
  app.post('/exams/post-upload', pub, async (req): Promise<{ items: UploadCompleted[] }> => {
    const { items } = parse(postUploadInput, req.body);
    const targets: ExamRow[] = [];
    for (const item of items) targets.push(await examForCompletion(req, item.examId, item.token));
    const done: UploadCompleted[] = [];
    for (const exam of targets) done.push(await completeUpload(deps, exam));
    return { items: done };
  });

  /** The organisation token of /upload?token (buckets.public_upload_token): any signed-in account may upload there. */
  async function bucketByToken(token: string) {
    const [bucket] = await db.select().from(buckets).where(eq(buckets.publicUploadToken, token));
    if (!bucket) throw new ApiError('NotFound');
    return bucket;
  }

  app.get('/upload-tokens/:token', async (req): Promise<UploadTokenInfo> => {
    authOf(req);
    const bucket = await bucketByToken(parse(tokenParam, req.params).token);
    return { bucketId: bucket.id, bucketName: bucket.name };
  });

  // A member with exam_upload there uploads as a member. Anyone else holds only the token: their own studies (made
  // through the token by this account, resumed by UID) and no other exam; the patient is shown masked; the
  // credentials die with the session and with the token (a regenerated token ends them).
  app.post('/upload-tokens/:token/studies', async (req): Promise<UploadSession> => {
    const auth = authOf(req);
    const token = parse(tokenParam, req.params).token;
    const bucket = await bucketByToken(token);
    const input = parse(studyUploadInput, req.body);
    if (can(await auth.access(), 'exam_upload', bucket.id)) {
      const { exam, created } = await findOrCreateExam(deps, bucket.id, input);
      return uploadSession(deps, exam, created, memberGrant(auth), { outsider: false });
    }
    const { exam, created } = await openOutsiderStudy(deps, bucket.id, input, { accountId: auth.account.id });
    const by = { ...sessionCause(auth), k: 'orgToken' as const, b: bucket.id, o: orgTokenFingerprint(token) };
    return uploadSession(deps, exam, created, { by, until: auth.claims.exp }, { outsider: true });
  });

  await app.register(codeRoutes, { deps });
  await app.register(policyRoutes, { deps });
  await app.register(policyFileRoutes, { deps });
}
