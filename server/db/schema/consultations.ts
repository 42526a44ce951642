/** Consultations (areas §3) and the organisations that joined them. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { accounts, buckets } from './accounts';

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
}, (t) => [
  // The notification poll (core §7: status equal 0, newest id first, five at a time) reads this index backwards
  // and stops after a few entries. Ascending on purpose: a Drizzle .desc() index is NULLS LAST and would not
  // serve ORDER BY id DESC.
  index('consultations_status_id_idx').on(t.status, t.id),
  index('consultations_applied_bucket_idx').on(t.appliedBucketId, t.id),
  // Every reader maps the number to a status; a number outside the five would break them all.
  check('consultations_status_ck', sql`${t.status} between 0 and 4`),
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
