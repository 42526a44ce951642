/** Reports, their trace, templates, quality records, print templates, images and attachments, colour rules. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { groups, buckets } from './accounts';
import { exams } from './exams';

export const reports = pgTable('reports', {
  id: serial('id').primaryKey(),
  examId: integer('exam_id').notNull().references(() => exams.id),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  /** The bucket the report was written in; a report is mutable when the upload target is absent or equal to it. */
  sourceBucketId: integer('source_bucket_id'),
  status: varchar('status', { length: 16 }).notNull().default('none'),
  type: varchar('type', { length: 16 }).notNull().default('report'),
  creatorId: integer('creator_id'),
  lastUpdaterId: integer('last_updater_id'),
  issuerId: integer('issuer_id'),
  noteTakerId: integer('note_taker_id'),
  assigneeId: integer('assignee_id'),
  lockedById: integer('locked_by_id'),
  lockedAt: ts('locked_at'),
  rejectReason: varchar('reject_reason', { length: 512 }),
  recallReason: varchar('recall_reason', { length: 512 }),
  /** The last advice given (action advise); the full history is in the traces. */
  adviceReason: varchar('advice_reason', { length: 512 }),
  finding: text('finding').notNull().default(''),
  diagnosis: text('diagnosis').notNull().default(''),
  /**
   * What free-text search reads (core §5): findings and conclusion as the reader sees them, without tags and with
   * the sanitiser's entities decoded, so "<5mm" or "A&B" match and "strong" does not match the markup. Derived
   * by the database on every write, so no write path can forget it. A newline keeps the two fields apart.
   */
  // Block ends become line breaks, inline tags (<strong>) vanish so "<strong>结节</strong><5mm" reads "结节<5mm".
  searchText: text('search_text').generatedAlwaysAs(sql`replace(replace(replace(replace(replace(replace(
    regexp_replace(regexp_replace(finding || chr(10) || diagnosis, '<(br|/p|/li|/h[1-6]|/div|/blockquote|/pre|/tr|/td|/th)[^>]*>', chr(10), 'gi'), '<[^>]*>', '', 'g'),
    '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&nbsp;', ' '), '&amp;', '&')`),
  positive: boolean('positive'),
  note: varchar('note', { length: 256 }),
  bodypartCount: integer('bodypart_count').notNull().default(1),
  criticalValue: varchar('critical_value', { length: 256 }),
  extensions: jsonb('extensions').$type<Record<string, unknown>>().notNull().default({}),
  /** "A user with advice permission may edit when the option is ticked" (core §6). */
  allowAdvisorEdit: boolean('allow_advisor_edit').notNull().default(false),
  /** Externally synced and not yet confirmed by a save: read-only. */
  syncPending: boolean('sync_pending').notNull().default(false),
  syncStopped: boolean('sync_stopped').notNull().default(false),
  version: integer('version').notNull().default(1),
  /** Core §5 joint exams: other exams of the visit this report also covers, and those the writer declined. */
  jointExamIds: jsonb('joint_exam_ids').$type<number[]>().notNull().default([]),
  jointDiscardedIds: jsonb('joint_discarded_ids').$type<number[]>().notNull().default([]),
  savedTime: ts('saved_time'),
  submittedTime: ts('submitted_time'),
  approvedTime: ts('approved_time'),
  printedTime: ts('printed_time'),
  printSubmittedAt: ts('print_submitted_at'),
  printApprovedAt: ts('print_approved_at'),
  lastOperationTime: ts('last_operation_time'),
  deletedTime: ts('deleted_time'),
  created: created(),
}, (t) => [
  index('reports_exam_idx').on(t.examId),
  index('reports_bucket_status_idx').on(t.bucketId, t.status),
  // Statistics: an organisation's reports approved in a period (positive rate, note-takers, turnaround).
  index('reports_stat_approved_idx').on(t.bucketId, t.approvedTime).where(sql`${t.approvedTime} is not null and ${t.deletedTime} is null`),
  index('reports_search_text_trgm').using('gin', sql`${t.searchText} gin_trgm_ops`),
  // "Reports covering exam X" is `exam_id = X or joint_exam_ids @> [X]` on every report write: a bitmap OR of this and
  // reports_exam_idx instead of a scan of all reports (53 ms → 0.7 ms at 100k reports). No fast update: GIN's pending
  // list is scanned by every search until a vacuum merges it, and embedded PGlite has no autovacuum (3.6 ms → 0.1 ms).
  index('reports_joint_exam_ids_idx').using('gin', sql`${t.jointExamIds} jsonb_path_ops`).with({ fastupdate: false }),
]);

