/**
 * `npm run bench:consultations [-- --consultations 100000] [-- --only postgres|pglite] [-- --explain]`
 *
 * The consultation list on 100,000 consultations (issue 12), through the real server on loopback: p50/p95 of POST
 * consultations/query-page for the default view (newest first, 20 a page, with the total), a status filter, a patient
 * name search and "my consultations", as a radiologist of the hospital and as the expert centre's expert; and of the
 * main write, PUT consultations/{id}/results (the expert revising a discussed result, with its version).
 * Target: p95 ≤ 30 ms for query-page on PostgreSQL.
 *
 * A fresh database each run (PostgreSQL from DATABASE_URL, dropped after; PGlite in memory with --only pglite), the
 * demo data, then the consultations in a few set-based statements (generate_series): 40% from the demo hospital,
 * the rest from three other hospitals of the group, all to the expert centre. Prints numbers; never fails on a time.
 */
import { sql } from 'drizzle-orm';
import type { ConsultationDetail, ConsultationPage } from '../contract/consultations';
import type { Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { seedDemo, type DemoIds } from '../server/seed/demo';
import { benchStorage, BENCH_SCRYPT_COST, openBenchDatabase, startBenchApp, timeScenarios, type BenchDbKind } from './support/server';
import { arg } from './support/args';

const COUNT = Number(arg('consultations') ?? 100_000);
const ONLY = arg('only') as BenchDbKind | undefined;
const EXPLAIN = process.argv.includes('--explain');

/** The rows of a raw statement (drizzle types them per driver; both drivers answer `{ rows }`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows as [T, ...T[]];

/** The consultations, set-based: statuses as a busy centre has them (most completed), one in ten still pending. */
async function grow(database: Database, ids: DemoIds): Promise<void> {
  const db = database.db;
  const others = await db.insert(t.buckets).values([1, 2, 3].map((n) => ({ groupId: ids.groupId, name: `县医院${n}放射科`, code: `COUNTY${n}` })))
    .returning({ id: t.buckets.id });
  const applicants = [ids.hospitalId, ids.hospitalId, ids.hospitalId, ids.hospitalId, ...others.map((o) => o.id), ...others.map((o) => o.id)];
  const creators = [ids.accounts.rad1, ids.accounts.rad2, ids.accounts.chief];
  const [{ before }] = rowsOf<{ before: number }>(await db.execute(sql`select coalesce(max(id), 0)::int as before from consultations`));
  // Numbers as literals: as parameters inside CASE they would be typed text.
  const n = (v: number) => sql.raw(String(Math.trunc(v)));
  await db.execute(sql`
    insert into consultations (applied_bucket_id, target_bucket_id, patient_name, patient_gender, patient_age, reason, status,
      scheduled_time, note, created_by, created, payment_status, conclusion, treatment_plan, result_by, result_at, rating, version)
    select (${sql.raw(`array[${applicants.join(',')}]`)})[1 + g % ${applicants.length}],
      ${n(ids.expertCentreId)},
      (array['王','李','张','刘','陈','杨','赵','黄','周','吴','徐','孙','胡','朱','高'])[1 + g % 15]
        || (array['伟','芳','娜','敏','静','丽','强','磊','军','洋','勇','艳','杰','涛','明'])[1 + (g / 15) % 15]
        || (array['','华','平','刚','英','玲','桂','兰','霞','峰'])[1 + (g / 225) % 10],
      case when g % 2 = 0 then 'M' else 'F' end,
      (18 + g % 67) || 'Y',
      (array['右肺上叶磨玻璃结节，性质待定，请求会诊','颅脑MRI示左侧颞叶占位，请专家会诊','肝脏多发低密度灶，请求排除转移',
        '甲状腺右叶结节TI-RADS 4a类','冠脉CTA示前降支中段狭窄约70%'])[1 + g % 5],
      s.status,
      case when s.status in (1, 2, 3) then now() - ((${n(COUNT)} - g) * interval '5 minutes') + interval '2 days' end,
      null,
      (${sql.raw(`array[${creators.join(',')}]`)})[1 + g % 3],
      now() - ((${n(COUNT)} - g) * interval '5 minutes'),
      case when s.status = 0 then 0 when s.status = 4 then 3 else 1 end,
      case when s.status in (2, 3) then '<p>考虑良性病变，建议随访。</p>' end,
      case when s.status in (2, 3) then '<p>3个月后复查。</p>' end,
      case when s.status in (2, 3) then ${n(ids.accounts.expert)} end,
      case when s.status in (2, 3) then now() - ((${n(COUNT)} - g) * interval '5 minutes') + interval '2 days' end,
      case when s.status = 3 and g % 3 = 0 then 4 + g % 2 end,
      1
    from generate_series(1, ${n(COUNT)}) g,
      lateral (select case when g > ${n(COUNT)} - 200 then (g % 3)::smallint
        when g % 10 = 0 then 0::smallint when g % 17 = 0 then 4::smallint when g % 23 = 0 then 2::smallint else 3::smallint end as status) s`);
  await db.execute(sql`insert into consultation_buckets (consultation_id, bucket_id) select id, target_bucket_id from consultations where id > ${before}`);
  await db.execute(sql`insert into consultation_members (consultation_id, account_id, role, created)
    select id, created_by, 'member', created from consultations where id > ${before}
    union all select id, ${ids.accounts.expert}, 'expert', created from consultations where id > ${before} and id % 2 = 0`);
  await db.execute(sql`analyze`);
}

async function runOn(kind: BenchDbKind) {
  const { database, drop } = await openBenchDatabase(kind, 'consult');
  const ids = await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock: systemClock, exams: 200 });
  const t0 = performance.now();
  await grow(database, ids);
  console.log(`\n${kind}: ${COUNT.toLocaleString('en')} consultations inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const bench = await startBenchApp(database, drop, benchStorage('consult'));
  try {
    const rad1 = await bench.login('rad1');
    const expert = await bench.login('expert');
    const page = (token: string, body: unknown) => bench.call(token, 'POST', 'consultations/query-page', body) as Promise<ConsultationPage>;
    const defaultView = { limit: 20 };
    const pending = { filters: [{ field: 'status', operator: 'equal', values: [0] }], limit: 20 };
    const byName = { filters: [{ field: 'patientName', operator: 'like', values: ['王芳'] }], limit: 20 };
    const mine = { filters: [{ field: 'mine', operator: 'equal', values: [true] }], limit: 20 };
    const totals = await Promise.all([page(rad1, defaultView), page(expert, defaultView), page(rad1, pending), page(rad1, byName), page(rad1, mine)]);
    console.log(`totals: rad1 ${totals[0].total}, expert ${totals[1].total}, pending ${totals[2].total}, 王芳 ${totals[3].total}, mine ${totals[4].total}`);

    // The write: the expert revises the result of one discussed consultation again and again, with the version it read.
    const [target] = rowsOf<{ id: number }>(await database.db.execute(sql`select id from consultations where status = 2 order by id desc limit 1`));
    let current = await bench.call(expert, 'GET', `consultations/${target.id}`) as ConsultationDetail;
    let n = 0;
    const revise = async () => {
      n += 1;
      current = await bench.call(expert, 'PUT', `consultations/${target.id}/results`, { version: current.version, conclusion: `<p>修订第${n}次：考虑良性病变。</p>` }) as ConsultationDetail;
    };

    if (EXPLAIN && kind === 'postgres') await explain(database, ids);
    await timeScenarios(`consultations on ${kind}, ${COUNT.toLocaleString('en')} rows`, [
      ['baseline: GET accounts/me (the machine\'s floor)', () => bench.call(rad1, 'GET', 'accounts/me')],
      ['query-page default view (rad1, 20, total)', () => page(rad1, defaultView)],
      ['query-page default view (expert: every row)', () => page(expert, defaultView)],
      ['query-page status pending', () => page(rad1, pending)],
      ['query-page patient name like 王芳', () => page(rad1, byName)],
      ['query-page mine', () => page(rad1, mine)],
      ['PUT results (expert revises, versioned)', revise],
    ]);
  } finally {
    await bench.close();
  }
}

/** EXPLAIN ANALYZE of the statements behind the scenarios, as rad1's scope has them (page, capped count, name search). */
async function explain(database: Database, ids: DemoIds) {
  const h = ids.hospitalId;
  const scope = sql`(c.applied_bucket_id in (${h}) or c.target_bucket_id in (${h}) or exists (select 1 from consultation_buckets b where b.consultation_id = c.id and b.bucket_id in (${h})))`;
  const name = sql`exam_name_bigrams(c.patient_name) @> exam_name_bigrams('王芳'::text) and c.patient_name ilike '%王芳%'`;
  for (const q of [
    sql`explain analyze select * from consultations c where ${scope} order by c.id desc limit 20`,
    sql`explain analyze select count(*) from (select 1 from consultations c where ${scope} limit 1001) capped`,
    sql`explain analyze select * from consultations c where ${scope} and ${name} order by c.id desc limit 20`,
    sql`explain analyze select count(*) from (select 1 from consultations c where ${scope} and ${name} limit 1001) capped`,
  ]) {
    console.log(rowsOf<{ 'QUERY PLAN': string }>(await database.db.execute(q)).map((r) => r['QUERY PLAN']).join('\n'), '\n');
  }
}

const kinds: BenchDbKind[] = ONLY ? [ONLY] : process.env.DATABASE_URL ? ['postgres'] : ['pglite'];
for (const kind of kinds) await runOn(kind);
