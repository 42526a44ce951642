import dcmjs from 'dcmjs';
import type { Answer, AttributeValue } from '../dicom/query';
import { attributeOf } from '../dicom/dictionary';

/** DICOM JSON (PS3.18 F.2): one data set is `{ "GGGGEEEE": { vr, Value } }`. */
export interface JsonElement { vr: string; Value?: unknown[]; InlineBinary?: string; BulkDataURI?: string }
export type JsonDataset = Record<string, JsonElement>;

const NUMBER_VRS = new Set(['IS', 'DS', 'US', 'SS', 'UL', 'SL', 'FL', 'FD', 'UV', 'SV']);

/**
 * A person name as the product stores it ('Wang XiaoDong=王小东': groups as read, components joined by a space)
 * back in PN form: each `=` group a PN group, the first space of an alphabetic group the family/given separator.
 */
export function personNameValue(stored: string): Record<string, string> {
  const [alphabetic = '', ideographic = '', phonetic = ''] = stored.split('=');
  const pn: Record<string, string> = {};
  const component = (group: string) => group.trim().replace(/ /, '^');
  if (alphabetic.trim()) pn.Alphabetic = component(alphabetic);
  if (ideographic.trim()) pn.Ideographic = component(ideographic);
  if (phonetic.trim()) pn.Phonetic = component(phonetic);
  return pn;
}

function element(vr: string, value: AttributeValue): JsonElement {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return { vr };
  const values = Array.isArray(value) ? value : [value];
  if (vr === 'PN') return { vr, Value: values.map((v) => personNameValue(String(v))) };
  if (NUMBER_VRS.has(vr)) return { vr, Value: values.map((v) => Number(v)) };
  return { vr, Value: values.map((v) => String(v)) };
}

/** A query answer as DICOM JSON, keeping only `attributes` (keywords); RetrieveURL when given. */
export function answerJson(answer: Answer, attributes: ReadonlySet<string>, retrieveUrl?: string): JsonDataset {
  const out: JsonDataset = {};
  for (const keyword of attributes) {
    if (!Object.hasOwn(answer, keyword)) continue;
    const attribute = attributeOf(keyword);
    if (attribute) out[attribute.tag] = element(attribute.vr, answer[keyword]!);
  }
  if (retrieveUrl) out['00081190'] = { vr: 'UR', Value: [retrieveUrl] };
  return sortTags(out);
}

function sortTags(ds: JsonDataset): JsonDataset {
  return Object.fromEntries(Object.entries(ds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const BINARY_VRS = new Set(['OB', 'OW', 'OD', 'OF', 'OL', 'OV', 'UN']);
/** Binary values up to this many bytes go inline (base64); larger ones are left out (no bulk data service). */
const INLINE_MAX = 64 * 1024;

/**
 * A stored file's header as DICOM JSON (the WADO-RS metadata of one instance): dcmjs reads it up to the pixel
 * data, its meta header's Transfer Syntax is added, small binary values go inline and the pixel data is a bulk data
 * URI (the frames resource). `served` replaces what the frames resource changes (an encapsulated file's frames
 * are sent decoded).
 */
export function fileMetadata(file: Uint8Array, opts: { framesUrl: string; served?: Record<string, JsonElement> }): JsonDataset {
  const copy = file.slice();
  const read = dcmjs.data.DicomMessage.readFile(copy.buffer, { ignoreErrors: true, untilTag: '7FE00010', includeUntilTagValue: false });
  const out: JsonDataset = {};
  for (const [tag, el] of Object.entries(read.dict)) {
    const json = jsonOf(el);
    if (json) out[tag.toUpperCase()] = json;
  }
  const syntax = read.meta['00020010']?.Value?.[0];
  if (typeof syntax === 'string') out['00020010'] = { vr: 'UI', Value: [syntax] };
  out['7FE00010'] = { vr: 'OW', BulkDataURI: opts.framesUrl };
  Object.assign(out, opts.served ?? {});
  return sortTags(out);
}

function jsonOf(el: { vr: string; Value?: unknown[] }): JsonElement | null {
  const vr = el.vr;
  if (BINARY_VRS.has(vr)) {
    const buffer = Array.isArray(el.Value) ? el.Value[0] : el.Value;
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength > INLINE_MAX) return null;
    return { vr, InlineBinary: Buffer.from(buffer).toString('base64') };
  }
  if (vr === 'SQ') {
    const items = (Array.isArray(el.Value) ? el.Value : []) as Record<string, { vr: string; Value?: unknown[] }>[];
    return { vr, Value: items.map((item) => Object.fromEntries(Object.entries(item).flatMap(([t, e]) => { const j = jsonOf(e); return j ? [[t.toUpperCase(), j]] : []; }))) };
  }
  const raw: unknown = el.Value;
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v) => v !== undefined && v !== null);
  if (values.length === 0) return { vr };
  if (vr === 'PN') return { vr, Value: values.map((v) => (typeof v === 'string' ? personNameValue(v.replace(/\^/, ' ')) : v)) };
  if (vr === 'AT') return { vr, Value: values.map((v) => (typeof v === 'number' ? v.toString(16).toUpperCase().padStart(8, '0') : v)) };
  if (NUMBER_VRS.has(vr)) return { vr, Value: values.map((v) => (typeof v === 'string' ? Number(v) : v)).filter((v) => typeof v !== 'number' || Number.isFinite(v)) };
  if (values.some((v) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'object')) return { vr };
  return { vr, Value: values };
}
