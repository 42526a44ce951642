/** Report share links, electronic film and the organisation's published reports. */
import { index, integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { buckets } from './accounts';
import { exams } from './exams';
import { reports } from './reports';

/** A report share link: the id is the secret (192 random bits), so it is never listed to anyone but the report's users. */
export const reportShares = pgTable('report_shares', {
  id: varchar('id', { length: 64 }).primaryKey(),
  reportId: integer('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  createdBy: integer('created_by').notNull(),
  /** The report's approval time when the link was made: a later approval means it was recalled and corrected since. */
  approvedTimeAtShare: ts('approved_time_at_share'),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  revokedBy: integer('revoked_by'),
  created: created(),
}, (t) => [index('report_shares_report_idx').on(t.reportId)]);

/** Electronic film: an exam's images (and its approved report) behind a link and a verification code. */
export const filmShares = pgTable('film_shares', {
  id: varchar('id', { length: 64 }).primaryKey(),
  code: varchar('code', { length: 16 }).notNull(),
  examId: integer('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  createdBy: integer('created_by').notNull(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: ts('locked_until'),
  created: created(),
}, (t) => [index('film_shares_exam_idx').on(t.examId), index('film_shares_code_idx').on(t.code)]);

/** Reports published to the organisation's patient-facing list (order_report_publish). */
export const reportPublications = pgTable('report_publications', {
  reportId: integer('report_id').primaryKey().references(() => reports.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  publishedBy: integer('published_by').notNull(),
  publishedAt: ts('published_at').notNull(),
}, (t) => [index('report_publications_bucket_idx').on(t.bucketId, t.publishedAt)]);
