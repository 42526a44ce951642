import { and, eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrthancProcess, type OrthancProcess } from '../../bench/support/orthanc';
import { readDicomHeader } from '../../contract/dicom';
import { auditEvents, dicomInstances, exams } from '../../server/db/schema';
import { CT_SERIES, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';

/**
 * A real PACS as the listener's peer: Orthanc (Debian's package, scripts/test.sh installs it) knows the product as a
 * modality and pushes a study to it with C-STORE (REST /modalities/{id}/store), as a department's PACS forwards.
 */
let s: TestServer;
let orthanc: OrthancProcess;
let dir: string;

beforeAll(async () => {
  s = await startServer({ exams: 5, dicom: true });
  // Orthanc calls as ORTHANC: a device of the hospital with that AE title, so the listener knows whose it is.
  await s.db.db.execute(`insert into devices (bucket_id, name, modality, ae_title) values (${s.ids.hospitalId}, 'PACS', 'OT', 'ORTHANC')`);
  dir = mkdtempSync(path.join(tmpdir(), 'rad-orthanc-'));
  orthanc = await startOrthancProcess(dir, { dicom: true, modalities: { radws: ['RADWS', '127.0.0.1', s.dicom!.port] } });
}, 120_000);
afterAll(async () => { await orthanc?.stop(); await s.close(); rmSync(dir, { recursive: true, force: true }); });

describe('Orthanc as a peer', () => {
  it('pushes a study to the product, which stores every instance on one exam of the calling AE\'s organisation', async () => {
    let studyId = '';
    for (const f of CT_SERIES) {
      const res = await fetch(`${orthanc.base}/instances`, { method: 'POST', headers: { 'content-type': 'application/dicom' }, body: new Uint8Array(sample(f)) });
      expect(res.status).toBe(200);
      studyId = ((await res.json()) as { ParentStudy: string }).ParentStudy;
    }
    const push = await fetch(`${orthanc.base}/modalities/radws/store`, { method: 'POST', body: JSON.stringify({ Resources: [studyId], Synchronous: true }) });
    const answer = await push.text();
    expect(push.status, answer).toBe(200);
    expect(JSON.parse(answer)).toMatchObject({ FailedInstancesCount: 0, InstancesCount: CT_SERIES.length });

    const h = readDicomHeader(sample(CT_SERIES[0]!));
    if (!h.ok) throw new Error('unreadable sample');
    const [exam] = await s.db.db.select().from(exams).where(eq(exams.storeUid, h.header.studyInstanceUid));
    expect(exam).toMatchObject({ bucketId: s.ids.hospitalId, hasImage: true });
    expect(await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.examId, exam!.id))).toHaveLength(CT_SERIES.length);
    const trail = await s.db.db.select().from(auditEvents).where(and(eq(auditEvents.area, 'dicom'), eq(auditEvents.objectId, String(exam!.id))));
    expect(trail[0]!.after).toMatchObject({ via: 'dimse', callingAe: 'ORTHANC' });
  });
});
