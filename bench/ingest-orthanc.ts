/**
 * `npm run bench:ingest-orthanc [-- --files 200] [-- --rounds 2] [-- --postgres] [-- --only product|orthanc] [-- --in-flight 4]`: DICOM ingest side by side with
 * Orthanc, in one run, with the same files. Prints numbers; never fails on a time.
 *
 * - Orthanc: Debian's package (`apt-get install -y orthanc` when /usr/sbin/Orthanc is missing; needs root), started
 *   on a temporary folder and a free loopback port with its own configuration: default SQLite index, no compression,
 *   no DICOM server, no remote access, no authentication. Files go to POST /instances.
 * - The product: `server/main.ts` in a child process (as Orthanc is one), on a temporary DATA_DIR with embedded
 *   PGlite (the default deployment) or, with --postgres, a fresh database `bench_ingest` on DATABASE_URL. Files go
 *   as the upload wizard sends them: one upload session, one PUT /uploads/files per file, then the completion.
 * - Files: `--files` CT slices of 512×512×16 bit (~525 KB each, 200 ≈ 105 MB) written by the demo DICOM writer
 *   (server/seed/dicom/writer.ts), built in memory before the clock starts; every round gets a new study (new UIDs)
 *   and sends the very same bytes to both, at 1 and at 4 files in flight. The client (this process, Node's fetch)
 *   is the same for both. Rounds alternate which server goes first, and each run starts once both servers are idle.
 * - Besides the rates, the CPU time each server spent per file (its process from /proc, plus PostgreSQL's backends
 *   for the product with --postgres): on a shared machine the rates follow the neighbours' load, CPU time much less.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { ctStudy, processCpuMs, startOrthancProcess, waitFor, type StudyInfo } from './support/orthanc';
import { freePort, percentile } from './support/stats';
import { arg } from './support/args';

const FILES = Number(arg('files') ?? 200);
const ROUNDS = Number(arg('rounds') ?? 2);
/** `--in-flight 4`: one level only (profiling). */
const IN_FLIGHT = arg('in-flight') ? [Number(arg('in-flight'))] : [1, 4];
const POSTGRES = process.argv.includes('--postgres');
/** `--only product|orthanc`: one side alone (profiling); no ratio then. */
const ONLY = arg('only');

interface Target {
  name: string;
  /** Sends one file; resolves when the server has answered that it is stored. */
  send(file: Uint8Array<ArrayBuffer>): Promise<void>;
  /** Before a round: whatever the target needs per study. */
  begin(study: StudyInfo): Promise<void>;
  end(): Promise<void>;
  stop(): Promise<void>;
  /** CPU time (ms, user + system) the server has used so far: its process, and PostgreSQL's backends for it. */
  cpu(): Promise<Cpu>;
}

interface Cpu { process: number; database: number }


async function startOrthanc(root: string): Promise<Target> {
  const orthanc = await startOrthancProcess(root);
  const { base } = orthanc;
  return {
    name: `Orthanc ${orthanc.version}`,
    begin: async () => {},
    send: async (file) => {
      const res = await fetch(`${base}/instances`, { method: 'POST', headers: { 'content-type': 'application/dicom' }, body: file });
      const body = (await res.json()) as { Status?: string };
      if (res.status !== 200 || body.Status !== 'Success') throw new Error(`Orthanc: ${res.status} ${JSON.stringify(body)}`);
    },
    end: async () => {},
    stop: orthanc.stop,
    cpu: async () => ({ process: processCpuMs(orthanc.pid), database: 0 }),
  };
}

