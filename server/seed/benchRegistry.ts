import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { systemClock } from '../deps';
import { CLINIC_IMPRESSIONS, DEPARTMENTS, GIVEN, SURNAMES } from './clinical';
import { seedDemo } from './demo';
import { RANDOM_STUDY_UID_SQL } from './random';

/**
 * The registry benchmark's data (`npm run bench:registry`): the demo (accounts, the hospital as a registry
 * organisation with its procedure steps and today's demo registrations), then `count` registrations of the hospital
 * over the last `days` days with 1–3 exam lines each (1.5 on average), generated inside the database (insert … select
 * from generate_series) in chunks: no row crosses the wire. Registrations are made during desk hours (07:30–17:30 in
 * the hospital's zone), ids in the order of their creation, today's only up to now. 8 % are booked for a later day
 * (1–14 days ahead), 10 % came with an outside (HIS) order. Lines on past days ended mostly Performed (85 %), else
 * Cancelled, Arrived or never came; today's are in every state; later days' are Scheduled. Patients come back (half
 * as many patients as registrations), each with one name, sex, birth date and phone.
 */
export interface RegistryBenchOptions {
  count: number;
  days: number;
  chunk?: number;
  scryptCost: number;
  onProgress?: (done: number, total: number) => void;
}

const textArray = (items: readonly string[]) => sql.raw(`array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(',')}]::text[]`);
const intArray = (items: readonly number[]) => sql.raw(`array[${items.map((n) => Math.trunc(n)).join(',')}]::int[]`);
const boolArray = (items: readonly boolean[]) => sql.raw(`array[${items.map(String).join(',')}]::boolean[]`);

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T | undefined> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows[0];
}

/** The demo hospital (seeding the demo first on an empty database) and the registrar. */
export async function registryBenchIds(db: Db, scryptCost: number): Promise<{ bucketId: number; registrarId: number }> {
  let [hospital] = await db.select().from(t.buckets).where(eq(t.buckets.code, 'CITY1-RAD'));
  if (!hospital) {
    await seedDemo(db, { scryptCost, clock: systemClock, exams: 0 });
    [hospital] = await db.select().from(t.buckets).where(eq(t.buckets.code, 'CITY1-RAD'));
  }
  const [registrar] = await db.select().from(t.accounts).where(eq(t.accounts.username, 'registrar'));
  return { bucketId: hospital!.id, registrarId: registrar!.id };
}

/** Registrations of the organisation (the demo's included). */
export async function registrationCount(db: Db, bucketId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(t.registrations).where(eq(t.registrations.bucketId, bucketId));
  return Number(row?.n ?? 0);
}

