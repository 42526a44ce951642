/** Consultations (areas §3) and the organisations that joined them. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, serial, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { accounts, buckets } from './accounts';
import { exams } from './exams';
import { reports } from './reports';

/**
 * One consultation: the applicant organisation (appliedBucketId) asks the target organisation, with the joined
 * organisations (consultation_buckets) taking part. Status is areas §4's number, contract/consultations.ts
 * CONSULTATION_STATUS: 0 pending, 1 scheduled, 2 discussed, 3 completed, 4 canceled.
 */
export const consultations = pgTable('consultations', {
  id: serial('id').primaryKey(),
  appliedBucketId: integer('applied_bucket_id').notNull().references(() => buckets.id),
  targetBucketId: integer('target_bucket_id').notNull().references(() => buckets.id),
  patientName: varchar('patient_name', { length: 128 }).notNull(),
  patientGender: varchar('patient_gender', { length: 2 }).notNull().default('U'),
  /** Age with its unit, as exams keep visitAge: '45Y', '8M'. */
  patientAge: varchar('patient_age', { length: 8 }),
  reason: text('reason').notNull(),
  status: smallint('status').notNull().default(0),
  scheduledTime: ts('scheduled_time'),
  note: varchar('note', { length: 1024 }),
  createdBy: integer('created_by').notNull().references(() => accounts.id),
  created: created(),
  /** The exam and report it was started from (/consultations/add?examId&reportId); null for the older demo rows. */
  examId: integer('exam_id').references(() => exams.id),
  reportId: integer('report_id').references(() => reports.id),
  patientTel: varchar('patient_tel', { length: 32 }),
  patientEmail: varchar('patient_email', { length: 128 }),
  /** Areas §4 payment status (0 unpaid, 1 paid, 2 refunding, 3 refunded): a field beside the state, set by hand. */
  paymentStatus: smallint('payment_status').notNull().default(0),
  cancelReason: varchar('cancel_reason', { length: 1024 }),
  /** The result (areas §3 "results"): sanitised HTML, written by an expert with the conclusion permission. */
  conclusion: text('conclusion'),
  treatmentPlan: text('treatment_plan'),
  resultBy: integer('result_by').references(() => accounts.id),
  resultAt: ts('result_at'),
  approvedBy: integer('approved_by').references(() => accounts.id),
  approvedAt: ts('approved_at'),
  /** 1..5, once submitted never changed (areas §4). */
  rating: smallint('rating'),
  ratingComment: varchar('rating_comment', { length: 1024 }),
  ratedBy: integer('rated_by').references(() => accounts.id),
  ratedAt: ts('rated_at'),
  /** Optimistic concurrency: every write compares and bumps it (two experts concluding at once: one wins). */
  version: integer('version').notNull().default(1),
  updated: ts('updated'),
}, (t) => [
  // The notification poll (core §7: status equal 0, newest id first, five at a time) reads this index backwards
  // and stops after a few entries. Ascending on purpose: a Drizzle .desc() index is NULLS LAST and would not
  // serve ORDER BY id DESC.
  index('consultations_status_id_idx').on(t.status, t.id),
  index('consultations_applied_bucket_idx').on(t.appliedBucketId, t.id),
  // Statistics: consultations of a period by the applying and by the target organisation.
  index('consultations_applied_created_idx').on(t.appliedBucketId, t.created),
  index('consultations_target_created_idx').on(t.targetBucketId, t.created),
  // Every reader maps the number to a status; a number outside the five would break them all.
  check('consultations_status_ck', sql`${t.status} between 0 and 4`),
  check('consultations_payment_status_ck', sql`${t.paymentStatus} between 0 and 3`),
  check('consultations_rating_ck', sql`${t.rating} is null or ${t.rating} between 1 and 5`),
  // "My consultations": the ones I applied for, newest first.
  index('consultations_created_by_idx').on(t.createdBy, t.id),
  index('consultations_exam_idx').on(t.examId).where(sql`${t.examId} is not null`),
  // The list's patient-name search (2 characters and more): the query's bigrams (@>) through this index, then the
  // ILIKE decides, as for exams (exam_name_bigrams: migration 0020).
  index('consultations_name_bigrams').using('gin', sql`exam_name_bigrams(${t.patientName})`),
]);

