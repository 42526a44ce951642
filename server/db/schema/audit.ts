/** The one append-only audit trail every area writes (server/audit/record.ts). */
import { index, integer, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * The audit trail of every area (who, when, what, before and after): registrations, queue calls, payments, refunds,
 * role and account changes. Append-only: written in the same transaction as the change (server/audit), never
 * updated or deleted (a trigger refuses both). Reports keep their own trace (report_traces, with the text snapshots
 * the spec's trace shows) beside it.
 */
export const auditEvents = pgTable('audit_events', {
  id: serial('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  actorId: integer('actor_id'),
  bucketId: integer('bucket_id'),
  area: varchar('area', { length: 32 }).notNull(),
  action: varchar('action', { length: 64 }).notNull(),
  objectType: varchar('object_type', { length: 32 }).notNull(),
  objectId: varchar('object_id', { length: 64 }).notNull(),
  before: jsonb('before').$type<Record<string, unknown>>(),
  after: jsonb('after').$type<Record<string, unknown>>(),
}, (t) => [
  index('audit_events_object_idx').on(t.objectType, t.objectId, t.id),
  index('audit_events_actor_idx').on(t.actorId, t.id),
]);
