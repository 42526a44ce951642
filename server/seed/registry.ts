import { eq, sql } from 'drizzle-orm';
import type { RegistrationStatus } from '../../contract/registry';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { reportText } from './clinical';
import { reportTimes } from './exams';
import { randomStudyUid, type Rng } from './random';

/**
 * The registry desk's demo (issue 10): the hospital becomes a registry organisation of its group, with its procedure
 * steps, and today's registrations (in the hospital's time zone) for fifteen patients, their lines in every state —
 * Registered today, Scheduled on later days, Arrived, Performed, Cancelled — as the registration machine would have
 * left them (the previous status and arrival kept for revoke). Several patients came before: earlier, performed and
 * reported exams, so the desk's patient history and the worklist's past exams show something. Every line is an exams
 * row the worklist reads like an uploaded exam (without images until the modality sends them); every created and
 * arrival time is in the past.
 */

export interface RegistrySeedOptions {
  now: Date;
  groupId: number;
  bucketId: number;
  registrarId: number;
  reporters: number[];
  approver: number;
}

export interface RegistrySeedResult {
  steps: number;
  registrations: number;
  /** Today's registrations' exam lines by status. */
  lines: Record<RegistrationStatus, number>;
  /** Earlier (performed and reported) exams of the same patients: they get images when the demo makes them. */
  pastExamIds: number[];
}

type StepKey = 'ctHead' | 'ctChest' | 'mrLumbar' | 'drChest' | 'usAbdomen' | 'usThyroid' | 'ecg' | 'mg';

/** Areas §3 procedure steps: a name the desk reads, the modality and body part the exam line gets. */
const STEPS: { key: StepKey; name: string; modality: string; bodyPart: string; reportDuringExam?: boolean }[] = [
  { key: 'ctHead', name: 'CT 头颅平扫', modality: 'CT', bodyPart: '头颅' },
  { key: 'ctChest', name: 'CT 胸部平扫', modality: 'CT', bodyPart: '胸部' },
  { key: 'mrLumbar', name: 'MR 腰椎平扫', modality: 'MR', bodyPart: '腰椎' },
  { key: 'drChest', name: 'DR 胸部正位', modality: 'DX', bodyPart: '胸部' },
  { key: 'usAbdomen', name: '彩超 腹部（肝胆胰脾）', modality: 'US', bodyPart: '腹部' },
  { key: 'usThyroid', name: '彩超 甲状腺', modality: 'US', bodyPart: '甲状腺' },
  // Read while it is recorded: no images to wait for, so arrival makes it Performed (areas §4).
  { key: 'ecg', name: '心电图 ECG（十二导联）', modality: 'ECG', bodyPart: '心脏', reportDuringExam: true },
  { key: 'mg', name: '乳腺钼靶 MG（双侧）', modality: 'MG', bodyPart: '双侧乳腺' },
];

type Source = 'I' | 'O' | 'E' | 'P' | 'NO';
/** A line's state today; `fromArrived` cancels a line after its arrival (the previous status is then Arrived). */
interface LineSpec { step: StepKey; state: RegistrationStatus; laterDays?: number; reason?: string; fromArrived?: boolean }
interface PatientSpec {
  name: string; gender: 'M' | 'F'; age: number; phone: string; source: Source; dept: string; impression: string;
  /** An outside (HIS) order: the line is "external" to the desk's default view. */
  order?: boolean;
  lines: LineSpec[];
  /** Earlier performed exams: step and days ago. */
  past?: [StepKey, number][];
}