async function startProduct(root: string): Promise<Target> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: path.join(root, 'product'), PORT: String(port), DICOM_PORT: '0', HL7_PORT: '0', HOST: '127.0.0.1', SCRYPT_COST: '1024',
    TOKEN_SECRET: 'bench-ingest-orthanc-secret-0123456789', SEED_DEMO: '1', DATABASE_URL: '', NODE_ENV: 'production',
  };
  if (POSTGRES) {
    if (!process.env.DATABASE_URL) throw new Error('--postgres: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query('drop database if exists bench_ingest with (force)');
    await admin.query('create database bench_ingest');
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '/bench_ingest';
    env.DATABASE_URL = url.toString();
  }
  // Built like `npm start` runs it (tsx compiles once at load); the request log goes where a deployment's would.
  // BENCH_PRODUCT_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=.tmp/prof` to profile the product's side.
  const nodeArgs = (process.env.BENCH_PRODUCT_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_PRODUCT_STDOUT: a file for the product's standard output (e.g. with `--trace-gc` in BENCH_PRODUCT_NODE_ARGS).
  const stdout = process.env.BENCH_PRODUCT_STDOUT ? openSync(process.env.BENCH_PRODUCT_STDOUT, 'w') : 'ignore';
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', stdout, 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => { log = (log + d.toString()).slice(-4000); });
  const api = `http://127.0.0.1:${port}/api/v1/`;
  await waitFor(`${api}buckets/uploadable`, child, 'the product').catch((err: Error) => { throw new Error(`${err.message}\n${log}`); });
  // The PostgreSQL backends serving the product do its database work: their CPU time counts as the product's.
  let pgStats: pg.Client | null = null;
  const backends = new Map<number, number>();
  if (POSTGRES) {
    pgStats = new pg.Client({ connectionString: env.DATABASE_URL });
    await pgStats.connect();
  }
  const json = async (res: Response) => {
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`product: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const post = (route: string, body: unknown, token?: string) => fetch(`${api}${route}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  }).then(json);
  const { accessToken } = await post('accounts/login', { username: 'tech', password: DEMO_PASSWORD }) as { accessToken: string };
  const uploadable = await fetch(`${api}buckets/uploadable`, { headers: { authorization: `Bearer ${accessToken}` } }).then(json) as unknown as { id: number }[];
  const bucketId = uploadable[0]!.id;
  let session: { credentials: { token: string }; exam: { id: number } } | null = null;
  return {
    name: `product (${POSTGRES ? 'PostgreSQL' : 'PGlite'})`,
    begin: async (study) => {
      session = await post(`buckets/${bucketId}/studies/upload`, {
        studyInstanceUid: study.studyInstanceUid, patientName: 'Bench Patient', patientId: 'BENCH-1', patientGender: 'U', modality: 'CT',
        bodyPart: 'CHEST', studyDescription: 'CT CHEST', accessionNumber: 'B1', examTime: '2026-01-01T09:00:00+08:00',
      }, accessToken) as unknown as typeof session;
    },
    send: async (file) => {
      const res = await fetch(`${api}uploads/files`, { method: 'PUT', headers: { 'content-type': 'application/dicom', 'x-upload-token': session!.credentials.token }, body: file });
      const body = (await res.json()) as { status?: string };
      if (res.status !== 200 || body.status !== 'stored') throw new Error(`product: ${res.status} ${JSON.stringify(body)}`);
    },
    end: async () => { await post(`exams/${session!.exam.id}/uploaded`, {}, accessToken); },
    stop: async () => { await pgStats?.end(); child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r)); },
    cpu: async () => {
      if (pgStats) {
        const { rows } = await pgStats.query<{ pid: number }>(`select pid from pg_stat_activity where datname = 'bench_ingest' and pid <> pg_backend_pid()`);
        for (const r of rows) backends.set(r.pid, processCpuMs(r.pid));
      }
      // A backend that left the pool keeps the CPU time last read of it.
      return { process: processCpuMs(child.pid), database: [...backends.values()].reduce((a, b) => a + b, 0) };
    },
  };
}

interface Measure { target: string; inFlight: number; round: number; files: number; mb: number; seconds: number; p50: number; p95: number; cpuMsPerFile: number; dbCpuMsPerFile: number }

