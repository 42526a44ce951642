import { and, asc, count, desc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ExamListItem } from '../../contract/exams';
import type { Db } from '../db/client';
import { buckets, exams, reports } from '../db/schema';
import type { Access } from '../access/access';
import { assignee, joins, listColumns, reportCreator, toListItem, type ListRow } from './present';

/** Exams taken within this many hours of each other belong to one visit (as joint exams: server/reports/joint.ts). */
export const VISIT_HOURS = 12;

type Anchor = Pick<ExamListItem, 'id' | 'bucketId' | 'patientId' | 'accessionNumber' | 'examTime'>;

/**
 * Past exams (core §2 exam detail: latest 15): the same patient's other live exams in the same organisation.
 * Patient ids are issued per organisation, so the same id elsewhere may be someone else.
 */
function pastCondition(exam: Anchor): SQL | null {
  if (exam.patientId.trim() === '') return null;
  return and(eq(exams.bucketId, exam.bucketId), eq(exams.patientId, exam.patientId), ne(exams.id, exam.id), isNull(exams.deletedTime))!;
}

/**
 * Co-exams: the other live exams of the same visit in the same organisation: the same accession number, or the
 * same patient within VISIT_HOURS of this exam's time (another modality of the same visit included).
 */
function coCondition(exam: Anchor): SQL | null {
  const sameVisit = exam.patientId.trim() === '' ? null
    : and(eq(exams.patientId, exam.patientId),
      sql`${exams.examTime} between ${new Date(Date.parse(exam.examTime) - VISIT_HOURS * 3_600_000)} and ${new Date(Date.parse(exam.examTime) + VISIT_HOURS * 3_600_000)}`);
  const sameAccession = exam.accessionNumber && exam.accessionNumber.trim() !== '' ? eq(exams.accessionNumber, exam.accessionNumber) : null;
  const either = [sameVisit, sameAccession].filter((c): c is SQL => c !== null && c !== undefined);
  if (either.length === 0) return null;
  return and(eq(exams.bucketId, exam.bucketId), ne(exams.id, exam.id), isNull(exams.deletedTime), either.length === 1 ? either[0] : or(...either))!;
}

async function listWhere(db: Db, where: SQL, orderBy: SQL[], skip: number, limit: number, access: Access | null): Promise<ExamListItem[]> {
  const rows = await db.select(listColumns).from(exams)
    .leftJoin(buckets, joins.bucket)
    .leftJoin(reportCreator, joins.reportCreator)
    .leftJoin(assignee, joins.assignee)
    .leftJoin(reports, joins.report)
    .where(where).orderBy(...orderBy).offset(skip).limit(limit);
  return rows.map((r) => toListItem(r as ListRow, access));
}

export async function pastExams(db: Db, exam: Anchor, skip: number, limit: number, access: Access | null = null): Promise<ExamListItem[]> {
  const where = pastCondition(exam);
  return where ? listWhere(db, where, [desc(exams.examTime), desc(exams.id)], skip, limit, access) : [];
}

export async function pastCount(db: Db, exam: Anchor): Promise<number> {
  const where = pastCondition(exam);
  if (!where) return 0;
  const [row] = await db.select({ n: count() }).from(exams).where(where);
  return row?.n ?? 0;
}

/** At most this many co-exams are listed: a visit with more is a data problem, not a page to scroll. */
const CO_EXAMS_MAX = 50;

export async function coExams(db: Db, exam: Anchor, access: Access | null = null): Promise<ExamListItem[]> {
  const where = coCondition(exam);
  return where ? listWhere(db, where, [asc(exams.examTime), asc(exams.id)], 0, CO_EXAMS_MAX, access) : [];
}

export async function coExamCount(db: Db, exam: Anchor): Promise<number> {
  const where = coCondition(exam);
  if (!where) return 0;
  const [row] = await db.select({ n: count() }).from(exams).where(where);
  return Math.min(row?.n ?? 0, CO_EXAMS_MAX);
}
