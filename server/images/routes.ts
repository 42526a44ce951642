import multipart from '@fastify/multipart';
import { and, asc, count, eq, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParam } from '../../contract/common';
import { KEY_IMAGES_MAX, KEY_IMAGE_MAX_BYTES } from '../../contract/constants';
import { EXTENSIONS, POLICY_LIMITS } from '../../contract/files';
import {
  attachmentParams, keyImageFields, keyImageParams, type KeyImage, type PresignedUrl, type ReportAttachment,
} from '../../contract/images';
import { assertCan, type Access } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { dicomInstances, keyImages, reportAttachments } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { limitRequest } from '../http/rateLimit';
import { actorOf } from '../auth/actor';
import { liveCode } from '../uploads/codes';
import { fileBytes, formFile, type FormUpload } from '../http/multipart';
import { policyFile } from '../uploads/policyFiles';
import { storedName } from '../storage/types';
import { listKeyImages, toKeyImage } from './keyImages';
import { assertMayEdit, liveReport, readable } from './reportAccess';

const pub = { config: { public: true } };
const tokenQuery = z.object({ token: z.string().max(4096).optional() });
const codeParam = z.object({ code: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/) });
/** Attachment links live ten minutes (key images: KEY_IMAGE_URL_TTL in ./keyImages). */
const ATTACHMENT_URL_TTL = 600;

