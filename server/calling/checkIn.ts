import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { checkInInput, QueueEntry, QueueStatus } from '../../contract/calling';
import { QUEUE_MAX_PER_DAY, QUEUE_MODALITY_FAMILIES } from '../../contract/calling';
import { applyEvent } from '../../machines/callQueue';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { buckets, exams, groups, queueCounters, queueEntries, queueTypes } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { callingDesk } from './access';
import { notifyInTransaction, type CallingHub } from './hub';
import { entryById, today } from './present';

/**
 * Checking an exam into a queue: the next number of the queue for the day (A001, A002 …, from a counter row per
 * queue and day, so a removed patient's number is never issued again), placed last in the waiting list. One entry
 * per exam and day. A registry line must have arrived (Arrived or Performed); an exam that came another way (the
 * worklist, a modality) may be checked in as it is.
 */
type ExamRow = typeof exams.$inferSelect;
type TypeRow = typeof queueTypes.$inferSelect;
const CHECKED_IN = ['Arrived', 'Performed'];
const pad3 = (n: number) => String(n).padStart(3, '0');

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

function assertQueueable(exam: ExamRow): void {
  if (exam.registrationId !== null && !CHECKED_IN.includes(exam.examStatus ?? '')) {
    throw new ApiError('InvalidTransition', 'Only a registry line that has arrived is checked into a queue', { examStatus: exam.examStatus });
  }
}

/** The entry's row, in the caller's transaction; the caller has checked the exam and the right. */
async function insertEntry(tx: Db, type: TypeRow, exam: ExamRow, day: string, now: Date, actorId: number | null): Promise<number> {
  if (!applyEvent({ status: 'absent', calls: 0 }, { type: 'check-in' })) throw new Error('the machine refuses a check-in');
  const [already] = await tx.select({ id: queueEntries.id, queueNo: queueEntries.queueNo }).from(queueEntries)
    .where(and(eq(queueEntries.examId, exam.id), eq(queueEntries.day, day)));
  if (already) throw new ApiError('InvalidTransition', 'This exam is in a queue today already', { entryId: already.id, queueNo: already.queueNo });
  // The counter row is the lock: two check-ins into one queue at once take numbers one after the other.
  const [counter] = await tx.insert(queueCounters).values({ queueTypeId: type.id, day, lastSeq: 1 })
    .onConflictDoUpdate({ target: [queueCounters.queueTypeId, queueCounters.day], set: { lastSeq: sql`${queueCounters.lastSeq} + 1` } })
    .returning({ seq: queueCounters.lastSeq });
  const seq = counter!.seq;
  if (seq > QUEUE_MAX_PER_DAY) throw new ApiError('ParamsError', `This queue has issued all its ${QUEUE_MAX_PER_DAY} numbers for today`, { max: QUEUE_MAX_PER_DAY });
  const [entry] = await tx.insert(queueEntries).values({
    bucketId: type.bucketId, queueTypeId: type.id, examId: exam.id, day, seq, queueNo: `${type.prefix}${pad3(seq)}`, status: 'waiting', position: seq, checkInTime: now,
  }).returning();
  await recordAudit(tx, {
    at: now, actorId, bucketId: type.bucketId, area: 'calling', action: 'check-in', objectType: 'queue-entry', objectId: entry!.id,
    after: { queueNo: entry!.queueNo, examId: exam.id, queueTypeId: type.id },
  });
  return entry!.id;
}