async function run(target: Target, study: StudyInfo, files: Uint8Array<ArrayBuffer>[], inFlight: number, round: number): Promise<Measure> {
  const cpuBefore = await target.cpu();
  const started = performance.now();
  await target.begin(study);
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const t = performance.now();
      await target.send(file);
      latencies.push(performance.now() - t);
    }
  }));
  await target.end();
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await target.cpu();
  const dbCpuMsPerFile = (cpuAfter.database - cpuBefore.database) / files.length;
  const cpuMsPerFile = (cpuAfter.process - cpuBefore.process) / files.length + dbCpuMsPerFile;
  latencies.sort((a, b) => a - b);
  const mb = files.reduce((n, f) => n + f.length, 0) / 1e6;
  return { target: target.name, inFlight, round, files: files.length, mb, seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), cpuMsPerFile, dbCpuMsPerFile };
}

/**
 * Waits until no server is still at work from the run before (a server may go on after its last answer: Orthanc with
 * its index, the product with its collector): otherwise the next run, the other server's, pays for it. Idle means
 * at most one 10 ms tick of CPU over 300 ms, all servers together; at most 15 s.
 */
async function settle(targets: Target[]): Promise<void> {
  const total = async () => (await Promise.all(targets.map((t) => t.cpu()))).reduce((n, c) => n + c.process + c.database, 0);
  const until = Date.now() + 15_000;
  let before = await total();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await total();
    if (now - before <= 10) return;
    before = now;
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-ingest-orthanc-'));
  const targets: Target[] = [];
  try {
    if (ONLY !== 'product') targets.push(await startOrthanc(root));
    if (ONLY !== 'orthanc') targets.push(await startProduct(root));
    // A few files first so both have their caches, connections and JIT warm.
    for (const t of targets) {
      const warm = ctStudy(8, 0);
      await run(t, warm.study, warm.files, 2, 0);
    }
    const measures: Measure[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const inFlight of IN_FLIGHT) {
        const { study, files } = ctStudy(FILES, round * 10 + inFlight);
        const order = round % 2 === 1 ? targets : [...targets].reverse();
        for (const t of order) {
          await settle(targets);
          const m = await run(t, study, files, inFlight, round);
          measures.push(m);
          console.log(`round ${round}, ${inFlight} in flight: ${m.target.padEnd(20)} ${(m.files / m.seconds).toFixed(0).padStart(5)} files/s ` +
            `${(m.mb / m.seconds).toFixed(1).padStart(6)} MB/s  p50 ${m.p50.toFixed(1)} ms  p95 ${m.p95.toFixed(1)} ms  CPU ${m.cpuMsPerFile.toFixed(1)} ms/file${m.dbCpuMsPerFile > 0 ? ` (PostgreSQL ${m.dbCpuMsPerFile.toFixed(1)})` : ''}`);
        }
      }
    }
    if (targets.length < 2) return;
    const [orthanc, product] = targets.map((t) => t.name);
    console.log(`\n${FILES} CT slices 512×512×16 bit (${measures[0]!.mb.toFixed(1)} MB), loopback, Node ${process.version}, ${ROUNDS} round(s)`);
    console.log('| in flight | round | Orthanc files/s | Orthanc MB/s | product files/s | product MB/s | ratio (product / Orthanc) | CPU ms/file Orthanc | CPU ms/file product |');
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const inFlight of IN_FLIGHT) {
      for (let round = 1; round <= ROUNDS; round++) {
        const o = measures.find((m) => m.target === orthanc && m.inFlight === inFlight && m.round === round)!;
        const p = measures.find((m) => m.target === product && m.inFlight === inFlight && m.round === round)!;
        const rate = (m: Measure) => m.files / m.seconds;
        console.log(`| ${inFlight} | ${round} | ${rate(o).toFixed(0)} | ${(o.mb / o.seconds).toFixed(1)} | ${rate(p).toFixed(0)} | ${(p.mb / p.seconds).toFixed(1)} | ${(rate(p) / rate(o)).toFixed(2)}× | ${o.cpuMsPerFile.toFixed(1)} | ${p.cpuMsPerFile.toFixed(1)} |`);
      }
    }
    console.log(`(${orthanc}; ${product})`);
  } finally {
    for (const t of targets) await t.stop().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
