/** Uploads from outside the organisation (docs/api.md "Permits"). */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { created } from './columns';
import { exams } from './exams';
import { uploadCodes } from './reports';

/**
 * Which outsider made an exam: an upload code naming no exam, or an account through the organisation's public
 * token. Only that code (or that account by token) finds the study again by its UID to resume; nobody else
 * holding a code or the token reaches the exam.
 */
export const uploadOrigins = pgTable('upload_origins', {
  examId: integer('exam_id').primaryKey().references(() => exams.id, { onDelete: 'cascade' }),
  code: varchar('code', { length: 64 }).references(() => uploadCodes.code, { onDelete: 'cascade' }),
  accountId: integer('account_id'),
  created: created(),
}, (t) => [check('upload_origins_one_origin_ck', sql`(${t.code} is null) <> (${t.accountId} is null)`)]);
