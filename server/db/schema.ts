/**
 * The database schema (Drizzle). One schema for PGlite and PostgreSQL; migrations are generated
 * from it by `npm run db:generate` and applied in code at start (server/db/migrate.ts).
 * Names follow the spec: bucket = organisation, finding = findings, diagnosis = conclusion.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn, bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, real, serial, smallint, text, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';

const created = () => timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const domains = pgTable('domains', {
  id: serial('id').primaryKey(),
  displayName: varchar('display_name', { length: 128 }).notNull(),
  company: varchar('company', { length: 128 }),
  hideSupportCompany: boolean('hide_support_company').notNull().default(false),
  website: varchar('website', { length: 256 }),
  logo: varchar('logo', { length: 1024 }),
  bgImgUrl: varchar('bg_img_url', { length: 1024 }),
  allowRegistration: boolean('allow_registration').notNull().default(false),
  defaultExpertBucketId: integer('default_expert_bucket_id'),
  isPet: boolean('is_pet').notNull().default(false),
  displayDomainName: varchar('display_domain_name', { length: 128 }),
  footer: varchar('footer', { length: 512 }),
});

export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  username: varchar('username', { length: 64 }).notNull(),
  passwordHash: varchar('password_hash', { length: 256 }).notNull(),
  name: varchar('name', { length: 64 }).notNull(),
  fullName: varchar('full_name', { length: 64 }),
  avatar: varchar('avatar', { length: 1024 }),
  signature: varchar('signature', { length: 1024 }),
  mobile: varchar('mobile', { length: 32 }),
  techTitle: varchar('tech_title', { length: 64 }),
  registry: varchar('registry', { length: 64 }),
  canCreateGroup: boolean('can_create_group').notNull().default(false),
  /** 0 normal, 1 disabled (areas §4). */
  status: integer('status').notNull().default(0),
  /** Bumped on logout and disable: every token carries the version it was issued under. */
  tokenVersion: integer('token_version').notNull().default(0),
  lastLoginAt: ts('last_login_at'),
  lastLoginIp: varchar('last_login_ip', { length: 64 }),
  created: created(),
}, (t) => [uniqueIndex('accounts_username_uq').on(sql`lower(${t.username})`)]);

export const groups = pgTable('groups', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  displayName: varchar('display_name', { length: 128 }).notNull(),
  domainName: varchar('domain_name', { length: 128 }),
  openTelemed: boolean('open_telemed').notNull().default(false),
  enableRegistry: boolean('enable_registry').notNull().default(false),
  enableStat: boolean('enable_stat').notNull().default(false),
  enableConsultation: boolean('enable_consultation').notNull().default(false),
  autoNotifyAudio: varchar('auto_notify_audio', { length: 1024 }),
  autoConsulNotifyAudio: varchar('auto_consul_notify_audio', { length: 1024 }),
  defaultConsultationBucketId: integer('default_consultation_bucket_id'),
  defaultExpertBucketId: integer('default_expert_bucket_id'),
  isGroupKb: boolean('is_group_kb').notNull().default(false),
  featEncryptionViewerOn: boolean('feat_encryption_viewer_on').notNull().default(false),
  enableCalling: boolean('enable_calling').notNull().default(false),
  openPrivateCloud: varchar('open_private_cloud', { length: 8 }).notNull().default('0'),
  allowOverview: boolean('allow_overview').notNull().default(false),
  enableCredit: boolean('enable_credit').notNull().default(false),
  pathologyUrl: varchar('pathology_url', { length: 1024 }),
  allowAccountMgmt: boolean('allow_account_mgmt').notNull().default(false),
  created: created(),
}, (t) => [uniqueIndex('groups_name_uq').on(t.name)]);

export const groupMembers = pgTable('group_members', {
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** 0 member, 1 admin. */
  accessLevel: integer('access_level').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.groupId, t.accountId] }), index('group_members_account_idx').on(t.accountId)]);