/** The organisations that joined a consultation (its joinedBuckets); their members see it as the applicant's do. */
export const consultationBuckets = pgTable('consultation_buckets', {
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
}, (t) => [
  primaryKey({ columns: [t.consultationId, t.bucketId] }),
  // "Consultations my organisation joined": the scope of every list.
  index('consultation_buckets_bucket_idx').on(t.bucketId, t.consultationId),
]);

/** People taking part (areas §3 members and experts): 'member' from either side, 'expert' of the target's side. */
export const consultationMembers = pgTable('consultation_members', {
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id),
  role: varchar('role', { length: 16 }).notNull().default('member'),
  addedBy: integer('added_by').references(() => accounts.id),
  created: created(),
}, (t) => [
  primaryKey({ columns: [t.consultationId, t.accountId] }),
  // "My consultations" also lists the ones I take part in.
  index('consultation_members_account_idx').on(t.accountId, t.consultationId),
  check('consultation_members_role_ck', sql`${t.role} in ('member', 'expert')`),
]);

/** Clinical cases (areas §3 cases: name, type, note) with their attachments below. */
export const consultationCases = pgTable('consultation_cases', {
  id: serial('id').primaryKey(),
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 128 }).notNull(),
  type: varchar('type', { length: 32 }).notNull(),
  note: varchar('note', { length: 1024 }),
  createdBy: integer('created_by').notNull().references(() => accounts.id),
  created: created(),
}, (t) => [index('consultation_cases_consultation_idx').on(t.consultationId, t.id)]);

/** A case's files (areas §4 "Case attachment upload": processing, then completed); the bytes are in deps.storage. */
export const consultationAttachments = pgTable('consultation_attachments', {
  id: serial('id').primaryKey(),
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  caseId: integer('case_id').notNull().references(() => consultationCases.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 255 }).notNull(),
  fileType: varchar('file_type', { length: 128 }).notNull(),
  size: bigint('size', { mode: 'number' }).notNull().default(0),
  storageKey: varchar('storage_key', { length: 512 }),
  status: varchar('status', { length: 16 }).notNull().default('processing'),
  createdBy: integer('created_by').notNull().references(() => accounts.id),
  created: created(),
  completedAt: ts('completed_at'),
}, (t) => [
  index('consultation_attachments_case_idx').on(t.caseId, t.id),
  check('consultation_attachments_status_ck', sql`${t.status} in ('processing', 'completed')`),
]);

/** Related (history) consultations: /consultations/{id}/related/{linkId}. */
export const consultationLinks = pgTable('consultation_links', {
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  linkedId: integer('linked_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  createdBy: integer('created_by').notNull().references(() => accounts.id),
  created: created(),
}, (t) => [
  primaryKey({ columns: [t.consultationId, t.linkedId] }),
  check('consultation_links_self_ck', sql`${t.consultationId} <> ${t.linkedId}`),
]);

/** The visit exams a consultation looks at (consultation_Exam_create/delete); the exam it started from is one. */
export const consultationExams = pgTable('consultation_exams', {
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  examId: integer('exam_id').notNull().references(() => exams.id),
  addedBy: integer('added_by').notNull().references(() => accounts.id),
  created: created(),
}, (t) => [primaryKey({ columns: [t.consultationId, t.examId] })]);

/** Suggestions (consultation_submitSuggestion): the discussion's opinions, sanitised HTML, in the order given. */
export const consultationSuggestions = pgTable('consultation_suggestions', {
  id: serial('id').primaryKey(),
  consultationId: integer('consultation_id').notNull().references(() => consultations.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id),
  content: text('content').notNull(),
  created: created(),
}, (t) => [index('consultation_suggestions_consultation_idx').on(t.consultationId, t.id)]);
