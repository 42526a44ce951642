import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { dayIn, instantOf, timeIn } from '../../contract/days';
import { splitPersonName } from '../../contract/dicom';
import { buckets, devices, exams } from '../db/schema';
import type { Deps } from '../deps';
import { liveLine } from '../registry/present';
import type { Charset, Item } from './encode';
import { newStudyUid } from './uid';

/**
 * The Modality Worklist (PS3.4 K.6, 1.2.840.10008.5.1.4.31) over the registry: the organisation's lines that are
 * Registered, Scheduled or Arrived, matched on the keys a modality sends (scheduled station AE title, modality, the
 * step's start date or range, patient name with * and ?, patient id, accession number), each answered with what an
 * IHE Scheduled Workflow modality needs, including the Study Instance UID the line was given, so the images come back
 * to it (./receive.ts).
 */
export const WORKLIST_STATUSES = ['Registered', 'Scheduled', 'Arrived'] as const;
/** A query matching more lines than this gets the first ones by scheduled time (a console lists a day, not a year). */
export const WORKLIST_MAX = 500;


type Naturalized = Record<string, unknown>;

/** A naturalized value as text: a string, the first of several, or a person name's alphabetic (else ideographic) group. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (first && typeof first === 'object') {
      const pn = first as { Alphabetic?: string; Ideographic?: string };
      return [pn.Alphabetic, pn.Ideographic].filter((g): g is string => typeof g === 'string' && g.trim() !== '').join('=').trim();
    }
    return text(first);
  }
  return '';
}

/** DICOM wildcard matching (PS3.4 C.2.2.2.4) as a LIKE pattern; null = universal (empty or only '*'). */
export function likePattern(value: string): string | null {
  if (value === '' || /^\*+$/.test(value)) return null;
  return value.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%').replaceAll('?', '_');
}