export async function insertBenchRegistrations(db: Db, o: RegistryBenchOptions): Promise<{ bucketId: number; registrarId: number; lines: number }> {
  const { bucketId, registrarId } = await registryBenchIds(db, o.scryptCost);
  const [bucket] = await db.select({ timeZone: t.buckets.timeZone }).from(t.buckets).where(eq(t.buckets.id, bucketId));
  const zone = bucket!.timeZone.replaceAll("'", '');
  const steps = await db.select().from(t.procedureSteps).where(eq(t.procedureSteps.bucketId, bucketId)).orderBy(t.procedureSteps.sortOrder);
  if (steps.length === 0) throw new Error('the organisation has no procedure steps: seed the registry demo first');
  const chunk = o.chunk ?? 10_000;
  const regBase = Number((await one<{ n: number }>(db, sql`select coalesce(max(id), 0)::int as n from registrations`))?.n ?? 0);
  const examBase = Number((await one<{ n: number }>(db, sql`select coalesce(max(id), 0)::int as n from exams`))?.n ?? 0);
  const now = new Date().toISOString();
  const tz = sql.raw(`'${zone}'`);
  const stepIds = intArray(steps.map((s) => s.id));
  const stepModality = textArray(steps.map((s) => s.modality));
  const stepPart = textArray(steps.map((s) => s.bodyPart ?? ''));
  const stepName = textArray(steps.map((s) => s.name));
  const stepNoImages = boolArray(steps.map((s) => s.reportDuringExam));
  const patients = Math.max(1, Math.ceil(o.count / 2));
  const perDay = o.count / o.days;

  for (let from = 1; from <= o.count; from += chunk) {
    const to = Math.min(o.count, from + chunk - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      await tx.execute(sql`
        with src as (
          select g, d.created, d.created_day,
            -- 8 % booked for a later day, 1–14 days ahead.
            case when r.r_later < 0.08 then 1 + floor(r.r_ahead * 14)::int else 0 end as ahead,
            case when r.r_order < 0.10 then 'HIS' || to_char(d.created at time zone ${tz}, 'YYYYMMDD') || lpad(g::text, 7, '0') end as order_id,
            1 + (r.r_lines < 0.4)::int + (r.r_lines < 0.1)::int as nlines,
            p.k, (array['I','O','O','O','E','P','NO'])[1 + floor(r.r_src * 7)::int] as source
          from generate_series(${from}::int, ${to}::int) g
          cross join lateral (select random() + 0 * g as r_later, random() + 0 * g as r_ahead, random() + 0 * g as r_order, random() + 0 * g as r_lines,
            random() + 0 * g as r_src, random() + 0 * g as r_pat, random() + 0 * g as r_min) r
          cross join lateral (select ${o.days - 1} - floor((g - 1) / ${perDay}::float8)::int as days_ago,
            ((g - 1) - floor((g - 1) / ${perDay}::float8) * ${perDay}::float8) / ${perDay}::float8 as frac) w
          cross join lateral (select least(${now}::timestamptz - interval '1 minute',
              ((date_trunc('day', ${now}::timestamptz at time zone ${tz}) - make_interval(days => w.days_ago) + interval '450 minutes'
                + make_interval(secs => w.frac * 36000)) at time zone ${tz})) as created,
            (date_trunc('day', ${now}::timestamptz at time zone ${tz}) - make_interval(days => w.days_ago))::date as created_day) d
          cross join lateral (select 1 + floor(r.r_pat * ${patients})::int as k) p
        ),
        reg as (
          insert into registrations (id, bucket_id, version, order_id, created_by, created)
          select ${regBase} + g, ${bucketId}, 0, order_id, ${registrarId}, created from src
        )
        insert into exams (id, bucket_id, registration_id, patient_name, patient_id, patient_key_id, patient_gender, patient_dob, visit_age,
          patient_source, inpatient_id, bed_num, outpatient_id, physical_exam_id, patient_phone, accession_number, service_request_id,
          modality, body_part, study_description, procedure_step_id, clinic_impression, apply_dept, urgent_flag, has_image, store_uid,
          exam_status, scheduled_time, arrived_time, prev_exam_status, prev_arrived_time, cancel_reason, exam_time, upload_time, created, order_id)
        select x.id, ${bucketId}, ${regBase} + s.g, pt.name, pt.pid, pt.pid, pt.gender, to_char(pt.dob, 'YYYY-MM-DD'),
          extract(year from age(s.created_day, pt.dob))::int || 'Y',
          s.source, case when s.source = 'I' then 'ZY' || lpad((s.g % 999999)::text, 6, '0') end,
          case when s.source = 'I' then (1 + s.g % 30) || '-' || (1 + s.g % 60) end,
          case when s.source in ('O', 'NO') then 'MZ' || lpad((s.g % 999999)::text, 6, '0') end,
          case when s.source = 'P' then 'TJ' || lpad((s.g % 999999)::text, 6, '0') end, pt.phone,
          'A' || to_char(s.created at time zone ${tz}, 'YYYYMMDD') || lpad(${bucketId}::text, 2, '0') || lpad(x.id::text, 7, '0'), 'SR' || x.id,
          (${stepModality})[x.step], nullif((${stepPart})[x.step], ''), (${stepName})[x.step], (${stepIds})[x.step],
          (${textArray(CLINIC_IMPRESSIONS)})[1 + floor(x.r_imp * ${CLINIC_IMPRESSIONS.length})::int],
          case when s.source = 'E' then '急诊科' when s.source = 'P' then '体检中心' else (${textArray(DEPARTMENTS)})[1 + floor(x.r_dept * ${DEPARTMENTS.length})::int] end,
          s.source = 'E', st.status = 'Performed' and not (${stepNoImages})[x.step],
          case when st.status = 'Performed' and not (${stepNoImages})[x.step] then ${sql.raw(RANDOM_STUDY_UID_SQL)} end,
          st.status, x.scheduled, st.arrived,
          case when st.status = 'Performed' and not (${stepNoImages})[x.step] then 'Arrived' when st.status in ('Arrived', 'Performed', 'Cancelled') then x.initial end,
          case when st.status = 'Performed' and not (${stepNoImages})[x.step] then st.arrived end,
          case when st.status = 'Cancelled' then (array['患者未到','家属要求改期','病情变化，暂缓检查','重复登记'])[1 + floor(x.r_out * 4)::int] end,
          coalesce(st.arrived, x.scheduled),
          case when st.status = 'Performed' and not (${stepNoImages})[x.step] then st.arrived + interval '10 minutes' end,
          s.created, s.order_id
        from src s
        cross join lateral generate_series(1, s.nlines) l
        cross join lateral (select ${examBase} + (s.g - 1) * 3 + l as id, 1 + floor(random() * ${steps.length} + 0 * l)::int as step,
          random() + 0 * l as r_imp, random() + 0 * l as r_dept, random() + 0 * l as r_out, random() + 0 * l as r_arr,
          s.created + make_interval(days => s.ahead, mins => 15 + 10 * l + floor(random() * 30 + 0 * l)::int) as scheduled,
          case when s.ahead > 0 then 'Scheduled' else 'Registered' end as initial) x
        cross join lateral (select
            'P' || lpad(s.k::text, 8, '0') as pid,
            (${textArray(SURNAMES)})[1 + ((s.k::bigint * 7919) % ${SURNAMES.length})::int] || (${textArray(GIVEN)})[1 + ((s.k::bigint * 104729) % ${GIVEN.length})::int]
              || case when s.k % 5 < 3 then (${textArray(GIVEN)})[1 + ((s.k::bigint * 15485863) % ${GIVEN.length})::int] else '' end as name,
            (array['M','F'])[1 + s.k % 2] as gender,
            date '2026-01-01' - (1 + s.k % 89) * 365 - (s.k * 31) % 365 as dob,
            '1' || (array['3','5','8','7','9'])[1 + s.k % 5] || lpad(((s.k::bigint * 7919) % 1000000000)::text, 9, '0') as phone) pt
        cross join lateral (select
            -- Past days: mostly done. Today: in every state. Later days: booked.
            case when (x.scheduled at time zone ${tz})::date > (${now}::timestamptz at time zone ${tz})::date then
                   case when x.r_out < 0.03 then 'Cancelled' else 'Scheduled' end
                 when (x.scheduled at time zone ${tz})::date < (${now}::timestamptz at time zone ${tz})::date then
                   case when x.r_out < 0.85 then 'Performed' when x.r_out < 0.91 then 'Cancelled' when x.r_out < 0.95 then 'Arrived' else x.initial end
                 else case when x.r_out < 0.35 then x.initial when x.r_out < 0.55 then 'Arrived' when x.r_out < 0.85 then 'Performed' else 'Cancelled' end
            end as status) st0
        cross join lateral (select
            case when (${stepNoImages})[x.step] and st0.status = 'Arrived' then 'Performed' else st0.status end as status,
            case when st0.status in ('Arrived', 'Performed')
              then least(${now}::timestamptz - interval '1 minute', s.created + make_interval(mins => 5 + floor(x.r_arr * 60)::int)) end as arrived) st`);
    });
    o.onProgress?.(to, o.count);
  }
  await db.execute(sql`select setval(pg_get_serial_sequence('registrations', 'id'), (select max(id) from registrations))`);
  await db.execute(sql`select setval(pg_get_serial_sequence('exams', 'id'), (select max(id) from exams))`);
  await db.execute(sql`vacuum analyze registrations`);
  await db.execute(sql`vacuum analyze exams`);
  const lines = await one<{ n: number }>(db, sql`select count(*)::int as n from exams where registration_id is not null and bucket_id = ${bucketId}`);
  return { bucketId, registrarId, lines: Number(lines?.n ?? 0) };
}
