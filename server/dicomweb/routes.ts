import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bucketsWith, can, type Access } from '../access/access';
import { authOf } from '../auth/plugin';
import { dicomInstances, exams } from '../db/schema';
import type { Deps } from '../deps';
import { answerAttributes, runQuery, type Level } from '../dicom/query';
import { receiveInstance } from '../dicom/receive';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { StorageNotFoundError } from '../storage/types';
import { VIEW_ACTIONS } from '../viewer/access';
import { renderFrame } from '../viewer/preview';
import { framePixels } from './frames';
import { answerJson, type JsonDataset } from './json';
import { multipartStream, newBoundary, parseMultipart } from './multipart';
import { DICOMWEB_BASE, negotiate, negotiateMultipart, parseMediaTypeOf, queryOf, renderedFormat, renderedQuery, retrieveUrl, rootUrl } from './request';
import { failedItem, instanceMetadata, pixelsOr404, readWhole, studyOfPart, uploadBucket, type InstanceRow } from './stored';

export { DICOMWEB_BASE } from './request';
/** A STOW-RS request's body is read whole (its parts are split in memory): at most this many bytes. */
export const STOW_MAX_BYTES = 512 * 1024 * 1024;

const DICOM_JSON = 'application/dicom+json';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

const uid = z.string().min(1).max(64).regex(/^[0-9]+(\.[0-9]+)*$/);
const studyParams = z.object({ study: uid });
const seriesParams = studyParams.extend({ series: uid });
const instanceParams = seriesParams.extend({ instance: uid });
const framesParams = instanceParams.extend({ frames: z.string().min(1).max(200).regex(/^\d+(,\d+)*$/) });
const stowQuery = z.object({ bucketId: z.coerce.number().int().positive().max(2_147_483_647).optional() });

/**
 * DICOMweb (PS3.18) over the product's exams and stored instances, for web viewers (OHIF) and PACS: QIDO-RS
 * (server/dicom/query.ts answers), WADO-RS (files, metadata, frames, rendered) and STOW-RS (the one ingest path,
 * server/dicom/receive.ts). Every request carries the product's bearer token; reading needs one of the viewer's
 * actions (server/viewer/access.ts VIEW_ACTIONS) in the study's organisation, storing exam_upload. A study outside
 * the caller's organisations does not exist (404).
 */
