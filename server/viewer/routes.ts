import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idParam } from '../../contract/common';
import { groupInstances } from '../../contract/dicom';
import { VIEW_TOKEN_TTL_SECONDS, sharePathInput, type SeriesList, type ViewerPath } from '../../contract/viewer';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import { dicomInstances } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { sendObject } from '../storage/send';
import { StorageNotFoundError } from '../storage/types';
import { PixelError } from './pixels';
import { renderPreview } from './preview';
import { issue, sessionCause, type SessionCause, type ViewClaims } from '../auth/permits';
import { assertCanView, assertExamReadable, liveExam } from './access';

const pub = { config: { public: true } };
const tokenQuery = z.object({ token: z.string().max(4096).optional() });

export async function seriesList(deps: Deps, exam: { id: number; patientName: string; patientId: string }): Promise<SeriesList> {
  const examId = exam.id;
  const rows = await deps.db.select().from(dicomInstances).where(eq(dicomInstances.examId, examId))
    .orderBy(asc(dicomInstances.seriesNumber), asc(dicomInstances.instanceNumber), asc(dicomInstances.id));
  const { studies } = groupInstances(rows);
  return {
    examId,
    patientName: exam.patientName,
    patientId: exam.patientId,
    studyInstanceUids: studies.map((s) => s.studyInstanceUid),
    series: studies.flatMap((s) => s.series).map((s) => ({
      seriesInstanceUid: s.seriesInstanceUid, seriesNumber: s.seriesNumber, seriesDescription: s.seriesDescription, modality: s.modality,
      instances: s.instances.map((i) => ({
        id: i.id, sopInstanceUid: i.sopInstanceUid, sopClassUid: i.sopClassUid, instanceNumber: i.instanceNumber, rows: i.rows,
        columns: i.columns, frames: i.frames, transferSyntaxUid: i.transferSyntaxUid, size: i.size, path: `instances/${i.id}/file`,
      })),
    })),
    instanceCount: rows.length,
  };
}

/** Instances for the viewer (core §2 exam detail, report workspace): series list, instance files, viewer paths. */
export async function viewerRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  /** The instance of the path's id, for whoever may read its exam (a member, or a view token of that exam). */
  const readableInstance = async (req: FastifyRequest) => {
    const { id } = parse(idParam, req.params);
    const { token } = parse(tokenQuery, req.query);
    const [instance] = await deps.db.select().from(dicomInstances).where(eq(dicomInstances.id, id));
    if (!instance) throw new ApiError('NotFound');
    const exam = await liveExam(deps, instance.examId);
    await assertExamReadable(req, deps, exam.id, exam.bucketId, token);
    return instance;
  };

  app.get('/exams/:id/series', pub, async (req): Promise<SeriesList> => {
    const { id } = parse(idParam, req.params);
    const { token } = parse(tokenQuery, req.query);
    const exam = await liveExam(deps, id);
    await assertExamReadable(req, deps, exam.id, exam.bucketId, token);
    return seriesList(deps, exam);
  });

  app.get('/instances/:id/file', pub, async (req, reply) => {
    const instance = await readableInstance(req);
    reply.header('cache-control', 'private, max-age=3600');
    reply.header('content-disposition', `inline; filename="${instance.sopInstanceUid}.dcm"`);
    return sendObject(deps.storage, reply, instance.storageKey, 'application/dicom');
  });

  // The first frame as a small PNG, windowed as the viewer opens it (thumbnails of the exam drawer, key images,
  // share pages). Made once and kept in storage beside the file; the same readers as the file itself.
  app.get('/instances/:id/preview', pub, async (req, reply) => {
    const instance = await readableInstance(req);
    const key = previewKey(instance);
    if (!(await deps.storage.head(key))) {
      // The whole file is read to decode it: a file past this (a long multi-frame) has no preview rather than a server short of memory.
      if (instance.size > PREVIEW_FILE_MAX) throw new ApiError('InvalidDicom', 'No preview: the file is too large to decode here', { reason: 'tooLarge' });
      await deps.storage.put(key, await previewOf(deps, instance.storageKey), { contentType: 'image/png' });
    }
    reply.header('cache-control', 'private, max-age=3600');
    return sendObject(deps.storage, reply, key, 'image/png');
  });

  // A member's own viewer permit dies with the session that asked for it (logout, disabled account); a share path is
  // handed to someone outside on purpose and lives its chosen hours.
  const viewerPath = (examId: number, ttlSeconds: number, by?: SessionCause): ViewerPath => {
    const { token, expires } = issue<ViewClaims>(deps, 'view', by ? { e: examId, by } : { e: examId }, ttlSeconds);
    return { path: `/viewer/${examId}?token=${token}`, seriesPath: `exams/${examId}/series`, token, expires };
  };

  app.post('/viewers/:id/path', async (req): Promise<ViewerPath> => {
    const { id } = parse(idParam, req.params);
    const exam = await liveExam(deps, id);
    const auth = authOf(req);
    assertCanView(await auth.access(), exam.bucketId);
    return viewerPath(exam.id, VIEW_TOKEN_TTL_SECONDS, sessionCause(auth));
  });

  // Handing the images to someone outside: only for those who may get the exam itself.
  app.post('/viewers/:id/share-path', async (req): Promise<ViewerPath> => {
    const { id } = parse(idParam, req.params);
    const { ttlHours } = parse(sharePathInput, req.body);
    const exam = await liveExam(deps, id);
    assertCan(await authOf(req).access(), 'exam_get', exam.bucketId);
    return viewerPath(exam.id, ttlHours * 3600);
  });
}

/** The largest file a preview is made of (bytes). */
export const PREVIEW_FILE_MAX = 256 * 1024 * 1024;

/** Where an instance's preview is kept: beside its exam's files, named by the instance (one preview per instance). */
export const previewKey = (instance: { bucketId: number; examId: number; id: number }) =>
  `previews/${instance.bucketId}/${instance.examId}/${instance.id}.v1.png`;

async function previewOf(deps: Deps, storageKey: string): Promise<Buffer> {
  let file: Buffer;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.storage.get(storageKey)) chunks.push(chunk as Buffer);
    file = Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw new ApiError('NotFound', 'The file is no longer stored');
    throw err;
  }
  try {
    return await renderPreview(new Uint8Array(file.buffer, file.byteOffset, file.byteLength));
  } catch (err) {
    // A stored file whose pixels cannot be read (no pixel data: a report or a key object; damaged fragments).
    // A codec's own failure (damaged fragments) is the file's too.
    throw new ApiError('InvalidDicom', `No preview: ${err instanceof PixelError ? err.message : 'the pixel data cannot be decoded'}`, { reason: 'pixels' });
  }
}