export const buckets = pgTable('buckets', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 128 }).notNull(),
  code: varchar('code', { length: 35 }).notNull(),
  isPrivate: boolean('is_private').notNull().default(false),
  publicUploadToken: varchar('public_upload_token', { length: 64 }),
  created: created(),
}, (t) => [uniqueIndex('buckets_code_uq').on(t.code), index('buckets_group_idx').on(t.groupId)]);

export const bucketMembers = pgTable('bucket_members', {
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** member | admin | collaborator | contentManager (core §6). */
  accessLevel: varchar('access_level', { length: 16 }).notNull().default('member'),
}, (t) => [primaryKey({ columns: [t.bucketId, t.accountId] }), index('bucket_members_account_idx').on(t.accountId)]);

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  actions: jsonb('actions').$type<string[]>().notNull().default([]),
}, (t) => [index('roles_bucket_idx').on(t.bucketId)]);

export const roleUsers = pgTable('role_users', {
  roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.roleId, t.accountId] }), index('role_users_account_idx').on(t.accountId)]);

export const departments = pgTable('departments', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
});

export const bodyparts = pgTable('bodyparts', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
});

export const doctors = pgTable('doctors', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  departmentId: integer('department_id').notNull().default(0),
  name: varchar('name', { length: 64 }).notNull(),
  physicianType: integer('physician_type').notNull().default(1),
});

export const procedures = pgTable('procedures', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  code: varchar('code', { length: 32 }).notNull(),
  name: varchar('name', { length: 128 }).notNull(),
  enDescription: varchar('en_description', { length: 256 }),
  modality: varchar('modality', { length: 8 }).notNull(),
  price: real('price').notNull().default(0),
});

/** Login throttling lives in the database so several API processes share it. */
export const loginAttempts = pgTable('login_attempts', {
  key: varchar('key', { length: 160 }).primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: ts('window_start').notNull(),
  blockedUntil: ts('blocked_until'),
});

/** Exam columns the worklist filters on most, carried by its two ordered indexes (see exams below). */
function worklistFilterColumns(t: {
  modality: AnyPgColumn; reportStatus: AnyPgColumn; reportCreatorId: AnyPgColumn; assigneeId: AnyPgColumn; teleMedFlag: AnyPgColumn;
  isRemoteReportRequested: AnyPgColumn; urgentFlag: AnyPgColumn; patientSource: AnyPgColumn; patientName: AnyPgColumn;
}) {
  return [t.modality, t.reportStatus, t.reportCreatorId, t.assigneeId, t.teleMedFlag, t.isRemoteReportRequested, t.urgentFlag, t.patientSource, t.patientName] as const;
}

