/** Registry and scheduling: registrations, procedure steps and the group's registry organisations. */
import { boolean, index, integer, pgTable, primaryKey, serial, varchar } from 'drizzle-orm/pg-core';
import { created } from './columns';
import { accounts, buckets, groups, procedures } from './accounts';

/**
 * One patient's visit at the desk (areas §3 "registry entry"); its exam lines are exams rows with
 * registration_id. `version` guards every change to any of its lines: a stale action changes nothing.
 */
export const registrations = pgTable('registrations', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  version: integer('version').notNull().default(0),
  orderId: varchar('order_id', { length: 64 }),
  createdBy: integer('created_by').references(() => accounts.id),
  created: created(),
}, (t) => [
  index('registrations_bucket_order_idx').on(t.bucketId, t.orderId),
  // Statistics: an organisation's registrations of a period by registrar.
  index('registrations_bucket_created_idx').on(t.bucketId, t.created, t.createdBy),
]);

/** Procedure steps of an organisation (areas §3): what an exam line schedules. */
export const procedureSteps = pgTable('procedure_steps', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  procedureId: integer('procedure_id').references(() => procedures.id, { onDelete: 'set null' }),
  name: varchar('name', { length: 128 }).notNull(),
  modality: varchar('modality', { length: 8 }).notNull(),
  bodyPart: varchar('body_part', { length: 64 }),
  /** Reporting may begin during the exam: no images needed, so arrival makes the exam Performed (areas §4). */
  reportDuringExam: boolean('report_during_exam').notNull().default(false),
  showLocalVideo: boolean('show_local_video').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [index('procedure_steps_bucket_idx').on(t.bucketId, t.sortOrder)]);

/** The organisations of a group that run a registry desk (areas §3 "registry buckets"). */
export const groupRegistryBuckets = pgTable('group_registry_buckets', {
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.groupId, t.bucketId] })]);
