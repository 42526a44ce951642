import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { readDicomHeader } from '../../contract/dicom';
import { bucketsWith, can, type Access } from '../access/access';
import { authOf } from '../auth/plugin';
import { dicomInstances, exams } from '../db/schema';
import type { Deps } from '../deps';
import { answerAttributes, keyAttribute, QUERY_DEFAULT_LIMIT, QUERY_MAX_LIMIT, runQuery, type Level } from '../dicom/query';
import { receiveInstance } from '../dicom/receive';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { StorageNotFoundError } from '../storage/types';
import { VIEW_ACTIONS } from '../viewer/access';
import { NoSuchFrameError, PixelError } from '../viewer/pixels';
import { renderFrame } from '../viewer/preview';
import { framePixels, servedImageFacts } from './frames';
import { answerJson, fileMetadata, type JsonDataset } from './json';
import { acceptList, multipartStream, newBoundary, parseMultipart, type MediaType } from './multipart';

/** Where the DICOMweb services live, under /api/v1 (QIDO-RS, WADO-RS and STOW-RS share the one root). */
export const DICOMWEB_BASE = '/dicomweb';
/** A STOW-RS request's body is read whole (its parts are split in memory): at most this many bytes. */
export const STOW_MAX_BYTES = 512 * 1024 * 1024;
/** A file read whole for its metadata, frames or rendering is at most this large (as the viewer's preview). */
const DECODE_FILE_MAX = 256 * 1024 * 1024;

const DICOM_JSON = 'application/dicom+json';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

const uid = z.string().min(1).max(64).regex(/^[0-9]+(\.[0-9]+)*$/);
const studyParams = z.object({ study: uid });
const seriesParams = studyParams.extend({ series: uid });
const instanceParams = seriesParams.extend({ instance: uid });
const framesParams = instanceParams.extend({ frames: z.string().min(1).max(200).regex(/^\d+(,\d+)*$/) });
const stowQuery = z.object({ bucketId: z.coerce.number().int().positive().max(2_147_483_647).optional() });

type InstanceRow = typeof dicomInstances.$inferSelect;

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

/** The organisation a STOW stores into: the asked one, or the caller's only organisation with exam_upload. */
function uploadBucket(access: Access, asked: number | undefined): number {
  if (asked !== undefined) {
    if (!access.buckets.has(asked)) throw new ApiError('NotFound');
    if (!can(access, 'exam_upload', asked)) throw new ApiError('Forbidden');
    return asked;
  }
  const ids = bucketsWith(access, 'exam_upload');
  if (ids.length === 0) throw new ApiError('Forbidden');
  if (ids.length > 1) throw new ApiError('ParamsError', 'You upload to several organisations: name one with ?bucketId=', { fields: ['bucketId'], bucketIds: ids });
  return ids[0]!;
}

function failedItem(sopClassUid: string | null, sopInstanceUid: string | null, reason: number): JsonDataset {
  return {
    '00081150': sopClassUid ? { vr: 'UI', Value: [sopClassUid] } : { vr: 'UI' },
    '00081155': sopInstanceUid ? { vr: 'UI', Value: [sopInstanceUid] } : { vr: 'UI' },
    '00081197': { vr: 'US', Value: [reason] },
  };
}

/** The Study Instance UID of a part (null when it cannot be read: receiveInstance then refuses the file itself). */
function studyOfPart(bytes: Uint8Array): string | null {
  const read = readDicomHeader(bytes);
  return read.ok ? read.header.studyInstanceUid : null;
}

const parseMediaTypeOf = (req: FastifyRequest): MediaType => acceptList(req.headers['content-type'])[0] ?? { type: '', params: {} };

// ------------------------------------------------------------------------------------------------ requests
const renderedQuery = z.object({
  accept: z.string().max(200).optional(),
  viewport: z.string().regex(/^\d{1,5},\d{1,5}(,.*)?$/).max(100).optional(),
  quality: z.coerce.number().int().min(1).max(100).optional(),
  window: z.string().max(100).optional(),
  annotation: z.string().max(100).optional(),
});

/** The QIDO query string: matching keys (keyword or tag), limit, offset, includefield; fuzzymatching false only. */
function queryOf(raw: Record<string, unknown>): { keys: Map<string, string>; limit: number; offset: number; include: string[] } {
  const keys = new Map<string, string>();
  const include: string[] = [];
  let limit = QUERY_DEFAULT_LIMIT;
  let offset = 0;
  const one = (name: string, v: unknown): string => {
    if (Array.isArray(v)) throw new ApiError('ParamsError', `${name} is given more than once`, { fields: [name] });
    if (typeof v !== 'string' || v.includes('\u0000')) throw new ApiError('ParamsError', `${name} is not a text value`, { fields: [name] });
    return v;
  };
  const count = (name: string, v: unknown, max: number): number => {
    const s = one(name, v);
    if (!/^\d{1,9}$/.test(s) || Number(s) > max) throw new ApiError('ParamsError', `${name} must be an integer from 0 to ${max}`, { fields: [name] });
    return Number(s);
  };
  for (const [name, value] of Object.entries(raw)) {
    switch (name) {
      case 'limit': limit = count(name, value, QUERY_MAX_LIMIT); if (limit === 0) throw new ApiError('ParamsError', 'limit must be at least 1', { fields: [name] }); break;
      case 'offset': offset = count(name, value, 100_000_000); break;
      case 'fuzzymatching': if (one(name, value) !== 'false') throw new ApiError('ParamsError', 'Fuzzy matching is not supported', { fields: [name] }); break;
      case 'includefield': {
        for (const v of (Array.isArray(value) ? value : [value]).map((x) => one(name, x))) {
          for (const field of v.split(',').map((f) => f.trim()).filter(Boolean)) {
            include.push(field === 'all' ? 'all' : keyAttribute(field.split('.')[0]!).keyword);
          }
        }
        break;
      }
      default: {
        // A nested key (Sequence.Keyword): valid names, never matched.
        const attribute = keyAttribute(name.split('.')[0]!);
        for (const sub of name.split('.').slice(1)) keyAttribute(sub);
        if (keys.has(attribute.keyword)) throw new ApiError('ParamsError', `${name} is given more than once`, { fields: [name] });
        keys.set(name.includes('.') ? name : attribute.keyword, one(name, value));
      }
    }
  }
  if (include.length > 200) throw new ApiError('ParamsError', 'Too many includefield values', { fields: ['includefield'] });
  return { keys, limit, offset, include };
}

