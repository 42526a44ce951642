import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  CONSULTATION_CASE_TYPES, isConsultationStatus,
  type ConsultationAttachment, type ConsultationCase, type ConsultationCaseType, type ConsultationLink,
  type ConsultationPerson, type ConsultationVisitExam,
} from '../../contract/consultations';
import type { Db } from '../db/client';
import {
  accounts, bucketMembers, buckets, consultationAttachments, consultationCases, consultationExams, consultationLinks,
  consultations, exams,
} from '../db/schema';
import type { Storage } from '../storage/types';

/**
 * The parts of a consultation the detail shows (areas §3: cases with their attachments, visit exams, linked
 * consultations). Helper A's detail builder calls these; the part routes (./partsRoutes.ts) answer with them too.
 */

/** Attachment read links live ten minutes, as report attachments' do; the detail is read again for a fresh one. */
export const CONSULTATION_ATTACHMENT_URL_TTL = 600;

/** A database or a transaction: both read. */
type Reader = Pick<Db, 'select'>;
type AttachmentRow = typeof consultationAttachments.$inferSelect;

/**
 * People by account id, each with the name of one organisation they belong to (the lowest id: an account in
 * several organisations shows one, steadily the same).
 */
/**
 * People as the consultation shows them, each with the organisation it knows them by: one of `preferBuckets` (the
 * consultation's own) when they belong to it, else their first.
 */
export async function peopleById(db: Reader, ids: readonly number[], preferBuckets: readonly number[] = []): Promise<Map<number, ConsultationPerson>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select({
    id: accounts.id, name: accounts.name, techTitle: accounts.techTitle,
    bucketName: sql<string | null>`(select ${buckets.name} from ${bucketMembers} join ${buckets} on ${buckets.id} = ${bucketMembers.bucketId}
      where ${bucketMembers.accountId} = ${accounts.id}
      order by ${preferBuckets.length > 0 ? sql`${buckets.id} in (${sql.join(preferBuckets.map((b) => sql`${b}`), sql`, `)}) desc, ` : sql``}${buckets.id} limit 1)`,
  }).from(accounts).where(inArray(accounts.id, unique));
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, techTitle: r.techTitle, bucketName: r.bucketName ?? '' }]));
}

function personOf(people: Map<number, ConsultationPerson>, id: number): ConsultationPerson {
  return people.get(id) ?? { id, name: '', techTitle: null, bucketName: '' };
}

/** One attachment as the API answers it: a short-lived read link only once its bytes are all stored. */
export async function presentAttachment(storage: Storage, row: AttachmentRow): Promise<ConsultationAttachment> {
  const completed = row.status === 'completed' && row.storageKey !== null;
  return {
    id: row.id, caseId: row.caseId, name: row.name, fileType: row.fileType, size: row.size,
    status: row.status === 'completed' ? 'completed' : 'processing', created: row.created.toISOString(),
    url: completed
      ? await storage.readUrl(row.storageKey!, { expiresInSeconds: CONSULTATION_ATTACHMENT_URL_TTL, filename: row.name, contentType: row.fileType })
      : null,
  };
}

function caseType(value: string): ConsultationCaseType {
  return (CONSULTATION_CASE_TYPES as readonly string[]).includes(value) ? value as ConsultationCaseType : 'other';
}

/** The consultation's cases in the order added, each with its attachments in the order uploaded. */
export async function loadCases(db: Reader, storage: Storage, consultationId: number): Promise<ConsultationCase[]> {
  const cases = await db.select().from(consultationCases)
    .where(eq(consultationCases.consultationId, consultationId)).orderBy(asc(consultationCases.id));
  if (cases.length === 0) return [];
  const files = await db.select().from(consultationAttachments)
    .where(eq(consultationAttachments.consultationId, consultationId)).orderBy(asc(consultationAttachments.id));
  const people = await peopleById(db, cases.map((c) => c.createdBy));
  const byCase = new Map<number, ConsultationAttachment[]>();
  for (const f of files) {
    const list = byCase.get(f.caseId) ?? [];
    list.push(await presentAttachment(storage, f));
    byCase.set(f.caseId, list);
  }
  return cases.map((c) => ({
    id: c.id, name: c.name, type: caseType(c.type), note: c.note ?? '', createdBy: personOf(people, c.createdBy),
    created: c.created.toISOString(), attachments: byCase.get(c.id) ?? [],
  }));
}

/** The visit exams, in the order added; an exam deleted since is left out (its images are gone). */
export async function loadVisitExams(db: Reader, consultationId: number): Promise<ConsultationVisitExam[]> {
  const rows = await db.select({
    examId: exams.id, modality: exams.modality, bodyPart: exams.bodyPart, examTime: exams.examTime,
    accessionNumber: exams.accessionNumber, bucketName: buckets.name, hasImage: exams.hasImage,
  }).from(consultationExams)
    .innerJoin(exams, eq(exams.id, consultationExams.examId))
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .where(and(eq(consultationExams.consultationId, consultationId), isNull(exams.deletedTime)))
    .orderBy(asc(consultationExams.created), asc(consultationExams.examId));
  return rows.map((r) => ({
    examId: r.examId, modality: r.modality, bodyPart: r.bodyPart, examTime: r.examTime.toISOString(),
    accessionNumber: r.accessionNumber, bucketName: r.bucketName, hasImages: r.hasImage,
  }));
}

/** The consultations this one links to (its related history), in the order linked; `id` is the linked one's id. */
export async function loadLinks(db: Reader, consultationId: number): Promise<ConsultationLink[]> {
  const rows = await db.select({
    id: consultations.id, patientName: consultations.patientName, reason: consultations.reason,
    status: consultations.status, created: consultations.created,
  }).from(consultationLinks)
    .innerJoin(consultations, eq(consultations.id, consultationLinks.linkedId))
    .where(eq(consultationLinks.consultationId, consultationId))
    .orderBy(asc(consultationLinks.created), asc(consultationLinks.linkedId));
  return rows.map((r) => ({
    id: r.id, patientName: r.patientName, reason: r.reason,
    status: isConsultationStatus(r.status) ? r.status : 0, created: r.created.toISOString(),
  }));
}
