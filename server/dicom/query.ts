import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { instantOf } from '../../contract/days';
import type { Db } from '../db/client';
import { buckets, dicomInstances, exams } from '../db/schema';
import { bad, dateRange, integer, personName, stringMatch, text, uidList } from './queryKeys';

/**
 * Study Root queries over the exams and their stored instances: attribute matches (PS3.4 C.2.2.2: single value,
 * list of UIDs, wild card `*` `?`, date range, universal) turned into SQL, at the study, series and image level.
 * QIDO-RS (server/dicomweb) asks through here, and so will the DIMSE C-FIND SCP: the keys and values are the
 * DICOM ones (keywords or tags as `00100010`), the answers plain attribute values by keyword.
 *
 * What a study is: a live exam with a Study Instance UID (`exams.store_uid`); its series and images are its stored
 * instances (`dicom_instances`). Matching is exact (no fuzzy matching), except that person names ignore case and
 * match any of their groups (alphabetic, ideographic), and `^` in a name matches the space the product stores
 * between family and given name. Keys the product cannot match on (a valid attribute with no column) are ignored and
 * listed in `ignored`; a key that is no attribute, or a value of the wrong form, is refused (ParamsError).
 */

export type Level = 'study' | 'series' | 'instance';

/** A value by keyword: text, number, a list (ModalitiesInStudy), a person name as stored, or null (empty). */
export type AttributeValue = string | number | string[] | null;
export type Answer = Record<string, AttributeValue>;

export interface DicomQuery {
  level: Level;
  /** Organisations whose exams may be answered (the caller's readable ones). */
  bucketIds: readonly number[];
  /** keyword → the request's value (an empty value is universal matching: the attribute is only returned). */
  keys: ReadonlyMap<string, string>;
  /** From the path: the study (and series) the query is inside. */
  studyInstanceUid?: string;
  seriesInstanceUid?: string;
  limit: number;
  offset: number;
}

export interface QueryResult {
  answers: Answer[];
  /** More matches exist past limit. */
  more: boolean;
  /** Valid attributes the request matched on that the product cannot match (they were ignored). */
  ignored: string[];
}

/** The attributes each level answers by default (PS3.18 Table 10.6.3-3/4/5) and the ones matched on. */
export const STUDY_ATTRIBUTES = [
  'SpecificCharacterSet', 'StudyDate', 'StudyTime', 'AccessionNumber', 'ModalitiesInStudy', 'ReferringPhysicianName', 'PatientName',
  'PatientID', 'PatientBirthDate', 'PatientSex', 'StudyInstanceUID', 'StudyID', 'StudyDescription', 'NumberOfStudyRelatedSeries',
  'NumberOfStudyRelatedInstances',
] as const;
/** Study attributes given only when asked for (includefield). */
export const STUDY_OPTIONAL = ['PatientAge', 'PatientWeight', 'PatientSize', 'BodyPartExamined', 'InstitutionalDepartmentName'] as const;
export const SERIES_ATTRIBUTES = ['SpecificCharacterSet', 'Modality', 'SeriesInstanceUID', 'SeriesNumber', 'SeriesDescription', 'NumberOfSeriesRelatedInstances'] as const;
export const INSTANCE_ATTRIBUTES = ['SpecificCharacterSet', 'SOPClassUID', 'SOPInstanceUID', 'InstanceNumber', 'Rows', 'Columns', 'NumberOfFrames'] as const;

/** Keys matched at each level (a key of a higher level also matches at a lower one, PS3.18 relational queries). */
const STUDY_KEYS = ['StudyInstanceUID', 'PatientName', 'PatientID', 'StudyDate', 'AccessionNumber', 'ModalitiesInStudy', 'StudyDescription', 'PatientBirthDate', 'PatientSex'];
const SERIES_KEYS = ['SeriesInstanceUID', 'Modality', 'SeriesNumber', 'SeriesDescription'];
const INSTANCE_KEYS = ['SOPInstanceUID', 'SOPClassUID', 'InstanceNumber'];
const keysOf = (level: Level) => level === 'study' ? STUDY_KEYS : level === 'series' ? [...STUDY_KEYS, ...SERIES_KEYS] : [...STUDY_KEYS, ...SERIES_KEYS, ...INSTANCE_KEYS];

