import { and, asc, eq, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { Rng } from './random';
import { dayOf, instantIn } from './registry';

/**
 * What the statistics screens (issue 16) read beyond the other generators' rows, added at the end of the demo seed:
 * the scanner of each hospital exam (device workload; about 5 % left "not recorded"), who typed a third of the
 * approved hospital reports for the doctor (note-takers), and the registrar's history: a quarter of the hospital's
 * exams before today came through the desk, each its own registration made shortly before the exam, its line
 * performed. It only changes existing rows and adds registrations, so no list looks different: the desk and the call
 * queue show today's lines (the desk filters by scheduled day, the queue has its own entries), and the worklist
 * does not read the registry columns. Its own generator, so the other generators' output stays the same.
 */
export interface StatisticsSeedOptions {
  now: Date;
  hospitalId: number;
  registrarId: number;
  /** Note-takers: people who type for the reporting doctor. */
  noteTakers: number[];
}

export interface StatisticsSeedResult {
  withDevice: number;
  noteTaken: number;
  registrations: number;
}

const MINUTE = 60_000;
/** Share of exams whose scanner is not recorded, of approved reports typed by a note-taker, of past exams that came through the desk. */
const NO_DEVICE = 0.05;
const NOTE_TAKEN = 0.3;
const REGISTERED = 0.25;
/** Two devices of a modality (the hospital's CTs): the first makes 60 % of the exams; more share alike. */
const SPLIT = [0.6, 0.4];

/** `update <table> set … from (values …)` in slices: one statement per slice, the same on PostgreSQL and PGlite. */
async function updateFromValues(db: Db, rows: SQL[], columns: string, apply: (rowsSql: SQL) => SQL): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const slice = rows.slice(i, i + 500);
    await db.execute(apply(sql`(values ${sql.join(slice, sql`, `)}) as v(${sql.raw(columns)})`));
  }
}

export async function seedStatistics(db: Db, r: Rng, o: StatisticsSeedOptions): Promise<StatisticsSeedResult> {
  const [bucket] = await db.select({ timeZone: t.buckets.timeZone }).from(t.buckets).where(eq(t.buckets.id, o.hospitalId));
  const zone = bucket?.timeZone ?? 'Asia/Shanghai';
  const startOfToday = instantIn(dayOf(o.now, zone), 0, zone);

  // Devices: exams that happened (not lines still waiting at the desk), by modality.
  const devices = await db.select({ id: t.devices.id, modality: t.devices.modality }).from(t.devices)
    .where(eq(t.devices.bucketId, o.hospitalId)).orderBy(asc(t.devices.sortOrder), asc(t.devices.id));
  const byModality = new Map<string, number[]>();
  for (const d of devices) byModality.set(d.modality, [...(byModality.get(d.modality) ?? []), d.id]);
  const done = await db.select({ id: t.exams.id, modality: t.exams.modality }).from(t.exams)
    .where(and(eq(t.exams.bucketId, o.hospitalId), isNull(t.exams.deletedTime), sql`coalesce(${t.exams.examStatus}, 'Performed') = 'Performed'`))
    .orderBy(asc(t.exams.id));
  const deviceRows: SQL[] = [];
  for (const e of done) {
    const own = byModality.get(e.modality);
    if (!own || r.chance(NO_DEVICE)) continue;
    const device = own.length === SPLIT.length ? (r.chance(SPLIT[0]!) ? own[0]! : own[1]!) : r.pick(own);
    deviceRows.push(sql`(${e.id}::int, ${device}::int)`);
  }
  await updateFromValues(db, deviceRows, 'id, device_id', (v) => sql`update exams set device_id = v.device_id from ${v} where exams.id = v.id`);

  // Note-takers on approved reports of the hospital.
  const approved = await db.select({ id: t.reports.id }).from(t.reports)
    .where(and(eq(t.reports.bucketId, o.hospitalId), isNotNull(t.reports.approvedTime), isNull(t.reports.deletedTime))).orderBy(asc(t.reports.id));
  const noteRows = o.noteTakers.length === 0 ? [] : approved.filter(() => r.chance(NOTE_TAKEN)).map((rep) => sql`(${rep.id}::int, ${r.pick(o.noteTakers)}::int)`);
  await updateFromValues(db, noteRows, 'id, note_taker_id', (v) => sql`update reports set note_taker_id = v.note_taker_id from ${v} where reports.id = v.id`);

  // The registrar's history: exams before today that had no registration get one, made 10–50 minutes before the exam.
  const past = await db.select({ id: t.exams.id, examTime: t.exams.examTime, modality: t.exams.modality, bodyPart: t.exams.bodyPart }).from(t.exams)
    .where(and(eq(t.exams.bucketId, o.hospitalId), isNull(t.exams.deletedTime), isNull(t.exams.registrationId),
      lt(t.exams.examTime, startOfToday), lt(t.exams.created, startOfToday)))
    .orderBy(asc(t.exams.id));
  const steps = await db.select({ id: t.procedureSteps.id, modality: t.procedureSteps.modality, bodyPart: t.procedureSteps.bodyPart })
    .from(t.procedureSteps).where(eq(t.procedureSteps.bucketId, o.hospitalId));
  const chosen = past.filter(() => r.chance(REGISTERED)).map((e) => ({ ...e, created: new Date(e.examTime.getTime() - r.int(10, 50) * MINUTE) }));
  let registrations = 0;
  for (let i = 0; i < chosen.length; i += 500) {
    const slice = chosen.slice(i, i + 500);
    const made = await db.insert(t.registrations).values(slice.map((e) => ({
      // Checked in and performed: two changes after the registration.
      bucketId: o.hospitalId, version: 2, createdBy: o.registrarId, created: e.created,
    }))).returning({ id: t.registrations.id });
    registrations += made.length;
    const lineRows = slice.map((e, k) => {
      const step = steps.find((s) => s.modality === e.modality && s.bodyPart === e.bodyPart) ?? null;
      const scheduled = new Date(Math.min(e.examTime.getTime(), e.created.getTime() + 15 * MINUTE));
      // As the registration machine leaves a line with images: Registered → Arrived (the exam) → Performed.
      return sql`(${e.id}::int, ${made[k]!.id}::int, ${step?.id ?? null}::int, ${scheduled.toISOString()}::timestamptz)`;
    });
    await updateFromValues(db, lineRows, 'id, registration_id, step_id, scheduled', (v) => sql`
      update exams set registration_id = v.registration_id, procedure_step_id = coalesce(v.step_id, exams.procedure_step_id),
        exam_status = 'Performed', scheduled_time = v.scheduled, arrived_time = exams.exam_time,
        prev_exam_status = 'Arrived', prev_arrived_time = exams.exam_time
      from ${v} where exams.id = v.id`);
  }
  return { withDevice: deviceRows.length, noteTaken: noteRows.length, registrations };
}
