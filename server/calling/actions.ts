import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { callNextInput, queueActionInput, QueueEntry, QueueStatus } from '../../contract/calling';
import { CALLING_PERMISSION } from '../../contract/calling';
import { applyEvent, eventFor, type QueueEvent } from '../../machines/callQueue';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { queueEntries, queueTypes } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { callingDesk } from './access';
import type { CallingHub } from './hub';
import { entryById, today } from './present';

/**
 * What operators do to a queue: call the next patient (two operators at once never get the same one: the first
 * waiting row is taken FOR UPDATE SKIP LOCKED, so the second skips to the one after), and the machine's actions on
 * one entry. Every write is one transaction with its audit event; the screens hear of it after the commit.
 */
type EntryRow = typeof queueEntries.$inferSelect;

/** The machine's answer for the row, or InvalidTransition naming the status. */
function moved(entry: EntryRow, event: QueueEvent) {
  const after = applyEvent({ status: entry.status as QueueStatus, calls: entry.callCount }, event);
  if (!after) throw new ApiError('InvalidTransition', `Cannot ${event.type} a patient who is ${entry.status}`, { status: entry.status });
  return after;
}

/** The columns a call writes: who called and when, one call more. */
const called = (now: Date, actorId: number, calls: number) => ({ calledTime: now, calledBy: actorId, callCount: calls });

/** POST queue-types/{id}/call-next (and queue-exams/call-next with the queue in the body). */
export async function callNext(deps: Deps, hub: CallingHub, access: Access, input: z.output<typeof callNextInput>): Promise<QueueEntry> {
  const [type] = await deps.db.select().from(queueTypes).where(eq(queueTypes.id, input.queueTypeId));
  if (!type || type.bucketId !== input.bucketId) throw new ApiError('NotFound');
  const desk = await callingDesk(deps.db, access, type.bucketId, 'calling_call');
  const now = deps.clock.now();
  const day = today(now, desk.timeZone);
  const id = await deps.db.transaction(async (tx) => {
    const [next] = await tx.select().from(queueEntries)
      .where(and(eq(queueEntries.queueTypeId, type.id), eq(queueEntries.day, day), eq(queueEntries.status, 'waiting')))
      .orderBy(asc(queueEntries.position), asc(queueEntries.id)).limit(1).for('update', { skipLocked: true });
    if (!next) throw new ApiError('QueueEmpty');
    // Calling the next patient means the one before went in: a queue has one current call.
    const finished = await tx.update(queueEntries).set({ status: 'served', version: sql`${queueEntries.version} + 1` })
      .where(and(eq(queueEntries.queueTypeId, type.id), eq(queueEntries.day, day), eq(queueEntries.status, 'called'))).returning({ id: queueEntries.id });
    const after = moved(next, { type: 'call-next' });
    await tx.update(queueEntries).set({ status: after.status, ...called(now, access.accountId, after.calls), version: next.version + 1 })
      .where(eq(queueEntries.id, next.id));
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId: type.bucketId, area: 'calling', action: 'call-next', objectType: 'queue-entry', objectId: next.id,
      before: { status: next.status }, after: { status: after.status, queueNo: next.queueNo, served: finished.map((f) => f.id) },
    });
    return next.id;
  });
  await hub.publish(type.bucketId);
  return (await entryById(deps.db, id))!;
}

/** The other patients waiting in the entry's queue today, in the index's order (queue_entries_waiting_idx). */
const othersWaiting = (entry: EntryRow) => and(eq(queueEntries.queueTypeId, entry.queueTypeId), eq(queueEntries.day, entry.day),
  eq(queueEntries.status, 'waiting'), ne(queueEntries.id, entry.id));

/**
 * The place `position` (1 = next) in the waiting list, as a number between two neighbours. Only the neighbours are
 * read (the index's entries up to the place), never the whole list.
 */
async function placeAt(tx: Db, entry: EntryRow, position: number): Promise<number> {
  const index = Math.max(position - 1, 0);
  const around = await tx.select({ position: queueEntries.position }).from(queueEntries).where(othersWaiting(entry))
    .orderBy(asc(queueEntries.position), asc(queueEntries.id)).offset(Math.max(index - 1, 0)).limit(index === 0 ? 1 : 2);
  if (index === 0) return around[0] ? around[0].position - 1 : entry.seq;
  const [before, after] = around;
  if (before && after) return (before.position + after.position) / 2;
  if (before) return before.position + 1;
  // Past the end of the list: after the last one waiting.
  const [last] = await tx.select({ position: queueEntries.position }).from(queueEntries).where(othersWaiting(entry))
    .orderBy(desc(queueEntries.position), desc(queueEntries.id)).limit(1);
  return last ? last.position + 1 : entry.seq;
}

