import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { restoreIndexes, saveAndDropIndexes } from './benchExams';

/**
 * What the statistics benchmark (`npm run bench:statistics`) needs on top of the exams of seedBench, at a hospital's
 * scale, generated inside the database (insert … select / update … from exams): no row crosses the wire.
 * - exams: the scanner (each organisation gets two CTs, an MR, a DR and an ultrasound; 5 % not recorded), and for 30 %
 *   of the exams of the hospitals (not the expert centre) a registration made 10–50 minutes before the exam, its
 *   line performed (6 % cancelled); the demo hospital's by the registrar (70 %), the organisation admin (25 %) or
 *   nobody recorded (5 %), the others' by their own account;
 * - reports: a note-taker (the demo registrar or technician) on 30 % of the demo hospital's approved reports;
 * - 50,000 consultations (the demo hospital asks the expert centre, the other hospitals one of their own), 20,000
 *   expert and remote report applications in every payment state with their targets, 1,000 credit recharges of the
 *   demo group.
 * Idempotent: exams and reports are done up to the highest exam id already covered (kept in a table), so exams added
 * later get their share on the next run; the other rows are topped up to their counts. The secondary indexes of
 * exams and reports are dropped while a million rows change (benchExams.ts keeps their definitions) and rebuilt.
 */
export interface BenchStatisticsOptions {
  consultations?: number;
  reportOrders?: number;
  recharges?: number;
  log?: (line: string) => void;
}

const intArray = (items: readonly number[]) => sql.raw(`array[${items.map((n) => Math.trunc(n)).join(',')}]::int[]`);
/** A stable pseudo-random number in 0..99 per row and purpose (salt), the same on every run. */
const pct = (id: SQL, salt: number) => sql`((hashint4(${id} + ${sql.raw(String(salt))}) & 2147483647) % 100)`;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
async function num(db: Db, query: SQL): Promise<number> {
  return Number((await rows<{ n: number | string | null }>(db, query))[0]?.n ?? 0);
}

async function accountIds(db: Db, usernames: string[]): Promise<Record<string, number>> {
  const found = await db.select({ id: t.accounts.id, username: t.accounts.username }).from(t.accounts).where(inArray(t.accounts.username, usernames));
  return Object.fromEntries(found.map((a) => [a.username, a.id]));
}

