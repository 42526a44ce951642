import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { checkInInput, QueueEntry, QueueStatus } from '../../contract/calling';
import { QUEUE_MAX_PER_DAY, QUEUE_MODALITY_FAMILIES } from '../../contract/calling';
import { applyEvent } from '../../machines/callQueue';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { buckets, exams, groups, queueEntries, queueTypes } from '../db/schema';
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

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

function assertQueueable(exam: ExamRow): void {
  if (exam.registrationId !== null && !CHECKED_IN.includes(exam.examStatus ?? '')) {
    throw new ApiError('InvalidTransition', 'Only a registry line that has arrived is checked into a queue', { examStatus: exam.examStatus });
  }
}

/** The exam's entry of `day`, if it has one. */
async function entryOfDay(tx: Db, examId: number, day: string) {
  const [row] = await tx.select({ id: queueEntries.id, queueNo: queueEntries.queueNo }).from(queueEntries)
    .where(and(eq(queueEntries.examId, examId), eq(queueEntries.day, day)));
  return row ?? null;
}

/**
 * The queue's next number, the entry and its audit event in one statement, the last of the caller's transaction but
 * its commit (issue 37): the counter row is the lock that makes two check-ins into one queue take numbers one after
 * the other (unique and gapless: a transaction that fails rolls its number back), so it is held only from this
 * statement to the commit, not across the caller's other statements. A queue past its numbers of the day inserts
 * nothing, and the caller's transaction is rolled back by the error.
 */
async function takeNumber(tx: Db, type: TypeRow, exam: ExamRow, day: string, now: Date, actorId: number | null): Promise<number> {
  if (!applyEvent({ status: 'absent', calls: 0 }, { type: 'check-in' })) throw new Error('the machine refuses a check-in');
  const at = now.toISOString();
  const result = await tx.execute(sql`
    with c as (
      insert into queue_counters (queue_type_id, day, last_seq) values (${type.id}::int, ${day}::text, 1)
      on conflict (queue_type_id, day) do update set last_seq = queue_counters.last_seq + 1
      returning last_seq
    ), e as (
      insert into queue_entries (bucket_id, queue_type_id, exam_id, day, seq, queue_no, status, position, check_in_time)
      select ${type.bucketId}::int, ${type.id}::int, ${exam.id}::int, ${day}::text, c.last_seq, ${type.prefix}::text || lpad(c.last_seq::text, 3, '0'), 'waiting', c.last_seq, ${at}::timestamptz
      from c where c.last_seq <= ${QUEUE_MAX_PER_DAY}::int
      returning id, queue_no
    ), a as (
      insert into audit_events (at, actor_id, bucket_id, area, action, object_type, object_id, after)
      select ${at}::timestamptz, ${actorId}::int, ${type.bucketId}::int, 'calling', 'check-in', 'queue-entry', e.id::text,
        jsonb_build_object('queueNo', e.queue_no, 'examId', ${exam.id}::int, 'queueTypeId', ${type.id}::int)
      from e
    )
    select c.last_seq as seq, e.id from c left join e on true`);
  // node-postgres and PGlite both answer { rows }.
  const [row] = (result as unknown as { rows: { seq: number; id: number | null }[] }).rows;
  if (!row || row.id === null) throw new ApiError('ParamsError', `This queue has issued all its ${QUEUE_MAX_PER_DAY} numbers for today`, { max: QUEUE_MAX_PER_DAY });
  return Number(row.id);
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
    const day = today(now, desk.timeZone);
    id = await deps.db.transaction(async (tx) => {
      const already = await entryOfDay(tx, exam.id, day);
      if (already) throw new ApiError('InvalidTransition', 'This exam is in a queue today already', { entryId: already.id, queueNo: already.queueNo });
      return takeNumber(tx, type, exam, day, now, access.accountId);
    });
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
  if (await entryOfDay(tx, row.exam.id, day)) return null;
  // The notice first (delivered at the commit either way): the number is the transaction's last statement.
  await notifyInTransaction(tx, type.bucketId);
  return takeNumber(tx, type, row.exam, day, now, opts.actorId ?? null);
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
