/** Rate-limit counters, in the database so every API process counts into the same rows. */
import { integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/**
 * One fixed-window counter per key (server/http/rateLimit.ts): public requests per address, failed
 * verifications per address, failed logins per account and per address. blockedUntil is set when the
 * count reaches its rule's limit.
 */
export const rateCounters = pgTable('rate_counters', {
  key: varchar('key', { length: 160 }).primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull().default(0),
  blockedUntil: ts('blocked_until'),
});