/** The most answers one query gives (limit), and the answers when no limit is asked. */
export const QUERY_MAX_LIMIT = 10_000;
export const QUERY_DEFAULT_LIMIT = 1000;

// ------------------------------------------------------------------------------------------------ the query
interface Compiled {
  study: SQL[];
  instance: SQL[];
  ignored: string[];
}

/** The request's keys as conditions on exams (study keys) and on instances (series and image keys). */
async function compile(db: Db, q: DicomQuery): Promise<Compiled> {
  const study: SQL[] = [];
  const instance: SQL[] = [];
  const ignored: string[] = [];
  const allowed = keysOf(q.level);
  for (const [keyword, raw] of q.keys) {
    const value = raw.trim();
    // Universal matching (an empty value) only asks for the attribute to be returned.
    if (value === '' || value === '*') continue;
    if (!allowed.includes(keyword)) { ignored.push(keyword); continue; }
    switch (keyword) {
      case 'StudyInstanceUID': study.push(inArray(exams.storeUid, uidList(keyword, value))); break;
      case 'PatientName': study.push(personName(keyword, value)); break;
      case 'PatientID': study.push(stringMatch(keyword, exams.patientId, value)); break;
      case 'AccessionNumber': study.push(stringMatch(keyword, sql`${exams.accessionNumber}`, value)); break;
      case 'StudyDescription': study.push(stringMatch(keyword, sql`${exams.studyDescription}`, value)); break;
      case 'PatientSex': study.push(sql`${exams.patientGender} = ${text(keyword, value, 2)}`); break;
      case 'PatientBirthDate': {
        const { from, to } = dateRange(keyword, value);
        if (from) study.push(sql`${exams.patientDob} >= ${from}`);
        if (to) study.push(sql`${exams.patientDob} <= ${to}`);
        break;
      }
      case 'StudyDate': study.push(await studyDate(db, q.bucketIds, dateRange(keyword, value))); break;
      case 'ModalitiesInStudy': {
        const codes = value.split(/[\\,]/).map((m) => m.trim()).filter(Boolean);
        if (codes.length === 0 || codes.some((m) => !/^[A-Z0-9_]{1,16}$/.test(m))) throw bad(keyword, `${keyword} must be modality codes`);
        study.push(sql`(${inArray(exams.modality, codes)} or exists (select 1 from ${dicomInstances} mi where mi.exam_id = ${exams.id} and ${inArray(sql`mi.modality`, codes)}))`);
        break;
      }
      case 'SeriesInstanceUID': instance.push(inArray(dicomInstances.seriesInstanceUid, uidList(keyword, value))); break;
      case 'SOPInstanceUID': instance.push(inArray(dicomInstances.sopInstanceUid, uidList(keyword, value))); break;
      case 'SOPClassUID': instance.push(inArray(dicomInstances.sopClassUid, uidList(keyword, value))); break;
      case 'Modality': {
        const codes = value.split(/[\\,]/).map((m) => m.trim()).filter(Boolean);
        if (codes.length === 0 || codes.some((m) => !/^[A-Z0-9_]{1,16}$/.test(m))) throw bad(keyword, `${keyword} must be modality codes`);
        instance.push(inArray(dicomInstances.modality, codes));
        break;
      }
      case 'SeriesNumber': instance.push(eq(dicomInstances.seriesNumber, integer(keyword, value))); break;
      case 'InstanceNumber': instance.push(eq(dicomInstances.instanceNumber, integer(keyword, value))); break;
      case 'SeriesDescription': instance.push(stringMatch(keyword, sql`${dicomInstances.seriesDescription}`, value)); break;
      default: ignored.push(keyword);
    }
  }
  return { study, instance, ignored };
}

