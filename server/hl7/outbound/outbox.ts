import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Hl7Charset } from '../../../contract/hl7Outbound';
import type { Db } from '../../db/client';
import { accounts, buckets, exams, hl7Destinations, hl7Outbox, registrations, reportTraces } from '../../db/schema';
import type { ReportRow } from '../../reports/load';
import { buildOru, controlIdFor } from './oru';

export type DestinationRow = typeof hl7Destinations.$inferSelect;
export type OutboxRow = typeof hl7Outbox.$inferSelect;

/** The organisation's destination when it is switched on, else null (nothing is queued nor sent). */
export async function enabledDestination(db: Db, bucketId: number): Promise<DestinationRow | null> {
  const [row] = await db.select().from(hl7Destinations).where(eq(hl7Destinations.bucketId, bucketId));
  return row?.enabled && row.host ? row : null;
}

/** Whether this action issues the report: it enters `corrected` from a status that was not issued. */
export function issues(fromStatus: string, toStatus: string): boolean {
  return toStatus === 'corrected' && fromStatus !== 'corrected' && fromStatus !== 'printed';
}

/**
 * Queues the ORU of a report just issued, inside the transaction that issued it (`tx` already wrote the row as
 * `written`): the message exists exactly when the issue committed. A report issued before (a trace reached
 * `corrected` earlier) goes out as a correction (OBR-25 'C').
 */
export async function enqueueIssued(tx: Db, written: ReportRow, now: Date): Promise<OutboxRow | null> {
  const destination = await enabledDestination(tx, written.bucketId);
  if (!destination) return null;
  // The trace of this very action is written already: an earlier issue is a second trace into corrected.
  const [{ issued }] = await tx.select({ issued: sql<number>`count(*)::int` }).from(reportTraces)
    .where(and(eq(reportTraces.reportId, written.id), eq(reportTraces.toStatus, 'corrected'))) as [{ issued: number }];
  const resultStatus = issued > 1 ? 'C' : 'F';
  const [exam] = await tx.select({ exam: exams, bucketCode: buckets.code, timeZone: buckets.timeZone, registryOrderId: registrations.orderId })
    .from(exams).innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .leftJoin(registrations, eq(registrations.id, exams.registrationId))
    .where(eq(exams.id, written.examId));
  if (!exam) return null;
  const people = [written.issuerId, written.creatorId].filter((id): id is number => id !== null);
  const named = people.length
    ? await tx.select({ id: accounts.id, username: accounts.username, name: accounts.name }).from(accounts).where(inArray(accounts.id, people))
    : [];
  const person = (id: number | null) => named.find((a) => a.id === id) ?? null;
  const [{ nextId }] = await tx.select({ nextId: sql<number>`nextval(pg_get_serial_sequence('hl7_outbox', 'id'))::int` }).from(sql`(select 1) as one`) as [{ nextId: number }];
  const controlId = controlIdFor(nextId);
  const message = buildOru({
    controlId, now, resultStatus, timeZone: exam.timeZone,
    destination: { ...destination, sendingFacility: destination.sendingFacility || exam.bucketCode, charset: destination.charset as Hl7Charset },
    exam: { ...exam.exam, orderId: exam.registryOrderId ?? exam.exam.orderId },
    report: written,
    interpreter: person(written.issuerId),
    assistant: written.creatorId !== written.issuerId ? person(written.creatorId) : null,
  });
  const [row] = await tx.insert(hl7Outbox).values({
    id: nextId, bucketId: written.bucketId, reportId: written.id, reportVersion: written.version, examId: written.examId,
    resultStatus, controlId, patientName: exam.exam.patientName, accessionNumber: exam.exam.accessionNumber, message,
    status: 'pending', nextAttemptAt: now,
  }).returning();
  return row ?? null;
}

/**
 * Leases up to `limit` due rows for this process: pending, due, not leased by a live sender, of an organisation whose
 * destination is on, and not behind an earlier row of the same report still pending (a correction never overtakes
 * the first issue). SKIP LOCKED lets several processes claim side by side without waiting on each other; the lease
 * (`leased_until`) is what keeps a row from being taken twice once the claiming transaction has committed.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]> {
  const until = new Date(now.getTime() + leaseMs);
  const result = await db.execute(sql`
    update ${hl7Outbox} set leased_until = ${until.toISOString()}::timestamptz, attempts = ${hl7Outbox.attempts} + 1
    where ${hl7Outbox.id} in (
      select o.id from ${hl7Outbox} o join ${hl7Destinations} d on d.bucket_id = o.bucket_id and d.enabled
      where o.status = 'pending' and o.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (o.leased_until is null or o.leased_until < ${now.toISOString()}::timestamptz)
        and not exists (select 1 from ${hl7Outbox} e where e.report_id = o.report_id and e.id < o.id and e.status = 'pending')
      order by o.next_attempt_at, o.id limit ${limit}
      for update of o skip locked)
    returning id`);
  const ids = rowsOf<{ id: number }>(result).map((r) => Number(r.id));
  if (!ids.length) return [];
  return db.select().from(hl7Outbox).where(inArray(hl7Outbox.id, ids)).orderBy(hl7Outbox.nextAttemptAt, hl7Outbox.id);
}

/** node-postgres answers `{ rows }`, PGlite too; drizzle's execute passes either through. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/** The lease this process holds: the row is still pending and no one claimed it again after us. */
const held = (row: OutboxRow) => and(eq(hl7Outbox.id, row.id), eq(hl7Outbox.status, 'pending'), eq(hl7Outbox.attempts, row.attempts));

export async function markSent(db: Db, row: OutboxRow, o: { now: Date; destination: string; ackCode: string; ack: string }): Promise<boolean> {
  const done = await db.update(hl7Outbox).set({
    status: 'sent', sentAt: o.now, leasedUntil: null, destination: o.destination, ackCode: o.ackCode, ack: o.ack.slice(0, 4000), lastError: null,
  }).where(held(row)).returning({ id: hl7Outbox.id });
  return done.length > 0;
}

/** A failed attempt: retried after `retryInMs`, or a dead letter once `maxAttempts` are used. */
export async function markFailed(db: Db, row: OutboxRow, o: {
  now: Date; destination: string; error: string; ackCode?: string | null; ack?: string | null; maxAttempts: number; retryInMs: number;
}): Promise<'retry' | 'dead' | 'lost'> {
  const dead = row.attempts >= o.maxAttempts;
  const done = await db.update(hl7Outbox).set({
    status: dead ? 'dead' : 'pending', leasedUntil: null, destination: o.destination, lastError: o.error.slice(0, 512),
    ackCode: o.ackCode ?? null, ack: o.ack?.slice(0, 4000) ?? null,
    nextAttemptAt: new Date(o.now.getTime() + (dead ? 0 : o.retryInMs)),
  }).where(held(row)).returning({ id: hl7Outbox.id });
  if (!done.length) return 'lost';
  return dead ? 'dead' : 'retry';
}

/** Exponential backoff: base × 2^(attempt-1), at most `maxMs`. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