const PATIENTS: PatientSpec[] = [
  { name: '张伟', gender: 'M', age: 45, phone: '13812345671', source: 'O', dept: '神经内科', impression: '头痛头晕',
    lines: [{ step: 'ctHead', state: 'Registered' }, { step: 'drChest', state: 'Registered' }], past: [['drChest', 300]] },
  { name: '李秀英', gender: 'F', age: 62, phone: '13912345672', source: 'I', dept: '呼吸内科', impression: '咳嗽待查',
    lines: [{ step: 'ctChest', state: 'Arrived' }, { step: 'usAbdomen', state: 'Registered' }], past: [['ctChest', 200], ['usAbdomen', 35]] },
  { name: '王建国', gender: 'M', age: 58, phone: '15012345673', source: 'I', dept: '骨科', impression: '腰痛伴下肢麻木',
    lines: [{ step: 'mrLumbar', state: 'Scheduled', laterDays: 1 }], past: [['mrLumbar', 400]] },
  { name: '刘芳', gender: 'F', age: 34, phone: '18612345674', source: 'O', dept: '普外科', impression: '体检发现甲状腺结节',
    lines: [{ step: 'usThyroid', state: 'Performed' }, { step: 'mg', state: 'Scheduled', laterDays: 2 }] },
  { name: '陈志强', gender: 'M', age: 71, phone: '13712345675', source: 'I', dept: '心内科', impression: '胸闷气短',
    lines: [{ step: 'ecg', state: 'Performed' }, { step: 'ctChest', state: 'Arrived' }, { step: 'ctHead', state: 'Registered' }], past: [['ctHead', 90]] },
  { name: '杨丽', gender: 'F', age: 29, phone: '13612345676', source: 'P', dept: '体检中心', impression: '体检',
    lines: [{ step: 'usAbdomen', state: 'Registered' }, { step: 'drChest', state: 'Registered' }, { step: 'ecg', state: 'Registered' }] },
  { name: '赵磊', gender: 'M', age: 40, phone: '13512345677', source: 'E', dept: '急诊科', impression: '外伤后头痛',
    lines: [{ step: 'ctHead', state: 'Arrived' }] },
  { name: '黄桂兰', gender: 'F', age: 67, phone: '15912345678', source: 'O', dept: '骨科', impression: '腰痛',
    lines: [{ step: 'mrLumbar', state: 'Cancelled', reason: '患者体内有心脏起搏器，不宜行MR检查，改约CT' }], past: [['drChest', 60]] },
  { name: '周子涵', gender: 'F', age: 8, phone: '13312345679', source: 'O', dept: '儿科', impression: '腹痛待查',
    lines: [{ step: 'usAbdomen', state: 'Performed' }] },
  { name: '吴海燕', gender: 'F', age: 51, phone: '18812345680', source: 'P', dept: '体检中心', impression: '体检',
    lines: [{ step: 'mg', state: 'Scheduled', laterDays: 3 }, { step: 'usThyroid', state: 'Scheduled', laterDays: 3 }] },
  { name: '徐明轩', gender: 'M', age: 36, phone: '17712345681', source: 'E', dept: '急诊科', impression: '车祸外伤，胸痛',
    lines: [{ step: 'drChest', state: 'Performed' }, { step: 'ctChest', state: 'Registered' }] },
  { name: '孙春梅', gender: 'F', age: 55, phone: '13012345682', source: 'I', dept: '呼吸内科', impression: '发热',
    lines: [{ step: 'ctChest', state: 'Cancelled', fromArrived: true, reason: '患者病情变化，转入ICU，检查暂停' }], past: [['ctChest', 14]] },
  { name: '马俊杰', gender: 'M', age: 23, phone: '15612345683', source: 'NO', dept: '呼吸内科', impression: '咳嗽待查', order: true,
    lines: [{ step: 'drChest', state: 'Registered' }] },
  { name: '朱玉兰', gender: 'F', age: 77, phone: '13112345684', source: 'I', dept: '神经内科', impression: '头晕待查', order: true,
    lines: [{ step: 'usAbdomen', state: 'Scheduled', laterDays: 1 }, { step: 'ctHead', state: 'Scheduled', laterDays: 1 }] },
  { name: '胡浩然', gender: 'M', age: 12, phone: '18012345685', source: 'O', dept: '儿科', impression: '腹痛待查',
    lines: [{ step: 'drChest', state: 'Cancelled', reason: '家属要求改期' }, { step: 'usAbdomen', state: 'Registered' }] },
];