/** Key images and attachments of a report (core §2, §5, §7 "Reports"). */
export async function imageRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;
  await app.register(multipart);

  const toAttachment = (row: typeof reportAttachments.$inferSelect): ReportAttachment => ({
    id: row.id, reportId: row.reportId, name: row.name, contentType: row.contentType, size: row.size,
    created: row.created.toISOString(), createdBy: row.createdBy,
  });

  app.get('/reports/:id/images', pub, async (req): Promise<KeyImage[]> => {
    const { id } = parse(idParam, req.params);
    const actor = await actorOf(req, deps, { token: parse(tokenQuery, req.query).token, use: 'download' });
    await readable(db, await actor.access(), id);
    return listKeyImages(db, storage, id);
  });

  app.post('/reports/:id/images', pub, async (req, reply): Promise<KeyImage> => {
    const { id } = parse(idParam, req.params);
    const { fields, file } = await formFile(req, KEY_IMAGE_MAX_BYTES);
    const actor = await actorOf(req, deps, { token: fields.token, use: 'policy', kind: 'images' });
    const extra = parse(keyImageFields, fields);
    const access = await actor.access();
    const loaded = await liveReport(db, id);
    await assertMayEdit(db, access, loaded);
    // Refuse the seventh before reading it; the count is checked again under the report's row lock.
    if ((await imageCount(db, id)) >= KEY_IMAGES_MAX) throw new ApiError('TooManyImages');
    const { bytes, type } = await policyFile(fileBytes(file, () => new ApiError('FileTooLarge')), 'images');
    if (extra.instanceId !== undefined) {
      const [instance] = await db.select({ examId: dicomInstances.examId }).from(dicomInstances).where(eq(dicomInstances.id, extra.instanceId));
      if (instance?.examId !== loaded.exam.id) throw new ApiError('ParamsError', undefined, { fields: [{ path: 'instanceId', message: 'not an instance of this exam' }] });
    }
    const key = `images/${loaded.row.bucketId}/${id}/${storedName(EXTENSIONS[type])}`;
    await storage.put(key, bytes, { contentType: type });
    try {
      const row = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const locked = await liveReport(t, id, { forUpdate: true });
        await assertMayEdit(t, access, locked);
        const [{ n, last } = { n: 0, last: null }] = await t.select({ n: count(), last: max(keyImages.sort) }).from(keyImages).where(eq(keyImages.reportId, id));
        if (n >= KEY_IMAGES_MAX) throw new ApiError('TooManyImages');
        const [inserted] = await t.insert(keyImages).values({
          reportId: id, bucketId: locked.row.bucketId, storageKey: key, contentType: type, size: bytes.length,
          instanceId: extra.instanceId ?? null, frame: extra.frame ?? null, description: extra.description ?? null,
          sort: (last ?? -1) + 1, createdBy: actor.accountId, created: deps.clock.now(),
        }).returning();
        return inserted!;
      });
      reply.status(201);
      return toKeyImage(storage, row);
    } catch (err) {
      await storage.delete(key);
      throw err;
    }
  });

  app.delete('/reports/:id/images/:imageId', async (req, reply) => {
    const { id, imageId } = parse(keyImageParams, req.params);
    const access = await authOf(req).access();
    await assertMayEdit(db, access, await liveReport(db, id));
    const [removed] = await db.delete(keyImages).where(and(eq(keyImages.id, imageId), eq(keyImages.reportId, id))).returning();
    if (!removed) throw new ApiError('NotFound');
    await storage.delete(removed.storageKey);
    reply.status(204).send();
  });

  app.get('/reports/:id/attachments', async (req): Promise<ReportAttachment[]> => {
    const { id } = parse(idParam, req.params);
    await readable(db, await authOf(req).access(), id);
    const rows = await db.select().from(reportAttachments).where(eq(reportAttachments.reportId, id)).orderBy(asc(reportAttachments.id));
    return rows.map(toAttachment);
  });

  app.get('/reports/:id/attachments/:attachmentId/presign-url', async (req): Promise<PresignedUrl> => {
    const { id, attachmentId } = parse(attachmentParams, req.params);
    const access = await authOf(req).access();
    const loaded = await liveReport(db, id);
    assertCan(access, 'attachment_presigned_url', loaded.row.bucketId);
    const [row] = await db.select().from(reportAttachments).where(and(eq(reportAttachments.id, attachmentId), eq(reportAttachments.reportId, id)));
    if (!row) throw new ApiError('NotFound');
    const url = await storage.readUrl(row.storageKey, { expiresInSeconds: ATTACHMENT_URL_TTL, filename: row.name, contentType: row.contentType });
    return { url, expires: Math.floor(deps.clock.now().getTime() / 1000) + ATTACHMENT_URL_TTL };
  });

  /** Stores an attachment's bytes and row; the file is removed again when the row cannot be written. */
  async function addAttachment(form: FormUpload, report: { id: number; bucketId: number }, by: { accountId: number | null; code: string | null }) {
    const { bytes, type } = await policyFile(fileBytes(form.file, () => new ApiError('UploadTooLarge', undefined, { maxBytes: POLICY_LIMITS.attachments.maxBytes })), 'attachments');
    const key = `attachments/${report.bucketId}/${report.id}/${storedName(EXTENSIONS[type])}`;
    await storage.put(key, bytes, { contentType: type });
    try {
      const [row] = await db.insert(reportAttachments).values({
        reportId: report.id, bucketId: report.bucketId, name: displayName(form.file.filename, EXTENSIONS[type]), storageKey: key,
        contentType: type, size: bytes.length, createdBy: by.accountId, uploadCode: by.code, created: deps.clock.now(),
      }).returning();
      return toAttachment(row!);
    } catch (err) {
      await storage.delete(key);
      throw err;
    }
  }

  app.post('/reports/:id/upload-attachments', pub, async (req, reply): Promise<ReportAttachment> => {
    const { id } = parse(idParam, req.params);
    const form = await formFile(req, POLICY_LIMITS.attachments.maxBytes);
    const actor = await actorOf(req, deps, { token: form.fields.token, use: 'policy', kind: 'attachments' });
    const access: Access = await actor.access();
    const loaded = await liveReport(db, id);
    assertCan(access, 'attachment_upload', loaded.row.bucketId);
    reply.status(201);
    return addAttachment(form, { id, bucketId: loaded.row.bucketId }, { accountId: actor.accountId, code: null });
  });

  app.delete('/reports/:id/attachments/:attachmentId', async (req, reply) => {
    const { id, attachmentId } = parse(attachmentParams, req.params);
    const access = await authOf(req).access();
    const loaded = await liveReport(db, id);
    assertCan(access, 'attachment_delete', loaded.row.bucketId);
    const [removed] = await db.delete(reportAttachments)
      .where(and(eq(reportAttachments.id, attachmentId), eq(reportAttachments.reportId, id))).returning();
    if (!removed) throw new ApiError('NotFound');
    await storage.delete(removed.storageKey);
    reply.status(204).send();
  });

  // /attachments/upload?code: someone without an account adds files to the report the code names.
  app.post('/upload-codes/:code/attachments', pub, async (req, reply): Promise<ReportAttachment> => {
    const { code } = parse(codeParam, req.params);
    const now = deps.clock.now();
    await limitRequest(db, `upload-code:${req.ip}`, now);
    const row = await liveCode(db, code, now, 'attachment');
    const loaded = await liveReport(db, row.reportId!);
    if (loaded.row.bucketId !== row.bucketId) throw new ApiError('NotFound');
    const form = await formFile(req, POLICY_LIMITS.attachments.maxBytes);
    reply.status(201);
    return addAttachment(form, { id: loaded.row.id, bucketId: loaded.row.bucketId }, { accountId: null, code });
  });
}

async function imageCount(db: Db, reportId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(keyImages).where(eq(keyImages.reportId, reportId));
  return row?.n ?? 0;
}

/** The name shown for an attachment: the uploader's file name without paths or control characters. */
function displayName(filename: string | undefined, ext: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const base = (filename ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return base || `attachment.${ext}`;
}
