import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParam, idValue } from '../../contract/common';
import { EXTENSIONS, POLICY_LIMITS, sniffType, type SniffedType } from '../../contract/files';
import type { PolicyKind } from '../../contract/uploads';
import { assertCan, assertMember, can } from '../access/access';
import { exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { assertImageWithinLimits } from '../http/imageLimits';
import { parse } from '../http/validate';
import { sendObject } from '../storage/send';
import { storedName } from '../storage/types';
import { actorOf } from '../auth/actor';
import { fileBytes, formFile } from '../http/multipart';

const pub = { config: { public: true } };
// A stored name's rule (server/storage/types.ts): it starts with a letter or digit.
const fileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{7,63}\.(png|jpg|webp|pdf)$/);
const avatarParams = z.object({ accountId: idValue, name: fileName });
const formParams = idParam.extend({ name: fileName });
const downloadQuery = z.object({ token: z.string().max(4096).optional() });
const TYPE_OF_EXTENSION = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type])) as Record<string, SniffedType>;

/** Reads a policy upload's bytes and checks them against the policy: size (UploadTooLarge), sniffed type (UnsupportedFileType), an image's pixels (ImageTooLarge, ImageBroken). */
export async function policyFile(bytes: Promise<Buffer>, kind: PolicyKind): Promise<{ bytes: Buffer; type: SniffedType }> {
  const data = await bytes;
  const type = sniffType(data);
  if (!type || !POLICY_LIMITS[kind].types.includes(type)) {
    throw new ApiError('UnsupportedFileType', undefined, { accepted: POLICY_LIMITS[kind].types });
  }
  // Avatars, forms, key images, report attachments: every image's size rule, read from its header (ImageTooLarge).
  if (type !== 'application/pdf') assertImageWithinLimits(data);
  return { bytes: data, type };
}

/** Avatars (any signed-in account, its own) and application forms (an exam's scanned requisition). */
export async function policyFileRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;
  const tooLarge = (kind: PolicyKind) => () => new ApiError('UploadTooLarge', undefined, { maxBytes: POLICY_LIMITS[kind].maxBytes });

  app.post('/uploads/avatars', pub, async (req, reply) => {
    const { fields, file } = await formFile(req, POLICY_LIMITS.avatars.maxBytes);
    const actor = await actorOf(req, deps, { token: fields.token, use: 'policy', kind: 'avatars' });
    const { bytes, type } = await policyFile(fileBytes(file, tooLarge('avatars')), 'avatars');
    const name = storedName(EXTENSIONS[type]);
    await storage.put(`avatars/${actor.accountId}/${name}`, bytes, { contentType: type });
    reply.status(201);
    return { url: `/api/v1/avatars/${actor.accountId}/${name}` };
  });

  // Avatars are shown to every colleague in lists and toasts: public by an unguessable name, no patient data.
  app.get('/avatars/:accountId/:name', pub, async (req, reply) => {
    const { accountId, name } = parse(avatarParams, req.params);
    reply.header('cache-control', 'public, max-age=86400, immutable');
    return sendObject(storage, reply, `avatars/${accountId}/${name}`, TYPE_OF_EXTENSION[name.split('.').pop()!]!);
  });

  app.post('/exams/:id/forms', pub, async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const { fields, file } = await formFile(req, POLICY_LIMITS.forms.maxBytes);
    const actor = await actorOf(req, deps, { token: fields.token, use: 'policy', kind: 'forms' });
    const [exam] = await db.select({ id: exams.id, bucketId: exams.bucketId }).from(exams).where(and(eq(exams.id, id), isNull(exams.deletedTime)));
    const access = await actor.access();
    if (!exam) throw new ApiError('NotFound');
    if (!can(access, 'exam_upload', exam.bucketId)) assertCan(access, 'upload_apply_forms', exam.bucketId);
    const { bytes, type } = await policyFile(fileBytes(file, tooLarge('forms')), 'forms');
    const name = storedName(EXTENSIONS[type]);
    await storage.put(`forms/${exam.bucketId}/${exam.id}/${name}`, bytes, { contentType: type });
    const url = `/api/v1/exams/${exam.id}/forms/${name}`;
    const [updated] = await db.update(exams).set({ formImgUrls: sql`${exams.formImgUrls} || ${JSON.stringify([url])}::jsonb` })
      .where(eq(exams.id, exam.id)).returning({ formImgUrls: exams.formImgUrls });
    reply.status(201);
    return { url, formImgUrls: updated?.formImgUrls ?? [url] };
  });

  // Forms carry patient data: a bearer, or a download permit for <img src>.
  app.get('/exams/:id/forms/:name', pub, async (req, reply) => {
    const { id, name } = parse(formParams, req.params);
    const actor = await actorOf(req, deps, { token: parse(downloadQuery, req.query).token, use: 'download' });
    const [exam] = await db.select({ bucketId: exams.bucketId, formImgUrls: exams.formImgUrls }).from(exams).where(eq(exams.id, id));
    const access = await actor.access();
    if (!exam) throw new ApiError('NotFound');
    assertMember(access, exam.bucketId);
    if (!(['exam_get', 'exam_upload', 'upload_apply_forms'] as const).some((a) => can(access, a, exam.bucketId))) throw new ApiError('Forbidden');
    if (!exam.formImgUrls.some((u) => u.endsWith(`/${name}`))) throw new ApiError('NotFound');
    return sendObject(storage, reply, `forms/${exam.bucketId}/${id}/${name}`, TYPE_OF_EXTENSION[name.split('.').pop()!]!);
  });
}
