/**
 * Orthanc beside the product (bench/ingest-orthanc.ts over HTTP, bench/dicom.ts over DICOM): Debian's package,
 * installed when missing, started on a temporary folder and free loopback ports; and the CT study both benches send.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pixelDescription, writeDicomFile } from '../../server/seed/dicom/writer';
import { freePort } from './stats';

export const ORTHANC = '/usr/sbin/Orthanc';

export interface StudyInfo { studyInstanceUid: string }

export async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it answered`);
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    if (Date.now() > until) throw new Error(`${what} did not answer ${url} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function ensureOrthanc(): void {
  if (existsSync(ORTHANC)) return;
  console.log('Orthanc is missing: apt-get install -y orthanc');
  const run = spawnSync('apt-get', ['install', '-y', 'orthanc'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (run.status !== 0 || !existsSync(ORTHANC)) throw new Error('Could not install Orthanc (apt-get install -y orthanc needs root and Debian\'s mirrors)');
}

export interface OrthancProcess {
  /** http://127.0.0.1:<port> (REST API). */
  base: string;
  version: string;
  pid: number | undefined;
  /** Its DICOM port (AE title ORTHANC), when asked for with `dicom`. */
  dicomPort: number | null;
  stop(): Promise<void>;
}

/**
 * Orthanc on `root` with its own configuration: default SQLite index, no compression, no remote access, no
 * authentication; a DICOM server on a free loopback port only with `dicom` (any calling AE may store then), knowing
 * `modalities` (name → [AE, host, port]) as peers.
 */
export async function startOrthancProcess(root: string, opts: { dicom?: boolean; modalities?: Record<string, [string, string, number]> } = {}): Promise<OrthancProcess> {
  ensureOrthanc();
  const port = await freePort();
  const dicomPort = opts.dicom ? await freePort() : null;
  const config = path.join(root, 'orthanc.json');
  writeFileSync(config, JSON.stringify({
    Name: 'bench', StorageDirectory: path.join(root, 'orthanc-storage'), IndexDirectory: path.join(root, 'orthanc-index'),
    HttpPort: port, RemoteAccessAllowed: false, AuthenticationEnabled: false, StorageCompression: false, Plugins: [],
    ...(dicomPort === null ? { DicomServerEnabled: false } : { DicomServerEnabled: true, DicomPort: dicomPort, DicomAet: 'ORTHANC', DicomCheckCalledAet: false }),
    ...(opts.modalities ? { DicomModalities: opts.modalities } : {}),
  }, null, 2));
  const child = spawn(ORTHANC, [config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => { log = (log + d.toString()).slice(-4000); });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/system`, child, 'Orthanc').catch((err: Error) => { throw new Error(`${err.message}\n${log}`); });
  const version = ((await (await fetch(`${base}/system`)).json()) as { Version: string }).Version;
  return {
    base, version, pid: child.pid, dicomPort,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** utime + stime of a process from /proc (clock ticks of 10 ms); 0 when it is gone. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** `n` CT slices of one new study: 512×512 signed 16-bit, a different picture on each. */
export function ctStudy(n: number, round: number): { study: StudyInfo; files: Uint8Array<ArrayBuffer>[] } {
  const studyUid = `1.2.826.0.1.3680043.8.498.4242.${Date.now()}.${round}`;
  const files = Array.from({ length: n }, (_, i) => {
    const pixels = new Int16Array(512 * 512);
    for (let p = 0; p < pixels.length; p++) {
      const x = (p % 512) - 256;
      const y = Math.floor(p / 512) - 256;
      pixels[p] = x * x + y * y < 200 * 200 ? 40 + ((x * 7 + y * 13 + i * 31) & 63) : -1000;
    }
    return writeDicomFile([
      { tag: 0x00080008, vr: 'CS', value: 'ORIGINAL\\PRIMARY\\AXIAL' },
      { tag: 0x00080016, vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
      { tag: 0x00080018, vr: 'UI', value: `${studyUid}.1.${i + 1}` },
      { tag: 0x00080020, vr: 'DA', value: '20260101' },
      { tag: 0x00080060, vr: 'CS', value: 'CT' },
      { tag: 0x00100010, vr: 'PN', value: 'Bench^Patient' },
      { tag: 0x00100020, vr: 'LO', value: 'BENCH-1' },
      { tag: 0x00180050, vr: 'DS', value: '1.25' },
      { tag: 0x0020000d, vr: 'UI', value: studyUid },
      { tag: 0x0020000e, vr: 'UI', value: `${studyUid}.1` },
      { tag: 0x00200011, vr: 'IS', value: '1' },
      { tag: 0x00200013, vr: 'IS', value: String(i + 1) },
      { tag: 0x00200032, vr: 'DS', value: `-250\\-250\\${(i * 1.25).toFixed(2)}` },
      { tag: 0x00280010, vr: 'US', value: 512 },
      { tag: 0x00280011, vr: 'US', value: 512 },
      ...pixelDescription({ samples: 1, photometric: 'MONOCHROME2', bitsAllocated: 16, signed: true }),
      { tag: 0x00281050, vr: 'DS', value: '40' },
      { tag: 0x00281051, vr: 'DS', value: '400' },
      { tag: 0x00281052, vr: 'DS', value: '-1024' },
      { tag: 0x00281053, vr: 'DS', value: '1' },
      { tag: 0x7fe00010, vr: 'OW', value: pixels },
    ]) as Uint8Array<ArrayBuffer>;
  });
  return { study: { studyInstanceUid: studyUid }, files };
}
