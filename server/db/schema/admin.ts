/**
 * Administration (areas §3): what a group and its organisations keep beyond the accounts file — assign rules, the
 * group's expert and consultation organisations, notification settings, an organisation's critical values,
 * extensions and report extension packages, devices and device groups. Groups, organisations, members, roles,
 * departments, body parts, doctors and procedures live in ./accounts; steps in ./registry; queue types in ./calling.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { created } from './columns';
import { accounts, buckets, groups } from './accounts';

/** Applied when an exam arrives: the first rule (smallest priority) whose organisation and modality match assigns it. */
export const assignRules = pgTable('assign_rules', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  /** The reporter the exam goes to; null = one of `memberIds` (the least loaded). */
  reporterId: integer('reporter_id').references(() => accounts.id, { onDelete: 'set null' }),
  /** null = every modality. */
  modality: varchar('modality', { length: 8 }),
  memberIds: jsonb('member_ids').$type<number[]>().notNull().default([]),
  priority: integer('priority').notNull().default(0),
  created: created(),
}, (t) => [index('assign_rules_group_idx').on(t.groupId, t.priority)]);

/** Organisations a group's members may ask for expert reports; `free` ones cost nothing (areas §3 "expert buckets"). */
export const groupExpertBuckets = pgTable('group_expert_buckets', {
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  free: boolean('free').notNull().default(false),
}, (t) => [primaryKey({ columns: [t.groupId, t.bucketId] })]);

/** Organisations a group's members may send consultations to. */
export const groupConsultationTargets = pgTable('group_consultation_targets', {
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.groupId, t.bucketId] })]);

/** Who is notified of what in an organisation (areas §3): at most 2 accounts per organisation and type (§5). */
export const notificationSettings = pgTable('notification_settings', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  type: varchar('type', { length: 32 }).notNull(),
  accountIds: jsonb('account_ids').$type<number[]>().notNull().default([]),
}, (t) => [uniqueIndex('notification_settings_uq').on(t.bucketId, t.type)]);

/** Critical values an organisation's reports can flag (chosen in the report's critical-value field). */
export const criticalValues = pgTable('critical_values', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 128 }).notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [uniqueIndex('critical_values_bucket_name_uq').on(t.bucketId, t.name)]);

/** Extension keys of an organisation: extra fields its exams carry (areas §3 "extensions (key)"). */
export const bucketExtensions = pgTable('bucket_extensions', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  key: varchar('key', { length: 64 }).notNull(),
  label: varchar('label', { length: 128 }).notNull(),
}, (t) => [uniqueIndex('bucket_extensions_key_uq').on(t.bucketId, t.key)]);

/** A report extension package: named fields with units added to reports or exams; names unique per organisation (§5). */
export const extensionPackages = pgTable('extension_packages', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  /** 'report' | 'exam'. */
  type: varchar('type', { length: 8 }).notNull().default('report'),
  fields: jsonb('fields').$type<{ name: string; unit: string | null }[]>().notNull().default([]),
}, (t) => [uniqueIndex('extension_packages_name_uq').on(t.bucketId, sql`lower(${t.name})`)]);

/** Device groups of an organisation, ordered. */
export const deviceGroups = pgTable('device_groups', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [index('device_groups_bucket_idx').on(t.bucketId, t.sortOrder)]);

/** A modality device (scanner) of an organisation; AE title for DICOM, room for the desk. */
export const devices = pgTable('devices', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  deviceGroupId: integer('device_group_id').references(() => deviceGroups.id, { onDelete: 'set null' }),
  name: varchar('name', { length: 64 }).notNull(),
  modality: varchar('modality', { length: 8 }).notNull(),
  aeTitle: varchar('ae_title', { length: 16 }),
  /** Where the device listens for DICOM (C-MOVE destinations, Echo); null when it only sends. */
  host: varchar('host', { length: 253 }),
  port: integer('port'),
  room: varchar('room', { length: 64 }),
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [index('devices_bucket_idx').on(t.bucketId, t.sortOrder)]);
