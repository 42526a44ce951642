import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { devices, dicomInstances, exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { attributeOf } from './dictionary';
import type { Item } from './encode';
import { QUERY_MAX_LIMIT, runQuery, type Answer, type AttributeValue, type Level } from './query';
import { text } from './worklist';

/**
 * Query/Retrieve, Study Root (PS3.4 C.4.1): the C-FIND identifier turned into the one Study Root query
 * (./query.ts `runQuery`, which QIDO-RS uses too) over the calling device's organisation, its answers written back as
 * data sets; and what C-MOVE and C-GET send: the stored files (as they were received) of the studies, series or
 * images the identifier names. A C-MOVE destination is one of the organisation's devices, by AE title, with its host
 * and port.
 */

type Naturalized = Record<string, unknown>;

const LEVELS: Record<string, Level> = { STUDY: 'study', SERIES: 'series', IMAGE: 'instance' };
/** The unique keys of each level (returned whatever the identifier asks). */
const UNIQUE: Record<Level, string[]> = {
  study: ['StudyInstanceUID'], series: ['StudyInstanceUID', 'SeriesInstanceUID'], instance: ['StudyInstanceUID', 'SeriesInstanceUID', 'SOPInstanceUID'],
};
/** Answers one C-FIND gives at most (a PACS pages by narrowing its keys). */
export const FIND_MAX = 1000;
const NOT_KEYS = new Set(['QueryRetrieveLevel', 'SpecificCharacterSet']);
/** Value representations this writer answers (text, and US/UL as binary); anything else is answered empty. */
const BINARY = new Set(['US', 'UL', 'SS', 'SL']);

export type Identifier = { ok: true; level: Level; keys: Map<string, string>; asked: string[] } | { ok: false; message: string };

/** The identifier's level and keys (keywords and their values as text; sequences are not matched on). */
export function identifierOf(ds: Naturalized): Identifier {
  const level = LEVELS[text(ds.QueryRetrieveLevel).toUpperCase()];
  if (!level) return { ok: false, message: 'QueryRetrieveLevel must be STUDY, SERIES or IMAGE' };
  const keys = new Map<string, string>();
  const asked: string[] = [];
  for (const [keyword, value] of Object.entries(ds)) {
    if (NOT_KEYS.has(keyword) || keyword.startsWith('_')) continue;
    const attribute = attributeOf(keyword);
    if (!attribute) continue;
    asked.push(keyword);
    if (attribute.vr === 'SQ') continue;
    // A list of UIDs comes naturalized as an array: kept as the DICOM `\`-separated value.
    const v = Array.isArray(value) && value.every((x) => typeof x === 'string') ? value.join('\\') : text(value);
    keys.set(keyword, v);
  }
  return { ok: true, level, keys, asked };
}

/** C-FIND: the answers, each with the keys asked, the level's unique keys and the level itself, as data set elements. */
export async function findStudyRoot(deps: Pick<Deps, 'db'>, bucketId: number, id: Extract<Identifier, { ok: true }>): Promise<Item[]> {
  const result = await runQuery(deps.db, { level: id.level, bucketIds: [bucketId], keys: id.keys, limit: FIND_MAX, offset: 0 });
  const keywords = [...new Set([...id.asked, ...UNIQUE[id.level]])];
  const levelName = id.level === 'instance' ? 'IMAGE' : id.level.toUpperCase();
  return result.answers.map((answer) => item(answer, keywords, levelName));
}

function item(answer: Answer, keywords: string[], levelName: string): Item {
  const out: Item = [
    { tag: 0x00080005, vr: 'CS', value: 'ISO_IR 192' },
    { tag: 0x00080052, vr: 'CS', value: levelName },
  ];
  for (const keyword of keywords) {
    const attribute = attributeOf(keyword);
    if (!attribute || attribute.vr === 'SQ') continue;
    const tag = Number.parseInt(attribute.tag, 16);
    if (tag === 0x00080005 || tag === 0x00080052 || tag < 0x00080000) continue;
    out.push({ tag, vr: attribute.vr, value: valueOf(attribute.vr, answer[keyword] ?? null) });
  }
  return out.sort((a, b) => a.tag - b.tag);
}

function valueOf(vr: string, value: AttributeValue): string | Buffer {
  if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) return vr === 'PN' || !BINARY.has(vr) ? '' : Buffer.alloc(0);
  if (BINARY.has(vr)) {
    const n = Number(Array.isArray(value) ? value[0] : value);
    const b = Buffer.alloc(vr === 'US' || vr === 'SS' ? 2 : 4);
    if (vr === 'US') b.writeUInt16LE(n & 0xffff); else if (vr === 'SS') b.writeInt16LE(n); else if (vr === 'UL') b.writeUInt32LE(n >>> 0); else b.writeInt32LE(n | 0);
    return b;
  }
  if (vr === 'PN') return personName(String(value));
  if (Array.isArray(value)) return value.join('\\');
  return String(value);
}