/** The service root as the caller reached it (RetrieveURL, Content-Location, STOW's answer). */
function rootUrl(req: FastifyRequest): string {
  const host = req.headers.host ?? 'localhost';
  return `${req.protocol}://${host}/api/v1${DICOMWEB_BASE}`;
}

function retrieveUrl(base: string, level: Level, a: Record<string, unknown>): string | undefined {
  const study = a.StudyInstanceUID;
  if (typeof study !== 'string') return undefined;
  if (level === 'study') return `${base}/studies/${study}`;
  if (level === 'series') return `${base}/studies/${study}/series/${String(a.SeriesInstanceUID)}`;
  return `${base}/studies/${study}/series/${String(a.SeriesInstanceUID)}/instances/${String(a.SOPInstanceUID)}`;
}

const matches = (range: string, type: string) => {
  if (range === '*/*') return true;
  if (range.endsWith('/*')) return type.startsWith(range.slice(0, -1));
  return range === type;
};

/** Accept must allow one of `types` (JSON answers), else 406. */
function negotiate(req: FastifyRequest, types: string[]): void {
  const list = acceptList(req.headers.accept);
  if (!list.some((m) => types.some((t) => matches(m.type, t)))) throw new ApiError('NotAcceptable', undefined, { accept: types });
}

/** Accept must allow multipart/related of `part` (any transfer syntax: the stored one is sent), else 406. */
function negotiateMultipart(req: FastifyRequest, part: string): string {
  const list = acceptList(req.headers.accept);
  const ok = list.some((m) => m.type === '*/*' || m.type === 'multipart/*'
    || (m.type === 'multipart/related' && (!m.params.type || m.params.type.toLowerCase() === part)));
  if (!ok) throw new ApiError('NotAcceptable', undefined, { accept: [`multipart/related; type="${part}"`] });
  return part;
}

function renderedFormat(req: FastifyRequest, asked: string | undefined): 'png' | 'jpeg' {
  const list = asked ? acceptList(asked) : acceptList(req.headers.accept);
  for (const m of list) {
    if (m.type === 'image/png') return 'png';
    if (m.type === 'image/jpeg' || m.type === 'image/*' || m.type === '*/*') return 'jpeg';
  }
  throw new ApiError('NotAcceptable', undefined, { accept: ['image/jpeg', 'image/png'] });
}

// ------------------------------------------------------------------------------------------------ files
async function readWhole(deps: Deps, row: InstanceRow): Promise<Uint8Array> {
  if (row.size > DECODE_FILE_MAX) throw new ApiError('InvalidDicom', 'The file is too large to decode here', { reason: 'tooLarge' });
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.storage.get(row.storageKey)) chunks.push(chunk as Buffer);
    const file = Buffer.concat(chunks);
    return new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw new ApiError('NotFound', 'The file is no longer stored');
    throw err;
  }
}

async function pixelsOr404<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof NoSuchFrameError) throw new ApiError('NotFound', 'No such frame');
    if (err instanceof PixelError || !(err instanceof ApiError)) {
      throw new ApiError('InvalidDicom', `The pixel data cannot be decoded: ${err instanceof Error ? err.message : String(err)}`, { reason: 'pixels' });
    }
    throw err;
  }
}

/** One instance's DICOM JSON: read from its file once and kept in storage beside it (as the preview is). */
async function instanceMetadata(deps: Deps, row: InstanceRow, base: string): Promise<JsonDataset> {
  const key = `dicomweb-metadata/${row.bucketId}/${row.examId}/${row.id}.v1.json`;
  const framesUrl = `${base}/studies/${row.studyInstanceUid}/series/${row.seriesInstanceUid}/instances/${row.sopInstanceUid}/frames`;
  let stored: JsonDataset | null = null;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.storage.get(key)) chunks.push(chunk as Buffer);
    stored = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonDataset;
  } catch (err) {
    if (!(err instanceof StorageNotFoundError)) throw err;
  }
  if (!stored) {
    const file = await readWhole(deps, row);
    stored = fileMetadata(file, { framesUrl: '', served: servedImageFacts(file) });
    await deps.storage.put(key, Buffer.from(JSON.stringify(stored)), { contentType: 'application/json' });
  }
  // The bulk data link is the caller's own (the host they reached).
  if (stored['7FE00010']) stored['7FE00010'] = { vr: stored['7FE00010'].vr, BulkDataURI: framesUrl };
  return stored;
}
