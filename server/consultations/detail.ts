import { asc, eq, inArray } from 'drizzle-orm';
import type {
  ConsultationDetail, ConsultationMember, ConsultationPerson, ConsultationStatus, ConsultationSuggestion, PaymentStatus,
} from '../../contract/consultations';
import type { Db } from '../db/client';
import { buckets, consultationMembers, consultationSuggestions } from '../db/schema';
import type { Storage } from '../storage/types';
import { transitionsOf, type LoadedConsultation } from './load';
import { loadCases, loadLinks, loadVisitExams, peopleById } from './parts';

type Reader = Pick<Db, 'select'>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function personOr(people: Map<number, ConsultationPerson>, id: number | null): ConsultationPerson | null {
  if (id === null) return null;
  return people.get(id) ?? { id, name: '', techTitle: null, bucketName: '' };
}

/**
 * GET consultations/{id}: the row, its organisations and people, the parts (./parts.ts), and what the reader may do
 * now (`transitions`, the machine's answer). Results and suggestions are stored sanitised, so they are sent as stored.
 */
export async function buildDetail(db: Reader, storage: Storage, c: LoadedConsultation): Promise<ConsultationDetail> {
  const { row } = c;
  // One query at a time: the caller may hold a transaction (one connection).
  const bucketIds = [...new Set([row.appliedBucketId, row.targetBucketId, ...c.joinedBucketIds])];
  const bucketRows = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(inArray(buckets.id, bucketIds));
  const bucketName = new Map(bucketRows.map((b) => [b.id, b.name]));
  const memberRows = await db.select({ accountId: consultationMembers.accountId, role: consultationMembers.role })
    .from(consultationMembers).where(eq(consultationMembers.consultationId, row.id))
    .orderBy(asc(consultationMembers.created), asc(consultationMembers.accountId));
  const suggestionRows = await db.select().from(consultationSuggestions)
    .where(eq(consultationSuggestions.consultationId, row.id)).orderBy(asc(consultationSuggestions.id));
  const people = await peopleById(db, [
    row.createdBy, ...memberRows.map((m) => m.accountId), ...suggestionRows.map((s) => s.accountId),
    ...[row.resultBy, row.approvedBy, row.ratedBy].filter((id): id is number => id !== null),
  ], bucketIds);
  const cases = await loadCases(db, storage, row.id);
  const visitExams = await loadVisitExams(db, row.id);
  const links = await loadLinks(db, row.id);

  const members = memberRows.map((m): ConsultationMember => ({
    ...personOr(people, m.accountId)!, role: m.role === 'expert' ? 'expert' : 'member',
  }));
  const suggestions = suggestionRows.map((s): ConsultationSuggestion => ({
    id: s.id, author: personOr(people, s.accountId)!, content: s.content, created: s.created.toISOString(),
  }));
  return {
    id: row.id,
    version: row.version,
    patientName: row.patientName,
    created: row.created.toISOString(),
    reason: row.reason,
    // The table's check constraints hold status and payment to areas §4's numbers.
    status: row.status as ConsultationStatus,
    appliedBucketName: bucketName.get(row.appliedBucketId) ?? '',
    joinedBuckets: c.joinedBucketIds.map((id) => ({ id, name: bucketName.get(id) ?? '' })).sort((a, b) => a.id - b.id),
    scheduledTime: iso(row.scheduledTime),
    examId: row.examId,
    reportId: row.reportId,
    appliedBucketId: row.appliedBucketId,
    targetBucketId: row.targetBucketId,
    targetBucketName: bucketName.get(row.targetBucketId) ?? '',
    patient: {
      name: row.patientName, gender: row.patientGender, age: row.patientAge, tel: row.patientTel ?? '', email: row.patientEmail ?? '',
    },
    note: row.note ?? '',
    paymentStatus: row.paymentStatus as PaymentStatus,
    cancelReason: row.cancelReason,
    createdBy: personOr(people, row.createdBy)!,
    members,
    cases,
    visitExams,
    links,
    suggestions,
    result: row.conclusion === null ? null : {
      conclusion: row.conclusion, treatmentPlan: row.treatmentPlan ?? '', by: personOr(people, row.resultBy), at: iso(row.resultAt),
    },
    approvedBy: personOr(people, row.approvedBy),
    approvedAt: iso(row.approvedAt),
    rating: row.rating === null ? null : {
      rating: row.rating, comment: row.ratingComment ?? '', by: personOr(people, row.ratedBy), at: iso(row.ratedAt),
    },
    transitions: transitionsOf(c),
  };
}
