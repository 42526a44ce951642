import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { dayIn } from '../../contract/days';
import { BOARD_WINDOW, maskName, SCREEN_NEXT_COUNT, type QueueBoard, type QueueEntry, type QueueStatus, type QueueType, type ScreenState } from '../../contract/calling';
import { mppsProgressOf } from '../../contract/mpps';
import { allowedActions } from '../../machines/callQueue';
import type { Db } from '../db/client';
import { exams, queueEntries, queueTypes } from '../db/schema';
import { mppsColumn } from '../dicom/progress';
import type { CallingDesk } from './access';
import { settingsOf } from './access';

/** Today's queues as the operator screen and the waiting-room screen read them. */
export const today = (now: Date, timeZone: string) => dayIn(now, timeZone);

export function presentType(t: typeof queueTypes.$inferSelect): QueueType {
  return { id: t.id, bucketId: t.bucketId, prefix: t.prefix, name: t.name, modality: t.modality, room: t.room };
}

type EntryRow = {
  e: typeof queueEntries.$inferSelect; name: string; studyDescription: string | null; modality: string; bodyPart: string | null;
  registrationId: number | null; gender: string; age: string | null; mpps: string | null;
};

export function presentEntry(r: EntryRow): QueueEntry {
  const status = r.e.status as QueueStatus;
  return {
    id: r.e.id, queueTypeId: r.e.queueTypeId, examId: r.e.examId, queueNo: r.e.queueNo, patientName: r.name,
    examName: r.studyDescription ?? [r.modality, r.bodyPart].filter(Boolean).join(' '),
    status, position: r.e.position, checkInTime: r.e.checkInTime.toISOString(),
    calledTime: r.e.calledTime ? r.e.calledTime.toISOString() : null, callCount: r.e.callCount, version: r.e.version,
    registrationId: r.registrationId, day: r.e.day, patientGender: r.gender, patientAge: r.age, maskedName: maskName(r.name),
    actions: allowedActions(status),
    mpps: mppsProgressOf(r.mpps),
  };
}

export function selectEntries(db: Db) {
  return db.select({
    e: queueEntries, name: exams.patientName, studyDescription: exams.studyDescription, modality: exams.modality, bodyPart: exams.bodyPart,
    registrationId: exams.registrationId, gender: exams.patientGender, age: exams.visitAge, mpps: mppsColumn,
  }).from(queueEntries).innerJoin(exams, eq(exams.id, queueEntries.examId));
}

export async function entryById(db: Db, id: number): Promise<QueueEntry | null> {
  const [row] = await selectEntries(db).where(eq(queueEntries.id, id));
  return row ? presentEntry(row) : null;
}

/**
 * The operator's board (issue 37): per queue the called patient, the first BOARD_WINDOW waiting (the first entries of
 * queue_entries_waiting_idx) and the first BOARD_WINDOW missed, and every queue's counts as one aggregate: its cost
 * does not grow with the day (it sent every open entry of the day: 84–103 ms of server CPU at 2,000 entries).
 */
export async function loadBoard(db: Db, desk: CallingDesk, now: Date): Promise<QueueBoard> {
  const types = await db.select().from(queueTypes).where(eq(queueTypes.bucketId, desk.bucketId)).orderBy(asc(queueTypes.sortOrder), asc(queueTypes.id));
  const day = today(now, desk.timeZone);
  const ofDay = and(eq(queueEntries.bucketId, desk.bucketId), eq(queueEntries.day, day));
  const rows = await selectEntries(db).where(and(ofDay, eq(queueEntries.status, 'called'))).orderBy(asc(queueEntries.position), asc(queueEntries.id));
  for (const t of types) {
    for (const status of ['waiting', 'passed'] as const) {
      rows.push(...await selectEntries(db).where(and(ofDay, eq(queueEntries.queueTypeId, t.id), eq(queueEntries.status, status)))
        .orderBy(asc(queueEntries.position), asc(queueEntries.id)).limit(BOARD_WINDOW));
    }
  }
  const counted = await db.select({ queueTypeId: queueEntries.queueTypeId, status: queueEntries.status, n: sql<number>`count(*)::int` }).from(queueEntries)
    .where(and(ofDay, inArray(queueEntries.status, ['waiting', 'passed', 'served']))).groupBy(queueEntries.queueTypeId, queueEntries.status);
  const countOf = (id: number, status: string) => Number(counted.find((c) => c.queueTypeId === id && c.status === status)?.n ?? 0);
  return {
    privacy: desk.privacy, language: desk.language, queueTypes: types.map(presentType), entries: rows.map(presentEntry),
    counts: types.map((t) => ({ queueTypeId: t.id, waiting: countOf(t.id, 'waiting'), passed: countOf(t.id, 'passed'), served: countOf(t.id, 'served') })),
  };
}

/** The screen's state: per queue the latest call and the next waiting numbers; names masked, or absent under privacy. */
export async function screenState(db: Db, bucketId: number, now: Date): Promise<ScreenState | null> {
  const settings = await settingsOf(db, bucketId);
  if (!settings) return null;
  const types = await db.select().from(queueTypes).where(eq(queueTypes.bucketId, bucketId)).orderBy(asc(queueTypes.sortOrder), asc(queueTypes.id));
  const day = today(now, settings.timeZone);
  // Every open screen reads this after every call: the called ones, and per queue only the next few waiting (the
  // first entries of queue_entries_waiting_idx), never the whole day's list (issue 37).
  const calledRows = await selectEntries(db).where(and(eq(queueEntries.bucketId, bucketId), eq(queueEntries.day, day), eq(queueEntries.status, 'called')));
  const waitingRows = [];
  for (const t of types) {
    waitingRows.push(...await selectEntries(db).where(and(eq(queueEntries.queueTypeId, t.id), eq(queueEntries.day, day), eq(queueEntries.status, 'waiting')))
      .orderBy(asc(queueEntries.position), asc(queueEntries.id)).limit(SCREEN_NEXT_COUNT));
  }
  const rows = [...calledRows, ...waitingRows];
  return {
    bucketName: settings.bucketName, language: settings.language, privacy: settings.privacy,
    queues: types.map((t) => {
      const mine = rows.filter((r) => r.e.queueTypeId === t.id);
      const called = mine.filter((r) => r.e.status === 'called' && r.e.calledTime)
        .sort((a, b) => b.e.calledTime!.getTime() - a.e.calledTime!.getTime())[0];
      return {
        id: t.id, name: t.name, room: t.room,
        current: called ? {
          queueNo: called.e.queueNo, patientName: settings.privacy ? null : maskName(called.name),
          calledTime: called.e.calledTime!.toISOString(), callCount: called.e.callCount,
        } : null,
        next: mine.filter((r) => r.e.status === 'waiting').slice(0, SCREEN_NEXT_COUNT).map((r) => r.e.queueNo),
      };
    }),
  };
}
