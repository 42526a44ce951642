import { asc, inArray, sql } from 'drizzle-orm';
import { CONSULTATION_STATUS, PAYMENT_STATUS, type ConsultationStatus } from '../../contract/consultations';
import type { Db } from '../db/client';
import {
  auditEvents, consultationBuckets, consultationExams, consultationMembers, consultationSuggestions, consultations, exams, reports,
} from '../db/schema';
import { chineseName } from './clinical';
import type { Rng } from './random';

export interface ConsultationSeedOptions {
  now: Date;
  days: number;
  count: number;
  /** The newest this many are still pending: what the notification poll finds on a fresh demo. */
  pending: number;
  appliedBucketId: number;
  targetBucketId: number;
  joinedBucketIds: number[];
  /** Accounts of the applicant organisation who file the requests. */
  applicants: number[];
  /** The target organisation's expert: scheduled, concludes, takes part as 'expert'. */
  expert: number;
  /** Exams of the applicant organisation to start from (the patient comes from the exam). */
  examIds: number[];
}

/** Reasons a county hospital asks an expert centre for, with the sex they imply (null: either), and the experts' answer. */
const REASONS: [string, 'M' | 'F' | null, string][] = [
  ['右肺上叶磨玻璃结节约12mm，性质待定，请求会诊协助诊断', null, '右肺上叶混合磨玻璃结节，实性成分约4mm，考虑微浸润性腺癌可能'],
  ['颅脑MRI示左侧颞叶占位，请专家会诊明确性质及手术指征', null, '左侧颞叶占位，增强呈花环样强化，考虑高级别胶质瘤'],
  ['肝脏多发低密度灶，既往结肠癌术后，请求排除转移', null, '肝内多发环形强化灶，符合结肠癌肝转移'],
  ['L4/5椎间盘突出伴椎管狭窄，保守治疗无效，评估手术方案', null, 'L4/5椎间盘中央型突出，继发椎管中度狭窄，具备手术指征'],
  ['甲状腺右叶结节TI-RADS 4a类，是否需要穿刺活检', null, '甲状腺右叶实性低回声结节，TI-RADS 4a类，建议细针穿刺活检'],
  ['冠脉CTA示前降支中段狭窄约70%，请求介入治疗评估', 'M', '前降支中段混合斑块，管腔狭窄约70%，建议冠脉造影评估'],
  ['胰头区占位伴胆总管扩张，请求多学科会诊', null, '胰头区乏血供占位伴双管征，考虑胰头癌'],
  ['乳腺钼靶示左乳外上象限簇状钙化，BI-RADS 4b类，请专家会诊', 'F', '左乳外上象限细小多形性钙化，BI-RADS 4b类，建议活检'],
  ['发热伴右下肺阴影，抗感染治疗一周效果不佳', null, '右下肺实变伴空洞，结合病程考虑肺脓肿'],
  ['左侧肾上腺偶发瘤约2.5cm，良恶性鉴别', null, '左侧肾上腺结节，平扫CT值约8HU，符合富脂腺瘤'],
  ['膝关节MRI示内侧半月板后角撕裂，评估关节镜手术指征', null, '内侧半月板后角复杂撕裂，伴关节积液，可行关节镜手术'],
  ['纵隔增宽伴多发淋巴结肿大，疑似淋巴瘤，请求会诊', null, '纵隔及双侧肺门多发肿大淋巴结，考虑淋巴瘤，建议穿刺病理'],
  ['急性脑梗死溶栓后症状加重，复查影像请求专家意见', null, '左侧基底节区梗死灶内新发出血转化，建议暂停抗凝'],
  ['右侧卵巢囊实性包块，CA125升高，良恶性鉴别', 'F', '右侧附件区囊实性肿块，实性部分明显强化，考虑恶性可能大'],
  ['肺动脉CTA疑似右下肺动脉栓塞，请求紧急会诊', null, '右下肺动脉及其分支内充盈缺损，符合急性肺动脉栓塞'],
  ['前列腺MRI示外周带异常信号，PI-RADS 4分，是否穿刺', 'M', '前列腺左侧外周带结节，DWI明显受限，PI-RADS 4分，建议靶向穿刺'],
  ['外伤后颈椎MRI示脊髓信号异常，评估手术时机', null, 'C4/5水平脊髓挫伤伴水肿，椎管狭窄，建议尽早减压手术'],
  ['肝硬化背景下肝右叶结节，动脉期强化，排除肝细胞癌', null, '肝右叶结节动脉期强化、门脉期廓清，LI-RADS 5类，符合肝细胞癌'],
  ['反复咳嗽咳痰，胸部CT示双下肺支气管扩张，请求会诊明确病因', null, '双下肺柱状及囊状支气管扩张伴感染，建议痰培养及肺功能检查'],
  ['腹膜后软组织肿块包绕腹主动脉，请求会诊', null, '腹膜后软组织肿块包绕腹主动脉，考虑腹膜后纤维化，建议IgG4检测'],
];