export async function seedBenchStatistics(db: Db, o: BenchStatisticsOptions = {}): Promise<void> {
  const log = o.log ?? (() => {});
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const [hospital] = await db.select().from(t.buckets).where(eq(t.buckets.code, 'CITY1-RAD'));
  const [centre] = await db.select().from(t.buckets).where(eq(t.buckets.code, 'EXPERT-CENTRE'));
  if (!hospital || !centre) throw new Error('seed the benchmark exams first (seedBench)');
  const others = await db.select().from(t.buckets).where(sql`${t.buckets.code} like 'BENCH-ORG-%'`).orderBy(t.buckets.id);
  const reporters = await db.select({ id: t.accounts.id }).from(t.accounts).where(sql`${t.accounts.username} like 'benchrad%'`).orderBy(t.accounts.id);
  const acc = await accountIds(db, ['admin', 'registrar', 'orgadmin', 'tech']);
  const orgs = [hospital, centre, ...others];

  // Devices: every organisation without any gets the same five.
  for (const org of orgs) {
    const [has] = await db.select({ id: t.devices.id }).from(t.devices).where(eq(t.devices.bucketId, org.id)).limit(1);
    if (has) continue;
    await db.insert(t.devices).values([
      { name: 'CT-1 64 排', modality: 'CT' }, { name: 'CT-2 16 排', modality: 'CT' }, { name: 'MR-1 1.5T', modality: 'MR' },
      { name: 'DR-1', modality: 'DX' }, { name: '彩超-1', modality: 'US' },
    ].map((d, sortOrder) => ({ ...d, bucketId: org.id, sortOrder })));
  }

  await db.execute(sql`create table if not exists bench_statistics_state (covered_exam_id integer not null)`);
  const covered = await num(db, sql`select coalesce(max(covered_exam_id), 0) as n from bench_statistics_state`);
  const top = await num(db, sql`select coalesce(max(id), 0) as n from exams`);
  if (top > covered) {
    log(`statistics: exams ${covered + 1}–${top}: devices, registrations, note-takers (indexes dropped meanwhile)`);
    await saveAndDropIndexes(db);
    const regBase = await num(db, sql`select coalesce(max(id), 0) as n from registrations`);
    const registered = sql`e.id > ${covered} and e.deleted_time is null and e.registration_id is null and e.bucket_id <> ${centre.id} and ${pct(sql`e.id`, 11)} < 30`;
    // The other hospitals' registrars: their one account each.
    const otherIds = intArray(others.map((b) => b.id));
    const otherPeople = intArray(others.map((_, i) => reporters[i]?.id ?? acc.admin!));
    await db.execute(sql`
      insert into registrations (id, bucket_id, version, created_by, created)
      select ${regBase} + (e.id - ${covered}), e.bucket_id, 2,
        case when e.bucket_id = ${hospital.id} then
            case when ${pct(sql`e.id`, 12)} < 70 then ${acc.registrar!}::int when ${pct(sql`e.id`, 12)} < 95 then ${acc.orgadmin!}::int end
          else (${otherPeople})[array_position(${otherIds}, e.bucket_id)] end,
        e.exam_time - make_interval(mins => 10 + ${pct(sql`e.id`, 13)} * 40 / 100)
      from exams e where ${registered}`);
    log(`  registrations (${seconds()} s)`);
    const devices = await rows<{ bucket_id: number; modality: string; ids: number[] }>(db,
      sql`select bucket_id, modality, array_agg(id order by sort_order, id) as ids from devices group by bucket_id, modality`);
    const deviceCase = devices.length === 0 ? sql`null::int` : sql.raw(`(case ${devices.map((d) =>
      `when e.bucket_id = ${Math.trunc(d.bucket_id)} and e.modality = '${d.modality.replaceAll("'", "''")}' then (array[${d.ids.map((x) => Math.trunc(x)).join(',')}]::int[])[1 + (e.id / 7) % ${d.ids.length}]`).join(' ')} end)`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      await tx.execute(sql`
        update exams e set
          device_id = case when ${pct(sql`e.id`, 21)} >= 5 then ${deviceCase} end,
          registration_id = case when ${registered} then ${regBase} + (e.id - ${covered}) end,
          exam_status = case when ${registered} then case when ${pct(sql`e.id`, 14)} < 6 then 'Cancelled' else 'Performed' end end,
          scheduled_time = case when ${registered} then e.exam_time - interval '5 minutes' end,
          arrived_time = case when ${registered} and ${pct(sql`e.id`, 14)} >= 6 then e.exam_time end,
          prev_exam_status = case when ${registered} then case when ${pct(sql`e.id`, 14)} < 6 then 'Registered' else 'Arrived' end end,
          prev_arrived_time = case when ${registered} and ${pct(sql`e.id`, 14)} >= 6 then e.exam_time end,
          cancel_reason = case when ${registered} and ${pct(sql`e.id`, 14)} < 6 then '患者未到' end
        where e.id > ${covered} and e.deleted_time is null and e.registration_id is null`);
      await tx.execute(sql`
        update reports r set note_taker_id = case when ${pct(sql`r.id`, 31)} < 15 then ${acc.registrar!}::int else ${acc.tech!}::int end
        where r.exam_id > ${covered} and r.bucket_id = ${hospital.id} and r.approved_time is not null and ${pct(sql`r.id`, 31)} < 30`);
    });
    log(`  exams and reports updated (${seconds()} s); building indexes`);
    await restoreIndexes(db, log);
    await db.execute(sql`select setval(pg_get_serial_sequence('registrations', 'id'), greatest(1, (select max(id) from registrations)))`);
    await db.execute(sql`delete from bench_statistics_state`);
    await db.execute(sql`insert into bench_statistics_state (covered_exam_id) values (${top})`);
    await db.execute(sql`vacuum analyze exams`);
    await db.execute(sql`vacuum analyze reports`);
    await db.execute(sql`vacuum analyze registrations`);
    log(`  done (${seconds()} s)`);
  }

  // Where each hospital asks: the demo hospital the expert centre, the others the first (or second) other hospital.
  const from = intArray([hospital.id, ...others.map((b) => b.id)]);
  const to = intArray([centre.id, ...others.map((_, i) => (i === 0 ? others[1]?.id ?? centre.id : others[0]!.id))]);
  const fromTo = sql`(${to})[array_position(${from}, e.bucket_id)]`;
  const groupOf = intArray([hospital.groupId, ...others.map((b) => b.groupId)]);
  /** `n` live exams of the asking hospitals with no row in `table` yet, spread over the whole history. */
  const pickExams = (n: number, salt: number, table: 'consultations' | 'report_orders') => sql`
    select e.* from exams e
    where e.bucket_id = any(${from}) and e.deleted_time is null and not exists (select 1 from ${sql.raw(table)} x where x.exam_id = e.id)
    order by hashint4(e.id + ${sql.raw(String(salt))}) limit ${n}`;

  const wantConsultations = o.consultations ?? 50_000;
  const haveConsultations = await num(db, sql`select count(*) as n from consultations`);
  if (haveConsultations < wantConsultations) {
    await db.execute(sql`
      insert into consultations (applied_bucket_id, target_bucket_id, patient_name, patient_gender, patient_age, reason, status, scheduled_time,
        created_by, created, exam_id, report_id, approved_by, approved_at, rating, rated_by, rated_at, payment_status, cancel_reason)
      select e.bucket_id, ${fromTo}, e.patient_name, coalesce(e.patient_gender, 'U'), e.visit_age, '疑难病例，申请专家会诊', s.status,
        case when s.status between 1 and 3 then e.created + interval '1 day' end,
        coalesce(e.report_creator_id, ${acc.admin!}::int), e.created + interval '2 hours', e.id, e.report_id,
        case when s.status = 3 then coalesce(e.report_creator_id, ${acc.admin!}::int) end,
        case when s.status = 3 then e.created + make_interval(hours => 2 + ${pct(sql`e.id`, 42)}) end,
        case when s.status = 3 and ${pct(sql`e.id`, 43)} < 70 then 3 + ${pct(sql`e.id`, 44)} % 3 end,
        case when s.status = 3 and ${pct(sql`e.id`, 43)} < 70 then coalesce(e.report_creator_id, ${acc.admin!}::int) end,
        case when s.status = 3 and ${pct(sql`e.id`, 43)} < 70 then e.created + make_interval(hours => 3 + ${pct(sql`e.id`, 42)}) end,
        case when s.status = 3 then 1 else 0 end, case when s.status = 4 then '患者转院' end
      from (${pickExams(wantConsultations - haveConsultations, 41, 'consultations')}) e
      cross join lateral (select case when ${pct(sql`e.id`, 45)} < 10 then 0 when ${pct(sql`e.id`, 45)} < 18 then 1
        when ${pct(sql`e.id`, 45)} < 25 then 2 when ${pct(sql`e.id`, 45)} < 90 then 3 else 4 end::smallint as status) s`);
    await db.execute(sql`vacuum analyze consultations`);
    log(`statistics: consultations ${haveConsultations.toLocaleString('en')} → ${(await num(db, sql`select count(*) as n from consultations`)).toLocaleString('en')} (${seconds()} s)`);
  }

  const wantOrders = o.reportOrders ?? 20_000;
  const haveOrders = await num(db, sql`select count(*) as n from report_orders`);
  if (haveOrders < wantOrders) {
    const orderBase = await num(db, sql`select coalesce(max(id), 0) as n from report_orders`);
    // Paid 70 % (weixin 40, credit 30, plan 20, free 10), awaiting payment 15 %, refunded 8 %, withdrawn 7 %.
    await db.execute(sql`
      with picked as (
        select e.*, ${orderBase} + row_number() over (order by e.id) as new_id, ${pct(sql`e.id`, 51)} as r_state, ${pct(sql`e.id`, 52)} as r_channel
        from (${pickExams(wantOrders - haveOrders, 50, 'report_orders')}) e
      ),
      shaped as (
        select p.*, case when p.r_state < 15 then 0 when p.r_state < 85 then 1 when p.r_state < 93 then 3 else 0 end as status,
          case when p.r_state >= 15 and p.r_state < 93 then
            case when p.r_channel < 40 then 'weixin' when p.r_channel < 70 then 'credit' when p.r_channel < 90 then 'plan' else 'free' end end as channel,
          case when ${pct(sql`p.id`, 53)} < 70 then 'expert' else 'remote' end as type,
          case p.modality when 'CT' then 12000 when 'MR' then 20000 when 'US' then 6000 else 5000 end as price
        from picked p
      ),
      orders as (
        insert into report_orders (id, request_no, type, exam_id, from_bucket_id, group_id, applicant_id, patient_name, patient_gender, patient_age,
          amount_fen, payment_status, progress, channel, transaction_id, paid_at, refund_no, refund_at, withdrawn_at, created)
        select s.new_id, 'RB' || s.new_id, s.type, s.id, s.bucket_id, (${groupOf})[array_position(${from}, s.bucket_id)],
          coalesce(s.report_creator_id, ${acc.admin!}::int), s.patient_name, coalesce(s.patient_gender, 'U'), s.visit_age,
          case when s.channel = 'free' then 0 else s.price end, s.status,
          case when s.r_state >= 93 then 'withdrawn' when s.status = 0 then 'awaiting_payment' else 'queued' end, s.channel,
          case when s.channel = 'weixin' then 'BT' || s.new_id end,
          case when s.channel is not null then s.created + interval '65 minutes' end,
          case when s.status = 3 then 'BR' || s.new_id end, case when s.status = 3 then s.created + interval '2 days' end,
          case when s.r_state >= 93 then s.created + interval '3 hours' end, s.created + interval '1 hour'
        from shaped s
        returning id, from_bucket_id, amount_fen
      )
      insert into report_order_targets (order_id, bucket_id, free, price_fen)
      select o.id, (${to})[array_position(${from}, o.from_bucket_id)], o.amount_fen = 0, o.amount_fen from orders o`);
    await db.execute(sql`select setval(pg_get_serial_sequence('report_orders', 'id'), greatest(1, (select max(id) from report_orders)))`);
    await db.execute(sql`vacuum analyze report_orders`);
    await db.execute(sql`vacuum analyze report_order_targets`);
    log(`statistics: report applications ${haveOrders.toLocaleString('en')} → ${(await num(db, sql`select count(*) as n from report_orders`)).toLocaleString('en')} (${seconds()} s)`);
  }

  const wantRecharges = o.recharges ?? 1_000;
  const haveRecharges = await num(db, sql`select count(*) as n from charge_orders where order_id is null and group_id = ${hospital.groupId}`);
  const [credit] = await db.select({ id: t.chargePackages.id, priceFen: t.chargePackages.priceFen }).from(t.chargePackages).where(eq(t.chargePackages.kind, 'credit')).limit(1);
  if (haveRecharges < wantRecharges && credit) {
    const days = Math.max(1, await num(db, sql`select ceil(extract(epoch from now() - min(created)) / 86400) as n from exams`));
    await db.execute(sql`
      insert into charge_orders (out_trade_no, provider, group_id, package_id, account_id, amount_fen, description, status, expires_at, transaction_id, paid_at, created)
      select 'BC' || g || '-' || ${haveRecharges}, 'weixin', ${hospital.groupId}, ${credit.id}, ${acc.admin!}, ${Math.max(1, credit.priceFen)}, '充值', 'paid',
        c.t0 + interval '2 hours', 'BCT' || g || '-' || ${haveRecharges}, c.t0 + interval '1 minute', c.t0
      from generate_series(1, ${wantRecharges - haveRecharges}) g
      cross join lateral (select now() - make_interval(secs => ${days}::float8 * 86400 * g / ${wantRecharges - haveRecharges + 1}) as t0) c`);
    await db.execute(sql`vacuum analyze charge_orders`);
    log(`statistics: ${(wantRecharges - haveRecharges).toLocaleString('en')} credit recharges (${seconds()} s)`);
  }
}
