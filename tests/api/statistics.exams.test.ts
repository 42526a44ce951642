import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { studyInfoFromHeaders } from '../../contract/dicom/studyInfo';
import type { StatResult } from '../../contract/statistics';
import type { StudyUploadInput } from '../../contract/uploads';
import * as t from '../../server/db/schema';
import { createAccount, unique } from '../support/accounts';
import { sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { initUpload, putFile } from '../support/uploads';

/**
 * The exam and report statistics (statistics.md §1–5, §10–12) against a small fixed dataset written straight into
 * the database, every figure computed by hand (the arithmetic is in the comments). Two organisations of one group:
 * A in Asia/Shanghai (UTC+8) and B in Europe/London (UTC+0 in January), so a row's day is its own organisation's day:
 * exams a1/a8 and b1/b6 fall just outside 10–12 January by their own clocks (and would fall inside by the other's).
 */
let s: TestServer;
let token: string;
let groupId: number;
let A: number; let B: number;
const dev: Record<string, number> = {};
const who: Record<string, number> = {};

const at = (iso: string) => new Date(iso);
const plus = (iso: string, minutes: number) => new Date(new Date(iso).getTime() + minutes * 60_000);

interface ExamSpec {
  bucket: 'A' | 'B'; modality: string; device?: string; time: string; bp?: number; img?: boolean; deleted?: boolean;
  report?: {
    creator: string; issuer?: string; noteTaker?: string; positive?: boolean | null; bp?: number;
    submitted?: number; approved?: number; deleted?: boolean;
  };
}

// Exam time in UTC; A's local day = UTC + 8 h, B's = UTC. Report times are minutes after the exam.
const EXAMS: Record<string, ExamSpec> = {
  a1: { bucket: 'A', modality: 'CT', device: 'ct', time: '2026-01-09T15:59:00Z', img: true, report: { creator: 'radA', issuer: 'apprA', noteTaker: 'noteT', positive: true, bp: 3, submitted: 30, approved: 60 } }, // local 01-09 23:59; approved 01-10 00:59
  a2: { bucket: 'A', modality: 'CT', device: 'ct', time: '2026-01-09T16:00:00Z', bp: 2, img: true, report: { creator: 'radA', issuer: 'apprA', positive: true, submitted: 30, approved: 90 } }, // local 01-10 00:00
  a3: { bucket: 'A', modality: 'CT', device: 'ct', time: '2026-01-10T10:00:00Z', img: true, report: { creator: 'radA', issuer: 'apprA', positive: false, submitted: 60, approved: 120 } }, // 01-10 18:00
  a4: { bucket: 'A', modality: 'DX', device: 'dx', time: '2026-01-10T16:30:00Z', img: true, report: { creator: 'radB', submitted: 10 } }, // 01-11 00:30
  a5: { bucket: 'A', modality: 'DX', device: 'dx', time: '2026-01-11T03:00:00Z', bp: 3, report: { creator: 'radB' } }, // 01-11, a draft
  a6: { bucket: 'A', modality: 'CT', time: '2026-01-11T08:00:00Z', report: { creator: 'radA', issuer: 'apprA', noteTaker: 'noteT', positive: true, bp: 2, submitted: 20, approved: 40 } }, // 01-11, no device
  a7: { bucket: 'A', modality: 'CT', device: 'ct', time: '2026-01-12T15:59:00Z', img: true }, // 01-12 23:59, no report
  a8: { bucket: 'A', modality: 'CT', device: 'ct', time: '2026-01-12T16:00:00Z' }, // 01-13 00:00: outside
  a9: { bucket: 'A', modality: 'DX', device: 'dx', time: '2026-01-11T05:00:00Z', deleted: true }, // deleted: never counted
  a10: { bucket: 'A', modality: 'CT', time: '2026-02-05T02:00:00Z' },
  a11: { bucket: 'A', modality: 'CT', time: '2026-01-31T16:30:00Z' }, // local 02-01 00:30: February
  b1: { bucket: 'B', modality: 'MR', device: 'mr', time: '2026-01-09T23:59:00Z' }, // 01-09: outside
  b2: { bucket: 'B', modality: 'MR', device: 'mr', time: '2026-01-10T00:00:00Z', img: true, report: { creator: 'radB', issuer: 'apprA', positive: false, approved: 50 } }, // approved without a separate submit
  b3: { bucket: 'B', modality: 'MR', device: 'mr', time: '2026-01-10T23:30:00Z', bp: 2, img: true, report: { creator: 'radB', issuer: 'apprA', noteTaker: 'noteU', positive: null, submitted: 15, approved: 45 } }, // approved 01-11 00:15
  b4: { bucket: 'B', modality: 'CT', time: '2026-01-11T12:00:00Z', report: { creator: 'radA', submitted: 5, deleted: true } }, // its report is deleted
  b5: { bucket: 'B', modality: 'MR', device: 'mr', time: '2026-01-12T23:59:00Z', img: true, report: { creator: 'radA', issuer: 'radB', positive: true, submitted: 30, approved: 200 } }, // approved 01-13 03:19
  b6: { bucket: 'B', modality: 'MR', device: 'mr', time: '2026-01-13T00:00:00Z' }, // outside
  b7: { bucket: 'B', modality: 'MR', time: '2026-01-31T23:30:00Z' }, // local 01-31: January (Shanghai would say February)
};
const examId: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  const db = s.db.db;
  const [group] = await db.insert(t.groups).values({ name: unique('stat'), displayName: 'Stat group', enableStat: true, allowOverview: true }).returning();
  groupId = group!.id;
  const [a] = await db.insert(t.buckets).values({ groupId, name: 'Org A', code: unique('sa'), timeZone: 'Asia/Shanghai' }).returning();
  const [b] = await db.insert(t.buckets).values({ groupId, name: 'Org B', code: unique('sb'), timeZone: 'Europe/London' }).returning();
  A = a!.id; B = b!.id;
  const admin = await createAccount(s, { groupId, groupAdmin: true, name: 'Stat Admin' });
  token = await s.login(admin.username, admin.password);
  for (const [key, name] of [['radA', 'Alice Stat'], ['radB', 'Bob Stat'], ['apprA', 'Carol Stat'], ['noteT', 'Nina Note'], ['noteU', 'Ulla Note']] as const) {
    who[key] = (await createAccount(s, { name })).id;
  }
  for (const [key, bucketId, name, modality, aeTitle] of [['ct', A, 'CT-A1', 'CT', 'CTA1'], ['dx', A, 'DR-A', 'DX', 'DRA'], ['mr', B, 'MR-B', 'MR', 'MRB']] as const) {
    const [row] = await db.insert(t.devices).values({ bucketId, name, modality, aeTitle }).returning();
    dev[key] = row!.id;
  }
  for (const [key, e] of Object.entries(EXAMS)) {
    const bucketId = e.bucket === 'A' ? A : B;
    const [exam] = await db.insert(t.exams).values({
      bucketId, patientName: `患者${key}`, patientId: `P-${key}`, modality: e.modality, examTime: at(e.time), bodyPartCount: e.bp ?? 1,
      hasImage: e.img ?? false, deviceId: e.device ? dev[e.device]! : null, deletedTime: e.deleted ? at('2026-01-20T00:00:00Z') : null,
    }).returning();
    examId[key] = exam!.id;
    const r = e.report;
    if (!r) continue;
    const [report] = await db.insert(t.reports).values({
      examId: exam!.id, bucketId, status: r.approved !== undefined ? 'corrected' : r.submitted !== undefined ? 'final' : 'partial',
      creatorId: who[r.creator]!, issuerId: r.issuer ? who[r.issuer]! : null, noteTakerId: r.noteTaker ? who[r.noteTaker]! : null,
      positive: r.positive ?? null, bodypartCount: r.bp ?? 1,
      submittedTime: r.submitted !== undefined ? plus(e.time, r.submitted) : null, approvedTime: r.approved !== undefined ? plus(e.time, r.approved) : null,
      deletedTime: r.deleted ? at('2026-01-20T00:00:00Z') : null,
    }).returning();
    await db.update(t.exams).set({ reportId: report!.id, reportStatus: report!.status, reportCreatorId: report!.creatorId }).where(eq(t.exams.id, exam!.id));
  }
  // Consultations applied for by A and B (created in the applicant's days), and one applied for by the demo hospital (not counted).
  const consultation = (appliedBucketId: number, targetBucketId: number, created: string) => ({
    appliedBucketId, targetBucketId, patientName: '会诊患者', reason: '会诊', createdBy: who.radA!, created: at(created),
  });
  await db.insert(t.consultations).values([
    consultation(A, B, '2026-01-09T16:10:00Z'), // A: 01-10 00:10
    consultation(B, A, '2026-01-11T23:50:00Z'), // B: 01-11 23:50
    consultation(A, B, '2026-01-12T16:05:00Z'), // A: 01-13: outside
    consultation(s.ids.hospitalId, A, '2026-01-11T04:00:00Z'), // applied by an organisation outside the group
  ]);
  const order = (n: number, fromBucketId: number, exam: string, created: string, paidAt: string | null, amountFen: number) => ({
    requestNo: unique(`RS${n}`), type: 'expert', examId: examId[exam]!, fromBucketId, groupId, applicantId: who.radA!, patientName: '申请患者',
    amountFen, paymentStatus: paidAt ? 1 : 0, channel: paidAt ? 'weixin' : null, paidAt: paidAt ? at(paidAt) : null, created: at(created),
  });
  await db.insert(t.reportOrders).values([
    order(1, A, 'a2', '2026-01-10T02:00:00Z', '2026-01-11T01:00:00Z', 5000), // created A 01-10, paid A 01-11
    order(2, B, 'b2', '2026-01-12T10:00:00Z', '2026-01-13T00:30:00Z', 3000), // created B 01-12, paid 01-13: outside
    order(3, A, 'a3', '2026-01-08T02:00:00Z', '2026-01-12T03:00:00Z', 2500), // created outside, paid A 01-12
  ]);
});
afterAll(async () => { await s?.close(); });

