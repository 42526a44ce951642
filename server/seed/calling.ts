import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { QUEUE_MODALITY_FAMILIES } from '../../contract/calling';
import { dayIn } from '../../contract/days';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * The call queue's demo (issue 11): three queues of the hospital (CT, ultrasound, radiography) and today's arrived
 * registry lines checked into the queue of their modality — the first called, the rest waiting — so /calling and a
 * waiting-room screen show something at once. Numbers A001… continue from here when the desk checks more in. Without
 * arrived registry lines today (a demo built without the registry's), the hospital's latest exams of each modality
 * stand in. The group's enableCalling is the demo group's own (demo.ts); screen tokens are issued in /calling, never
 * seeded: they are secrets.
 */
const STAND_INS = 6;
const QUEUES = [
  { prefix: 'A', name: 'CT 室', modality: 'CT', room: 'CT 1 室' },
  { prefix: 'B', name: '超声室', modality: 'US', room: '超声 3 诊室' },
  { prefix: 'C', name: 'DR 室', modality: 'DX', room: '放射 2 室' },
];

export async function seedCalling(db: Db, o: { now: Date; bucketId: number; operatorId: number }): Promise<{ queues: number; entries: number }> {
  const [bucket] = await db.select({ timeZone: t.buckets.timeZone }).from(t.buckets).where(eq(t.buckets.id, o.bucketId));
  const day = dayIn(o.now, bucket?.timeZone ?? 'Asia/Shanghai');
  const types = await db.insert(t.queueTypes).values(QUEUES.map((q) => ({ bucketId: o.bucketId, ...q, created: o.now }))).returning();
  const arrived = await db.select().from(t.exams).where(and(eq(t.exams.bucketId, o.bucketId), inArray(t.exams.examStatus, ['Arrived', 'Performed']),
    isNotNull(t.exams.registrationId), isNotNull(t.exams.arrivedTime))).orderBy(asc(t.exams.arrivedTime), asc(t.exams.id));
  const zone = bucket?.timeZone ?? 'Asia/Shanghai';
  const todays = arrived.filter((e) => e.arrivedTime && dayIn(e.arrivedTime, zone) === day);
  const familyOf = (modality: string | null) => (modality ? QUEUE_MODALITY_FAMILIES[modality] ?? [modality] : []);
  let entries = 0;
  for (const type of types) {
    let mine = todays.filter((e) => familyOf(type.modality).includes(e.modality));
    if (todays.length === 0) {
      mine = (await db.select().from(t.exams).where(and(eq(t.exams.bucketId, o.bucketId), isNull(t.exams.deletedTime), inArray(t.exams.modality, [...familyOf(type.modality)])))
        .orderBy(desc(t.exams.id)).limit(STAND_INS)).reverse().map((e) => ({ ...e, arrivedTime: new Date(o.now.getTime() - 30 * 60_000) }));
    }
    if (mine.length === 0) continue;
    await db.insert(t.queueEntries).values(mine.map((e, i) => ({
      bucketId: o.bucketId, queueTypeId: type.id, examId: e.id, day, seq: i + 1, queueNo: `${type.prefix}${String(i + 1).padStart(3, '0')}`,
      status: i === 0 ? 'called' : 'waiting', position: i + 1, checkInTime: e.arrivedTime!,
      ...(i === 0 ? { calledTime: new Date(Math.max(e.arrivedTime!.getTime(), o.now.getTime() - 60_000)), calledBy: o.operatorId, callCount: 1 } : {}),
    })));
    await db.insert(t.queueCounters).values({ queueTypeId: type.id, day, lastSeq: mine.length });
    entries += mine.length;
  }
  return { queues: types.length, entries };
}