/** A row locked for the change, and the version the caller read (when it sent one) still current. */
async function lockEntry(tx: Db, id: number, version: number | undefined): Promise<EntryRow> {
  const [entry] = await tx.select().from(queueEntries).where(eq(queueEntries.id, id)).for('update');
  if (!entry) throw new ApiError('NotFound');
  if (version !== undefined && version !== entry.version) throw new ApiError('VersionConflict', 'The queue changed; reload it', { version: entry.version });
  return entry;
}

async function findEntry(db: Db, id: number): Promise<EntryRow> {
  const [found] = await db.select().from(queueEntries).where(eq(queueEntries.id, id));
  if (!found) throw new ApiError('NotFound');
  return found;
}

/** POST queue-exams/{id}/action: call, recall, pass, back (return), remove, done — as the machine allows. */
export async function act(deps: Deps, hub: CallingHub, access: Access, id: number, input: z.output<typeof queueActionInput>): Promise<QueueEntry> {
  const found = await findEntry(deps.db, id);
  const desk = await callingDesk(deps.db, access, found.bucketId, CALLING_PERMISSION[input.action]);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const entry = await lockEntry(tx, id, input.version);
    const after = moved(entry, eventFor(input.action, input.position));
    const calls = input.action === 'call' || input.action === 'recall';
    await tx.update(queueEntries).set({
      status: after.status, version: entry.version + 1,
      ...(calls ? called(now, access.accountId, after.calls) : {}),
      ...(input.action === 'back' ? { position: await placeAt(tx, entry, input.position ?? 1) } : {}),
    }).where(eq(queueEntries.id, id));
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId: desk.bucketId, area: 'calling', action: input.action, objectType: 'queue-entry', objectId: id,
      before: { status: entry.status }, after: { status: after.status, ...(input.position ? { position: input.position } : {}) },
    });
  });
  await hub.publish(found.bucketId);
  return (await entryById(deps.db, id))!;
}

/** POST queue-exams/{id}/resort: a waiting patient placed just before the waiting number `targetNumber` of the same queue. */
export async function resort(deps: Deps, hub: CallingHub, access: Access, id: number, targetNumber: string, version?: number): Promise<QueueEntry> {
  const found = await findEntry(deps.db, id);
  await callingDesk(deps.db, access, found.bucketId, 'calling_manage_queue');
  const target = targetNumber.toUpperCase();
  await deps.db.transaction(async (tx) => {
    const entry = await lockEntry(tx, id, version);
    // The status first: a patient who is not waiting cannot be re-sorted, whatever the number.
    moved(entry, { type: 'resort', targetWaiting: true });
    // The number it goes before (a number is the queue's prefix and the day's sequence: found by the unique
    // (queue, day, seq) index), and the waiting patient just ahead of it: index reads, not the list.
    const prefix = entry.queueNo.replace(/\d+$/, '');
    const digits = target.startsWith(prefix) ? target.slice(prefix.length) : '';
    const [targetRow] = /^\d{1,6}$/.test(digits)
      ? await tx.select({ id: queueEntries.id, position: queueEntries.position }).from(queueEntries)
        .where(and(othersWaiting(entry), eq(queueEntries.seq, Number(digits)), eq(queueEntries.queueNo, target))).limit(1)
      : [];
    const targetWaiting = targetRow !== undefined || entry.queueNo === target;
    if (!targetWaiting) throw new ApiError('UnknownQueueNumber', undefined, { targetNumber });
    moved(entry, { type: 'resort', targetWaiting });
    // Its own number: it stays where it is.
    if (targetRow) {
      const [ahead] = await tx.select({ position: queueEntries.position }).from(queueEntries)
        .where(and(othersWaiting(entry), sql`(${queueEntries.position}, ${queueEntries.id}) < (${targetRow.position}, ${targetRow.id})`))
        .orderBy(desc(queueEntries.position), desc(queueEntries.id)).limit(1);
      const position = ahead ? (ahead.position + targetRow.position) / 2 : targetRow.position - 1;
      await tx.update(queueEntries).set({ position, version: entry.version + 1 }).where(eq(queueEntries.id, id));
    }
    await recordAudit(tx, {
      at: deps.clock.now(), actorId: access.accountId, bucketId: entry.bucketId, area: 'calling', action: 'resort', objectType: 'queue-entry', objectId: id,
      before: { position: entry.position }, after: { before: target },
    });
  });
  await hub.publish(found.bucketId);
  return (await entryById(deps.db, id))!;
}
