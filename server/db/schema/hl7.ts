/** HL7 v2 orders in (server/hl7, issue 36): an organisation's switch and sending facilities, and the inbound message log. */
import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { accounts, buckets } from './accounts';
import { ts } from './columns';

/** An organisation's HL7 inbound settings; no row = off. */
export const hl7Settings = pgTable('hl7_settings', {
  bucketId: integer('bucket_id').primaryKey().references(() => buckets.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /**
   * The account orders are registered as: the admin who last saved the settings. Its registry rights are checked on
   * every message like a desk user's (an admin without registry_create gets AE Forbidden).
   */
  actingAccountId: integer('acting_account_id').references(() => accounts.id, { onDelete: 'set null' }),
  updated: ts('updated'),
});

/** Sending facility (MSH-4, optionally with MSH-3 application; '' = any application) → organisation. One owner each. */
export const hl7Facilities = pgTable('hl7_facilities', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  facility: varchar('facility', { length: 64 }).notNull(),
  application: varchar('application', { length: 64 }).notNull().default(''),
}, (t) => [
  uniqueIndex('hl7_facilities_uq').on(t.facility, t.application),
  index('hl7_facilities_bucket_idx').on(t.bucketId),
]);

/**
 * Every inbound message and the ACK it got. The row is claimed (unique on facility + control id: MSH-4 + MSH-10)
 * before the message is applied, so a repeat is answered with the first ACK and never applied twice.
 */
export const hl7Messages = pgTable('hl7_messages', {
  id: serial('id').primaryKey(),
  direction: varchar('direction', { length: 3 }).notNull().default('in'),
  created: ts('created').notNull(),
  /** MSH-10; null when the message could not be read. */
  controlId: varchar('control_id', { length: 64 }),
  /** "ORM^O01" */
  messageType: varchar('message_type', { length: 16 }).notNull().default(''),
  facility: varchar('facility', { length: 64 }).notNull().default(''),
  application: varchar('application', { length: 64 }).notNull().default(''),
  bucketId: integer('bucket_id').references(() => buckets.id, { onDelete: 'set null' }),
  patientId: varchar('patient_id', { length: 64 }),
  orderId: varchar('order_id', { length: 64 }),
  charset: varchar('charset', { length: 32 }).notNull().default(''),
  peer: varchar('peer', { length: 64 }).notNull().default(''),
  raw: text('raw').notNull(),
  /** 'pending' while applied, then 'applied', 'rejected' (AR), 'error' (AE). */
  outcome: varchar('outcome', { length: 16 }).notNull(),
  ackCode: varchar('ack_code', { length: 2 }),
  ack: text('ack'),
  /** The catalogue code and its reason, as ERR-8 said it. */
  errorCode: varchar('error_code', { length: 48 }),
  error: text('error'),
  registrationId: integer('registration_id'),
  /** Times the same message came again (answered with the first ACK). */
  repeats: integer('repeats').notNull().default(0),
}, (t) => [
  uniqueIndex('hl7_messages_control_uq').on(t.direction, t.facility, t.controlId),
  index('hl7_messages_bucket_idx').on(t.bucketId, t.created),
  index('hl7_messages_created_idx').on(t.created),
]);