/** YYYYMMDD → YYYY-MM-DD, or null when it is not a date. */
function isoDay(da: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A date or range (PS3.4 C.2.2.2.5): 'A', 'A-B', '-B', 'A-'; null = no constraint; 'bad' = matches nothing. */
export function dateRange(value: string): { from: string | null; to: string | null } | null | 'bad' {
  const v = value.trim();
  if (v === '') return null;
  const [a = '', b, ...rest] = v.split('-');
  if (rest.length > 0) return 'bad';
  const from = a === '' ? null : isoDay(a);
  const to = b === undefined ? from : b === '' ? null : isoDay(b);
  if ((a !== '' && !from) || (b !== undefined && b !== '' && !to)) return 'bad';
  return { from, to };
}

export interface WorklistQuery {
  patientName: string;
  patientId: string;
  accessionNumber: string;
  modality: string;
  stationAe: string;
  startDate: string;
  /** The query's Specific Character Set: GB18030 when it names it, else UTF-8. */
  charset: Charset;
}

export function worklistQuery(ds: Naturalized, rawCharsets: readonly string[] = []): WorklistQuery {
  const steps = ds.ScheduledProcedureStepSequence;
  const step = (Array.isArray(steps) && steps[0] && typeof steps[0] === 'object' ? steps[0] : {}) as Naturalized;
  // As the query was written (dcmjs rewrites the attribute once it has decoded the text: ./dimse.ts).
  const charsets = rawCharsets.length > 0 ? rawCharsets : [ds.SpecificCharacterSet].flat().map((c) => text(c).toUpperCase());
  return {
    patientName: text(ds.PatientName), patientId: text(ds.PatientID), accessionNumber: text(ds.AccessionNumber),
    modality: text(step.Modality), stationAe: text(step.ScheduledStationAETitle), startDate: text(step.ScheduledProcedureStepStartDate),
    charset: charsets.includes('GB18030') ? 'GB18030' : 'ISO_IR 192',
  };
}

/** A stored name as a DICOM Person Name: its groups ('Wang XiaoDong=王小东') kept, spaces of a Latin name as '^'. */
function personName(stored: string): string {
  const { alphabetic, ideographic } = splitPersonName(stored);
  const latin = alphabetic.replace(/\s+/g, '^');
  return ideographic ? `${latin}=${ideographic}` : latin;
}

const da = (day: string) => day.replaceAll('-', '');

/** The statement a worklist query runs (null: a malformed date matches nothing); exported for bench:dicom's EXPLAIN. */
export function worklistSelect(db: Deps['db'], bucketId: number, q: WorklistQuery, timeZone: string) {
  const where: (SQL | undefined)[] = [eq(exams.bucketId, bucketId), liveLine, inArray(exams.examStatus, [...WORKLIST_STATUSES])];
  const like = (column: SQL, value: string, insensitive: boolean) => {
    const p = likePattern(value);
    if (p === null) return undefined;
    return insensitive ? sql`${column} ilike ${p}` : sql`${column} like ${p}`;
  };
  const name = likePattern(q.patientName.replace(/\^+/g, ' ').trim());
  if (name !== null) {
    // Either group of the stored name: 'Wang*' and '王*' both find 'Wang XiaoDong=王小东'.
    where.push(sql`(split_part(${exams.patientName}, '=', 1) ilike ${name} or split_part(${exams.patientName}, '=', 2) ilike ${name})`);
    // Implied by it, and what the registry's trigram index on the whole name answers (a fragment of 3 characters or
    // more): a name prefix is then a few index pages instead of every line of the day (37 ms at 10,000 lines).
    where.push(sql`${exams.patientName} ilike ${`%${name}%`}`);
  }
  where.push(like(sql`${exams.patientId}`, q.patientId, false), like(sql`${exams.accessionNumber}`, q.accessionNumber, false),
    like(sql`${exams.modality}`, q.modality.toUpperCase(), false));
  // A line booked on a device is that device's; a line with none is offered to every station that asks.
  const station = likePattern(q.stationAe.toUpperCase());
  if (station !== null) where.push(sql`(${devices.aeTitle} is null or upper(${devices.aeTitle}) like ${station})`);
  const range = dateRange(q.startDate);
  if (range === 'bad') return null;
  if (range?.from) where.push(sql`${exams.scheduledTime} >= ${instantOf(range.from, '00:00', timeZone)}`);
  if (range?.to) where.push(sql`${exams.scheduledTime} < ${instantOf(nextDay(range.to), '00:00', timeZone)}`);
  return db.select({ exam: exams, stationAe: devices.aeTitle }).from(exams).leftJoin(devices, eq(devices.id, exams.deviceId))
    .where(and(...where)).orderBy(asc(exams.scheduledTime), asc(exams.id)).limit(WORKLIST_MAX);
}

export async function findWorklist(deps: Pick<Deps, 'db'>, bucketId: number, q: WorklistQuery): Promise<Item[]> {
  const { db } = deps;
  const [bucket] = await db.select({ timeZone: buckets.timeZone }).from(buckets).where(eq(buckets.id, bucketId));
  const timeZone = bucket?.timeZone ?? 'Asia/Shanghai';
  const select = worklistSelect(db, bucketId, q, timeZone);
  if (!select) return [];
  const rows = await select;

  const items: Item[] = [];
  for (const { exam, stationAe } of rows) {
    // Lines registered before the listener existed get their Study Instance UID the first time a modality asks.
    let studyUid = exam.scheduledStudyUid;
    if (!studyUid) {
      const [set] = await db.update(exams).set({ scheduledStudyUid: newStudyUid() })
        .where(and(eq(exams.id, exam.id), isNull(exams.scheduledStudyUid))).returning({ uid: exams.scheduledStudyUid });
      studyUid = set?.uid ?? (await db.select({ uid: exams.scheduledStudyUid }).from(exams).where(eq(exams.id, exam.id)))[0]?.uid ?? '';
    }
    const at = exam.scheduledTime ?? exam.examTime;
    const description = exam.studyDescription ?? exam.bodyPart ?? '';
    const accession = exam.accessionNumber ?? '';
    items.push([
      { tag: 0x00080005, vr: 'CS', value: q.charset },
      { tag: 0x00080050, vr: 'SH', value: accession },
      { tag: 0x00080090, vr: 'PN', value: '' },
      { tag: 0x00100010, vr: 'PN', value: personName(exam.patientName) },
      { tag: 0x00100020, vr: 'LO', value: exam.patientId },
      { tag: 0x00100030, vr: 'DA', value: exam.patientDob ? da(exam.patientDob) : '' },
      { tag: 0x00100040, vr: 'CS', value: ['M', 'F', 'O'].includes(exam.patientGender) ? exam.patientGender : '' },
      { tag: 0x0020000d, vr: 'UI', value: studyUid },
      { tag: 0x00321060, vr: 'LO', value: description },
      { tag: 0x00400100, vr: 'SQ', value: [[
        { tag: 0x00080060, vr: 'CS', value: exam.modality ?? '' },
        { tag: 0x00400001, vr: 'AE', value: stationAe ?? '' },
        { tag: 0x00400002, vr: 'DA', value: da(dayIn(at, timeZone)) },
        { tag: 0x00400003, vr: 'TM', value: `${timeIn(at, timeZone).replace(':', '')}00` },
        { tag: 0x00400006, vr: 'PN', value: '' },
        { tag: 0x00400007, vr: 'LO', value: description },
        { tag: 0x00400009, vr: 'SH', value: `SPS${exam.id}` },
      ]] },
      { tag: 0x00401001, vr: 'SH', value: accession },
    ]);
  }
  return items;
}
