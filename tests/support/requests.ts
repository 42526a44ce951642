import { eq, inArray } from 'drizzle-orm';
import * as t from '../../server/db/schema';
import { insertExam, tokenOf } from './reports';
import type { TestServer } from './server';

/** The requests side's test helpers: exams with stored instances, applications, extra expert organisations. */

let serial = 0;

/** A fresh exam of the hospital with `instances` stored DICOM rows (the copies must carry them). */
export async function examWithImages(s: TestServer, o: { modality?: string; instances?: number } = {}): Promise<number> {
  const examId = await insertExam(s, { modality: o.modality ?? 'CT' });
  const n = o.instances ?? 3;
  serial += 1;
  if (n > 0) {
    await s.db.db.insert(t.dicomInstances).values(Array.from({ length: n }, (_, i) => ({
      examId, bucketId: s.ids.hospitalId, studyInstanceUid: `1.2.3.${serial}`, seriesInstanceUid: `1.2.3.${serial}.1`,
      sopInstanceUid: `1.2.3.${serial}.1.${i + 1}`, transferSyntaxUid: '1.2.840.10008.1.2.1', modality: 'CT', instanceNumber: i + 1,
      storageKey: `test/${examId}/${i + 1}.dcm`, size: 1000 + i,
    })));
  }
  return examId;
}

/** POST report-requests/apply as `role`: the server's answer. */
export async function apply(s: TestServer, role: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return s.request('POST', 'report-requests/apply', { token: await tokenOf(s, role), body, headers });
}

/** An organisation of the demo group offered as an expert organisation (free or not), optionally selling a product. */
export async function expertBucket(s: TestServer, o: { free: boolean; priceFen?: number | null }): Promise<number> {
  serial += 1;
  const code = `xp${Date.now().toString(36)}${serial}`;
  const [bucket] = await s.db.db.insert(t.buckets).values({ groupId: s.ids.groupId, name: `专家机构 ${code}`, code }).returning();
  await s.db.db.insert(t.groupExpertBuckets).values({ groupId: s.ids.groupId, bucketId: bucket!.id, free: o.free });
  if (o.priceFen !== null && o.priceFen !== undefined) {
    await s.db.db.insert(t.expertProducts).values({ bucketId: bucket!.id, modality: null, name: '专家报告', priceFen: o.priceFen });
  }
  return bucket!.id;
}

/** Every row a copy of an exam could have left: the exams, their instances, reports and report traces. */
export async function leftovers(s: TestServer, examIds: readonly number[]) {
  const db = s.db.db;
  if (examIds.length === 0) return { exams: 0, instances: 0, reports: 0 };
  const [exams, instances, reports] = await Promise.all([
    db.select({ id: t.exams.id }).from(t.exams).where(inArray(t.exams.id, [...examIds])),
    db.select({ id: t.dicomInstances.id }).from(t.dicomInstances).where(inArray(t.dicomInstances.examId, [...examIds])),
    db.select({ id: t.reports.id }).from(t.reports).where(inArray(t.reports.examId, [...examIds])),
  ]);
  return { exams: exams.length, instances: instances.length, reports: reports.length };
}

export async function targetsOf(s: TestServer, orderId: number) {
  return s.db.db.select().from(t.reportOrderTargets).where(eq(t.reportOrderTargets.orderId, orderId)).orderBy(t.reportOrderTargets.bucketId);
}
