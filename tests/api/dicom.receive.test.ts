import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { auditEvents, dicomInstances, exams } from '../../server/db/schema';
import { receiveInstance, STORE_STATUS } from '../../server/dicom/receive';
import { StorageLimitError } from '../../server/storage/types';
import { CT_SERIES, SINGLE_SAMPLES, asNewInstance, sample, uidOfLength } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';

/** server/dicom/receive.ts: the one way in for C-STORE and STOW-RS files, on the web upload's own ingest. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 20 }); });
afterAll(async () => { await s.close(); });

const via = { kind: 'dimse' as const, callingAe: 'CT1_SCANNER' };
const headerOf = (bytes: Uint8Array) => {
  const r = readDicomHeader(bytes);
  if (!r.ok) throw new Error('unreadable sample');
  return r.header;
};
const instancesOf = (examId: number) => s.db.db.select().from(dicomInstances).where(eq(dicomInstances.examId, examId));
async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of s.storage.list('dicom/')) keys.push(o.key);
  return keys;
}

describe('receiveInstance', () => {
  it('stores every sample into an exam made from its header, once per study, and completes it', async () => {
    for (const name of SINGLE_SAMPLES) {
      const r = await receiveInstance(s.deps, s.ids.hospitalId, sample(name), via);
      expect(r, name).toMatchObject({ ok: true, status: 'stored', examCreated: true, dimseStatus: 0 });
      if (!r.ok) continue;
      const [exam] = await s.db.db.select().from(exams).where(eq(exams.id, r.examId));
      const h = headerOf(sample(name));
      expect(exam).toMatchObject({ bucketId: s.ids.hospitalId, storeUid: h.studyInstanceUid, hasImage: true, patientId: h.patientId });
      expect(exam!.uploadTime).not.toBeNull();
      expect(await instancesOf(r.examId)).toHaveLength(1);
    }
    // The charset is decoded as the upload decodes it: the UTF-8 sample's ideographic name.
    const chr = await s.db.db.select().from(exams).where(eq(exams.storeUid, headerOf(sample('chrX1.dcm')).studyInstanceUid));
    expect(chr[0]!.patientName).toContain('王');
    // The CT's Station Name is not one of the organisation's devices; the study date is read in its time zone.
    const ct = await s.db.db.select().from(exams).where(eq(exams.storeUid, headerOf(sample('CT_small.dcm')).studyInstanceUid));
    expect(ct[0]!.modality).toBe('CT');
  });

  it('answers a re-sent instance as a duplicate (a success) and keeps one copy', async () => {
    const before = (await storedKeys()).length;
    const r = await receiveInstance(s.deps, s.ids.hospitalId, sample('CT_small.dcm'), via);
    expect(r).toMatchObject({ ok: true, status: 'duplicate', examCreated: false, dimseStatus: STORE_STATUS.success });
    if (r.ok) expect(await instancesOf(r.examId)).toHaveLength(1);
    expect((await storedKeys()).length).toBe(before);
  });

  it('puts a series\' files on one exam, and a line with the accession number receives its study', async () => {
    // A registry line of the hospital, no images yet, given the series' accession number (2).
    const [line] = await s.db.db.select().from(exams)
      .where(and(eq(exams.bucketId, s.ids.hospitalId), isNotNull(exams.registrationId), isNull(exams.storeUid), isNull(exams.deletedTime))).limit(1);
    expect(line).toBeDefined();
    await s.db.db.update(exams).set({ accessionNumber: '2' }).where(eq(exams.id, line!.id));
    for (const f of CT_SERIES) {
      const r = await receiveInstance(s.deps, s.ids.hospitalId, sample(f), via);
      expect(r).toMatchObject({ ok: true, status: 'stored', examId: line!.id, examCreated: false });
    }
    const [after] = await s.db.db.select().from(exams).where(eq(exams.id, line!.id));
    expect(after).toMatchObject({ storeUid: headerOf(sample(CT_SERIES[0]!)).studyInstanceUid, hasImage: true, patientName: line!.patientName });
    expect(await instancesOf(line!.id)).toHaveLength(CT_SERIES.length);
    const trail = await s.db.db.select().from(auditEvents).where(and(eq(auditEvents.area, 'dicom'), eq(auditEvents.objectId, String(line!.id))));
    expect(trail.map((e) => e.action)).toEqual(CT_SERIES.map(() => 'receive'));
    expect(trail[0]!.after).toMatchObject({ via: 'dimse', callingAe: 'CT1_SCANNER' });
  });

  it('refuses another study under a line\'s accession number (A900) and stores nothing of it', async () => {
    const before = await storedKeys();
    const other = asNewInstance(sample(CT_SERIES[0]!), 901, { study: uidOfLength(headerOf(sample(CT_SERIES[0]!)).studyInstanceUid.length, 902) });
    const r = await receiveInstance(s.deps, s.ids.hospitalId, other, via);
    expect(r).toMatchObject({ ok: false, failure: 'studyMismatch', dimseStatus: STORE_STATUS.dataSetMismatch, code: 'StudyMismatch' });
    expect(await storedKeys()).toEqual(before);
  });

  it('answers a file it cannot read with Cxxx, and a full store with A7xx, leaving nothing behind', async () => {
    const before = await storedKeys();
    const notDicom = await receiveInstance(s.deps, s.ids.hospitalId, new TextEncoder().encode('hello, not a DICOM file at all'), via);
    expect(notDicom).toMatchObject({ ok: false, failure: 'cannotUnderstand', dimseStatus: STORE_STATUS.cannotUnderstand });
    const truncated = await receiveInstance(s.deps, s.ids.hospitalId, sample('MR_small.dcm').subarray(0, 700), via);
    expect(truncated).toMatchObject({ ok: false, failure: 'cannotUnderstand', dimseStatus: STORE_STATUS.cannotUnderstand, code: 'InvalidDicom' });
    const full = { ...s.storage, put: async () => { throw new StorageLimitError(1); } };
    const r = await receiveInstance({ ...s.deps, storage: full }, s.ids.hospitalId, asNewInstance(sample('CT_small.dcm'), 77), { kind: 'stow', accountId: null });
    expect(r).toMatchObject({ ok: false, failure: 'outOfResources', dimseStatus: STORE_STATUS.outOfResources });
    expect(await storedKeys()).toEqual(before);
    const refusals = await s.db.db.select().from(auditEvents).where(and(eq(auditEvents.area, 'dicom'), eq(auditEvents.action, 'receive-refused')));
    expect(refusals.map((e) => (e.after as { failure: string }).failure)).toEqual(['studyMismatch', 'cannotUnderstand', 'cannotUnderstand', 'outOfResources']);
  });

  it('keeps organisations apart: the same study sent to another organisation makes an exam there', async () => {
    const r = await receiveInstance(s.deps, s.ids.expertCentreId, sample('MR_small.dcm'), { kind: 'stow', accountId: null });
    expect(r).toMatchObject({ ok: true, status: 'stored', examCreated: true });
    if (r.ok) expect((await s.db.db.select().from(exams).where(eq(exams.id, r.examId)))[0]!.bucketId).toBe(s.ids.expertCentreId);
  });
});
