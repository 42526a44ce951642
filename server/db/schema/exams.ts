/** Exams (the worklist's rows), their stored DICOM files and study packages. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, boolean, index, integer, jsonb, pgTable, real, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { buckets } from './accounts';

/**
 * Exam columns the worklist filters on most, carried by its two ordered indexes (see exams below). The last two are
 * what the default view's `reportable` filter reads (contract/reportable.ts), so its pages stay index-only.
 */
function worklistFilterColumns(t: {
  modality: AnyPgColumn; reportStatus: AnyPgColumn; reportCreatorId: AnyPgColumn; assigneeId: AnyPgColumn; teleMedFlag: AnyPgColumn;
  isRemoteReportRequested: AnyPgColumn; urgentFlag: AnyPgColumn; patientSource: AnyPgColumn; patientName: AnyPgColumn;
  hasImage: AnyPgColumn; examStatus: AnyPgColumn;
}) {
  return [t.modality, t.reportStatus, t.reportCreatorId, t.assigneeId, t.teleMedFlag, t.isRemoteReportRequested, t.urgentFlag, t.patientSource, t.patientName, t.hasImage, t.examStatus] as const;
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
  /**
   * The Study Instance UID a registry line is given at registration and the Modality Worklist hands the modality
   * (server/dicom/worklist.ts), so the images it sends come back to this line (server/dicom/receive.ts).
   */
  scheduledStudyUid: varchar('scheduled_study_uid', { length: 64 }),
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
  /** Registry (areas §3, §4; machines/registration.ts): null for exams that never went through the desk. */
  registrationId: integer('registration_id'),
  examStatus: varchar('exam_status', { length: 16 }),
  scheduledTime: ts('scheduled_time'),
  arrivedTime: ts('arrived_time'),
  /** What revoke restores: the status and arrival time before the last check-in, perform, match or cancel. */
  prevExamStatus: varchar('prev_exam_status', { length: 16 }),
  prevArrivedTime: ts('prev_arrived_time'),
  cancelReason: varchar('cancel_reason', { length: 256 }),
  procedureStepId: integer('procedure_step_id'),
  patientPhone: varchar('patient_phone', { length: 32 }),
  scheduledExtension: jsonb('scheduled_extension').$type<Record<string, unknown>>().notNull().default({}),
  /** A completed exam matched to a scheduled one: the scheduled line it took over (hidden while matched). */
  matchedScheduleId: integer('matched_schedule_id'),
  uploadTime: ts('upload_time'),
  /** The organisation's device (scanner) that made the exam, when known: matched from the DICOM's station AE title or
   * station name at ingest, or set by the desk. Read by the device workload statistics (areas §5). */
  deviceId: integer('device_id'),
  created: created(),
  deletedTime: ts('deleted_time'),
  /** Raised by every edit of the exam's information (POST exams/{id}), which compares it: 409 VersionConflict. */
  version: integer('version').notNull().default(0),
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
  // Statistics (server/statistics): an organisation's live exams of a period with what the aggregates read, so the
  // counts by modality and device come from the index alone, and the report each exam joins is found without
  // visiting the exam (a year of a million exams: 1.2 s → 0.7 s).
  index('exams_stat_idx').on(t.bucketId, t.examTime, t.modality, t.deviceId, t.bodyPartCount, t.reportStatus, t.hasImage, t.reportId)
    .where(sql`${t.deletedTime} is null`),
  index('exams_live_exam_time_idx').on(t.examTime, t.id, t.bucketId, ...worklistFilterColumns(t)).where(sql`${t.deletedTime} is null`),
  // "My tasks" and the reporter filter: few rows per account among a million.
  index('exams_live_assignee_idx').on(t.assigneeId, t.created, t.id).where(sql`${t.deletedTime} is null and ${t.assigneeId} is not null`),
  index('exams_live_report_creator_idx').on(t.reportCreatorId, t.created, t.id).where(sql`${t.deletedTime} is null and ${t.reportCreatorId} is not null`),
  index('exams_patient_id_idx').on(t.patientId),
  // The registry list: an organisation's registered lines, newest first or by scheduled day.
  index('exams_registry_created_idx').on(t.bucketId, t.created, t.id).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_registry_scheduled_idx').on(t.bucketId, t.scheduledTime, t.id).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_registration_idx').on(t.registrationId).where(sql`${t.registrationId} is not null`),
  // The registry list by status on every day (its page and its count), and the desk's search (name, patient id, phone,
  // accession number, each `ilike '%…%'`): one trigram index per column, so the four ORed matches are a BitmapOr.
  index('exams_registry_status_idx').on(t.bucketId, t.examStatus, t.created, t.id).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_registry_name_trgm').using('gin', sql`${t.patientName} gin_trgm_ops`).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_registry_patient_id_trgm').using('gin', sql`${t.patientId} gin_trgm_ops`).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_registry_phone_trgm').using('gin', sql`${t.patientPhone} gin_trgm_ops`).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_registry_accession_trgm').using('gin', sql`${t.accessionNumber} gin_trgm_ops`).where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  index('exams_accession_idx').on(t.accessionNumber),
  // A file from the DICOM listener or STOW-RS finds its exam by study (server/dicom/receive.ts), once per file.
  index('exams_live_bucket_store_uid_idx').on(t.bucketId, t.storeUid).where(sql`${t.deletedTime} is null and ${t.storeUid} is not null`),
  index('exams_scheduled_study_uid_idx').on(t.scheduledStudyUid).where(sql`${t.scheduledStudyUid} is not null`),
  // Free-text search with few hits goes from the matching reports to their exams.
  index('exams_report_id_idx').on(t.reportId).where(sql`${t.reportId} is not null`),
  index('exams_deleted_idx').on(t.deletedTime),
  index('exams_patient_name_trgm').using('gin', sql`${t.patientName} gin_trgm_ops`),
  // Name search of 2 characters (李明), which has no trigram: the name's character bigrams (lower case, without
  // spaces and '^', so every form nameSearchForms makes has the same ones) in a GIN index; the search asks for the
  // query's bigrams (@>) and keeps its ILIKE as the exact test. exam_name_bigrams: migration 0020.
  index('exams_name_bigrams').using('gin', sql`exam_name_bigrams(${t.patientName})`),
  // The desk's search of 2 characters over name, patient id, phone and accession number: the four columns' bigrams
  // together, so one index answers the ORed matches (3 characters and more keep the trigram indexes above).
  index('exams_registry_search_bigrams').using('gin', sql`exam_search_bigrams(${t.patientName}, ${t.patientId}, ${t.patientPhone}, ${t.accessionNumber})`)
    .where(sql`${t.deletedTime} is null and ${t.registrationId} is not null`),
  // The worklist's `like` on accession number and patient id (a fragment of 3 characters or more).
  index('exams_accession_trgm').using('gin', sql`${t.accessionNumber} gin_trgm_ops`),
  index('exams_patient_id_trgm').using('gin', sql`${t.patientId} gin_trgm_ops`),
  // DICOMweb and DIMSE queries (server/dicom/query.ts): the studies that exist as images, newest first (read
  // backwards), and a study found by its Study Instance UID (also how a received file finds its exam).
  // It carries the modality and the name after the order, so those matches are read from the index alone.
  index('exams_dicom_studies_idx').on(t.examTime, t.id, t.bucketId, t.modality, t.patientName).where(sql`${t.deletedTime} is null and ${t.storeUid} is not null and ${t.hasImage}`),
  index('exams_store_uid_idx').on(t.storeUid, t.bucketId).where(sql`${t.deletedTime} is null`),
]);

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
  // Series and image queries by UID across studies (server/dicom/query.ts).
  index('dicom_instances_series_uid_idx').on(t.seriesInstanceUid),
  index('dicom_instances_sop_uid_idx').on(t.sopInstanceUid),
]);

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
