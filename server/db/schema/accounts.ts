/** Domains, accounts, groups, organisations (buckets), roles and the dictionaries an organisation keeps. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';

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
  /** Personal notification settings (settings/notification): which kinds of notification play a sound. */
  notificationPrefs: jsonb('notification_prefs').$type<{ examSound?: boolean; consultationSound?: boolean }>().notNull().default({}),
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
  /** How the registry's look-up finds earlier records of a person: disabled, shift_on (within a year), shift_off (exact). */
  matchDob: varchar('match_dob', { length: 16 }).notNull().default('shift_off'),
  logo: varchar('logo', { length: 1024 }),
  url: varchar('url', { length: 1024 }),
  allowRegistration: boolean('allow_registration').notNull().default(false),
  searchInGroup: boolean('search_in_group').notNull().default(false),
  /** The account that created the group (areas §5: one group per creator). */
  createdBy: integer('created_by'),
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
  isFocused: boolean('is_focused').notNull().default(false),
  freeEfilm: boolean('free_efilm').notNull().default(false),
  /** Once bound (bind-code) the code is fixed (areas §5). */
  codeBound: boolean('code_bound').notNull().default(false),
  publicUploadToken: varchar('public_upload_token', { length: 64 }),
  /** The organisation's time zone: "today" for the registry's scheduled times. */
  timeZone: varchar('time_zone', { length: 64 }).notNull().default('Asia/Shanghai'),
  /**
   * A submitted report is issued at once (approved on submit): for an organisation with no second approver, such as an
   * expert centre of one expert (docs/report-lifecycle.md "Final on submit"). The report machine reads it.
   */
  reportFinalOnSubmit: boolean('report_final_on_submit').notNull().default(false),
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
}, (t) => [uniqueIndex('bodyparts_bucket_name_uq').on(t.bucketId, sql`lower(${t.name})`)]);

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
  /** Procedures are ordered (areas §7): drag or Alt+↑/↓ in the organisation's procedures screen. */
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [uniqueIndex('procedures_bucket_code_uq').on(t.bucketId, t.code), index('procedures_bucket_order_idx').on(t.bucketId, t.sortOrder)]);
