/** The DICOM listener (server/dicom): its associations, the organisations' DICOM settings and MPPS instances. */
import { boolean, index, integer, jsonb, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { buckets } from './accounts';
import { ts } from './columns';

/**
 * One association with the listener, accepted or not: who (calling AE, peer address, the organisation its device
 * belongs to), what (services used, files stored and refused, worklist items found), how it ended and the errors.
 * Written when the association opens and completed when it ends (a crashed process leaves `ended` null).
 */
export const dicomAssociations = pgTable('dicom_associations', {
  id: serial('id').primaryKey(),
  started: ts('started').notNull(),
  ended: ts('ended'),
  callingAe: varchar('calling_ae', { length: 16 }).notNull(),
  calledAe: varchar('called_ae', { length: 16 }).notNull(),
  peer: varchar('peer', { length: 64 }).notNull(),
  /** The organisation the calling AE's device belongs to (or that accepts unknown senders); null when refused. */
  bucketId: integer('bucket_id').references(() => buckets.id, { onDelete: 'set null' }),
  /** 'accepted', 'rejected', 'released', 'aborted'. */
  outcome: varchar('outcome', { length: 16 }).notNull(),
  /** Services used: 'echo', 'store', 'mwl-find', 'mpps', ... */
  services: jsonb('services').$type<string[]>().notNull().default([]),
  stored: integer('stored').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  found: integer('found').notNull().default(0),
  /** Instances sent by C-MOVE and C-GET sub-operations (completed); their failures count in `failed`. */
  sent: integer('sent').notNull().default(0),
  errors: jsonb('errors').$type<string[]>().notNull().default([]),
  durationMs: integer('duration_ms'),
}, (t) => [
  index('dicom_associations_bucket_idx').on(t.bucketId, t.started),
  index('dicom_associations_started_idx').on(t.started),
]);

/** An organisation's DICOM settings; no row = the defaults. */
export const dicomSettings = pgTable('dicom_settings', {
  bucketId: integer('bucket_id').primaryKey().references(() => buckets.id, { onDelete: 'cascade' }),
  /** Accept associations from calling AE titles none of the organisation's devices has (off by default). */
  acceptUnknownSenders: boolean('accept_unknown_senders').notNull().default(false),
});

/** Modality Performed Procedure Steps (N-CREATE / N-SET) and the registry line each reports on. */
export const dicomMpps = pgTable('dicom_mpps', {
  sopInstanceUid: varchar('sop_instance_uid', { length: 64 }).primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  examId: integer('exam_id').notNull(),
  /** IN PROGRESS, COMPLETED, DISCONTINUED. */
  status: varchar('status', { length: 16 }).notNull(),
  callingAe: varchar('calling_ae', { length: 16 }).notNull(),
  /** Performed Station AE Title (0040,0241) as the step gave it, else the calling AE: who is scanning, for the desk and the queue. */
  stationAe: varchar('station_ae', { length: 16 }),
  /** Images the Performed Series Sequence references (the last N-CREATE/N-SET that carried it); null until one did. */
  images: integer('images'),
  created: ts('created').notNull(),
  updated: ts('updated').notNull(),
}, (t) => [index('dicom_mpps_exam_idx').on(t.examId)]);
