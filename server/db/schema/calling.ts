/** Call queue: queue types, today's entries and their numbers, the waiting-room screens' tokens, settings. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, real, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { accounts, buckets } from './accounts';
import { exams } from './exams';

/** A queue of an organisation (areas §3 "call queues"): number prefix, name, modality, the room patients go to. */
export const queueTypes = pgTable('queue_types', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  prefix: varchar('prefix', { length: 2 }).notNull(),
  name: varchar('name', { length: 64 }).notNull(),
  modality: varchar('modality', { length: 8 }),
  room: varchar('room', { length: 64 }),
  /** Queue types are ordered (areas §2 organisation settings): the desk's columns and the screen follow it. */
  sortOrder: integer('sort_order').notNull().default(0),
  created: created(),
}, (t) => [index('queue_types_bucket_idx').on(t.bucketId)]);

/** One exam in a queue on one day; `position` orders the waiting list (re-sort and return place it between two). */
export const queueEntries = pgTable('queue_entries', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  queueTypeId: integer('queue_type_id').notNull().references(() => queueTypes.id, { onDelete: 'cascade' }),
  examId: integer('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
  day: varchar('day', { length: 10 }).notNull(),
  seq: integer('seq').notNull(),
  queueNo: varchar('queue_no', { length: 8 }).notNull(),
  status: varchar('status', { length: 8 }).notNull().default('waiting'),
  position: real('position').notNull(),
  checkInTime: ts('check_in_time').notNull(),
  calledTime: ts('called_time'),
  calledBy: integer('called_by').references(() => accounts.id),
  callCount: integer('call_count').notNull().default(0),
  version: integer('version').notNull().default(0),
}, (t) => [
  uniqueIndex('queue_entries_number_uq').on(t.queueTypeId, t.day, t.seq),
  uniqueIndex('queue_entries_exam_day_uq').on(t.examId, t.day),
  // Queue actions at a cost independent of the day's length (issue 37): "the first waiting of this queue today" is the
  // first entry of this index in the very order call-next asks (position, id), and "the patient called now" the
  // one entry of the next; the operator's board and the screens read the day's live entries without the served ones.
  index('queue_entries_waiting_idx').on(t.queueTypeId, t.day, t.position, t.id).where(sql`${t.status} = 'waiting'`),
  index('queue_entries_called_idx').on(t.queueTypeId, t.day).where(sql`${t.status} = 'called'`),
  index('queue_entries_bucket_day_idx').on(t.bucketId, t.day, t.status),
]);

/** The last number issued per queue and day: numbers are never reused that day, removed ones included. */
export const queueCounters = pgTable('queue_counters', {
  queueTypeId: integer('queue_type_id').notNull().references(() => queueTypes.id, { onDelete: 'cascade' }),
  day: varchar('day', { length: 10 }).notNull(),
  lastSeq: integer('last_seq').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.queueTypeId, t.day] })]);

/** A long-lived token of one waiting-room screen (stored hashed), issued and revoked by a queue manager. */
export const screenTokens = pgTable('screen_tokens', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  tokenHash: varchar('token_hash', { length: 64 }).notNull(),
  createdBy: integer('created_by').references(() => accounts.id),
  created: created(),
  revokedAt: ts('revoked_at'),
}, (t) => [uniqueIndex('screen_tokens_hash_uq').on(t.tokenHash)]);

/** Per organisation: privacy-safe calls (number and room only) and the language the screen speaks. */
export const callingSettings = pgTable('calling_settings', {
  bucketId: integer('bucket_id').primaryKey().references(() => buckets.id, { onDelete: 'cascade' }),
  privacy: boolean('privacy').notNull().default(false),
  language: varchar('language', { length: 4 }).notNull().default('chs'),
});
