import { CONSULTATION_STATUS, type ConsultationStatus } from '../../contract/consultations';
import type { Db } from '../db/client';
import { consultationBuckets, consultations } from '../db/schema';
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
}

/** Reasons a county hospital asks an expert centre for, with the sex they imply (null: either). */
const REASONS: [string, 'M' | 'F' | null][] = [
  ['右肺上叶磨玻璃结节约12mm，性质待定，请求会诊协助诊断', null],
  ['颅脑MRI示左侧颞叶占位，请专家会诊明确性质及手术指征', null],
  ['肝脏多发低密度灶，既往结肠癌术后，请求排除转移', null],
  ['L4/5椎间盘突出伴椎管狭窄，保守治疗无效，评估手术方案', null],
  ['甲状腺右叶结节TI-RADS 4a类，是否需要穿刺活检', null],
  ['冠脉CTA示前降支中段狭窄约70%，请求介入治疗评估', 'M'],
  ['胰头区占位伴胆总管扩张，请求多学科会诊', null],
  ['乳腺钼靶示左乳外上象限簇状钙化，BI-RADS 4b类，请专家会诊', 'F'],
  ['发热伴右下肺阴影，抗感染治疗一周效果不佳', null],
  ['左侧肾上腺偶发瘤约2.5cm，良恶性鉴别', null],
  ['膝关节MRI示内侧半月板后角撕裂，评估关节镜手术指征', null],
  ['纵隔增宽伴多发淋巴结肿大，疑似淋巴瘤，请求会诊', null],
  ['急性脑梗死溶栓后症状加重，复查影像请求专家意见', null],
  ['右侧卵巢囊实性包块，CA125升高，良恶性鉴别', 'F'],
  ['肺动脉CTA疑似右下肺动脉栓塞，请求紧急会诊', null],
  ['前列腺MRI示外周带异常信号，PI-RADS 4分，是否穿刺', 'M'],
  ['外伤后颈椎MRI示脊髓信号异常，评估手术时机', null],
  ['肝硬化背景下肝右叶结节，动脉期强化，排除肝细胞癌', null],
  ['反复咳嗽咳痰，胸部CT示双下肺支气管扩张，请求会诊明确病因', null],
  ['腹膜后软组织肿块包绕腹主动脉，请求会诊', null],
];

const NOTES: Partial<Record<ConsultationStatus, string>> = {
  [CONSULTATION_STATUS.scheduled]: '已预约视频会诊，请提前上传完整影像',
  [CONSULTATION_STATUS.completed]: '会诊意见已出具，申请方已确认',
  [CONSULTATION_STATUS.canceled]: '患者已转上级医院就诊，申请方撤回',
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

/** Inserts `count` consultations spread over the last `days` days, oldest first, so ids grow with time. */
export async function insertConsultations(db: Db, r: Rng, o: ConsultationSeedOptions): Promise<void> {
  const step = (o.days * DAY) / o.count;
  const rows: (typeof consultations.$inferInsert)[] = [];
  for (let i = 0; i < o.count; i++) {
    const k = o.count - 1 - i;
    const created = new Date(o.now.getTime() - (k + 0.5) * step + r.int(-Math.floor(step / 3), Math.floor(step / 3)));
    const status = statusOf(k, o.pending);
    const [reason, sex] = r.pick(REASONS);
    // A scheduled one meets in the coming days; a discussed or finished one met a few days after it was asked.
    const scheduledTime = status === CONSULTATION_STATUS.pending ? null
      : status === CONSULTATION_STATUS.scheduled ? onTheHour(o.now.getTime() + (k - o.pending + 1) * DAY + r.int(1, 8) * HOUR)
        : status === CONSULTATION_STATUS.canceled ? null
          : onTheHour(created.getTime() + r.int(1, 3) * DAY);
    rows.push({
      appliedBucketId: o.appliedBucketId,
      targetBucketId: o.targetBucketId,
      patientName: chineseName(r),
      patientGender: sex ?? r.pick(['M', 'F'] as const),
      patientAge: `${r.int(sex === null ? 18 : 35, 84)}Y`,
      reason,
      status,
      scheduledTime,
      note: NOTES[status] ?? null,
      createdBy: r.pick(o.applicants),
      created,
    });
  }
  const inserted = await db.insert(consultations).values(rows).returning({ id: consultations.id });
  await db.insert(consultationBuckets).values(inserted.flatMap((c) => o.joinedBucketIds.map((bucketId) => ({ consultationId: c.id, bucketId }))));
}