/** POST queue-exams/check-in. */
export async function checkIn(deps: Deps, hub: CallingHub, access: Access, input: z.output<typeof checkInInput>): Promise<QueueEntry> {
  const [type] = await deps.db.select().from(queueTypes).where(eq(queueTypes.id, input.queueTypeId));
  if (!type) throw new ApiError('NotFound');
  const desk = await callingDesk(deps.db, access, type.bucketId, 'calling_manage_queue');
  const [exam] = await deps.db.select().from(exams).where(and(eq(exams.id, input.examId), eq(exams.bucketId, type.bucketId), isNull(exams.deletedTime)));
  if (!exam) throw new ApiError('NotFound');
  assertQueueable(exam);
  const now = deps.clock.now();
  let id: number;
  try {
    id = await deps.db.transaction((tx) => insertEntry(tx, type, exam, today(now, desk.timeZone), now, access.accountId));
  } catch (err) {
    // Two check-ins of one exam at once: the unique (exam, day) index lets one through.
    if (isUniqueViolation(err)) throw new ApiError('InvalidTransition', 'This exam is in a queue today already');
    throw err;
  }
  await hub.publish(type.bucketId);
  return (await entryById(deps.db, id))!;
}

/**
 * For the registry (POST exam/status Arrived): inside its transaction, the arrived line enters the queue of its
 * organisation whose modality matches (DX, CR and DR share one), when the group has calling on and such a queue
 * exists, and the exam is not in a queue today yet. Returns the new entry's id, or null when nothing was done. The
 * organisation's screens hear of it when the transaction commits.
 */
export async function enqueueArrived(tx: Db, exam: { id: number }, opts: { now?: Date; actorId?: number | null } = {}): Promise<number | null> {
  const [row] = await tx.select({ exam: exams, timeZone: buckets.timeZone, enabled: groups.enableCalling })
    .from(exams).innerJoin(buckets, eq(buckets.id, exams.bucketId)).innerJoin(groups, eq(groups.id, buckets.groupId))
    .where(and(eq(exams.id, exam.id), isNull(exams.deletedTime)));
  if (!row || !row.enabled || !CHECKED_IN.includes(row.exam.examStatus ?? '')) return null;
  const modality = row.exam.modality.toUpperCase();
  const family = QUEUE_MODALITY_FAMILIES[modality] ?? [modality];
  const [type] = await tx.select().from(queueTypes)
    .where(and(eq(queueTypes.bucketId, row.exam.bucketId), inArray(queueTypes.modality, [...family])))
    .orderBy(sql`case when ${queueTypes.modality} = ${modality} then 0 else 1 end`, asc(queueTypes.sortOrder), asc(queueTypes.id)).limit(1);
  if (!type) return null;
  const now = opts.now ?? new Date();
  const day = today(now, row.timeZone);
  const [already] = await tx.select({ id: queueEntries.id }).from(queueEntries).where(and(eq(queueEntries.examId, row.exam.id), eq(queueEntries.day, day)));
  if (already) return null;
  const id = await insertEntry(tx, type, row.exam, day, now, opts.actorId ?? null);
  await notifyInTransaction(tx, type.bucketId);
  return id;
}

/**
 * For the registry's revoke or cancel of a checked-in line: inside its transaction, the exam's entry of today leaves
 * the queue (removed, its number not reused) unless it was already served or removed. Returns whether it did.
 */
export async function leaveQueue(tx: Db, exam: { id: number }, opts: { now?: Date; actorId?: number | null } = {}): Promise<boolean> {
  const rows = await tx.select({ entry: queueEntries, timeZone: buckets.timeZone }).from(queueEntries)
    .innerJoin(buckets, eq(buckets.id, queueEntries.bucketId)).where(eq(queueEntries.examId, exam.id));
  const now = opts.now ?? new Date();
  const current = rows.find((r) => r.entry.day === today(now, r.timeZone));
  if (!current) return false;
  const after = applyEvent({ status: current.entry.status as QueueStatus, calls: current.entry.callCount }, { type: 'remove' });
  if (!after) return false;
  await tx.update(queueEntries).set({ status: after.status, version: current.entry.version + 1 }).where(eq(queueEntries.id, current.entry.id));
  await recordAudit(tx, {
    at: now, actorId: opts.actorId ?? null, bucketId: current.entry.bucketId, area: 'calling', action: 'remove', objectType: 'queue-entry', objectId: current.entry.id,
    before: { status: current.entry.status }, after: { status: after.status, reason: 'registry' },
  });
  await notifyInTransaction(tx, current.entry.bucketId);
  return true;
}