export const exams = pgTable('exams', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  targetBucketId: integer('target_bucket_id'),
  orderId: varchar('order_id', { length: 64 }),
  patientKeyId: varchar('patient_key_id', { length: 64 }),
  patientName: varchar('patient_name', { length: 128 }).notNull(),
  patientId: varchar('patient_id', { length: 64 }).notNull(),
  patientGender: varchar('patient_gender', { length: 2 }).notNull().default('U'),
  patientDob: varchar('patient_dob', { length: 10 }),
  visitAge: varchar('visit_age', { length: 8 }),
  weight: real('weight'),
  height: real('height'),
  patientClass: varchar('patient_class', { length: 16 }),
  patientSource: varchar('patient_source', { length: 2 }),
  inpatientId: varchar('inpatient_id', { length: 64 }),
  bedNum: varchar('bed_num', { length: 16 }),
  outpatientId: varchar('outpatient_id', { length: 64 }),
  physicalExamId: varchar('physical_exam_id', { length: 64 }),
  serviceRequestId: varchar('service_request_id', { length: 64 }),
  accessionNumber: varchar('accession_number', { length: 64 }),
  modality: varchar('modality', { length: 8 }).notNull(),
  bodyPart: varchar('body_part', { length: 64 }),
  bodyPartCount: integer('body_part_count').notNull().default(1),
  studyDescription: varchar('study_description', { length: 256 }),
  clinicImpression: varchar('clinic_impression', { length: 1024 }),
  applyDept: varchar('apply_dept', { length: 64 }),
  urgentFlag: boolean('urgent_flag').notNull().default(false),
  teleMedFlag: boolean('tele_med_flag').notNull().default(false),
  storeUid: varchar('store_uid', { length: 128 }),
  openPath: varchar('open_path', { length: 512 }),
  hasImage: boolean('has_image').notNull().default(false),
  showVideo: boolean('show_video').notNull().default(false),
  formImgUrls: jsonb('form_img_urls').$type<string[]>().notNull().default([]),
  extensions: jsonb('extensions').$type<Record<string, unknown>>().notNull().default({}),
  aiStatus: varchar('ai_status', { length: 16 }),
  assigneeId: integer('assignee_id'),
  isRemoteReportRequested: boolean('is_remote_report_requested').notNull().default(false),
  reportType: varchar('report_type', { length: 16 }).notNull().default('report'),
  /** Denormalised from the exam's current report so the worklist filters and sorts without a join. */
  reportId: integer('report_id'),
  reportStatus: varchar('report_status', { length: 16 }),
  reportCreatorId: integer('report_creator_id'),
  examTime: ts('exam_time').notNull(),
  uploadTime: ts('upload_time'),
  created: created(),
  deletedTime: ts('deleted_time'),
}, (t) => [
  // The worklist (server/exams): live exams newest first, read backwards along ascending (created, id) indexes
  // (a Drizzle .desc() index is NULLS LAST and does not serve ORDER BY created DESC). Partial on live rows, and
  // carrying the columns of the quick filters after the id (which is unique, so they never change the order): the
  // ids of a page, even a deep one, and the capped counts come from the index alone (index-only scans).
  index('exams_live_created_idx').on(t.created, t.id, t.bucketId, ...worklistFilterColumns(t)).where(sql`${t.deletedTime} is null`),
  index('exams_live_bucket_created_idx').on(t.bucketId, t.created, t.id, ...worklistFilterColumns(t)).where(sql`${t.deletedTime} is null`),
  // The same order without the filter columns: an unfiltered deep page (skip 100,000) reads 2.5 times fewer pages.
  index('exams_live_bucket_order_idx').on(t.bucketId, t.created, t.id).where(sql`${t.deletedTime} is null`),
  index('exams_live_bucket_modality_created_idx').on(t.bucketId, t.modality, t.created, t.id).where(sql`${t.deletedTime} is null`),
  index('exams_live_bucket_exam_time_idx').on(t.bucketId, t.examTime, t.id).where(sql`${t.deletedTime} is null`),
  // The worklist's default order since it is a column people see: latest exam time first, read backwards.
  index('exams_live_exam_time_idx').on(t.examTime, t.id, t.bucketId, ...worklistFilterColumns(t)).where(sql`${t.deletedTime} is null`),
  // "My tasks" and the reporter filter: few rows per account among a million.
  index('exams_live_assignee_idx').on(t.assigneeId, t.created, t.id).where(sql`${t.deletedTime} is null and ${t.assigneeId} is not null`),
  index('exams_live_report_creator_idx').on(t.reportCreatorId, t.created, t.id).where(sql`${t.deletedTime} is null and ${t.reportCreatorId} is not null`),
  index('exams_patient_id_idx').on(t.patientId),
  index('exams_accession_idx').on(t.accessionNumber),
  // Free-text search with few hits goes from the matching reports to their exams.
  index('exams_report_id_idx').on(t.reportId).where(sql`${t.reportId} is not null`),
  index('exams_deleted_idx').on(t.deletedTime),
  index('exams_patient_name_trgm').using('gin', sql`${t.patientName} gin_trgm_ops`),
]);

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

