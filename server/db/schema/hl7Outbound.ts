/** HL7 v2 results out (issue 36, server/hl7/outbound): each organisation's destination and the ORU outbox. */
import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { accounts, buckets } from './accounts';
import { created, ts } from './columns';
import { reports } from './reports';

/** Where an organisation's approved reports go (one HIS per organisation); no row = nothing is sent. */
export const hl7Destinations = pgTable('hl7_destinations', {
  bucketId: integer('bucket_id').primaryKey().references(() => buckets.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  host: varchar('host', { length: 255 }).notNull().default(''),
  port: integer('port').notNull().default(2575),
  /** MSH-3/4: how we name ourselves; an empty facility is the organisation's code. */
  sendingApplication: varchar('sending_application', { length: 64 }).notNull().default('RADWS'),
  sendingFacility: varchar('sending_facility', { length: 64 }).notNull().default(''),
  /** MSH-5/6: the peer as it wants to be named. */
  receivingApplication: varchar('receiving_application', { length: 64 }).notNull().default(''),
  receivingFacility: varchar('receiving_facility', { length: 64 }).notNull().default(''),
  /** MSH-18 (HL7 table 0211): 'UNICODE UTF-8' or 'GB 18030-2000'; the bytes on the wire follow it. */
  charset: varchar('charset', { length: 16 }).notNull().default('UNICODE UTF-8'),
  tls: boolean('tls').notNull().default(false),
  /** A PEM CA the peer's certificate must chain to (a hospital's own CA); null = the system's CAs. */
  tlsCa: text('tls_ca'),
  /** Attempts before a message goes to the dead letters. */
  maxAttempts: integer('max_attempts').notNull().default(10),
  ackTimeoutMs: integer('ack_timeout_ms').notNull().default(10_000),
});

/**
 * One ORU^R01 to send, written in the transaction that issued the report (the transactional outbox): a committed
 * approval always has its message, a rolled-back one never. The sender (server/hl7/outbound/sender.ts) leases a row
 * (`leased_until`, `attempts` + 1), sends, and marks it sent only after the peer's AA/CA; a process killed meanwhile
 * leaves the lease to run out and the row is taken again. `control_id` (MSH-10) stays the same on every attempt and
 * resend, so a peer that keeps the control ids it acknowledged applies it once.
 */
export const hl7Outbox = pgTable('hl7_outbox', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  reportId: integer('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
  /** The report's version the message was built from. */
  reportVersion: integer('report_version').notNull(),
  examId: integer('exam_id').notNull(),
  /** OBR-25: 'F' first issue, 'C' issued again after a recall (a correction). */
  resultStatus: varchar('result_status', { length: 1 }).notNull(),
  controlId: varchar('control_id', { length: 20 }).notNull(),
  patientName: varchar('patient_name', { length: 128 }).notNull().default(''),
  accessionNumber: varchar('accession_number', { length: 64 }),
  /** The whole message as text (segments joined by CR); encoded to the destination's charset when sent. */
  message: text('message').notNull(),
  /** 'pending' (to send, or being sent while leased), 'sent' (acknowledged AA/CA), 'dead' (attempts used up). */
  status: varchar('status', { length: 8 }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  leasedUntil: ts('leased_until'),
  /** host:port of the last attempt. */
  destination: varchar('destination', { length: 300 }),
  lastError: varchar('last_error', { length: 512 }),
  /** MSA-1 of the last answer and the answer itself (ACK text). */
  ackCode: varchar('ack_code', { length: 2 }),
  ack: text('ack'),
  sentAt: ts('sent_at'),
  resentBy: integer('resent_by').references(() => accounts.id, { onDelete: 'set null' }),
  created: created(),
}, (t) => [
  uniqueIndex('hl7_outbox_control_uq').on(t.controlId),
  // The sender's claim: pending rows due first.
  index('hl7_outbox_due_idx').on(t.status, t.nextAttemptAt),
  // The panel's list: an organisation's rows newest first (scanned backward).
  index('hl7_outbox_bucket_created_idx').on(t.bucketId, t.created, t.id),
  index('hl7_outbox_report_idx').on(t.reportId, t.id),
]);