/**
 * Study Date is the exam's day in its organisation's time zone: for each organisation, its own UTC bounds (so the
 * exams' (bucket, exam time) index answers it).
 */
async function studyDate(db: Db, bucketIds: readonly number[], range: { from: string | null; to: string | null }): Promise<SQL> {
  if (bucketIds.length === 0) return sql`false`;
  const zones = await db.select({ id: buckets.id, timeZone: buckets.timeZone }).from(buckets).where(inArray(buckets.id, [...bucketIds]));
  const parts = zones.map((b) => {
    const conds: SQL[] = [eq(exams.bucketId, b.id)];
    if (range.from) conds.push(sql`${exams.examTime} >= ${instantOf(range.from, '00:00', b.timeZone).toISOString()}`);
    if (range.to) conds.push(sql`${exams.examTime} < ${instantOf(nextDay(range.to), '00:00', b.timeZone).toISOString()}`);
    return and(...conds)!;
  });
  return or(...parts)!;
}

const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A study exists once it has images: registry lines (a UID given for the worklist) and unfinished uploads do not. */
const liveStudies = (q: DicomQuery) => and(
  inArray(exams.bucketId, [...q.bucketIds]), isNull(exams.deletedTime), isNotNull(exams.storeUid), eq(exams.hasImage, true),
  q.studyInstanceUid ? eq(exams.storeUid, q.studyInstanceUid) : undefined,
);

/** Runs a query; the caller has checked the limit (1…QUERY_MAX_LIMIT) and offset. */
export async function runQuery(db: Db, q: DicomQuery): Promise<QueryResult> {
  if (q.bucketIds.length === 0) return { answers: [], more: false, ignored: [] };
  const c = await compile(db, q);
  if (q.level === 'study') return studies(db, q, c);
  if (q.level === 'series') return series(db, q, c);
  return instances(db, q, c);
}

const studyColumns = {
  examId: exams.id, bucketId: exams.bucketId, storeUid: exams.storeUid, patientName: exams.patientName, patientId: exams.patientId,
  patientGender: exams.patientGender, patientDob: exams.patientDob, visitAge: exams.visitAge, weight: exams.weight, height: exams.height,
  accessionNumber: exams.accessionNumber, modality: exams.modality, bodyPart: exams.bodyPart, studyDescription: exams.studyDescription,
  applyDept: exams.applyDept, examTime: exams.examTime,
};
type StudyRow = { [K in keyof typeof studyColumns]: (typeof studyColumns)[K]['_']['data'] | null };

async function studies(db: Db, q: DicomQuery, c: Compiled): Promise<QueryResult> {
  const where = and(liveStudies(q), ...c.study,
    c.instance.length > 0 ? sql`exists (select 1 from ${dicomInstances} where ${dicomInstances.examId} = ${exams.id} and ${and(...c.instance)})` : undefined);
  // The page's ids first, then their rows: the ids come from the studies' index alone (it carries the time, the
  // organisation, the modality and the name; index-only scan), so a deep offset or a rare name skips index entries,
  // not table rows (offset 10,000 at 1,000,000 exams: 23 ms → a few; a one-character family name alike).
  const page = db.select({ id: exams.id }).from(exams).where(where)
    .orderBy(desc(exams.examTime), desc(exams.id)).limit(q.limit + 1).offset(q.offset);
  const rows = await db.select(studyColumns).from(exams).where(inArray(exams.id, page))
    .orderBy(desc(exams.examTime), desc(exams.id));
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const [counts, zones] = await Promise.all([studyCounts(db, shown.map((r) => r.examId)), zonesOf(db, shown)]);
  return { answers: shown.map((r) => studyAnswer(r, counts.get(r.examId), zones.get(r.bucketId) ?? 'UTC')), more, ignored: c.ignored };
}

async function zonesOf(db: Db, rows: readonly { bucketId: number }[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.bucketId))];
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: buckets.id, timeZone: buckets.timeZone }).from(buckets).where(inArray(buckets.id, ids));
  return new Map(found.map((b) => [b.id, b.timeZone]));
}