const DAYS = { from: '2026-01-10', to: '2026-01-12', unit: 'day' };
const PERIODS = ['2026-01-10', '2026-01-11', '2026-01-12'];

async function stat(path: string, body: Record<string, unknown>): Promise<StatResult> {
  const res = await s.request('POST', `statistics/${path}`, { token, body: { groupId, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as StatResult;
}
const seriesMap = (r: StatResult) => Object.fromEntries(r.series.map((x) => [x.key, x.values]));

describe('study (exams by modality)', () => {
  it('counts each organisation\'s exams on its own days, by modality (day unit)', async () => {
    const r = await stat('study', DAYS);
    expect(r.periods).toEqual(PERIODS);
    expect(r.range).toEqual({ from: '2026-01-10', to: '2026-01-12', unit: 'day', timeZone: 'Asia/Shanghai' });
    expect(r.columns.map((c) => c.key)).toEqual(['modality', 'exams', 'bodyParts', 'withImages', 'reported', 'approved', 'approvedRate']);
    expect(r.rows).toEqual([
      // CT: a2 a3 a6 a7 b4; body parts 2+1+1+1+1; images a2 a3 a7; reported/approved a2 a3 a6 (b4's report is deleted); 3/5
      { modality: 'CT', exams: 5, bodyParts: 6, withImages: 3, reported: 3, approved: 3, approvedRate: 60 },
      // MR: b2 b3 b5; 1+2+1; all with images; all approved (b2 approved without a submit)
      { modality: 'MR', exams: 3, bodyParts: 4, withImages: 3, reported: 3, approved: 3, approvedRate: 100 },
      // DX: a4 a5 (a9 deleted); 1+3; a4 has images; a4 submitted, a5 a draft
      { modality: 'DX', exams: 2, bodyParts: 4, withImages: 1, reported: 1, approved: 0, approvedRate: 0 },
    ]);
    // 5+3+2; 6+4+4; 3+3+1; 3+3+1; 3+3+0; 6/10
    expect(r.totals).toEqual({ exams: 10, bodyParts: 14, withImages: 7, reported: 7, approved: 6, approvedRate: 60 });
    // day 10: a2 a3 | b2 b3; day 11: a6 b4 | a4 a5; day 12: a7 | b5
    expect(r.series.map((x) => [x.key, x.label, x.values, x.kind])).toEqual([
      ['CT', 'CT', [2, 2, 1], 'count'], ['MR', 'MR', [2, 0, 1], 'count'], ['DX', 'DX', [0, 2, 0], 'count'],
    ]);
  });

  it('puts exams in months by their own organisation\'s clock (month unit)', async () => {
    const r = await stat('study', { from: '2026-01-01', to: '2026-02-28', unit: 'month' });
    expect(r.periods).toEqual(['2026-01-01', '2026-02-01']);
    // January CT: a1 a2 a3 a6 a7 a8 b4; February: a10, a11 (31 Jan 16:30 UTC is 1 Feb in Shanghai).
    // MR all January: b1 b2 b3 b5 b6 b7 (b7 at 31 Jan 23:30 London). DX: a4 a5.
    expect(seriesMap(r)).toEqual({ CT: [7, 2], MR: [6, 0], DX: [2, 0] });
    expect(r.rows).toEqual([
      // 9 exams; body parts 1+2+1+1+1+1+1+1+1; images a1 a2 a3 a7; reported = approved a1 a2 a3 a6; 4/9 = 44.4 %
      { modality: 'CT', exams: 9, bodyParts: 10, withImages: 4, reported: 4, approved: 4, approvedRate: 44.4 },
      // 6 exams; 1+1+2+1+1+1; images b2 b3 b5; b2 b3 b5 approved; 3/6
      { modality: 'MR', exams: 6, bodyParts: 7, withImages: 3, reported: 3, approved: 3, approvedRate: 50 },
      { modality: 'DX', exams: 2, bodyParts: 4, withImages: 1, reported: 1, approved: 0, approvedRate: 0 },
    ]);
    // 7/17 = 41.2 %
    expect(r.totals).toEqual({ exams: 17, bodyParts: 21, withImages: 8, reported: 8, approved: 7, approvedRate: 41.2 });
  });

  it('narrows to the organisations asked for, by POST and by GET with the query string', async () => {
    const expected = {
      rows: [
        { modality: 'MR', exams: 3, bodyParts: 4, withImages: 3, reported: 3, approved: 3, approvedRate: 100 },
        { modality: 'CT', exams: 1, bodyParts: 1, withImages: 0, reported: 0, approved: 0, approvedRate: 0 }, // b4
      ],
      // 3+1; 4+1; 3; 3; 3; 3/4
      totals: { exams: 4, bodyParts: 5, withImages: 3, reported: 3, approved: 3, approvedRate: 75 },
    };
    const posted = await stat('study', { ...DAYS, bucketIds: [B] });
    expect(posted).toMatchObject(expected);
    expect(posted.range.timeZone).toBe('Europe/London');
    const got = await s.request('GET', `statistics/study?groupId=${groupId}&from=2026-01-10&to=2026-01-12&unit=day&bucketIds=${B}`, { token });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toEqual(posted);
  });
});

describe('modality (device workload)', () => {
  it('counts exams per device and modality, the exams without a device apart', async () => {
    const r = await stat('modality', DAYS);
    expect(r.rows).toEqual([
      { device: 'CT-A1', modality: 'CT', exams: 3, bodyParts: 4, withImages: 3 }, // a2 a3 a7: 2+1+1
      { device: 'MR-B', modality: 'MR', exams: 3, bodyParts: 4, withImages: 3 }, // b2 b3 b5: 1+2+1 (same count: by name)
      { device: 'DR-A', modality: 'DX', exams: 2, bodyParts: 4, withImages: 1 }, // a4 a5: 1+3
      { device: null, modality: 'CT', exams: 2, bodyParts: 2, withImages: 0 }, // a6 b4
    ]);
    expect(r.totals).toEqual({ exams: 10, bodyParts: 14, withImages: 7 });
    expect(seriesMap(r)).toEqual({
      [`device-${dev.ct}`]: [2, 0, 1], [`device-${dev.mr}`]: [2, 0, 1], [`device-${dev.dx}`]: [0, 2, 0], noDevice: [0, 2, 0],
    });
    expect(r.series.at(-1)).toMatchObject({ key: 'noDevice', label: null });
    expect(r.series.find((x) => x.key === `device-${dev.dx}`)?.label).toBe('DR-A');
  });
});

describe('report (turnaround)', () => {
  it('gives the mean and median minutes by modality', async () => {
    const r = await stat('report', DAYS);
    expect(r.rows).toEqual([
      // a2 a3 a6: first 30 60 20 (mean 36.7, median 30); approval 90 120 40 (mean 83.3, median 90)
      { modality: 'CT', exams: 3, reported: 3, approved: 3, firstReportMean: 36.7, firstReportMedian: 30, approvalMean: 83.3, approvalMedian: 90 },
      // b2 b3 b5: first 50 (b2's approval) 15 30 (mean 31.7, median 30); approval 50 45 200 (mean 98.3, median 50)
      { modality: 'MR', exams: 3, reported: 3, approved: 3, firstReportMean: 31.7, firstReportMedian: 30, approvalMean: 98.3, approvalMedian: 50 },
      // a4 a5: only a4 submitted (10)
      { modality: 'DX', exams: 2, reported: 1, approved: 0, firstReportMean: 10, firstReportMedian: 10, approvalMean: null, approvalMedian: null },
    ]);
    // first: 30 60 20 50 15 30 10 → 215/7 = 30.7, median 30; approval 90 120 40 50 45 200 → 545/6 = 90.8, median (50+90)/2 = 70
    expect(r.totals).toEqual({ exams: 8, reported: 7, approved: 6, firstReportMean: 30.7, firstReportMedian: 30, approvalMean: 90.8, approvalMedian: 70 });
    // day 10: a2 a3 b2 b3 → (30+60+50+15)/4 = 38.75, (90+120+50+45)/4 = 76.25; day 11: a4 a6 → 15, a6 → 40; day 12: b5 → 30, 200
    expect(r.series).toEqual([
      { key: 'firstReport', label: null, values: [38.8, 15, 30], kind: 'minutes' },
      { key: 'approval', label: null, values: [76.3, 40, 200], kind: 'minutes' },
    ]);
  });

  it('gives them by radiologist (the report\'s creator)', async () => {
    const r = await stat('report', { ...DAYS, by: 'radiologist' });
    expect(r.columns[0]).toEqual({ key: 'radiologist', kind: 'text' });
    expect(r.rows).toEqual([
      // Alice: a2 a3 a6 b5 → first 30 60 20 30 (35, median 30); approval 90 120 40 200 (112.5, median 105)
      { radiologist: 'Alice Stat', exams: 4, reported: 4, approved: 4, firstReportMean: 35, firstReportMedian: 30, approvalMean: 112.5, approvalMedian: 105 },
      // Bob: a4 a5 b2 b3 → first 10 50 15 (25, median 15); approval 50 45 (47.5)
      { radiologist: 'Bob Stat', exams: 4, reported: 3, approved: 2, firstReportMean: 25, firstReportMedian: 15, approvalMean: 47.5, approvalMedian: 47.5 },
    ]);
    expect(r.totals).toMatchObject({ exams: 8, reported: 7, approved: 6 });
  });
});

describe('report-positive', () => {
  it('counts reports by their approval day (day unit)', async () => {
    const r = await stat('report-positive', DAYS);
    // Approved 10–12 Jan by their organisation's clock: a1 (00:59 on the 10th) a2 a3 b2 on the 10th, a6 and b3 (00:15 London) on the
    // 11th; b5's approval (13 Jan 03:19) is outside although its exam is inside.
    expect(r.rows).toEqual([
      { modality: 'CT', approved: 4, positive: 3, negative: 1, unknown: 0, positiveRate: 75 }, // a1 a2 a6 positive, a3 negative
      { modality: 'MR', approved: 2, positive: 0, negative: 1, unknown: 1, positiveRate: 0 }, // b2 negative, b3 unsaid
    ]);
    expect(r.totals).toEqual({ approved: 6, positive: 3, negative: 2, unknown: 1, positiveRate: 60 }); // 3/(3+2)
    expect(r.series).toEqual([
      { key: 'positive', label: null, values: [2, 1, 0], kind: 'count' }, // a1 a2 | a6
      { key: 'negative', label: null, values: [2, 0, 0], kind: 'count' }, // a3 b2
      { key: 'positiveRate', label: null, values: [50, 100, 0], kind: 'percent' }, // 2/4, 1/1, none
    ]);
  });

  it('counts them by month', async () => {
    const r = await stat('report-positive', { from: '2026-01-01', to: '2026-02-28', unit: 'month' });
    expect(r.rows).toEqual([
      { modality: 'CT', approved: 4, positive: 3, negative: 1, unknown: 0, positiveRate: 75 },
      { modality: 'MR', approved: 3, positive: 1, negative: 1, unknown: 1, positiveRate: 50 }, // b5 now inside
    ]);
    expect(r.totals).toEqual({ approved: 7, positive: 4, negative: 2, unknown: 1, positiveRate: 66.7 }); // 4/6
    expect(r.series.map((x) => x.values)).toEqual([[4, 0], [2, 0], [66.7, 0]]);
  });
});

describe('note-taker', () => {
  it('counts approved reports a note-taker began', async () => {
    const r = await stat('note-taker', DAYS);
    expect(r.rows).toEqual([
      { noteTaker: 'Nina Note', reports: 2, bodyParts: 5, positive: 2 }, // a1 (3 parts, approved on the 10th) a6 (2 parts)
      { noteTaker: 'Ulla Note', reports: 1, bodyParts: 1, positive: 0 }, // b3
    ]);
    expect(r.totals).toEqual({ reports: 3, bodyParts: 6, positive: 2 });
    expect(r.series).toEqual([
      { key: `account-${who.noteT}`, label: 'Nina Note', values: [1, 1, 0], kind: 'count' },
      { key: `account-${who.noteU}`, label: 'Ulla Note', values: [0, 1, 0], kind: 'count' },
    ]);
  });
});

describe('overview', () => {
  it('total: one row per period with reports, consultations, applications and money', async () => {
    const r = await stat('overview/total', DAYS);
    expect(r.rows).toEqual([
      // exams a2 a3 b2 b3; all four reported and approved; positive a2 of a2 a3 b2 (b3 unsaid) = 33.3 %;
      // first 30 60 50 15 → median 40; approval 90 120 50 45 → median 70; consultation c1; order 1 created; nothing paid
      { period: '2026-01-10', exams: 4, reported: 4, approved: 4, positiveRate: 33.3, firstReportMedian: 40, approvalMedian: 70, consultations: 1, applications: 1, paidFen: 0 },
      // exams a4 a5 a6 b4; reported a4 a6; approved a6 (positive); first 10 20 → 15; approval 40; c2; order 1 paid 5000
      { period: '2026-01-11', exams: 4, reported: 2, approved: 1, positiveRate: 100, firstReportMedian: 15, approvalMedian: 40, consultations: 1, applications: 0, paidFen: 5000 },
      // exams a7 b5; b5 reported, approved, positive; 30; 200; order 2 created; order 3 paid 2500
      { period: '2026-01-12', exams: 2, reported: 1, approved: 1, positiveRate: 100, firstReportMedian: 30, approvalMedian: 200, consultations: 0, applications: 1, paidFen: 2500 },
    ]);
    // positive a2 a6 b5 of those five with a verdict: 3/5; the hospital's consultation and order 2's payment are not counted
    expect(r.totals).toEqual({ exams: 10, reported: 7, approved: 6, positiveRate: 60, firstReportMedian: 30, approvalMedian: 70, consultations: 2, applications: 2, paidFen: 7500 });
    expect(r.series).toEqual([
      { key: 'exams', label: null, values: [4, 4, 2], kind: 'count' },
      { key: 'approved', label: null, values: [4, 1, 1], kind: 'count' },
    ]);
  });

  it('user: each radiologist\'s reports written and approved', async () => {
    const r = await stat('overview/user', DAYS);
    expect(r.rows).toEqual([
      // Alice wrote a2 a3 a6 b5 (positive a2 a6 b5; first 30 60 20 30 → 35)
      { radiologist: 'Alice Stat', reported: 4, approved: 0, positive: 3, firstReportMean: 35 },
      // Bob wrote a4 a5 b2 b3 (a5 a draft: 3 reported; 10 50 15 → 25) and approved b5
      { radiologist: 'Bob Stat', reported: 3, approved: 1, positive: 0, firstReportMean: 25 },
      // Carol approved a2 a3 a6 b2 b3
      { radiologist: 'Carol Stat', reported: 0, approved: 5, positive: 0, firstReportMean: null },
    ]);
    expect(r.totals).toEqual({ reported: 7, approved: 6, positive: 3, firstReportMean: 30.7 });
    expect(r.series).toEqual([
      { key: `account-${who.radA}`, label: 'Alice Stat', values: [2, 1, 1], kind: 'count' }, // a2 a3 | a6 | b5
      { key: `account-${who.radB}`, label: 'Bob Stat', values: [2, 1, 0], kind: 'count' }, // b2 b3 | a4
    ]);
  });

  it('bucket: one row per counted organisation', async () => {
    const r = await stat('overview/bucket', DAYS);
    expect(r.rows).toEqual([
      // A: a2..a7; reported a2 a3 a4 a6; approved a2 a3 a6 (2 of 3 positive); c1; order 1
      { organization: 'Org A', exams: 6, reported: 4, approved: 3, positiveRate: 66.7, consultations: 1, applications: 1 },
      // B: b2..b5; reported b2 b3 b5; approved the same (b5 positive, b2 negative: 1/2); c2; order 2
      { organization: 'Org B', exams: 4, reported: 3, approved: 3, positiveRate: 50, consultations: 1, applications: 1 },
    ]);
    expect(r.totals).toEqual({ exams: 10, reported: 7, approved: 6, positiveRate: 60, consultations: 2, applications: 2 });
    expect(seriesMap(r)).toEqual({ [`bucket-${A}`]: [2, 3, 1], [`bucket-${B}`]: [2, 1, 1] });
    expect(r.series.map((x) => x.label)).toEqual(['Org A', 'Org B']);
  });

  it('bucket narrowed to one organisation', async () => {
    const r = await stat('overview/bucket', { ...DAYS, bucketIds: [A] });
    expect(r.rows).toEqual([{ organization: 'Org A', exams: 6, reported: 4, approved: 3, positiveRate: 66.7, consultations: 1, applications: 1 }]);
    expect(r.totals).toMatchObject({ exams: 6, consultations: 1, applications: 1 });
  });
});

describe('device matching at upload', () => {
  it('records the device whose AE title is the file\'s Station Name (case-insensitive)', async () => {
    // CT_small.dcm says Station Name CT01_OC0; the hospital's device is written in lower case.
    const [device] = await s.db.db.insert(t.devices).values({ bucketId: s.ids.hospitalId, name: 'Station CT', modality: 'CT', aeTitle: 'ct01_oc0' }).returning();
    const read = readDicomHeader(sample('CT_small.dcm'));
    if (!read.ok) throw new Error('CT_small.dcm unreadable');
    expect(read.header.stationName).toBe('CT01_OC0');
    const info = studyInfoFromHeaders([read.header]);
    const study = { ...info, examTime: '2026-01-10T10:00:00+08:00', patientName: info.patientName ?? 'Anon', patientId: info.patientId ?? 'X', modality: 'CT' } as StudyUploadInput;
    const tech = await s.login('tech');
    const session = await initUpload(s, tech, s.ids.hospitalId, study);
    expect((await putFile(s, session.credentials.token, sample('CT_small.dcm'))).status).toBe(200);
    const [exam] = await s.db.db.select({ deviceId: t.exams.deviceId }).from(t.exams).where(eq(t.exams.id, session.exam.id));
    expect(exam!.deviceId).toBe(device!.id);
  });
});
