import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvents } from '../db/schema';

/**
 * The audit trail's small API. Write inside the transaction of the change (`tx`), so a change that fails leaves no
 * event and an event never describes a change that did not happen. `before` and `after` hold only the fields the
 * change touched, never a secret (a password is recorded as changed, not as its hash).
 */
export interface AuditEvent {
  at: Date;
  actorId: number | null;
  bucketId?: number | null;
  /** The area that made the change: 'accounts', 'registry', 'calling', 'payments'... */
  area: string;
  /** What was done, in the area's words: 'status', 'password-reset', 'register', 'call', 'refund'... */
  action: string;
  objectType: string;
  objectId: number | string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** A database or a transaction: both can insert. */
type Writer = Pick<Db, 'insert'>;

export async function recordAudit(tx: Writer, event: AuditEvent): Promise<void> {
  await tx.insert(auditEvents).values({
    at: event.at, actorId: event.actorId, bucketId: event.bucketId ?? null, area: event.area, action: event.action,
    objectType: event.objectType, objectId: String(event.objectId), before: event.before ?? null, after: event.after ?? null,
  });
}

/** The trail of one object, oldest first. */
export async function auditTrail(db: Db, objectType: string, objectId: number | string) {
  return db.select().from(auditEvents)
    .where(and(eq(auditEvents.objectType, objectType), eq(auditEvents.objectId, String(objectId))))
    .orderBy(asc(auditEvents.id));
}