/**
 * The audit trail of every area (who, when, what, before and after): registrations, queue calls, payments, refunds,
 * role and account changes. Append-only: written in the same transaction as the change (server/audit), never
 * updated or deleted (a trigger refuses both). Reports keep their own trace (report_traces, with the text snapshots
 * the spec's trace shows) beside it.
 */
export const auditEvents = pgTable('audit_events', {
  id: serial('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  actorId: integer('actor_id'),
  bucketId: integer('bucket_id'),
  area: varchar('area', { length: 32 }).notNull(),
  action: varchar('action', { length: 64 }).notNull(),
  objectType: varchar('object_type', { length: 32 }).notNull(),
  objectId: varchar('object_id', { length: 64 }).notNull(),
  before: jsonb('before').$type<Record<string, unknown>>(),
  after: jsonb('after').$type<Record<string, unknown>>(),
}, (t) => [
  index('audit_events_object_idx').on(t.objectType, t.objectId, t.id),
  index('audit_events_actor_idx').on(t.actorId, t.id),
]);

export const reportTemplates = pgTable('report_templates', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
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
  // areas §5: template names must not repeat within a folder (root = parent 0); the database settles races.
  uniqueIndex('report_templates_name_uq').on(t.bucketId, sql`coalesce(${t.parentId}, 0)`, sql`lower(${t.name})`),
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
  created: created(),
});

/* ── Images: DICOM instances, upload codes, key images, attachments, study packages, shares ── */

/** One stored DICOM file, indexed from its header; unique per exam by SOP instance UID so a re-sent file is a no-op. */
export const dicomInstances = pgTable('dicom_instances', {
  id: serial('id').primaryKey(),
  examId: integer('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  studyInstanceUid: varchar('study_instance_uid', { length: 64 }).notNull(),
  seriesInstanceUid: varchar('series_instance_uid', { length: 64 }).notNull(),
  sopInstanceUid: varchar('sop_instance_uid', { length: 64 }).notNull(),
  sopClassUid: varchar('sop_class_uid', { length: 64 }),
  transferSyntaxUid: varchar('transfer_syntax_uid', { length: 64 }).notNull(),
  modality: varchar('modality', { length: 16 }),
  seriesNumber: integer('series_number'),
  seriesDescription: varchar('series_description', { length: 128 }),
  instanceNumber: integer('instance_number'),
  rows: integer('rows'),
  columns: integer('columns'),
  frames: integer('frames').notNull().default(1),
  storageKey: varchar('storage_key', { length: 512 }).notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  uploadedBy: integer('uploaded_by'),
  created: created(),
}, (t) => [
  uniqueIndex('dicom_instances_exam_sop_uq').on(t.examId, t.sopInstanceUid),
  index('dicom_instances_exam_series_idx').on(t.examId, t.seriesInstanceUid, t.instanceNumber),
]);

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

/** The current zip of an exam's files; its state is the study-package machine's (machines/studyPackage.ts). */
export const studyPackages = pgTable('study_packages', {
  examId: integer('exam_id').primaryKey().references(() => exams.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  state: varchar('state', { length: 16 }).notNull(),
  /** Bumped on every (re)pack so a late finishing build of an older pack cannot overwrite a newer one. */
  attempt: integer('attempt').notNull().default(1),
  storageKey: varchar('storage_key', { length: 512 }),
  size: bigint('size', { mode: 'number' }),
  fileCount: integer('file_count'),
  error: varchar('error', { length: 512 }),
  requestedBy: integer('requested_by'),
  startedAt: ts('started_at').notNull(),
  readyAt: ts('ready_at'),
  expiresAt: ts('expires_at'),
});

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

/** Fixed-window request counters for public endpoints (per address), shared by every API process. */
export const requestCounters = pgTable('request_counters', {
  key: varchar('key', { length: 160 }).primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull().default(0),
});

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