/** A stored name ('Wang XiaoDong=王小东') as a Person Name: groups kept, the first space of each the component separator. */
function personName(stored: string): string {
  return stored.split('=').map((g) => g.trim().replace(/ /, '^')).join('=').replace(/=+$/, '');
}

/** One stored file to send: where it is and what it is. */
export interface StoredFile { storageKey: string; sopClassUid: string | null; sopInstanceUid: string; transferSyntaxUid: string }

/**
 * The files a C-MOVE or C-GET identifier names in the organisation: the query at the identifier's level (its unique keys
 * and any other key it matches on), then every instance of what it found.
 */
export async function filesOf(deps: Pick<Deps, 'db'>, bucketId: number, id: Extract<Identifier, { ok: true }>): Promise<StoredFile[]> {
  const result = await runQuery(deps.db, { level: 'instance', bucketIds: [bucketId], keys: id.keys, limit: QUERY_MAX_LIMIT, offset: 0 });
  const uids = result.answers.map((a) => String(a.SOPInstanceUID));
  if (uids.length === 0) return [];
  const i = dicomInstances;
  const rows = await deps.db.select({ storageKey: i.storageKey, sopClassUid: i.sopClassUid, sopInstanceUid: i.sopInstanceUid, transferSyntaxUid: i.transferSyntaxUid })
    .from(i).innerJoin(exams, eq(exams.id, i.examId))
    .where(and(eq(exams.bucketId, bucketId), inArray(i.sopInstanceUid, uids)));
  const order = new Map(uids.map((u, n) => [u, n]));
  const seen = new Set<string>();
  return rows.sort((a, b) => (order.get(a.sopInstanceUid) ?? 0) - (order.get(b.sopInstanceUid) ?? 0))
    .filter((r) => (seen.has(r.sopInstanceUid) ? false : (seen.add(r.sopInstanceUid), true)));
}

/** A C-MOVE destination: the organisation's device with that AE title and a host and port; null when none. */
export async function destinationOf(deps: Pick<Deps, 'db'>, bucketId: number, ae: string): Promise<{ aeTitle: string; host: string; port: number } | null> {
  const title = ae.trim().toUpperCase();
  if (!title) return null;
  const [row] = await deps.db.select({ aeTitle: devices.aeTitle, host: devices.host, port: devices.port }).from(devices)
    .where(and(eq(devices.bucketId, bucketId), sql`upper(trim(${devices.aeTitle})) = ${title}`, isNotNull(devices.host), isNotNull(devices.port)))
    .orderBy(devices.sortOrder, devices.id).limit(1);
  return row?.host && row.port ? { aeTitle: (row.aeTitle ?? title).trim(), host: row.host, port: row.port } : null;
}

/** A stored Part 10 file's data set (after the meta header) — the bytes as they were received. */
export function dataSetOf(file: Buffer): Buffer {
  if (file.length < 144 || file.toString('latin1', 128, 132) !== 'DICM') throw new Error('not a Part 10 file');
  // (0002,0000) UL, explicit VR little endian, first in the meta header: its value is the rest of the group's length.
  return file.subarray(144 + file.readUInt32LE(140));
}

export const isParamsError = (err: unknown) => err instanceof ApiError;
