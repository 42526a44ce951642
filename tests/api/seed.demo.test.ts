import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { abnormalTexts } from '../../server/seed/clinical';
import { startServer, type TestServer } from '../support/server';

/** The demo data looks like a hospital's (issue 8 §4): every time in the past, reports that fit their exams, patients who come back. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 400 }); });
afterAll(async () => { await s.close(); });

describe('demo data', () => {
  it('has no exam, report or trace time after the moment it was seeded', async () => {
    const now = s.clock.now().getTime();
    const exams = await s.db.db.select().from(t.exams);
    for (const e of exams) {
      expect(e.examTime.getTime()).toBeLessThanOrEqual(now);
      expect(e.created.getTime()).toBeLessThanOrEqual(now);
      expect(e.examTime.getTime()).toBeLessThanOrEqual(e.created.getTime());
    }
    const reports = await s.db.db.select().from(t.reports);
    expect(reports.length).toBeGreaterThan(100);
    for (const r of reports) {
      for (const time of [r.savedTime, r.submittedTime, r.approvedTime, r.printedTime, r.created]) if (time) expect(time.getTime()).toBeLessThanOrEqual(now);
      if (r.submittedTime && r.savedTime) expect(r.submittedTime.getTime()).toBeGreaterThanOrEqual(r.savedTime.getTime());
      if (r.approvedTime && r.submittedTime) expect(r.approvedTime.getTime()).toBeGreaterThanOrEqual(r.submittedTime.getTime());
    }
  });

  it("writes each report from its exam's modality and body part: the template's words, or an abnormal finding of that part", async () => {
    const rows = await s.db.db.select({ exam: t.exams, report: t.reports }).from(t.reports).innerJoin(t.exams, eq(t.exams.id, t.reports.examId));
    const templates = await s.db.db.select().from(t.reportTemplates).where(eq(t.reportTemplates.isFolder, false));
    const templateOf = (bucketId: number, modality: string, bodyPart: string) =>
      templates.find((tp) => tp.bucketId === bucketId && tp.modality === modality && tp.bodyPart === bodyPart);
    for (const { exam, report } of rows) {
      const bodyPart = exam.bodyPart ?? '';
      if (report.positive) {
        expect(abnormalTexts(bodyPart).map(([finding]) => finding), `${exam.modality} ${bodyPart}`).toContain(report.finding);
      } else {
        const template = templateOf(exam.bucketId, exam.modality, bodyPart);
        expect(template, `${exam.modality} ${bodyPart}`).toBeDefined();
        expect(report.finding).toBe(template!.finding);
        expect(report.diagnosis).toBe(template!.diagnosis);
      }
    }
  });

  it('has patients with several exams over time', async () => {
    const exams = await s.db.db.select({ patientId: t.exams.patientId, bucketId: t.exams.bucketId }).from(t.exams);
    const visits = new Map<string, number>();
    for (const e of exams) visits.set(`${e.bucketId}|${e.patientId}`, (visits.get(`${e.bucketId}|${e.patientId}`) ?? 0) + 1);
    const returning = [...visits.values()].filter((n) => n >= 2).length;
    expect(returning).toBeGreaterThan(20);
  });
});