/** What the experts advise after the conclusion, one of these. */
const PLANS = [
  '建议2周内完善穿刺活检，病理明确后多学科讨论治疗方案。',
  '建议转上级医院专科进一步诊治，期间对症支持治疗。',
  '建议3个月后复查增强检查，对比病灶变化。',
  '建议尽快手术治疗，术前完善相关检查。',
];

/** Why the applicant withdrew. */
const CANCEL_REASONS = ['患者已转上级医院就诊，申请方撤回', '家属拒绝会诊', '检查资料不全，重新申请'];

/** The applicant's comment with a rating. */
const RATING_COMMENTS: [number, string][] = [
  [5, '专家意见明确，对临床帮助很大'], [5, '响应及时，解读细致'], [4, '意见有参考价值，希望更早安排'], [4, '结论清晰'], [3, '等待时间较长'],
];

/** Suggestions the applicant and the experts leave while discussing. */
const SUGGESTIONS = ['<p>请补充既往影像资料以便对比。</p>', '<p>建议加做增强扫描后再讨论。</p>', '<p>已上传病理报告，请专家参考。</p>'];

const NOTES: Partial<Record<ConsultationStatus, string>> = {
  [CONSULTATION_STATUS.scheduled]: '已预约视频会诊，请提前上传完整影像',
  [CONSULTATION_STATUS.completed]: '会诊意见已出具，申请方已确认',
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const onTheHour = (t: number) => new Date(Math.round(t / HOUR) * HOUR);

/**
 * The status of the k-th newest consultation: the newest still pending, then some scheduled, one discussed and
 * awaiting approval, and the older ones completed, every fifth of them canceled.
 */
function statusOf(k: number, pending: number): ConsultationStatus {
  if (k < pending) return CONSULTATION_STATUS.pending;
  if (k < pending + 4) return CONSULTATION_STATUS.scheduled;
  if (k < pending + 7) return CONSULTATION_STATUS.discussed;
  return k % 5 === 0 ? CONSULTATION_STATUS.canceled : CONSULTATION_STATUS.completed;
}

type ExamFacts = { id: number; patientName: string; patientGender: string; visitAge: string | null; created: Date; reportId: number | null };

/** The exams to start from, with their patients and (approved or not) reports. */
async function examFacts(db: Db, ids: readonly number[]): Promise<ExamFacts[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({
    id: exams.id, patientName: exams.patientName, patientGender: exams.patientGender, visitAge: exams.visitAge, created: exams.created,
    reportId: sql<number | null>`(select min(${reports.id}) from ${reports} where ${reports.examId} = ${exams.id})`,
  }).from(exams).where(inArray(exams.id, [...ids])).orderBy(asc(exams.id));
  return rows.map((e) => ({ ...e, reportId: e.reportId === null ? null : Number(e.reportId) }));
}

type SeedEvent = { at: Date; action: string; actorId: number; after: Record<string, unknown> };

/** Version of a row after the writes its status took (create, schedule, result, approve, rate...). */
const WRITES: Record<ConsultationStatus, number> = { 0: 0, 1: 1, 2: 2, 3: 3, 4: 1 };

/**
 * Inserts `count` consultations spread over the last `days` days, oldest first, so ids grow with time: each from an
 * exam of the applicant (its patient and report), with its members (the applicant, the centre's expert), the result
 * of the discussed and completed, the approval, a rating on most completed, the reason of the canceled, the payment,
 * a suggestion or two, and the audit trail of how it got there.
 */
export async function insertConsultations(db: Db, r: Rng, o: ConsultationSeedOptions): Promise<void> {
  const step = (o.days * DAY) / o.count;
  const pool = await examFacts(db, o.examIds);
  const rows: (typeof consultations.$inferInsert)[] = [];
  const extras: { creator: number; status: ConsultationStatus; examId: number | null; suggest: number[]; events: SeedEvent[] }[] = [];
  for (let i = 0; i < o.count; i++) {
    const k = o.count - 1 - i;
    const created = new Date(o.now.getTime() - (k + 0.5) * step + r.int(-Math.floor(step / 3), Math.floor(step / 3)));
    const status = statusOf(k, o.pending);
    const [reason, sex, conclusion] = r.pick(REASONS);
    const choice = r.next();
    // An exam done before the request whose patient fits the reason; else a patient of the request's own.
    const fitting = pool.filter((e) => e.created.getTime() <= created.getTime() && (sex === null || e.patientGender === sex));
    const exam = fitting.length > 0 ? fitting[Math.floor(choice * fitting.length)]! : null;
    const generatedName = chineseName(r);
    const generatedSex = sex ?? r.pick(['M', 'F'] as const);
    const generatedAge = `${r.int(sex === null ? 18 : 35, 84)}Y`;
    // A scheduled one meets in the coming days; a discussed or finished one met a few days after it was asked.
    const scheduledTime = status === CONSULTATION_STATUS.pending ? null
      : status === CONSULTATION_STATUS.scheduled ? onTheHour(o.now.getTime() + (k - o.pending + 1) * DAY + r.int(1, 8) * HOUR)
        : status === CONSULTATION_STATUS.canceled ? null
          : onTheHour(Math.min(created.getTime() + r.int(1, 3) * DAY, o.now.getTime() - 2 * DAY));
    const creator = r.pick(o.applicants);
    const scheduledAt = new Date(Math.min(created.getTime() + r.int(2, 10) * HOUR, o.now.getTime()));
    const resultAt = scheduledTime ? new Date(Math.min(scheduledTime.getTime() + 2 * HOUR, o.now.getTime())) : null;
    const hasResult = status === CONSULTATION_STATUS.discussed || status === CONSULTATION_STATUS.completed;
    const approvedAt = status === CONSULTATION_STATUS.completed && resultAt ? new Date(Math.min(resultAt.getTime() + r.int(2, 20) * HOUR, o.now.getTime())) : null;
    const [rating, ratingComment] = r.pick(RATING_COMMENTS);
    const rated = approvedAt !== null && r.chance(0.7);
    const ratedAt = rated && approvedAt ? new Date(Math.min(approvedAt.getTime() + r.int(1, 24) * HOUR, o.now.getTime())) : null;
    const cancelReason = status === CONSULTATION_STATUS.canceled ? r.pick(CANCEL_REASONS) : null;
    const canceledAt = new Date(Math.min(created.getTime() + r.int(1, 30) * HOUR, o.now.getTime()));
    // Paid when the centre took it on; a withdrawn one that was paid is refunded, now or being.
    const paymentStatus = status === CONSULTATION_STATUS.pending ? (r.chance(0.4) ? PAYMENT_STATUS.paid : PAYMENT_STATUS.unpaid)
      : status === CONSULTATION_STATUS.canceled ? r.pick([PAYMENT_STATUS.unpaid, PAYMENT_STATUS.refunding, PAYMENT_STATUS.refunded])
        : PAYMENT_STATUS.paid;
    const plan = r.pick(PLANS);
    const writes = WRITES[status] + (rated ? 1 : 0) + (paymentStatus === PAYMENT_STATUS.unpaid ? 0 : 1);
    const last = ratedAt ?? approvedAt ?? (hasResult ? resultAt : null) ?? (status === CONSULTATION_STATUS.canceled ? canceledAt : null)
      ?? (status === CONSULTATION_STATUS.scheduled ? scheduledAt : null);
    rows.push({
      appliedBucketId: o.appliedBucketId,
      targetBucketId: o.targetBucketId,
      examId: exam?.id ?? null,
      reportId: exam?.reportId ?? null,
      patientName: exam?.patientName ?? generatedName,
      patientGender: exam?.patientGender ?? generatedSex,
      patientAge: exam ? exam.visitAge : generatedAge,
      patientTel: `13${r.int(0, 9)}${String(r.int(0, 99_999_999)).padStart(8, '0')}`,
      reason,
      status,
      scheduledTime,
      note: NOTES[status] ?? null,
      createdBy: creator,
      created,
      paymentStatus,
      cancelReason,
      conclusion: hasResult ? `<p>${conclusion}。</p>` : null,
      treatmentPlan: hasResult ? `<p>${plan}</p>` : null,
      resultBy: hasResult ? o.expert : null,
      resultAt: hasResult ? resultAt : null,
      approvedBy: approvedAt ? creator : null,
      approvedAt,
      rating: rated ? rating : null,
      ratingComment: rated ? ratingComment : null,
      ratedBy: rated ? creator : null,
      ratedAt,
      version: 1 + writes,
      updated: writes === 0 ? null : last ?? created,
    });
    const events: SeedEvent[] = [{ at: created, action: 'create', actorId: creator, after: { reason } }];
    if (scheduledTime) events.push({ at: scheduledAt, action: 'schedule', actorId: o.expert, after: { scheduledTime: scheduledTime.toISOString() } });
    if (hasResult && resultAt) events.push({ at: resultAt, action: 'result', actorId: o.expert, after: { conclusion: `<p>${conclusion}。</p>` } });
    if (approvedAt) events.push({ at: approvedAt, action: 'approve', actorId: creator, after: { status: CONSULTATION_STATUS.completed } });
    if (ratedAt) events.push({ at: ratedAt, action: 'rate', actorId: creator, after: { rating } });
    if (cancelReason) events.push({ at: canceledAt, action: 'cancel', actorId: creator, after: { cancelReason } });
    // One or two remarks on those the experts looked at: the applicant's, then the expert's.
    const suggest = status === CONSULTATION_STATUS.pending || status === CONSULTATION_STATUS.canceled ? [] : r.chance(0.5) ? [creator, o.expert] : [creator];
    extras.push({ creator, status, examId: exam?.id ?? null, suggest, events });
  }
  const inserted = await db.insert(consultations).values(rows).returning({ id: consultations.id, created: consultations.created });
  await db.insert(consultationBuckets).values(inserted.flatMap((c) => o.joinedBucketIds.map((bucketId) => ({ consultationId: c.id, bucketId }))));
  const members = inserted.flatMap((c, i) => {
    const { creator, status } = extras[i]!;
    // The centre's expert takes part once the centre took the consultation on (and in some still pending).
    const withExpert = status !== CONSULTATION_STATUS.pending || i % 2 === 0;
    return [
      { consultationId: c.id, accountId: creator, role: 'member', addedBy: creator, created: c.created },
      ...(withExpert ? [{ consultationId: c.id, accountId: o.expert, role: 'expert', addedBy: creator, created: c.created }] : []),
    ];
  });
  await db.insert(consultationMembers).values(members);
  const examLinks = inserted.flatMap((c, i) => {
    const examId = extras[i]!.examId;
    return examId === null ? [] : [{ consultationId: c.id, examId, addedBy: extras[i]!.creator, created: c.created }];
  });
  if (examLinks.length > 0) await db.insert(consultationExams).values(examLinks);
  const suggestions = inserted.flatMap((c, i) => extras[i]!.suggest.map((accountId, n) => ({
    consultationId: c.id, accountId, content: SUGGESTIONS[(c.id + n) % SUGGESTIONS.length]!, created: new Date(c.created.getTime() + (n + 1) * HOUR),
  })));
  if (suggestions.length > 0) await db.insert(consultationSuggestions).values(suggestions);
  await db.insert(auditEvents).values(inserted.flatMap((c, i) => extras[i]!.events.map((e) => ({
    at: e.at, actorId: e.actorId, bucketId: o.appliedBucketId, area: 'consultations', action: e.action,
    objectType: 'consultation', objectId: String(c.id), before: null, after: e.after,
  }))));
}
