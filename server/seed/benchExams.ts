import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { BODY_PARTS, CLINIC_IMPRESSIONS, DEPARTMENTS, GIVEN, SURNAMES } from './clinical';
import { RANDOM_STUDY_UID_SQL } from './random';

/**
 * Exams and reports by the million for benchmarks, generated inside the database (insert … select from
 * generate_series) in chunks: no row crosses the wire. Secondary indexes of exams and reports are dropped during
 * the load and built again afterwards (one sorted build instead of a million inserts into each index); their
 * definitions are kept in a table first, so an interrupted run rebuilds them on the next start.
 */

export interface BenchOrg {
  bucketId: number;
  /** Share of all exams (the shares add up to 1). */
  share: number;
  reporters: number[];
  approver: number;
  /** Exams of an expert centre arrive as remote expert requests. */
  remote: boolean;
  /** Accounts work is assigned to (2 % of the organisation's exams). */
  assignees: number[];
}

export interface BenchSeedOptions {
  count: number;
  now: Date;
  days: number;
  orgs: BenchOrg[];
  chunk?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Quoted text array literal of our own constant data (never user input). */
const textArray = (items: readonly string[]) => sql.raw(`array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(',')}]::text[]`);
const intArray = (items: readonly number[]) => sql.raw(`array[${items.map((n) => Math.trunc(n)).join(',')}]::int[]`);

/** Findings: normal sentences (70 %), abnormal ones with a size; one abnormal sentence names ground-glass nodules. */
const NORMAL_FINDINGS = [
  '双肺纹理清晰，走行自然，肺野内未见明显实变影。', '脑实质内未见异常密度影，灰白质分界清楚。', '肝脏大小形态正常，实质回声均匀。',
  '腰椎生理曲度存在，椎体骨质未见破坏。', '甲状腺双侧叶大小形态正常，包膜光整。', '心影大小、形态未见异常，主动脉未见增宽。',
  '膝关节诸骨骨质完整，关节间隙未见狭窄。', '双侧乳腺腺体结构清晰，未见明确肿块。',
];
const ABNORMAL_FINDINGS = [
  '右肺上叶见一磨玻璃结节', '左肺下叶见一实性结节，边缘可见分叶', 'L4/5椎间盘向后突出，硬膜囊受压', '左侧基底节区见斑片状低密度影',
  '肝右叶见一类圆形低回声结节', '甲状腺右叶见一低回声结节，纵横比小于1', '胆囊内见强回声光团，后方伴声影', '右肾见一类圆形无回声区',
  '左侧胸腔见弧形液性密度影', '主动脉壁见多发钙化斑块', '右侧额叶见片状高密度影', '胰头区见一低密度灶',
  '左乳外上象限见一低回声肿块，边界欠清', '右侧股骨颈骨皮质连续性中断', '颈椎椎体前缘骨质增生', '双肺散在条索影',
  '纵隔内见多发肿大淋巴结', '子宫肌层见一低回声结节', '前列腺体积增大，内见钙化灶', '右肺中叶见一空洞影',
];
const ABNORMAL_DIAGNOSES = [
  '右肺上叶磨玻璃结节，建议随访。', '左肺下叶结节，建议增强检查。', 'L4/5椎间盘突出。', '左侧基底节区腔隙性脑梗死。',
  '肝右叶实性结节，建议进一步检查。', '甲状腺右叶结节，TI-RADS 3类。', '胆囊结石。', '右肾囊肿。', '左侧胸腔积液。',
  '主动脉粥样硬化。', '右侧额叶脑出血。', '胰头占位，建议增强检查。', '左乳肿块，BI-RADS 4类。', '右侧股骨颈骨折。',
  '颈椎退行性变。', '双肺陈旧性病变。', '纵隔淋巴结肿大。', '子宫肌瘤。', '前列腺增生伴钙化。', '右肺中叶空洞性病变。',
];
const NORMAL_DIAGNOSES = ['未见明显异常。', '检查所见未见明显异常征象。', '请结合临床。'];
const STATUS_TABLE: [string, number][] = [['none', 0.18], ['corrected', 0.42], ['printed', 0.15], ['final', 0.10], ['partial', 0.08], ['hold', 0.04], ['cancelled', 0.03]];
const MODALITY_TABLE: [string, number][] = [['CT', 0.30], ['DX', 0.20], ['MR', 0.15], ['US', 0.20], ['CR', 0.10], ['MG', 0.05]];

/** `case when r < p1 then v1 when r < p1+p2 then v2 … end` over a weighted table. */
function weightedCase(r: SQL, table: [string, number][]): SQL {
  let acc = 0;
  const whens = table.slice(0, -1).map(([v, p]) => {
    acc += p;
    return sql`when ${r} < ${sql.raw(String(acc))} then ${sql.raw(`'${v}'`)}`;
  });
  return sql`(case ${sql.join(whens, sql` `)} else ${sql.raw(`'${table.at(-1)![0]}'`)} end)`;
}

/** Body parts of a modality, as one text[] per modality in MODALITY_TABLE order. */
function bodyPartExpr(modality: SQL, r: SQL): SQL {
  const whens = MODALITY_TABLE.map(([m]) => {
    const parts = BODY_PARTS[m]!;
    return sql`when ${sql.raw(`'${m}'`)} then (${textArray(parts)})[1 + floor(${r} * ${sql.raw(String(parts.length))})::int]`;
  });
  return sql`(case ${modality} ${sql.join(whens, sql` `)} end)`;
}

export async function saveAndDropIndexes(db: Db): Promise<void> {
  await db.execute(sql`create table if not exists bench_saved_indexes (name text primary key, def text not null)`);
  await db.execute(sql`
    insert into bench_saved_indexes (name, def)
    select indexname, indexdef from pg_indexes
    where schemaname = 'public' and tablename in ('exams', 'reports') and indexname not like '%_pkey'
    on conflict (name) do nothing`);
  const rows = await names(db, sql`select name from bench_saved_indexes`);
  for (const name of rows) await db.execute(sql.raw(`drop index if exists "${name}"`));
}

async function names(db: Db, query: SQL): Promise<string[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
}

/** Builds the saved indexes that do not exist (also after an interrupted run), then forgets them. */
export async function restoreIndexes(db: Db, log: (line: string) => void = () => {}): Promise<void> {
  const exists = await names(db, sql`select to_regclass('bench_saved_indexes')::text as name`);
  if (!exists[0]) return;
  const result = await db.execute(sql`
    select s.name, s.def from bench_saved_indexes s
    where not exists (select 1 from pg_indexes i where i.schemaname = 'public' and i.indexname = s.name)`);
  for (const { name, def } of (result as unknown as { rows: { name: string; def: string }[] }).rows) {
    const started = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      await tx.execute(sql.raw(def));
    });
    log(`  index ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await db.execute(sql`drop table bench_saved_indexes`);
}

async function maxId(db: Db, table: 'exams' | 'reports'): Promise<number> {
  const result = await db.execute(sql.raw(`select coalesce(max(id), 0)::int as n from ${table}`));
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** Inserts `count` exams over the organisations and the last `days` days, with reports for the written ones. */
export async function insertBenchExams(db: Db, o: BenchSeedOptions): Promise<void> {
  const chunk = o.chunk ?? 50_000;
  await restoreIndexes(db);
  await saveAndDropIndexes(db);
  const examBase = await maxId(db, 'exams');
  const reportBase = await maxId(db, 'reports');
  const spanMs = o.days * 86_400_000;
  const stepMs = spanMs / o.count;
  const now = o.now.toISOString();

  // Organisation by share: cumulative bounds over one random number.
  let acc = 0;
  const orgBounds = o.orgs.map((org) => (acc += org.share));
  const orgIndex = sql.raw(`(case ${orgBounds.slice(0, -1).map((b, i) => `when r.r_org < ${b} then ${i + 1}`).join(' ')} else ${o.orgs.length} end)`);
  const orgIds = intArray(o.orgs.map((x) => x.bucketId));
  const remote = sql.raw(`array[${o.orgs.map((x) => String(x.remote)).join(',')}]::boolean[]`);
  // Reporters per organisation, flattened: organisation k's reporters are reporters[start[k] .. start[k] + n[k] - 1].
  const flat = o.orgs.flatMap((x) => x.reporters);
  const starts = o.orgs.map((_, k) => o.orgs.slice(0, k).reduce((s, x) => s + x.reporters.length, 0) + 1);
  const assignees = o.orgs.map((x) => x.assignees[0] ?? 0);

  for (let from = 1; from <= o.count; from += chunk) {
    const to = Math.min(o.count, from + chunk - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      await tx.execute(sql`
        insert into exams (id, bucket_id, patient_name, patient_id, patient_key_id, patient_gender, patient_dob, visit_age, weight, height,
          patient_source, inpatient_id, bed_num, outpatient_id, physical_exam_id, service_request_id, accession_number, modality, body_part,
          study_description, clinic_impression, apply_dept, urgent_flag, tele_med_flag, is_remote_report_requested, has_image, store_uid,
          assignee_id, report_id, report_status, report_creator_id, exam_time, created, deleted_time)
        select ${examBase} + g, b.bucket_id, b.patient_name, b.pid, b.pid, case when b.modality = 'MG' then 'F' else (array['M','F','M','F','U'])[1 + floor(r.r_gender * 5)::int] end,
          to_char(b.created - make_interval(years => b.age), 'YYYY-MM-DD'), b.age || 'Y', 40 + floor(r.r_w * 55), 150 + floor(r.r_h * 38),
          b.source, case when b.source = 'I' then 'ZY' || lpad((g % 999999)::text, 6, '0') end, case when b.source = 'I' then (1 + g % 30) || '-' || (1 + g % 60) end,
          case when b.source in ('O', 'NO') then 'MZ' || lpad((g % 999999)::text, 6, '0') end, case when b.source = 'P' then 'TJ' || lpad((g % 999999)::text, 6, '0') end,
          'SR' || (${examBase} + g), 'A' || to_char(b.created, 'YYYYMMDD') || lpad((${examBase} + g)::text, 9, '0'), b.modality, b.body_part,
          b.modality || ' ' || b.body_part, (${textArray(CLINIC_IMPRESSIONS)})[1 + floor(r.r_imp * ${CLINIC_IMPRESSIONS.length})::int],
          case when b.source = 'E' then '急诊科' when b.source = 'P' then '体检中心' else (${textArray(DEPARTMENTS)})[1 + floor(r.r_dept * ${DEPARTMENTS.length})::int] end,
          b.source = 'E' or r.r_urgent < 0.04, b.remote or r.r_tele < 0.02, b.remote or r.r_tele < 0.05, r.r_image < 0.97,
          ${sql.raw(RANDOM_STUDY_UID_SQL)},
          case when r.r_assign < 0.02 and (${intArray(assignees)})[b.org] > 0 then (${intArray(assignees)})[b.org] end,
          case when b.status <> 'none' then ${reportBase} + g end, nullif(b.status, 'none'),
          case when b.status <> 'none' then (${intArray(flat)})[(${intArray(starts)})[b.org] + floor(r.r_rep * (${intArray(o.orgs.map((x) => x.reporters.length))})[b.org])::int] end,
          b.created - make_interval(mins => 5 + floor(r.r_exam * 85)::int), b.created,
          case when r.r_del < 0.002 then least(${now}::timestamptz, b.created + make_interval(days => 1 + floor(r.r_exam * 20)::int)) end
        from generate_series(${from}::int, ${to}::int) g
        cross join lateral (select random() + 0 * g as r_org, random() + 0 * g as r_mod, random() + 0 * g as r_part, random() + 0 * g as r_status,
          random() + 0 * g as r_name1, random() + 0 * g as r_name2, random() + 0 * g as r_name3, random() + 0 * g as r_pid, random() + 0 * g as r_age,
          random() + 0 * g as r_src, random() + 0 * g as r_gender, random() + 0 * g as r_w, random() + 0 * g as r_h, random() + 0 * g as r_imp,
          random() + 0 * g as r_dept, random() + 0 * g as r_urgent, random() + 0 * g as r_tele, random() + 0 * g as r_image, random() + 0 * g as r_assign,
          random() + 0 * g as r_rep, random() + 0 * g as r_exam, random() + 0 * g as r_jit, random() + 0 * g as r_del) r
        cross join lateral (select m.org, m.modality, m.created, m.age, m.source,
            (${orgIds})[m.org] as bucket_id, (${remote})[m.org] as remote,
            ${bodyPartExpr(sql`m.modality`, sql`r.r_part`)} as body_part,
            (${textArray(SURNAMES)})[1 + floor(r.r_name1 * ${SURNAMES.length})::int] || (${textArray(GIVEN)})[1 + floor(r.r_name2 * ${GIVEN.length})::int]
              || case when r.r_name3 < 0.6 then (${textArray(GIVEN)})[1 + floor(r.r_name3 / 0.6 * ${GIVEN.length})::int] else '' end as patient_name,
            -- A third as many patients as exams: most patients come back, so past exams exist.
            'P' || lpad((1 + floor(r.r_pid * greatest(1, ${Math.ceil(o.count / 3)})))::text, 8, '0') as pid,
            case when m.created > ${now}::timestamptz - interval '1 day' and r.r_jit < 0.6 then 'none' else ${weightedCase(sql`r.r_status`, STATUS_TABLE)} end as status
          from (select ${orgIndex} as org, ${weightedCase(sql`r.r_mod`, MODALITY_TABLE)} as modality,
              ${now}::timestamptz - make_interval(secs => ((${o.count} - g) * ${stepMs}::float8 + r.r_jit * ${Math.min(stepMs, 600_000)}::float8) / 1000.0) as created,
              1 + floor(r.r_age * 89)::int as age,
              (array['I','O','E','P','NO'])[1 + floor(r.r_src * 5)::int] as source) m) b`);
      await tx.execute(sql`
        insert into reports (id, exam_id, bucket_id, source_bucket_id, status, creator_id, last_updater_id, issuer_id, finding, diagnosis, positive,
          saved_time, submitted_time, approved_time, printed_time, last_operation_time, created)
        select e.report_id, e.id, e.bucket_id, e.bucket_id, e.report_status, e.report_creator_id, e.report_creator_id,
          case when e.report_status in ('corrected', 'printed') then (${intArray(o.orgs.map((x) => x.approver))})[array_position(${orgIds}, e.bucket_id)] end,
          '<p>' || case when t.positive then (${textArray(ABNORMAL_FINDINGS)})[t.k] || '，大小约' || (3 + floor(t.r_size * 40)) || 'mm。'
            else (${textArray(NORMAL_FINDINGS)})[1 + floor(t.r_k * ${NORMAL_FINDINGS.length})::int] end
            || case when t.r_rare < 0.0005 then '病灶内见脂肪密度，考虑错构瘤可能。' else '' end || '</p>',
          '<p>' || case when t.positive then (${textArray(ABNORMAL_DIAGNOSES)})[t.k] else (${textArray(NORMAL_DIAGNOSES)})[1 + floor(t.r_k * ${NORMAL_DIAGNOSES.length})::int] end || '</p>',
          t.positive, e.created + interval '40 minutes', case when e.report_status in ('final', 'corrected', 'printed', 'hold') then e.created + interval '50 minutes' end,
          case when e.report_status in ('corrected', 'printed') then e.created + interval '2 hours' end,
          case when e.report_status = 'printed' then e.created + interval '150 minutes' end, e.created + interval '2 hours', e.created + interval '40 minutes'
        from exams e
        cross join lateral (select random() + 0 * e.id < 0.3 as positive, 1 + floor(random() * ${ABNORMAL_FINDINGS.length} + 0 * e.id)::int as k,
          random() + 0 * e.id as r_size, random() + 0 * e.id as r_k, random() + 0 * e.id as r_rare) t
        where e.id between ${examBase + from} and ${examBase + to} and e.report_id is not null`);
    });
    o.onProgress?.(to, o.count);
  }
  await db.execute(sql`select setval(pg_get_serial_sequence('exams', 'id'), (select max(id) from exams))`);
  await db.execute(sql`select setval(pg_get_serial_sequence('reports', 'id'), greatest(1, (select max(id) from reports)))`);
}