const MINUTE = 60_000;
const DAY = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The zone's wall clock of `date`. */
function wall(date: Date, timeZone: string) {
  const out: Record<string, number> = {};
  for (const p of new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The instant the zone's wall clock reads `day` (YYYY-MM-DD) at `minutes` past midnight. */
export function instantIn(day: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const target = Date.UTC(y, m - 1, d) + minutes * MINUTE;
  const offset = (at: number) => {
    const w = wall(new Date(at), timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at / 1000) * 1000;
  };
  // Twice: the first guess may sit on the other side of a daylight-saving change.
  return new Date(target - offset(target - offset(target)));
}

export function dayOf(date: Date, timeZone: string): string {
  const w = wall(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

export function addDays(day: string, n: number): string {
  const d = new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY);
  return d.toISOString().slice(0, 10);
}

/** The house's accession number: A, the day, the organisation, a sequence (far above the generated exams' own). */
const accession = (day: string, bucketId: number, seq: number) => `A${day.replaceAll('-', '')}${pad(bucketId)}${pad(9_000_000 + seq, 7)}`;

/** The ids a patient source needs (core §3): inpatient number and bed, outpatient number, physical-exam number. */
function sourceIds(source: Source, n: number) {
  return {
    inpatientId: source === 'I' ? `ZY${pad(260_100 + n * 37, 6)}` : null,
    bedNum: source === 'I' ? `${3 + (n % 20)}-${1 + ((n * 7) % 40)}` : null,
    outpatientId: source === 'O' || source === 'NO' ? `MZ${pad(518_000 + n * 113, 6)}` : null,
    physicalExamId: source === 'P' ? `TJ${pad(730_000 + n * 59, 6)}` : null,
  };
}

export async function seedRegistry(db: Db, r: Rng, o: RegistrySeedOptions): Promise<RegistrySeedResult> {
  const now = o.now;
  const [bucket] = await db.select({ timeZone: t.buckets.timeZone }).from(t.buckets).where(eq(t.buckets.id, o.bucketId));
  const timeZone = bucket?.timeZone ?? 'Asia/Shanghai';
  const today = dayOf(now, timeZone);
  const midnight = instantIn(today, 0, timeZone).getTime();
  const endOfDay = instantIn(addDays(today, 1), 0, timeZone).getTime() - MINUTE;
  // The desk opens at 07:30; seeded before that (or just after), the day's registrations crowd into what has passed.
  const opens = midnight + 450 * MINUTE;
  const from = now.getTime() - opens > 60 * MINUTE ? opens : midnight;
  const until = Math.max(from, now.getTime() - 2 * MINUTE);

  return db.transaction(async (tx) => {
    await tx.insert(t.groupRegistryBuckets).values({ groupId: o.groupId, bucketId: o.bucketId }).onConflictDoNothing();
    const procedures = await tx.select({ id: t.procedures.id, name: t.procedures.name }).from(t.procedures).where(eq(t.procedures.bucketId, o.bucketId));
    const stepRows = await tx.insert(t.procedureSteps).values(STEPS.map((s, i) => ({
      bucketId: o.bucketId, name: s.name, modality: s.modality, bodyPart: s.bodyPart, reportDuringExam: s.reportDuringExam ?? false,
      // The price list's procedure of the same modality and body part ("CT 头颅"), where the organisation has one.
      procedureId: procedures.find((p) => p.name === `${s.modality} ${s.bodyPart}`)?.id ?? null, sortOrder: i,
    }))).returning({ id: t.procedureSteps.id });
    const stepOf = Object.fromEntries(STEPS.map((s, i) => [s.key, { ...s, id: stepRows[i]!.id }])) as Record<StepKey, (typeof STEPS)[number] & { id: number }>;

    const lines: Record<RegistrationStatus, number> = { Registered: 0, Scheduled: 0, Arrived: 0, Performed: 0, Cancelled: 0 };
    const examRows: (typeof t.exams.$inferInsert)[] = [];
    const pastRows: (typeof t.exams.$inferInsert)[] = [];
    let seq = 0;
    let registrations = 0;

    for (const [n, p] of PATIENTS.entries()) {
      const pid = `P${pad(86_000_000 + n * 7919, 8)}`;
      const dob = new Date(Date.parse(`${today}T00:00:00Z`) - p.age * 365.25 * DAY - r.int(20, 340) * DAY).toISOString().slice(0, 10);
      const patient = {
        bucketId: o.bucketId, patientName: p.name, patientId: pid, patientKeyId: pid, patientGender: p.gender, patientDob: dob,
        visitAge: `${p.age}Y`, patientSource: p.source, ...sourceIds(p.source, n + 1), patientPhone: p.phone,
        applyDept: p.dept, clinicImpression: p.impression, weight: p.age < 14 ? r.int(20, 45) : r.int(45, 85), height: p.age < 14 ? r.int(115, 155) : r.int(150, 182),
      };

      // Earlier visits, each its own registration on its day: performed, with images sent and a report written.
      for (const [step, daysAgo] of p.past ?? []) {
        const s = stepOf[step];
        const day = addDays(today, -daysAgo);
        const created = instantIn(day, r.int(480, 960), timeZone);
        const arrived = new Date(created.getTime() + r.int(10, 50) * MINUTE);
        const [reg] = await tx.insert(t.registrations).values({ bucketId: o.bucketId, version: 2, createdBy: o.registrarId, created }).returning({ id: t.registrations.id });
        seq++;
        pastRows.push({
          ...patient, visitAge: `${p.age - Math.floor(daysAgo / 365)}Y`, registrationId: reg!.id, procedureStepId: s.id, modality: s.modality,
          bodyPart: s.bodyPart, studyDescription: s.name, patientGender: p.gender, accessionNumber: accession(day, o.bucketId, seq),
          serviceRequestId: `SR${pad(o.bucketId)}9${pad(seq, 7)}`, storeUid: randomStudyUid(),
          hasImage: true, examStatus: 'Performed', scheduledTime: created, arrivedTime: arrived, prevExamStatus: 'Arrived', prevArrivedTime: arrived,
          examTime: arrived, uploadTime: new Date(arrived.getTime() + 15 * MINUTE), created,
        });
      }

      // Today's registration: one visit at the desk, its lines in their states.
      const createdAt = new Date(from + Math.floor(((until - from) * (n + 0.5)) / PATIENTS.length));
      const registrationVersion = p.lines.reduce((v, l) => v + (l.state === 'Performed' ? (stepOf[l.step].reportDuringExam ? 1 : 2)
        : l.state === 'Arrived' ? 1 : l.state === 'Cancelled' ? (l.fromArrived ? 2 : 1) : 0), 0);
      const orderId = p.order ? `HIS${today.replaceAll('-', '')}${pad(n + 1, 4)}` : null;
      const [reg] = await tx.insert(t.registrations).values({
        bucketId: o.bucketId, version: registrationVersion, createdBy: o.registrarId, created: createdAt, orderId,
      }).returning({ id: t.registrations.id });
      registrations++;
      for (const [i, l] of p.lines.entries()) {
        const s = stepOf[l.step];
        const scheduledTime = l.state === 'Scheduled'
          ? instantIn(addDays(today, l.laterDays ?? 1), 480 + 30 * ((n + i) % 16), timeZone)
          : new Date(Math.min(endOfDay, createdAt.getTime() + (15 + 10 * i) * MINUTE));
        // Arrival between the registration and now (never later), a quarter of an hour after it when there was time.
        const arrived = new Date(createdAt.getTime() + Math.min((10 + 5 * i) * MINUTE, Math.floor((now.getTime() - createdAt.getTime()) / 2)));
        const state = l.state;
        lines[state]++;
        const registry = {
          Registered: { arrivedTime: null, prevExamStatus: null, prevArrivedTime: null },
          Scheduled: { arrivedTime: null, prevExamStatus: null, prevArrivedTime: null },
          Arrived: { arrivedTime: arrived, prevExamStatus: 'Registered', prevArrivedTime: null },
          // Checked in, then performed; a step read during the exam went straight from Registered on arrival.
          Performed: s.reportDuringExam
            ? { arrivedTime: arrived, prevExamStatus: 'Registered', prevArrivedTime: null }
            : { arrivedTime: arrived, prevExamStatus: 'Arrived', prevArrivedTime: arrived },
          Cancelled: l.fromArrived
            ? { arrivedTime: arrived, prevExamStatus: 'Arrived', prevArrivedTime: arrived }
            : { arrivedTime: null, prevExamStatus: 'Registered', prevArrivedTime: null },
        }[state];
        seq++;
        examRows.push({
          ...patient, registrationId: reg!.id, orderId, procedureStepId: s.id, modality: s.modality, bodyPart: s.bodyPart, studyDescription: s.name,
          accessionNumber: accession(today, o.bucketId, seq), serviceRequestId: `SR${pad(o.bucketId)}9${pad(seq, 7)}`,
          urgentFlag: p.source === 'E', examStatus: state, scheduledTime, ...registry, cancelReason: state === 'Cancelled' ? l.reason ?? '患者未到' : null,
          // The worklist's time of an exam not yet done is its appointment; once the patient is in, the arrival.
          examTime: registry.arrivedTime ?? scheduledTime, created: createdAt, hasImage: false,
        });
      }
    }

    await tx.insert(t.exams).values(examRows);
    const past = pastRows.length ? await tx.insert(t.exams).values(pastRows).returning({ id: t.exams.id, created: t.exams.created, bodyPart: t.exams.bodyPart }) : [];
    // The earlier exams were read and approved: report texts of their body part, as the other demo reports.
    if (past.length) {
      const made = await tx.insert(t.reports).values(past.map((e) => {
        const text = reportText(r, e.bodyPart ?? '', r.chance(0.4));
        const creator = r.pick(o.reporters);
        const [saved, submitted, approved] = reportTimes(e.created, now, [r.int(40, 180), r.int(5, 30), r.int(20, 240)]);
        return {
          examId: e.id, bucketId: o.bucketId, sourceBucketId: o.bucketId, status: 'corrected', creatorId: creator, lastUpdaterId: creator,
          issuerId: o.approver, ...text, savedTime: saved!, submittedTime: submitted!, approvedTime: approved!,
          lastOperationTime: approved!, created: saved!,
        };
      })).returning({ id: t.reports.id, creatorId: t.reports.creatorId, issuerId: t.reports.issuerId, finding: t.reports.finding, diagnosis: t.reports.diagnosis, savedTime: t.reports.savedTime, submittedTime: t.reports.submittedTime, approvedTime: t.reports.approvedTime });
      await tx.insert(t.reportTraces).values(made.flatMap((rep) => {
        const snapshot = { finding: rep.finding, diagnosis: rep.diagnosis };
        return [
          { reportId: rep.id, accountId: rep.creatorId, action: 'save', fromStatus: 'none', toStatus: 'partial', snapshot, created: rep.savedTime! },
          { reportId: rep.id, accountId: rep.creatorId, action: 'submit', fromStatus: 'partial', toStatus: 'final', snapshot, created: rep.submittedTime! },
          { reportId: rep.id, accountId: rep.issuerId ?? rep.creatorId, action: 'approve', fromStatus: 'final', toStatus: 'corrected', snapshot, created: rep.approvedTime! },
        ];
      }));
      await tx.execute(sql`
        update exams e set report_id = r.id, report_status = r.status, report_creator_id = r.creator_id
        from reports r where r.exam_id = e.id and e.report_id is null and e.registration_id is not null and e.bucket_id = ${o.bucketId}`);
    }
    return { steps: STEPS.length, registrations: registrations + pastRows.length, lines, pastExamIds: past.map((e) => e.id) };
  });
}
