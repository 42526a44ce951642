import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
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
import { issue, sessionCause, type SessionCause, type ViewClaims } from '../auth/permits';
import { assertCanView, assertExamReadable, liveExam } from './access';

const pub = { config: { public: true } };
const tokenQuery = z.object({ token: z.string().max(4096).optional() });

export async function seriesList(deps: Deps, examId: number): Promise<SeriesList> {
  const rows = await deps.db.select().from(dicomInstances).where(eq(dicomInstances.examId, examId))
    .orderBy(asc(dicomInstances.seriesNumber), asc(dicomInstances.instanceNumber), asc(dicomInstances.id));
  const { studies } = groupInstances(rows);
  return {
    examId,
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
  app.get('/exams/:id/series', pub, async (req): Promise<SeriesList> => {
    const { id } = parse(idParam, req.params);
    const { token } = parse(tokenQuery, req.query);
    const exam = await liveExam(deps, id);
    await assertExamReadable(req, deps, exam.id, exam.bucketId, token);
    return seriesList(deps, exam.id);
  });

  app.get('/instances/:id/file', pub, async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const { token } = parse(tokenQuery, req.query);
    const [instance] = await deps.db.select().from(dicomInstances).where(eq(dicomInstances.id, id));
    if (!instance) throw new ApiError('NotFound');
    const exam = await liveExam(deps, instance.examId);
    await assertExamReadable(req, deps, exam.id, exam.bucketId, token);
    reply.header('cache-control', 'private, max-age=3600');
    reply.header('content-disposition', `inline; filename="${instance.sopInstanceUid}.dcm"`);
    return sendObject(deps.storage, reply, instance.storageKey, 'application/dicom');
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
