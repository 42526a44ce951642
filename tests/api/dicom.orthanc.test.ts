import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { devices } from '../../server/db/schema';
import { dcmtk } from '../support/dcmtk';
import { CT_SERIES, SAMPLES_DIR, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { freePort } from '../support/ports';

/** Orthanc (Debian's package) as the peer PACS: it queries the product, and has the product move a study to it. */
let s: TestServer;
let dir: string;
let orthanc: ChildProcess;
let base: string;
let orthancLog = '';
const FILES = CT_SERIES.slice(0, 2);
const headers = FILES.map((f) => {
  const read = readDicomHeader(sample(f));
  if (!read.ok) throw new Error(f);
  return read.header;
});
const study = headers[0]!.studyInstanceUid;

async function api(method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`Orthanc ${method} ${url}: ${res.status} ${text}\n${orthancLog}`);
  return text ? JSON.parse(text) as unknown : null;
}

beforeAll(async () => {
  s = await startServer({ exams: 10, dicom: true });
  dir = mkdtempSync(path.join(tmpdir(), 'rad-orthanc-'));
  const [httpPort, dicomPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'orthanc.json');
  writeFileSync(config, JSON.stringify({
    Name: 'peer', StorageDirectory: path.join(dir, 'storage'), IndexDirectory: path.join(dir, 'index'), HttpPort: httpPort,
    DicomServerEnabled: true, DicomAet: 'ORTHANC', DicomPort: dicomPort, RemoteAccessAllowed: false, AuthenticationEnabled: false,
    DicomModalities: { radws: ['RADWS', '127.0.0.1', s.dicom!.port] }, Plugins: [],
  }));
  orthanc = spawn('/usr/sbin/Orthanc', [config], { stdio: ['ignore', 'ignore', 'pipe'] });
  orthanc.stderr!.on('data', (d: Buffer) => { orthancLog = (orthancLog + d.toString()).slice(-4000); });
  base = `http://127.0.0.1:${httpPort}`;
  for (;;) {
    if (orthanc.exitCode !== null) throw new Error(`Orthanc exited\n${orthancLog}`);
    if (await fetch(`${base}/system`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // Orthanc is one of the hospital's devices: it may query, and be a move destination.
  await s.db.db.insert(devices).values({ bucketId: s.ids.hospitalId, name: 'Orthanc', modality: 'OT', aeTitle: 'ORTHANC', host: '127.0.0.1', port: dicomPort, sortOrder: 9 });
  const r = await dcmtk('storescu', ['-aet', 'CT1_SCANNER', '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port), ...FILES.map((f) => path.join(SAMPLES_DIR, f))]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
}, 60_000);
afterAll(async () => {
  if (orthanc.pid && orthanc.exitCode === null) process.kill(orthanc.pid);
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Orthanc as the peer PACS', () => {
  it('queries the product and has it move the study to Orthanc', async () => {
    const query = await api('POST', '/modalities/radws/query', { Level: 'Study', Query: { StudyInstanceUID: study, PatientName: '' } }) as { ID: string };
    const answers = await api('GET', `/queries/${query.ID}/answers?expand`) as Record<string, { Value: string }>[];
    expect(answers).toHaveLength(1);
    expect(answers[0]!['0020,000d']!.Value).toBe(study);

    expect(await api('GET', '/studies')).toEqual([]);
    // Orthanc retrieves what it found: a C-MOVE to itself, which the product sends to Orthanc's host and port.
    await api('POST', `/queries/${query.ID}/retrieve`, { TargetAet: 'ORTHANC', Synchronous: true });
    const instances = await api('GET', '/instances?expand') as { MainDicomTags: { SOPInstanceUID: string } }[];
    expect(instances.map((i) => i.MainDicomTags.SOPInstanceUID).sort()).toEqual(headers.map((h) => h.sopInstanceUid).sort());
  });
});