interface StudyCounts { series: number; instances: number; modalities: string[] }

async function studyCounts(db: Db, examIds: number[]): Promise<Map<number, StudyCounts>> {
  if (examIds.length === 0) return new Map();
  const rows = await db.select({
    examId: dicomInstances.examId,
    series: sql<number>`count(distinct ${dicomInstances.seriesInstanceUid})::int`,
    instances: sql<number>`count(*)::int`,
    modalities: sql<string[]>`array_remove(array_agg(distinct ${dicomInstances.modality}), null)`,
  }).from(dicomInstances).where(inArray(dicomInstances.examId, examIds)).groupBy(dicomInstances.examId);
  return new Map(rows.map((r) => [r.examId, { series: Number(r.series), instances: Number(r.instances), modalities: r.modalities ?? [] }]));
}

/** Local date and time of an instant in a zone: DA YYYYMMDD and TM HHMMSS. */
const formats = new Map<string, Intl.DateTimeFormat>();
function localDateTime(date: Date, timeZone: string): { da: string; tm: string } {
  // A formatter is costly to make (a tenth of a millisecond): one per zone, kept.
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  return { da: `${parts.year}${parts.month}${parts.day}`, tm: `${parts.hour}${parts.minute}${parts.second}` };
}

const dicomDate = (iso: string | null) => (iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso.replace(/-/g, '') : null);
const sex = (g: string | null) => (g === 'M' || g === 'F' || g === 'O' ? g : null);

function studyAnswer(r: StudyRow, counts: StudyCounts | undefined, timeZone: string): Answer {
  const when = r.examTime ? localDateTime(r.examTime, timeZone) : null;
  const modalities = counts && counts.modalities.length > 0 ? [...counts.modalities].sort() : r.modality ? [r.modality] : [];
  return {
    SpecificCharacterSet: 'ISO_IR 192', StudyDate: when?.da ?? null, StudyTime: when?.tm ?? null, AccessionNumber: r.accessionNumber,
    ModalitiesInStudy: modalities, ReferringPhysicianName: null, PatientName: r.patientName, PatientID: r.patientId,
    PatientBirthDate: dicomDate(r.patientDob), PatientSex: sex(r.patientGender), StudyInstanceUID: r.storeUid, StudyID: null,
    StudyDescription: r.studyDescription, NumberOfStudyRelatedSeries: counts?.series ?? 0, NumberOfStudyRelatedInstances: counts?.instances ?? 0,
    PatientAge: r.visitAge, PatientWeight: r.weight, PatientSize: r.height === null ? null : r.height > 3 ? r.height / 100 : r.height,
    BodyPartExamined: r.bodyPart, InstitutionalDepartmentName: r.applyDept,
  };
}

async function series(db: Db, q: DicomQuery, c: Compiled): Promise<QueryResult> {
  const i = dicomInstances;
  const where = and(liveStudies(q), ...c.study, ...c.instance,
    q.studyInstanceUid ? eq(i.studyInstanceUid, q.studyInstanceUid) : undefined);
  const rows = await db.select({
    examId: i.examId, bucketId: exams.bucketId, studyInstanceUid: i.studyInstanceUid, seriesInstanceUid: i.seriesInstanceUid,
    modality: sql<string | null>`min(${i.modality})`, seriesNumber: sql<number | null>`min(${i.seriesNumber})`,
    seriesDescription: sql<string | null>`min(${i.seriesDescription})`, instances: sql<number>`count(*)::int`,
  }).from(i).innerJoin(exams, eq(exams.id, i.examId)).where(where)
    .groupBy(i.examId, exams.bucketId, i.studyInstanceUid, i.seriesInstanceUid)
    .orderBy(asc(i.examId), sql`min(${i.seriesNumber}) nulls last`, asc(i.seriesInstanceUid))
    .limit(q.limit + 1).offset(q.offset);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const studyOf = await studyAnswers(db, page.map((r) => r.examId));
  return {
    answers: page.map((r) => ({
      ...studyOf.get(r.examId), SpecificCharacterSet: 'ISO_IR 192', StudyInstanceUID: r.studyInstanceUid, Modality: r.modality,
      SeriesInstanceUID: r.seriesInstanceUid, SeriesNumber: r.seriesNumber === null ? null : Number(r.seriesNumber),
      SeriesDescription: r.seriesDescription, NumberOfSeriesRelatedInstances: Number(r.instances),
    })),
    more, ignored: c.ignored,
  };
}

