import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { QUERY_DEFAULT_LIMIT, QUERY_MAX_LIMIT, type Level } from '../dicom/query';
import { keyAttribute } from '../dicom/queryKeys';
import { ApiError } from '../http/errors';
import { acceptList, type MediaType } from './multipart';

/** How a DICOMweb request is read (./routes.ts): its media types and what it accepts, its query keys, its URLs. */

/** Where the DICOMweb services live, under /api/v1 (QIDO-RS, WADO-RS and STOW-RS share the one root). */
export const DICOMWEB_BASE = '/dicomweb';

export const parseMediaTypeOf = (req: FastifyRequest): MediaType => acceptList(req.headers['content-type'])[0] ?? { type: '', params: {} };

// ------------------------------------------------------------------------------------------------ requests
export const renderedQuery = z.object({
  accept: z.string().max(200).optional(),
  viewport: z.string().regex(/^\d{1,5},\d{1,5}(,.*)?$/).max(100).optional(),
  quality: z.coerce.number().int().min(1).max(100).optional(),
  window: z.string().max(100).optional(),
  annotation: z.string().max(100).optional(),
});

/** The QIDO query string: matching keys (keyword or tag), limit, offset, includefield; fuzzymatching false only. */
export function queryOf(raw: Record<string, unknown>): { keys: Map<string, string>; limit: number; offset: number; include: string[] } {
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
export function rootUrl(req: FastifyRequest): string {
  const host = req.headers.host ?? 'localhost';
  return `${req.protocol}://${host}/api/v1${DICOMWEB_BASE}`;
}

export function retrieveUrl(base: string, level: Level, a: Record<string, unknown>): string | undefined {
  const study = a.StudyInstanceUID;
  if (typeof study !== 'string') return undefined;
  if (level === 'study') return `${base}/studies/${study}`;
  if (level === 'series') return `${base}/studies/${study}/series/${String(a.SeriesInstanceUID)}`;
  return `${base}/studies/${study}/series/${String(a.SeriesInstanceUID)}/instances/${String(a.SOPInstanceUID)}`;
}

export const matches = (range: string, type: string) => {
  if (range === '*/*') return true;
  if (range.endsWith('/*')) return type.startsWith(range.slice(0, -1));
  return range === type;
};

/** Accept must allow one of `types` (JSON answers), else 406. */
export function negotiate(req: FastifyRequest, types: string[]): void {
  const list = acceptList(req.headers.accept);
  if (!list.some((m) => types.some((t) => matches(m.type, t)))) throw new ApiError('NotAcceptable', undefined, { accept: types });
}

/** Accept must allow multipart/related of `part` (any transfer syntax: the stored one is sent), else 406. */
export function negotiateMultipart(req: FastifyRequest, part: string): string {
  const list = acceptList(req.headers.accept);
  const ok = list.some((m) => m.type === '*/*' || m.type === 'multipart/*'
    || (m.type === 'multipart/related' && (!m.params.type || m.params.type.toLowerCase() === part)));
  if (!ok) throw new ApiError('NotAcceptable', undefined, { accept: [`multipart/related; type="${part}"`] });
  return part;
}

export function renderedFormat(req: FastifyRequest, asked: string | undefined): 'png' | 'jpeg' {
  const list = asked ? acceptList(asked) : acceptList(req.headers.accept);
  for (const m of list) {
    if (m.type === 'image/png') return 'png';
    if (m.type === 'image/jpeg' || m.type === 'image/*' || m.type === '*/*') return 'jpeg';
  }
  throw new ApiError('NotAcceptable', undefined, { accept: ['image/jpeg', 'image/png'] });
}