export const reportTraces = pgTable('report_traces', {
  id: serial('id').primaryKey(),
  reportId: integer('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
  accountId: integer('account_id'),
  action: varchar('action', { length: 32 }).notNull(),
  fromStatus: varchar('from_status', { length: 16 }),
  toStatus: varchar('to_status', { length: 16 }),
  reason: varchar('reason', { length: 512 }),
  snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull().default({}),
  created: created(),
}, (t) => [index('report_traces_report_idx').on(t.reportId, t.id)]);

export const reportTemplates = pgTable('report_templates', {
  id: serial('id').primaryKey(),
  /** The organisation's tree; null for the group's shared tree (group.isGroupKb), which sets groupId instead. */
  bucketId: integer('bucket_id').references(() => buckets.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').references(() => groups.id, { onDelete: 'cascade' }),
  parentId: integer('parent_id'),
  name: varchar('name', { length: 128 }).notNull(),
  isFolder: boolean('is_folder').notNull().default(false),
  modality: varchar('modality', { length: 8 }),
  bodyPart: varchar('body_part', { length: 64 }),
  finding: text('finding').notNull().default(''),
  diagnosis: text('diagnosis').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  created: created(),
}, (t) => [
  index('report_templates_bucket_idx').on(t.bucketId),
  index('report_templates_group_idx').on(t.groupId),
  // areas §5: template names must not repeat within a folder (root = parent 0); the database settles races.
  uniqueIndex('report_templates_name_uq').on(sql`coalesce(${t.bucketId}, 0)`, sql`coalesce(${t.groupId}, 0)`, sql`coalesce(${t.parentId}, 0)`, sql`lower(${t.name})`),
  // A template belongs to exactly one tree: an organisation's or a group's.
  check('report_templates_owner_ck', sql`(${t.bucketId} is null) <> (${t.groupId} is null)`),
]);

/** The quality record of a report (core §3 "quality record (reportId)"): one per report, the last reviewer's. */
export const reportQuality = pgTable('report_quality', {
  reportId: integer('report_id').primaryKey().references(() => reports.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  grade: varchar('grade', { length: 2 }).notNull(),
  score: integer('score'),
  comment: varchar('comment', { length: 512 }),
  items: jsonb('items').$type<Record<string, string | number | boolean>>().notNull().default({}),
  reviewerId: integer('reviewer_id'),
  created: created(),
  updated: ts('updated').notNull(),
});

export const printTemplates = pgTable('print_templates', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 128 }).notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  modality: varchar('modality', { length: 8 }),
  titles: jsonb('titles').$type<string[]>().notNull().default([]),
  logo: varchar('logo', { length: 1024 }),
  stamp: varchar('stamp', { length: 1024 }),
  /** creator | approver */
  signatureOf: varchar('signature_of', { length: 16 }).notNull().default('approver'),
  /** none | static | dynamic */
  qrMode: varchar('qr_mode', { length: 16 }).notNull().default('none'),
  qrText: varchar('qr_text', { length: 10 }),
  exactTime: boolean('exact_time').notNull().default(false),
  pageNumbers: boolean('page_numbers').notNull().default(true),
  /** 1 = an exam report's layout, 3 = a consultation's (areas §3 "Layout type 3 applies to consultation templates"). */
  layoutType: integer('layout_type').notNull().default(1),
  created: created(),
  updated: ts('updated'),
}, (t) => [
  index('print_templates_bucket_idx').on(t.bucketId),
  // areas §5: template names must not repeat (within an organisation).
  uniqueIndex('print_templates_name_uq').on(t.bucketId, sql`lower(${t.name})`),
]);

/* ── Images: DICOM instances, upload codes, key images, attachments, study packages, shares ── */

/**
 * A code handed to someone without an account (an external uploader or applicant): it grants uploads of
 * one kind into one organisation (serviceOrder: DICOM studies, optionally into one exam; attachment: files
 * onto one report) until it expires or is revoked.
 */
export const uploadCodes = pgTable('upload_codes', {
  code: varchar('code', { length: 64 }).primaryKey(),
  kind: varchar('kind', { length: 16 }).notNull(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  examId: integer('exam_id').references(() => exams.id, { onDelete: 'cascade' }),
  reportId: integer('report_id').references(() => reports.id, { onDelete: 'cascade' }),
  createdBy: integer('created_by').notNull(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  created: created(),
}, (t) => [index('upload_codes_bucket_idx').on(t.bucketId)]);

/** Report images (core §5: at most 6 per report, each at most 5 MB, PNG or JPEG). */
export const keyImages = pgTable('key_images', {
  id: serial('id').primaryKey(),
  reportId: integer('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  storageKey: varchar('storage_key', { length: 512 }).notNull(),
  contentType: varchar('content_type', { length: 64 }).notNull(),
  size: integer('size').notNull(),
  /** The instance and frame it was captured from, when captured in the viewer. */
  instanceId: integer('instance_id'),
  frame: integer('frame'),
  description: varchar('description', { length: 256 }),
  sort: integer('sort').notNull().default(0),
  createdBy: integer('created_by'),
  created: created(),
}, (t) => [index('key_images_report_idx').on(t.reportId, t.sort)]);

export const reportAttachments = pgTable('report_attachments', {
  id: serial('id').primaryKey(),
  reportId: integer('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  name: varchar('name', { length: 256 }).notNull(),
  storageKey: varchar('storage_key', { length: 512 }).notNull(),
  contentType: varchar('content_type', { length: 128 }).notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  /** The account, or null when it came through an upload code. */
  createdBy: integer('created_by'),
  uploadCode: varchar('upload_code', { length: 64 }),
  created: created(),
}, (t) => [index('report_attachments_report_idx').on(t.reportId, t.id)]);

/** Report-table colour rules of a group (areas §3 "Colour rule"): the worklist paints rows by them. */
export const reportTableColourRules = pgTable('report_table_colour_rules', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  /** Smaller number = higher priority (areas §9). */
  priority: integer('priority').notNull(),
  /** The rule's place in the settings list. */
  ruleIndex: integer('rule_index').notNull().default(0),
  /** The worklist row field the rule reads (contract/exams.ts COLOUR_RULE_COLUMNS). */
  matchColumn: varchar('match_column', { length: 32 }).notNull(),
  value: varchar('value', { length: 64 }),
  gte: varchar('gte', { length: 64 }),
  lte: varchar('lte', { length: 64 }),
  foreColor: varchar('fore_color', { length: 16 }),
  backColor: varchar('back_color', { length: 16 }),
  createdBy: integer('created_by'),
  created: created(),
}, (t) => [index('report_table_colour_rules_group_idx').on(t.groupId, t.priority)]);

/* ── Consultations (areas §3 "Consultation", §4): an organisation asks others for their opinion on a patient ── */
