import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  studyUploadInput, uploadCodeInput, type UploadCodeCreated, type UploadCodeInfo, type UploadSession,
} from '../../contract/uploads';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { buckets, exams, reports, uploadCodes } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { limitRequest } from '../http/rateLimit';
import { bindStudy, examInBucket } from '../exams/create';
import { openOutsiderStudy, uploadSession } from './exams';
import { maskName } from './mask';

export type UploadCodeRow = typeof uploadCodes.$inferSelect;
const codeParam = z.object({ code: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/) });
const PAGES = { serviceOrder: '/service-orders/upload', attachment: '/attachments/upload' } as const;
// Handing an outsider the right to add files is creating attachments (attachment_create); uploading them yourself is attachment_upload.
const ACTION = { serviceOrder: 'exam_upload', attachment: 'attachment_create' } as const;

/** A code that exists and is still good; an expired or revoked one is 410 LinkExpired, an unknown one 404. */
export async function liveCode(db: Db, code: string, now: Date, kind?: UploadCodeRow['kind']): Promise<UploadCodeRow> {
  const [row] = await db.select().from(uploadCodes).where(eq(uploadCodes.code, code));
  if (!row || (kind && row.kind !== kind)) throw new ApiError('NotFound');
  if (row.revokedAt || row.expiresAt <= now) throw new ApiError('LinkExpired', undefined, { reason: row.revokedAt ? 'revoked' : 'expired' });
  return row;
}

/**
 * Upload codes (docs/decisions.md "Images"): a member hands a code to someone without an account; the
 * code grants uploads of one kind into one organisation (and one exam or report) until it expires or
 * is revoked. The public pages /service-orders/upload?code and /attachments/upload?code use it.
 */
export async function codeRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.post('/upload-codes', async (req, reply): Promise<UploadCodeCreated> => {
    const auth = authOf(req);
    const input = parse(uploadCodeInput, req.body);
    assertCan(await auth.access(), ACTION[input.kind], input.bucketId);
    if (input.examId) await examInBucket(db, input.examId, input.bucketId);
    if (input.reportId) {
      const [report] = await db.select({ id: reports.id }).from(reports)
        .where(and(eq(reports.id, input.reportId), eq(reports.bucketId, input.bucketId), isNull(reports.deletedTime)));
      if (!report) throw new ApiError('NotFound');
    }
    const now = deps.clock.now();
    const code = randomBytes(18).toString('base64url');
    const expiresAt = new Date(now.getTime() + input.ttlHours * 3_600_000);
    await db.insert(uploadCodes).values({
      code, kind: input.kind, bucketId: input.bucketId, examId: input.examId ?? null, reportId: input.reportId ?? null,
      createdBy: auth.account.id, expiresAt, created: now,
    });
    reply.status(201);
    return { code, kind: input.kind, expires: Math.floor(expiresAt.getTime() / 1000), path: `${PAGES[input.kind]}?code=${code}` };
  });

  app.delete('/upload-codes/:code', async (req, reply) => {
    const auth = authOf(req);
    const { code } = parse(codeParam, req.params);
    const [row] = await db.select().from(uploadCodes).where(eq(uploadCodes.code, code));
    if (!row) throw new ApiError('NotFound');
    assertCan(await auth.access(), ACTION[row.kind as keyof typeof ACTION], row.bucketId);
    await db.update(uploadCodes).set({ revokedAt: deps.clock.now() }).where(and(eq(uploadCodes.code, code), isNull(uploadCodes.revokedAt)));
    reply.status(204).send();
  });

  app.get('/upload-codes/:code', { config: { public: true } }, async (req): Promise<UploadCodeInfo> => {
    const now = deps.clock.now();
    await limitRequest(db, `upload-code:${req.ip}`, now);
    const row = await liveCode(db, parse(codeParam, req.params).code, now);
    const [bucket] = await db.select({ name: buckets.name }).from(buckets).where(eq(buckets.id, row.bucketId));
    let exam: UploadCodeInfo['exam'] = null;
    const examId = row.examId ?? (row.reportId ? (await db.select({ e: reports.examId }).from(reports).where(eq(reports.id, row.reportId)))[0]?.e : null);
    if (examId) {
      const [e] = await db.select().from(exams).where(eq(exams.id, examId));
      if (e) exam = { patientName: maskName(e.patientName), modality: e.modality, examTime: e.examTime.toISOString() };
    }
    return { kind: row.kind as UploadCodeInfo['kind'], bucketName: bucket?.name ?? '', expires: Math.floor(row.expiresAt.getTime() / 1000), exam };
  });

  // The uploader holds only the code: the exam it names, or studies this code made (resumed by UID), never another
  // exam of the organisation; the patient is shown masked; the credentials die with the code (server/auth/permits.ts).
  app.post('/upload-codes/:code/studies', { config: { public: true } }, async (req): Promise<UploadSession> => {
    const now = deps.clock.now();
    await limitRequest(db, `upload-code:${req.ip}`, now);
    const row = await liveCode(db, parse(codeParam, req.params).code, now, 'serviceOrder');
    const input = parse(studyUploadInput, req.body);
    const grant = { by: { k: 'code' as const, c: row.code }, until: Math.floor(row.expiresAt.getTime() / 1000) };
    if (row.examId) {
      const named = await examInBucket(db, row.examId, row.bucketId);
      const exam = await bindStudy(deps, named, input.studyInstanceUid).catch((err: unknown) => {
        // The study the exam is bound to is not the code holder's to learn.
        if (err instanceof ApiError && err.code === 'StudyMismatch') throw new ApiError('StudyMismatch', undefined, { received: input.studyInstanceUid });
        throw err;
      });
      return uploadSession(deps, exam, false, grant, { outsider: true });
    }
    const { exam, created } = await openOutsiderStudy(deps, row.bucketId, input, { code: row.code });
    return uploadSession(deps, exam, created, grant, { outsider: true });
  });
}
