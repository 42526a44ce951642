/**
 * The workstation's configuration beyond administration (issue "Templates, colour rules, personal settings,
 * knowledge base and learning"): knowledge-base items, learning videos and their progress, sample graphs,
 * global configuration and the one-time codes of mobile binding and password reset.
 */
import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, primaryKey, real, serial, text, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { accounts, buckets } from './accounts';

/**
 * A knowledge-base item (areas §3): a folder, a link to a report template (referenceId) or a text. A tree per
 * organisation; deleting an item removes its descendants (the foreign key cascades inside the delete's statement).
 */
export const kbItems = pgTable('kb_items', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  parentId: integer('parent_id').references((): AnyPgColumn => kbItems.id, { onDelete: 'cascade' }),
  /** folder | template | text */
  type: varchar('type', { length: 16 }).notNull(),
  name: varchar('name', { length: 128 }).notNull(),
  /** The report template a 'template' item links to. */
  referenceId: integer('reference_id'),
  /** The sanitised HTML of a 'text' item. */
  content: text('content').notNull().default(''),
  /** The place among its siblings (areas §4: drag-sorting only within one folder level). */
  sort: integer('sort').notNull().default(0),
  createdBy: integer('created_by'),
  created: created(),
  updated: ts('updated'),
}, (t) => [index('kb_items_tree_idx').on(t.bucketId, t.parentId, t.sort)]);

/** A learning video (areas §2 /learning): shipped files are served from the client's public folder. */
export const learnings = pgTable('learnings', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 128 }).notNull(),
  description: text('description').notNull().default(''),
  /** Path of the video under the web app (e.g. /learning/reading-ct.webm). */
  videoUrl: varchar('video_url', { length: 1024 }).notNull(),
  posterUrl: varchar('poster_url', { length: 1024 }),
  durationSec: real('duration_sec').notNull().default(0),
  category: varchar('category', { length: 64 }),
  sort: integer('sort').notNull().default(0),
  created: created(),
});

/** How far a user has watched a video: kept per account so the player resumes where it stopped. */
export const learningProgress = pgTable('learning_progress', {
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  learningId: integer('learning_id').notNull().references(() => learnings.id, { onDelete: 'cascade' }),
  positionSec: real('position_sec').notNull().default(0),
  completed: boolean('completed').notNull().default(false),
  updated: ts('updated').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.learningId] })]);

/** A sample graph (areas §3): a reference drawing with marked points, managed by manage_sample_graph. */
export const sampleGraphs = pgTable('sample_graphs', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 64 }).notNull(),
  /** Where the drawing comes from (a body part or a modality, free text). */
  origin: varchar('origin', { length: 64 }).notNull().default(''),
  /** The storage key of the uploaded drawing. */
  url: varchar('url', { length: 1024 }).notNull(),
  points: jsonb('points').$type<Array<{ x: number; y: number; color: string; label?: string }>>().notNull().default([]),
  sortIndex: integer('sort_index').notNull().default(0),
  createdBy: integer('created_by'),
  created: created(),
}, (t) => [index('sample_graphs_bucket_idx').on(t.bucketId, t.sortIndex)]);

/** Global configuration entries (areas §3 "Global config entries: key"), read by global-configs/query?keys. */
export const globalConfigs = pgTable('global_configs', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updated: ts('updated'),
});

/**
 * A one-time code sent to a mobile number (binding it, or resetting a password). Only its hash is kept; it dies
 * when used, when it expires or after too many wrong tries.
 */
export const verificationCodes = pgTable('verification_codes', {
  id: serial('id').primaryKey(),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** bind-mobile | reset-password */
  purpose: varchar('purpose', { length: 16 }).notNull(),
  mobile: varchar('mobile', { length: 32 }).notNull(),
  codeHash: varchar('code_hash', { length: 128 }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  created: created(),
}, (t) => [index('verification_codes_account_idx').on(t.accountId, t.purpose, t.created)]);