export async function dicomwebRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await app.register(async (dw) => {
    // STOW bodies are read whole (up to STOW_MAX_BYTES) and split by ./multipart.ts; a body of any other type reaches
    // the handler too, which refuses it with ParamsError after the caller's rights are checked.
    dw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: STOW_MAX_BYTES }, (_req, body, done) => done(null, body));

    // ------------------------------------------------------------------------------------------ QIDO-RS
    const qido = (level: Level, scope: (req: FastifyRequest) => { study?: string; series?: string }) => async (req: FastifyRequest, reply: FastifyReply) => {
      negotiate(req, [DICOM_JSON, 'application/json']);
      const path = scope(req);
      const access = await authOf(req).access();
      const q = queryOf(req.query as Record<string, unknown>);
      const result = await runQuery(deps.db, {
        level, bucketIds: readableBuckets(access), keys: q.keys, limit: q.limit, offset: q.offset,
        studyInstanceUid: path.study, seriesInstanceUid: path.series,
      });
      const attributes = answerAttributes(level, q.include);
      for (const k of q.keys.keys()) attributes.add(k);
      const base = rootUrl(req);
      const warnings: string[] = [];
      if (result.more) warnings.push('299 dicomweb "There are additional results that can be requested"');
      if (result.ignored.length > 0) warnings.push(`299 dicomweb "Matching is not supported on: ${result.ignored.join(', ')}"`);
      if (warnings.length > 0) reply.header('warning', warnings.join(', '));
      reply.type(`${DICOM_JSON}; charset=utf-8`);
      return result.answers.map((a) => answerJson(a, attributes, retrieveUrl(base, level, a)));
    };
    dw.get('/studies', qido('study', () => ({})));
    dw.get('/series', qido('series', () => ({})));
    dw.get('/instances', qido('instance', () => ({})));
    dw.get('/studies/:study/series', qido('series', (req) => ({ study: parse(studyParams, req.params).study })));
    dw.get('/studies/:study/instances', qido('instance', (req) => ({ study: parse(studyParams, req.params).study })));
    dw.get('/studies/:study/series/:series/instances', qido('instance', (req) => {
      const p = parse(seriesParams, req.params);
      return { study: p.study, series: p.series };
    }));

    // ------------------------------------------------------------------------------------------ WADO-RS
    /** The readable instances of a study (series, instance); none readable → 404 (403 when only seen, not readable). */
    const instancesOf = async (req: FastifyRequest, p: { study: string; series?: string; instance?: string }): Promise<InstanceRow[]> => {
      const access = await authOf(req).access();
      const member = [...access.buckets.keys()];
      if (member.length === 0) throw new ApiError('NotFound');
      const found = await deps.db.select({ id: exams.id, bucketId: exams.bucketId }).from(exams)
        .where(and(eq(exams.storeUid, p.study), isNull(exams.deletedTime), inArray(exams.bucketId, member)));
      const readable = found.filter((e) => canView(access, e.bucketId));
      if (readable.length === 0) throw new ApiError(found.length > 0 ? 'Forbidden' : 'NotFound');
      const rows = await deps.db.select().from(dicomInstances).where(and(
        inArray(dicomInstances.examId, readable.map((e) => e.id)), eq(dicomInstances.studyInstanceUid, p.study),
        p.series ? eq(dicomInstances.seriesInstanceUid, p.series) : undefined,
        p.instance ? eq(dicomInstances.sopInstanceUid, p.instance) : undefined,
      )).orderBy(asc(dicomInstances.seriesNumber), asc(dicomInstances.seriesInstanceUid), asc(dicomInstances.instanceNumber), asc(dicomInstances.id));
      // A study copied into several of the caller's organisations (an expert's copy) shares its files: each instance once.
      const seen = new Set<string>();
      const unique = rows.filter((r) => !seen.has(r.sopInstanceUid) && seen.add(r.sopInstanceUid));
      if (unique.length === 0) throw new ApiError('NotFound');
      return unique;
    };

    const retrieve = (params: z.ZodType<{ study: string; series?: string; instance?: string }>) => async (req: FastifyRequest, reply: FastifyReply) => {
      const type = negotiateMultipart(req, 'application/dicom');
      const rows = await instancesOf(req, parse(params, req.params));
      const boundary = newBoundary();
      const base = rootUrl(req);
      reply.header('cache-control', 'private, no-store');
      reply.type(`multipart/related; type="${type}"; boundary=${boundary}`);
      return reply.send(multipartStream(boundary, rows.map((r) => ({
        contentType: `application/dicom; transfer-syntax=${r.transferSyntaxUid}`,
        location: `${base}/studies/${r.studyInstanceUid}/series/${r.seriesInstanceUid}/instances/${r.sopInstanceUid}`,
        body: async () => {
          try {
            return await deps.storage.get(r.storageKey);
          } catch (err) {
            // A row whose file is gone mid-answer: the stream fails and the connection closes (the status is sent).
            if (err instanceof StorageNotFoundError) throw new Error(`instance ${r.id}: file no longer stored`, { cause: err });
            throw err;
          }
        },
      }))));
    };
    dw.get('/studies/:study', retrieve(studyParams));
    dw.get('/studies/:study/series/:series', retrieve(seriesParams));
    dw.get('/studies/:study/series/:series/instances/:instance', retrieve(instanceParams));

    const metadata = (params: z.ZodType<{ study: string; series?: string; instance?: string }>) => async (req: FastifyRequest, reply: FastifyReply) => {
      negotiate(req, [DICOM_JSON, 'application/json']);
      const rows = await instancesOf(req, parse(params, req.params));
      const base = rootUrl(req);
      const out: JsonDataset[] = [];
      for (const r of rows) out.push(await instanceMetadata(deps, r, base));
      reply.header('cache-control', 'private, no-store');
      reply.type(`${DICOM_JSON}; charset=utf-8`);
      return out;
    };
    dw.get('/studies/:study/metadata', metadata(studyParams));
    dw.get('/studies/:study/series/:series/metadata', metadata(seriesParams));
    dw.get('/studies/:study/series/:series/instances/:instance/metadata', metadata(instanceParams));

    dw.get('/studies/:study/series/:series/instances/:instance/frames/:frames', async (req, reply) => {
      negotiateMultipart(req, 'application/octet-stream');
      const p = parse(framesParams, req.params);
      const [row] = await instancesOf(req, p);
      const numbers = p.frames.split(',').map(Number);
      if (numbers.some((n) => n < 1 || n > row!.frames)) throw new ApiError('NotFound', 'No such frame');
      const file = await readWhole(deps, row!);
      const parts: { bytes: Uint8Array; n: number }[] = [];
      for (const n of numbers) parts.push({ n, bytes: await pixelsOr404(() => framePixels(file, n - 1)) });
      const boundary = newBoundary();
      const base = rootUrl(req);
      reply.header('cache-control', 'private, no-store');
      reply.type(`multipart/related; type="application/octet-stream"; boundary=${boundary}`);
      return reply.send(multipartStream(boundary, parts.map((part) => ({
        contentType: `application/octet-stream; transfer-syntax=${EXPLICIT_LE}`,
        location: `${base}/studies/${p.study}/series/${p.series}/instances/${p.instance}/frames/${part.n}`,
        body: async () => part.bytes,
      }))));
    });

    const rendered = (framed: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
      const p = parse(instanceParams, req.params);
      const frame = framed ? Number(parse(framesParams, req.params).frames.split(',')[0]) : 1;
      const q = parse(renderedQuery, req.query);
      const format = renderedFormat(req, q.accept);
      const [row] = await instancesOf(req, p);
      if (frame < 1 || frame > row!.frames) throw new ApiError('NotFound', 'No such frame');
      const file = await readWhole(deps, row!);
      const max = q.viewport ? Math.max(...q.viewport.split(',').slice(0, 2).map(Number)) : undefined;
      const image = await pixelsOr404(() => renderFrame(file, frame - 1, { format, max, quality: q.quality }));
      reply.header('cache-control', 'private, max-age=3600');
      reply.type(format === 'png' ? 'image/png' : 'image/jpeg');
      return reply.send(image);
    };
    dw.get('/studies/:study/series/:series/instances/:instance/rendered', rendered(false));
    dw.get('/studies/:study/series/:series/instances/:instance/frames/:frames/rendered', rendered(true));

    // ------------------------------------------------------------------------------------------ STOW-RS
    const stow = async (req: FastifyRequest, reply: FastifyReply) => {
      negotiate(req, [DICOM_JSON, 'application/json']);
      const path = req.params && (req.params as { study?: string }).study !== undefined ? parse(studyParams, req.params) : null;
      const { bucketId: asked } = parse(stowQuery, req.query);
      const auth = authOf(req);
      const access = await auth.access();
      const bucketId = uploadBucket(access, asked);
      const { type, params } = parseMediaTypeOf(req);
      if (!(req.body instanceof Buffer) || type !== 'multipart/related') {
        throw new ApiError('ParamsError', 'Send the instances as multipart/related; type="application/dicom"', { fields: ['content-type'] });
      }
      if (params.type && params.type.toLowerCase() !== 'application/dicom') {
        throw new ApiError('NotAcceptable', 'Only application/dicom parts are stored', { type: params.type });
      }
      const parts = parseMultipart(req.body, req.headers['content-type'] ?? '');
      if (parts.length === 0) throw new ApiError('ParamsError', 'The request holds no instance');
      const base = rootUrl(req);
      const referenced: JsonDataset[] = [];
      const failed: JsonDataset[] = [];
      let studyUid: string | null = path?.study ?? null;
      for (const part of parts) {
        const type = part.contentType.split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/dicom') { failed.push(failedItem(null, null, 0xc000)); continue; }
        // POST studies/{study}: an instance of another study is refused, as the standard asks.
        if (path) {
          const uids = studyOfPart(part.body);
          if (uids && uids !== path.study) { failed.push(failedItem(null, null, 0xa900)); continue; }
        }
        const result = await receiveInstance(deps, bucketId, part.body, { kind: 'stow', accountId: auth.account.id });
        if (result.ok) {
          const i = result.instance;
          studyUid ??= i.studyInstanceUid;
          referenced.push({
            '00081150': { vr: 'UI', Value: [i.sopClassUid ?? ''] },
            '00081155': { vr: 'UI', Value: [i.sopInstanceUid] },
            '00081190': { vr: 'UR', Value: [`${base}/studies/${i.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`] },
          });
        } else {
          failed.push(failedItem(result.sopClassUid, result.sopInstanceUid, result.dimseStatus));
        }
      }
      const answer: JsonDataset = {};
      if (studyUid) answer['00081190'] = { vr: 'UR', Value: [`${base}/studies/${studyUid}`] };
      if (failed.length > 0) answer['00081198'] = { vr: 'SQ', Value: failed };
      if (referenced.length > 0) answer['00081199'] = { vr: 'SQ', Value: referenced };
      reply.type(`${DICOM_JSON}; charset=utf-8`);
      // PS3.18 10.5.3: all stored 200, some 202, none 409.
      reply.status(failed.length === 0 ? 200 : referenced.length > 0 ? 202 : 409);
      return answer;
    };
    dw.post('/studies', stow);
    dw.post('/studies/:study', stow);
  }, { prefix: DICOMWEB_BASE });

  // ---------------------------------------------------------------------------------------------- helpers
  function readableBuckets(access: Access): number[] {
    return [...new Set(VIEW_ACTIONS.flatMap((a) => bucketsWith(access, a)))];
  }
  function canView(access: Access, bucketId: number) {
    return VIEW_ACTIONS.some((a) => can(access, a, bucketId));
  }
}
