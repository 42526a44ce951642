import * as dicomParserModule from 'dicom-parser';
import { eq } from 'drizzle-orm';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { dicomAssociations, dicomInstances, exams } from '../../server/db/schema';
import { dcmtk } from '../support/dcmtk';
import { CT_SERIES, SAMPLES_DIR, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';

let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 10, dicom: true }); });
afterAll(async () => { await s.close(); });

const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);
function pixelBytes(bytes: Uint8Array): Buffer {
  const el = dicomParser.parseDicom(bytes, {}).elements.x7fe00010!;
  return Buffer.from(bytes.subarray(el.dataOffset, el.dataOffset + el.length));
}
const peer = () => ['127.0.0.1', String(s.dicom!.port)];
const associations = () => s.db.db.select().from(dicomAssociations).orderBy(dicomAssociations.id);
/** The listener writes an association's counts when its connection closes, just after the tool has exited. */
async function lastAssociation() {
  for (;;) {
    const rows = await associations();
    const last = rows.at(-1);
    if (last?.ended) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the DICOM listener', () => {
  it('answers echoscu and records the association', async () => {
    const r = await dcmtk('echoscu', ['-aet', 'CT1_SCANNER', '-aec', 'RADWS', ...peer()]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await lastAssociation()).toMatchObject({
      callingAe: 'CT1_SCANNER', calledAe: 'RADWS', bucketId: s.ids.hospitalId, outcome: 'released', services: ['echo'], stored: 0, failed: 0,
    });
  });

  it('stores every sample with storescu, in every transfer syntax the upload reads, on the exam of its study', async () => {
    // storescu proposes what it is told; files are sent as they are, or converted by it (implicit VR, deflated).
    const runs: { files: string[]; option: string[]; ts?: string }[] = [
      { files: ['CT_small.dcm', 'chrX1.dcm', 'MR_small.dcm'], option: [] },
      { files: ['JPGExtended.dcm'], option: ['-xx'] },
      { files: ['SC_rgb_rle_2frame.dcm'], option: ['-xr'] },
      { files: CT_SERIES.slice(0, 2), option: ['-xi'], ts: '1.2.840.10008.1.2' },
      { files: CT_SERIES.slice(2), option: ['+C', '-xd'], ts: '1.2.840.10008.1.2.1.99' },
    ];
    for (const run of runs) {
      const r = await dcmtk('storescu', [...run.option, '-aet', 'CT1_SCANNER', '-aec', 'RADWS', ...peer(), ...run.files.map((f) => path.join(SAMPLES_DIR, f))]);
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(await lastAssociation()).toMatchObject({ outcome: 'released', services: ['store'], stored: run.files.length, failed: 0 });
      for (const f of run.files) {
        const read = readDicomHeader(sample(f));
        if (!read.ok) throw new Error(f);
        const [row] = await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, read.header.sopInstanceUid));
        expect(row, f).toMatchObject({ transferSyntaxUid: run.ts ?? read.header.transferSyntaxUid, studyInstanceUid: read.header.studyInstanceUid, rows: read.header.rows });
        const [exam] = await s.db.db.select().from(exams).where(eq(exams.id, row!.examId));
        expect(exam).toMatchObject({ bucketId: s.ids.hospitalId, hasImage: true, storeUid: read.header.studyInstanceUid });
        // Stored as it came: the same pixel data bytes (compressed ones too), not decoded and re-encoded.
        if (!run.ts) {
          const stored = Buffer.concat(await (await s.storage.get(row!.storageKey)).toArray());
          expect(pixelBytes(stored).equals(pixelBytes(sample(f))), f).toBe(true);
        }
      }
    }
    const [series] = await s.db.db.select().from(exams).where(eq(exams.storeUid, (readDicomHeader(sample(CT_SERIES[0]!)) as { header: { studyInstanceUid: string } }).header.studyInstanceUid));
    expect(await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.examId, series!.id))).toHaveLength(CT_SERIES.length);
  });

  it('does not double a re-sent instance', async () => {
    const file = path.join(SAMPLES_DIR, 'CT_small.dcm');
    const r = await dcmtk('storescu', ['-aet', 'CT1_SCANNER', '-aec', 'RADWS', ...peer(), file]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await lastAssociation()).toMatchObject({ stored: 1, failed: 0 });
    const read = readDicomHeader(sample('CT_small.dcm'));
    if (!read.ok) throw new Error('CT_small');
    expect(await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, read.header.sopInstanceUid))).toHaveLength(1);
  });
});