async function instances(db: Db, q: DicomQuery, c: Compiled): Promise<QueryResult> {
  const i = dicomInstances;
  const where = and(liveStudies(q), ...c.study, ...c.instance,
    q.studyInstanceUid ? eq(i.studyInstanceUid, q.studyInstanceUid) : undefined,
    q.seriesInstanceUid ? eq(i.seriesInstanceUid, q.seriesInstanceUid) : undefined);
  const rows = await db.select({
    examId: i.examId, studyInstanceUid: i.studyInstanceUid, seriesInstanceUid: i.seriesInstanceUid, sopInstanceUid: i.sopInstanceUid,
    sopClassUid: i.sopClassUid, modality: i.modality, seriesNumber: i.seriesNumber, seriesDescription: i.seriesDescription,
    instanceNumber: i.instanceNumber, rows: i.rows, columns: i.columns, frames: i.frames,
  }).from(i).innerJoin(exams, eq(exams.id, i.examId)).where(where)
    .orderBy(asc(i.examId), sql`${i.seriesNumber} nulls last`, asc(i.seriesInstanceUid), sql`${i.instanceNumber} nulls last`, asc(i.id))
    .limit(q.limit + 1).offset(q.offset);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const studyOf = await studyAnswers(db, [...new Set(page.map((r) => r.examId))]);
  return {
    answers: page.map((r) => ({
      ...studyOf.get(r.examId), SpecificCharacterSet: 'ISO_IR 192', StudyInstanceUID: r.studyInstanceUid, Modality: r.modality,
      SeriesInstanceUID: r.seriesInstanceUid, SeriesNumber: r.seriesNumber, SeriesDescription: r.seriesDescription,
      SOPClassUID: r.sopClassUid, SOPInstanceUID: r.sopInstanceUid, InstanceNumber: r.instanceNumber, Rows: r.rows, Columns: r.columns,
      NumberOfFrames: r.frames,
    })),
    more, ignored: c.ignored,
  };
}

/** The study answers of these exams (for series and image answers, which carry their study's attributes). */
async function studyAnswers(db: Db, examIds: number[]): Promise<Map<number, Answer>> {
  if (examIds.length === 0) return new Map();
  const rows = await db.select(studyColumns).from(exams).where(inArray(exams.id, [...new Set(examIds)]));
  const [counts, zones] = await Promise.all([studyCounts(db, rows.map((r) => r.examId)), zonesOf(db, rows)]);
  return new Map(rows.map((r) => [r.examId, studyAnswer(r, counts.get(r.examId), zones.get(r.bucketId) ?? 'UTC')]));
}

/** The attributes an answer at `level` carries: the level's defaults, plus includefield's (`all`: every one known). */
export function answerAttributes(level: Level, include: readonly string[]): Set<string> {
  const base: readonly string[] = level === 'study' ? STUDY_ATTRIBUTES : level === 'series' ? SERIES_ATTRIBUTES : INSTANCE_ATTRIBUTES;
  const out = new Set<string>(base);
  if (level !== 'study') out.add('StudyInstanceUID');
  if (level === 'instance') { out.add('SeriesInstanceUID'); }
  if (include.includes('all')) {
    for (const k of [...STUDY_ATTRIBUTES, ...STUDY_OPTIONAL]) out.add(k);
    if (level !== 'study') for (const k of SERIES_ATTRIBUTES) out.add(k);
    if (level === 'instance') for (const k of INSTANCE_ATTRIBUTES) out.add(k);
  }
  for (const k of include) if (k !== 'all') out.add(k);
  return out;
}
