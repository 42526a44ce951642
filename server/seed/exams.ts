import { sql } from 'drizzle-orm';
import { PATIENT_SOURCES } from '../../contract/constants';
import type { Db } from '../db/client';
import { exams, reportTraces, reports } from '../db/schema';
import { BODY_PARTS, CLINIC_IMPRESSIONS, DEPARTMENTS, chineseName, reportText } from './clinical';
import { randomStudyUid, type Rng } from './random';

export interface ExamSeedOptions {
  now: Date;
  days: number;
  count: number;
  bucketId: number;
  reporters: number[];
  approver: number;
  remote?: boolean;
  /** Trace rows for every report; off for million-row benchmark seeds. */
  traces?: boolean;
  batch?: number;
}

const MODALITY_WEIGHTS: [string, number][] = [['CT', 30], ['DX', 20], ['MR', 15], ['US', 20], ['CR', 10], ['MG', 5]];
const STATUS_WEIGHTS: [string, number][] = [['corrected', 42], ['printed', 15], ['final', 10], ['partial', 8], ['hold', 4], ['cancelled', 3], ['none', 18]];

function weighted(r: Rng, table: [string, number][]): string {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let x = r.next() * total;
  for (const [v, w] of table) if ((x -= w) < 0) return v;
  return table[0]![0];
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

interface Patient { name: string; pid: string; gender: 'M' | 'F' | 'U'; dob: Date }

/**
 * Report times after the exam's arrival, squeezed to end before `now` when the exam is recent: every time of the
 * demo is in the past and in the order the work happened (saved, submitted, approved, printed).
 */
export function reportTimes(created: Date, now: Date, offsetsMin: readonly number[]): Date[] {
  const start = created.getTime();
  const room = Math.max(0, now.getTime() - 60_000 - start);
  const total = offsetsMin.reduce((sum, m) => sum + m, 0) * 60_000;
  const scale = total > room ? room / total : 1;
  let at = start;
  return offsetsMin.map((m) => new Date((at += m * 60_000 * scale)));
}

/**
 * Inserts `count` realistic exams over the last `days` days, with reports in several states. About a third are
 * further visits of a patient seen before, so past exams and comparisons have something to show.
 */
export async function insertExams(db: Db, r: Rng, o: ExamSeedOptions): Promise<number[]> {
  const batch = o.batch ?? 500;
  const span = o.days * 86_400_000;
  const patients: Patient[] = [];
  const ids: number[] = [];
  for (let done = 0; done < o.count; done += batch) {
    const n = Math.min(batch, o.count - done);
    const examRows: (typeof exams.$inferInsert)[] = [];
    for (let i = 0; i < n; i++) {
      const created = new Date(o.now.getTime() - Math.floor(r.next() ** 1.3 * span));
      const modality = weighted(r, MODALITY_WEIGHTS);
      const bodyPart = r.pick(BODY_PARTS[modality]!);
      const returning = patients.length > 20 && r.chance(0.35);
      const patient: Patient = returning ? r.pick(patients) : {
        name: chineseName(r), pid: `P${pad(r.int(1, 9_999_999), 8)}`, gender: r.pick(['M', 'F', 'M', 'F', 'U'] as const),
        dob: new Date(created.getTime() - r.int(1, 90) * 365.25 * 86_400_000 - r.int(0, 364) * 86_400_000),
      };
      if (!returning) patients.push(patient);
      const age = Math.max(1, Math.floor((created.getTime() - patient.dob.getTime()) / (365.25 * 86_400_000)));
      const dob = patient.dob;
      const source = r.pick(PATIENT_SOURCES);
      const seq = done + i + 1;
      const pid = patient.pid;
      examRows.push({
        bucketId: o.bucketId,
        patientName: patient.name,
        patientId: pid,
        patientKeyId: pid,
        patientGender: modality === 'MG' ? 'F' : patient.gender,
        patientDob: dob.toISOString().slice(0, 10),
        visitAge: `${age}Y`,
        weight: r.int(40, 95),
        height: r.int(150, 188),
        patientSource: source,
        inpatientId: source === 'I' ? `ZY${pad(r.int(1, 999_999), 6)}` : null,
        bedNum: source === 'I' ? `${r.int(1, 30)}-${r.int(1, 60)}` : null,
        outpatientId: source === 'O' || source === 'NO' ? `MZ${pad(r.int(1, 999_999), 6)}` : null,
        physicalExamId: source === 'P' ? `TJ${pad(r.int(1, 999_999), 6)}` : null,
        accessionNumber: `A${created.toISOString().slice(0, 10).replaceAll('-', '')}${pad(o.bucketId, 2)}${pad(seq, 7)}`,
        serviceRequestId: `SR${pad(o.bucketId, 2)}${pad(seq, 8)}`,
        modality, bodyPart,
        studyDescription: `${modality} ${bodyPart}`,
        clinicImpression: r.pick(CLINIC_IMPRESSIONS),
        applyDept: source === 'E' ? '急诊科' : source === 'P' ? '体检中心' : r.pick(DEPARTMENTS),
        urgentFlag: source === 'E' || r.chance(0.04),
        teleMedFlag: !!o.remote,
        isRemoteReportRequested: !!o.remote,
        hasImage: r.chance(0.97),
        storeUid: randomStudyUid(),
        // The exam is done before the study reaches the system (created): never a time in the future.
        examTime: new Date(created.getTime() - r.int(5, 90) * 60_000),
        created,
      });
    }
    const inserted = await db.insert(exams).values(examRows).returning({ id: exams.id, created: exams.created, bodyPart: exams.bodyPart });
    ids.push(...inserted.map((e) => e.id));

    const reportRows: (typeof reports.$inferInsert)[] = [];
    for (const e of inserted) {
      const ageHours = (o.now.getTime() - e.created.getTime()) / 3_600_000;
      let status = weighted(r, STATUS_WEIGHTS);
      if (ageHours < 24 && r.chance(0.6)) status = r.chance(0.7) ? 'none' : 'partial';
      if (status === 'none') continue;
      const text = reportText(r, e.bodyPart ?? '', r.chance(0.3));
      const creator = r.pick(o.reporters);
      const submits = ['final', 'corrected', 'printed', 'hold'].includes(status);
      const approves = ['corrected', 'printed'].includes(status);
      const [savedAt, submittedAt, approvedAt, printedAt] = reportTimes(e.created, o.now, [r.int(20, 240), r.int(1, 30), r.int(5, 300), 10]);
      const saved = savedAt!;
      const submitted = submits ? submittedAt! : null;
      const approved = approves ? approvedAt! : null;
      reportRows.push({
        examId: e.id, bucketId: o.bucketId, sourceBucketId: o.bucketId, status, creatorId: creator, lastUpdaterId: creator,
        issuerId: approved ? o.approver : null, finding: text.finding, diagnosis: text.diagnosis, positive: text.positive,
        rejectReason: status === 'hold' ? '结论描述不完整，请补充' : null,
        recallReason: status === 'cancelled' ? '患者信息有误，撤回修改' : null,
        savedTime: saved, submittedTime: submitted, approvedTime: approved,
        printedTime: status === 'printed' ? printedAt! : null,
        lastOperationTime: approved ?? submitted ?? saved, created: saved,
      });
    }
    if (reportRows.length === 0) continue;
    const made = await db.insert(reports).values(reportRows).returning({ id: reports.id, status: reports.status, creatorId: reports.creatorId, issuerId: reports.issuerId, finding: reports.finding, diagnosis: reports.diagnosis, savedTime: reports.savedTime });
    if (o.traces !== false) {
      await db.insert(reportTraces).values(made.flatMap((rep) => {
        const snap = { finding: rep.finding, diagnosis: rep.diagnosis };
        const list: (typeof reportTraces.$inferInsert)[] = [{ reportId: rep.id, accountId: rep.creatorId, action: 'save', fromStatus: 'none', toStatus: 'partial', snapshot: snap, created: rep.savedTime! }];
        if (rep.status !== 'partial') list.push({ reportId: rep.id, accountId: rep.creatorId, action: 'submit', fromStatus: 'partial', toStatus: 'final', snapshot: snap, created: rep.savedTime! });
        if (['corrected', 'printed', 'hold', 'cancelled'].includes(rep.status)) {
          const action = rep.status === 'hold' ? 'reject' : rep.status === 'cancelled' ? 'recall' : 'approve';
          list.push({ reportId: rep.id, accountId: rep.issuerId ?? rep.creatorId, action, fromStatus: 'final', toStatus: rep.status === 'printed' ? 'corrected' : rep.status, snapshot: snap, created: rep.savedTime! });
        }
        if (rep.status === 'printed') list.push({ reportId: rep.id, accountId: rep.creatorId, action: 'print', fromStatus: 'corrected', toStatus: 'printed', snapshot: snap, created: rep.savedTime! });
        return list;
      }));
    }
  }
  await db.execute(sql`
    update exams e set report_id = r.id, report_status = r.status, report_creator_id = r.creator_id
    from reports r where r.exam_id = e.id and e.report_id is null and e.bucket_id = ${o.bucketId}`);
  return ids;
}
