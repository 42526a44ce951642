import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { devices, dicomAssociations } from '../../server/db/schema';
import { dcmtk } from '../support/dcmtk';
import { CT_SERIES, SAMPLES_DIR, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { freePort } from '../support/ports';

/** Query/Retrieve, Study Root: findscu -S, movescu to a storescp, getscu, against the listener. */
let s: TestServer;
let dir: string;
let scp: ChildProcess;
let scpPort: number;
const FILES = CT_SERIES.slice(0, 3);
const headers = FILES.map((f) => {
  const read = readDicomHeader(sample(f));
  if (!read.ok) throw new Error(f);
  return read.header;
});
const study = headers[0]!.studyInstanceUid;

/** A study of several instances (copies of one sample, each its own SOP Instance UID) for the streaming and cancel tests. */
const MANY = 12;
const manyStudy = '1.2.826.0.1.3680043.10.1188.33.1';
const manyUids = Array.from({ length: MANY }, (_, n) => `${manyStudy}.2.${n + 1}`);

const peer = () => ['127.0.0.1', String(s.dicom!.port)];
const as = (ae: string) => ['-aet', ae, '-aec', 'RADWS'];
/** The listener writes an association's counts when its connection closes, just after the tool has exited. */
async function lastAssociation() {
  for (;;) {
    const rows = await s.db.db.select().from(dicomAssociations).orderBy(dicomAssociations.id);
    const last = rows.at(-1);
    if (last?.ended) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
}
/** The SOP Instance UIDs of the DICOM files in a folder. */
const sopsIn = (folder: string) => readdirSync(folder).map((f) => {
  const read = readDicomHeader(readFileSync(path.join(folder, f)));
  return read.ok ? read.header.sopInstanceUid : `unreadable ${f}`;
}).sort();
/** The C-MOVE responses movescu -d prints: their counts and DIMSE status. */
const moveResponses = (out: string) => [...out.matchAll(/Remaining Suboperations\s*: (\d+)\s+D: Completed Suboperations\s*: (\d+)\s+D: Failed Suboperations\s*: (\d+)[\s\S]*?DIMSE Status\s*: (0x[0-9a-f]+)/g)]
  .map((m) => ({ remaining: Number(m[1]), completed: Number(m[2]), failed: Number(m[3]), status: m[4] }));
/** findscu -S's answers (one file each), their attributes read back. */
async function find(ae: string, keys: string[]) {
  const od = mkdtempSync(path.join(dir, 'find-'));
  const r = await dcmtk('findscu', ['-S', '-X', '-od', od, ...as(ae), ...peer(), ...keys.flatMap((k) => ['-k', k])]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return readdirSync(od).map((f) => readFileSync(path.join(od, f)).toString('latin1'));
}

beforeAll(async () => {
  s = await startServer({ exams: 10, dicom: true });
  dir = mkdtempSync(path.join(tmpdir(), 'rad-qr-'));
  scpPort = await freePort();
  mkdirSync(path.join(dir, 'moved'));
  mkdirSync(path.join(dir, 'got'));
  scp = spawn('storescp', ['-aet', 'PACS_DEST', '-od', path.join(dir, 'moved'), String(scpPort)], { stdio: 'ignore' });
  // Listening once it takes a connection.
  for (;;) {
    if (scp.exitCode !== null) throw new Error(`storescp exited with ${scp.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(scpPort, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await s.db.db.insert(devices).values([
    { bucketId: s.ids.hospitalId, name: 'PACS', modality: 'OT', aeTitle: 'PACS_DEST', host: '127.0.0.1', port: scpPort, sortOrder: 9 },
    { bucketId: s.ids.expertCentreId, name: 'Expert WS', modality: 'OT', aeTitle: 'EXPERT_WS', sortOrder: 0 },
  ]);
  const r = await dcmtk('storescu', [...as('CT1_SCANNER'), ...peer(), ...FILES.map((f) => path.join(SAMPLES_DIR, f))]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  mkdirSync(path.join(dir, 'many'));
  const copies = manyUids.map((uid, n) => {
    const file = path.join(dir, 'many', `${n}.dcm`);
    copyFileSync(path.join(SAMPLES_DIR, CT_SERIES[n % CT_SERIES.length]!), file);
    return { file, uid };
  });
  for (const { file, uid } of copies) {
    const m = await dcmtk('dcmodify', ['-nb', '-m', `(0020,000d)=${manyStudy}`, '-m', `(0020,000e)=${manyStudy}.1`, '-m', `(0008,0018)=${uid}`, '-m', '(0008,0050)=QR33MANY', file]);
    expect(m.code, m.stderr + m.stdout).toBe(0);
  }
  const many = await dcmtk('storescu', [...as('CT1_SCANNER'), ...peer(), ...copies.map((c) => c.file)]);
  expect(many.code, many.stderr + many.stdout).toBe(0);
});
afterAll(async () => {
  if (scp.pid && scp.exitCode === null) process.kill(scp.pid);
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Query/Retrieve, Study Root', () => {
  it('findscu -S finds the stored study, its series and its images, and only in the caller\'s organisation', async () => {
    const studies = await find('CT1_SCANNER', ['QueryRetrieveLevel=STUDY', `StudyInstanceUID=${study}`, 'PatientName', 'NumberOfStudyRelatedInstances']);
    expect(studies).toHaveLength(1);
    expect(studies[0]).toContain(study);
    expect(await lastAssociation()).toMatchObject({ services: ['find'], found: 1, outcome: 'released' });

    const series = await find('CT1_SCANNER', ['QueryRetrieveLevel=SERIES', `StudyInstanceUID=${study}`, 'SeriesInstanceUID', 'Modality']);
    expect(series).toHaveLength(1);
    expect(series[0]).toContain(headers[0]!.seriesInstanceUid);

    const images = await find('CT1_SCANNER', ['QueryRetrieveLevel=IMAGE', `StudyInstanceUID=${study}`, `SeriesInstanceUID=${headers[0]!.seriesInstanceUid}`, 'SOPInstanceUID', 'InstanceNumber']);
    expect(images).toHaveLength(FILES.length);
    for (const h of headers) expect(images.some((a) => a.includes(h.sopInstanceUid))).toBe(true);

    // Another organisation's device asks the same: nothing.
    expect(await find('EXPERT_WS', ['QueryRetrieveLevel=STUDY', `StudyInstanceUID=${study}`])).toHaveLength(0);
    // Its own organisation's studies only (the seed's exams), never this one.
    const theirs = await find('EXPERT_WS', ['QueryRetrieveLevel=STUDY', 'StudyInstanceUID']);
    expect(theirs.some((a) => a.includes(study))).toBe(false);
    const ours = await find('CT1_SCANNER', ['QueryRetrieveLevel=STUDY', 'StudyInstanceUID']);
    expect(ours.some((a) => a.includes(study))).toBe(true);
  });

  it('movescu moves the study to a destination among the organisation\'s devices', async () => {
    const r = await dcmtk('movescu', ['-S', ...as('CT1_SCANNER'), '-aem', 'PACS_DEST', ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${study}`]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await lastAssociation()).toMatchObject({ services: ['move'], sent: FILES.length, failed: 0, errors: [] });
    expect(sopsIn(path.join(dir, 'moved'))).toEqual(headers.map((h) => h.sopInstanceUid).sort());
  });

  it('refuses a move to an unknown destination with A801', async () => {
    const r = await dcmtk('movescu', ['-S', '-v', ...as('CT1_SCANNER'), '-aem', 'NOWHERE', ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${study}`]);
    expect(r.stderr + r.stdout).toMatch(/Refused: MoveDestinationUnknown/);
    expect(await lastAssociation()).toMatchObject({ services: ['move'], sent: 0, errors: ['move: destination NOWHERE unknown'] });
  });

  it('moves nothing for another organisation\'s device: the destination is not among its devices', async () => {
    const r = await dcmtk('movescu', ['-S', '-v', ...as('EXPERT_WS'), '-aem', 'PACS_DEST', ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${study}`]);
    expect(r.stderr + r.stdout).toMatch(/Refused: MoveDestinationUnknown/);
    expect(await lastAssociation()).toMatchObject({ bucketId: s.ids.expertCentreId, sent: 0 });
  });

  it('answers a C-FIND without a query level with A900 and keeps serving', async () => {
    const r = await dcmtk('findscu', ['-S', '-v', ...as('CT1_SCANNER'), ...peer(), '-k', `StudyInstanceUID=${study}`]);
    expect(r.stderr + r.stdout).toMatch(/Error: DataSetDoesNotMatchSOPClass/);
    expect(await lastAssociation()).toMatchObject({ services: ['find'], found: 0, errors: ['find: QueryRetrieveLevel must be STUDY, SERIES or IMAGE'] });
    expect(await find('CT1_SCANNER', ['QueryRetrieveLevel=STUDY', `StudyInstanceUID=${study}`])).toHaveLength(1);
  });

  it('getscu gets the study on its own association', async () => {
    const od = path.join(dir, 'got');
    const r = await dcmtk('getscu', ['-S', ...as('CT1_SCANNER'), '-od', od, ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${study}`]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await lastAssociation()).toMatchObject({ services: ['get'], sent: FILES.length, failed: 0 });
    expect(sopsIn(od)).toEqual(headers.map((h) => h.sopInstanceUid).sort());
  });

  it('movescu of a study of several instances: a Pending response after each with the counts, and all of it arrives', async () => {
    const dest = path.join(dir, 'moved');
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest);
    const r = await dcmtk('movescu', ['-S', '-d', ...as('CT1_SCANNER'), '-aem', 'PACS_DEST', ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${manyStudy}`]);
    const out = r.stderr + r.stdout;
    expect(r.code, out).toBe(0);
    // One Pending response after every sub-operation but the last (Remaining down, Completed up), then the final one.
    expect(moveResponses(out)).toEqual([
      ...Array.from({ length: MANY - 1 }, (_, n) => ({ remaining: MANY - 1 - n, completed: n + 1, failed: 0, status: '0xff00' })),
      { remaining: 0, completed: MANY, failed: 0, status: '0x0000' },
    ]);
    expect(await lastAssociation()).toMatchObject({ services: ['move'], sent: MANY, failed: 0, errors: [] });
    expect(sopsIn(dest)).toEqual([...manyUids].sort());
  });

  it('getscu of the study: Pending responses with the counts, every instance arrives', async () => {
    const od = mkdtempSync(path.join(dir, 'got-many-'));
    const r = await dcmtk('getscu', ['-S', '-v', ...as('CT1_SCANNER'), '-od', od, ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${manyStudy}`]);
    const out = r.stderr + r.stdout;
    expect(r.code, out).toBe(0);
    expect(out.match(/Received C-GET Response \(Pending\)/g)).toHaveLength(MANY - 1);
    expect(out).toMatch(new RegExp(`Number of Completed Suboperations : ${MANY}\\b`));
    expect(out).toMatch(/Number of Failed Suboperations {4}: 0/);
    expect(await lastAssociation()).toMatchObject({ services: ['get'], sent: MANY, failed: 0 });
    expect(sopsIn(od)).toEqual([...manyUids].sort());
  });

  it('movescu --cancel 1: the move stops after the file under way, final status Cancel with the counts', async () => {
    const dest = path.join(dir, 'moved');
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest);
    const r = await dcmtk('movescu', ['-S', '-d', '--cancel', '1', ...as('CT1_SCANNER'), '-aem', 'PACS_DEST', ...peer(), '-k', 'QueryRetrieveLevel=STUDY', '-k', `StudyInstanceUID=${manyStudy}`]);
    const out = r.stderr + r.stdout;
    expect(out).toMatch(/Sending Cancel Request/);
    expect(out).toMatch(/Received Final Move Response/);
    const row = await lastAssociation();
    expect(row.sent).toBeGreaterThanOrEqual(1);
    expect(row.sent).toBeLessThan(MANY);
    expect(readdirSync(dest)).toHaveLength(row.sent);
    // The final response: Cancel, what was sent, and what remained unsent.
    expect(moveResponses(out).at(-1)).toEqual({ remaining: MANY - row.sent, completed: row.sent, failed: 0, status: '0xfe00' });
  });
});
