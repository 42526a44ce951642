/**
 * `npm run bench:dicom [-- --files 200] [-- --rounds 1] [-- --lines 10000] [-- --finds 100] [-- --only mwl] [-- --nodelay] [-- --explain]`: the DICOM listener
 * (server/dicom) beside Orthanc, in one run. Prints numbers; never fails on a time.
 *
 * - C-STORE: dcmtk's storescu sends `--files` generated CT slices (512×512×16 bit, ~525 KB each, 200 ≈ 105 MB; the
 *   study of bench/ingest-orthanc.ts, bench/support/orthanc.ts) to the product's listener (as CT1_SCANNER, a demo
 *   device) and to Orthanc's DICOM port, the very same files, in 1 association and in 4 parallel associations (4
 *   storescu processes, a quarter of the files each). files/s, MB/s, and the ratio product / Orthanc. The time
 *   includes storescu's start (a few ms, the same for both). Every round and level gets a new study.
 * - The product runs in this process (the app's deps and its listener, as server/main.ts builds them) over in-memory
 *   PGlite, or PostgreSQL (a fresh database) when DATABASE_URL is set, local storage in a temporary folder; Orthanc
 *   is Debian's package (installed when missing) with its default SQLite index, no compression.
 * - MWL C-FIND: `--lines` scheduled CT lines (copied in bulk in SQL from one line registered through the API, each
 *   with its own patient and accession number), then `--finds` C-FIND calls per query through dcmjs-dimse's client,
 *   one association each as a console makes them (not `findscu -W`: its process start would dominate): p50/p95 of
 *   the whole call (associate, query, all answers, release).
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import type { Socket } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { createTokens } from '../server/auth/tokens';
import { openDatabase } from '../server/db/client';
import { systemClock, type Deps } from '../server/deps';
import { dimse } from '../server/dicom/dimse';
import { startDicomListener } from '../server/dicom/listener';
import { services } from '../server/dicom/services';
import { findWorklist, worklistQuery, worklistSelect } from '../server/dicom/worklist';
import { DEMO_PASSWORD, seedDemo } from '../server/seed/demo';
import { createLocalStorage } from '../server/storage/local';
import { createSigner } from '../server/storage/signer';
import { arg } from './support/args';
import { openBenchDatabase } from './support/server';
import { ctStudy, startOrthancProcess } from './support/orthanc';
import { percentile } from './support/stats';

const FILES = Number(arg('files') ?? 200);
const ROUNDS = Number(arg('rounds') ?? 1);
const LINES = Number(arg('lines') ?? 10_000);
const FINDS = Number(arg('finds') ?? 100);
const IN_FLIGHT = [1, 4];
/** `--only mwl`: the worklist part alone (no storescu, no Orthanc). */
const ONLY = arg('only');
/** `--nodelay`: the bench's client socket without Nagle (dcmjs-dimse's client leaves it on). */
const CLIENT_NODELAY = process.argv.includes('--nodelay');
/** `--explain`: EXPLAIN ANALYZE of each worklist query's statement. */
const EXPLAIN = process.argv.includes('--explain');
const CALLING = 'CT1_SCANNER';

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${tool}: ${err.message}\n${String(stdout).slice(-2000)}${String(stderr).slice(-2000)}`));
      else resolve();
    });
  });
}

interface Peer { name: string; port: number; aet: string }

/** storescu of `files` to `peer` in `associations` parallel processes; seconds. */
async function store(peer: Peer, files: string[], associations: number): Promise<number> {
  const chunk = Math.ceil(files.length / associations);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: associations }, (_, i) => files.slice(i * chunk, (i + 1) * chunk)).filter((c) => c.length > 0)
    .map((c) => run('storescu', ['-aet', CALLING, '-aec', peer.aet, '127.0.0.1', String(peer.port), ...c])));
  return (performance.now() - t0) / 1000;
}

/** The moments of one association, ms from the call: TCP connected, A-ASSOCIATE-AC, first and final C-FIND-RSP,
 * A-RELEASE-RP, socket closed. */
interface Phases { connect: number; ac: number; first: number; final: number; rp: number; closed: number }
const PHASES: (keyof Phases)[] = ['connect', 'ac', 'first', 'final', 'rp', 'closed'];

/** One worklist C-FIND in its own association: the number of answers and when each phase ended. */
function worklistFind(port: number, elements: Record<string, unknown>): Promise<{ answers: number; phases: Phases }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const phases: Phases = { connect: NaN, ac: NaN, first: NaN, final: NaN, rp: NaN, closed: NaN };
    const at = (k: keyof Phases) => { phases[k] = performance.now() - t0; };
    const client = new dimse.Client();
    const request = dimse.requests.CFindRequest.createWorklistFindRequest(elements);
    let answers = 0;
    let status = -1;
    request.on('response', (response: { getStatus(): number; getDataset(): unknown }) => {
      if (Number.isNaN(phases.first)) at('first');
      status = response.getStatus();
      if (status === 0xff00 || status === 0xff01) answers += 1;
      else at('final');
    });
    client.addRequest(request);
    client.on('associationAccepted', () => at('ac'));
    client.on('associationReleased', () => at('rp'));
    client.on('networkError', (e: Error) => reject(e));
    client.on('closed', () => { at('closed'); if (status === 0) resolve({ answers, phases }); else reject(new Error(`C-FIND status ${status.toString(16)}`)); });
    client.send('127.0.0.1', port, CALLING, 'RADWS');
    // The client's socket (dcmjs-dimse makes it in send()); Nagle is left as the library leaves it unless --nodelay.
    const socket = (client as unknown as { network?: { socket?: Socket } }).network?.socket;
    if (CLIENT_NODELAY) socket?.setNoDelay(true);
    socket?.once('connect', () => at('connect'));
  });
}

function printTable(table: string[][]): void {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-dicom-'));
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const { database, drop } = kind === 'postgres' ? await openBenchDatabase('postgres', 'dicom') : { database: await openDatabase({ databaseUrl: null, dataDir: null }), drop: async () => undefined };
  const ids = await seedDemo(database.db, { scryptCost: 1024, clock: systemClock, exams: 0 });
  const filesDir = path.join(root, 'product');
  mkdirSync(filesDir);
  const deps: Deps = {
    db: database.db, dbKind: database.kind, clock: systemClock,
    storage: createLocalStorage({ root: filesDir, signer: createSigner(randomBytes(16).toString('hex')), clock: systemClock }),
    tokens: createTokens(randomBytes(16).toString('hex'), 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: filesDir, clientDir: '/nonexistent', databaseUrl: null },
  };
  const app = await buildApp(deps, { logger: false });
  const listener = await startDicomListener(deps, { port: 0, host: '127.0.0.1', aeTitle: 'RADWS' });
  const orthanc = ONLY === 'mwl' ? null : await startOrthancProcess(path.join(root), { dicom: true });
  try {
    if (orthanc) {
      const peers: Peer[] = [
        { name: `Orthanc ${orthanc.version}`, port: orthanc.dicomPort!, aet: 'ORTHANC' },
        { name: `product (${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`, port: listener.port, aet: 'RADWS' },
      ];
      const write = (label: string, files: Uint8Array[]) => {
        const dir = path.join(root, label);
        mkdirSync(dir);
        return files.map((f, i) => { const p = path.join(dir, `${i}.dcm`); writeFileSync(p, f); return p; });
      };
      // Warm-up: a few files to each.
      for (const peer of peers) await store(peer, write(`warm-${peer.aet}`, ctStudy(8, 0).files), 2);

      const rows: { inFlight: number; round: number; mb: number; seconds: Record<string, number> }[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        for (const inFlight of IN_FLIGHT) {
          const { files } = ctStudy(FILES, round * 10 + inFlight);
          const mb = files.reduce((n, f) => n + f.length, 0) / 1e6;
          const paths = write(`r${round}-${inFlight}`, files);
          const seconds: Record<string, number> = {};
          for (const peer of round % 2 === 1 ? peers : [...peers].reverse()) {
            seconds[peer.name] = await store(peer, paths, inFlight);
            console.log(`round ${round}, ${inFlight} association(s): ${peer.name.padEnd(22)} ${(FILES / seconds[peer.name]!).toFixed(0).padStart(5)} files/s ${(mb / seconds[peer.name]!).toFixed(1).padStart(6)} MB/s`);
          }
          rows.push({ inFlight, round, mb, seconds });
          rmSync(path.join(root, `r${round}-${inFlight}`), { recursive: true, force: true });
        }
      }
      const [o, p] = peers.map((x) => x.name) as [string, string];
      console.log(`\nC-STORE by storescu, ${FILES} CT slices 512×512×16 bit (${rows[0]!.mb.toFixed(1)} MB), loopback, ${cpus().length} cores, Node ${process.version}`);
      console.log('| associations | round | Orthanc files/s | Orthanc MB/s | product files/s | product MB/s | ratio (product / Orthanc) |');
      console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
      for (const r of rows) {
        const rate = (name: string) => FILES / r.seconds[name]!;
        console.log(`| ${r.inFlight} | ${r.round} | ${rate(o).toFixed(0)} | ${(r.mb / r.seconds[o]!).toFixed(1)} | ${rate(p).toFixed(0)} | ${(r.mb / r.seconds[p]!).toFixed(1)} | ${(rate(p) / rate(o)).toFixed(2)}× |`);
      }
      console.log(`(${o}; ${p})`);
      const stored = ((await database.db.execute(sql`select count(*)::int as n from dicom_instances`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
      const orthancStats = (await (await fetch(`${orthanc.base}/statistics`)).json()) as { CountInstances: number };
      console.log(`instances stored: product ${stored}, Orthanc ${orthancStats.CountInstances} (each ${8 + ROUNDS * IN_FLIGHT.length * FILES} sent)`);
    }

    // MWL: one line registered through the API, copied LINES times in SQL.
    const login = await app.inject({ method: 'POST', url: '/api/v1/accounts/login', payload: { username: 'registrar', password: DEMO_PASSWORD } });
    const token = (login.json() as { accessToken: string }).accessToken;
    const hospitalId = ids.hospitalId;
    const setup = (await app.inject({ method: 'GET', url: `/api/v1/buckets/${hospitalId}/registry/setup`, headers: { authorization: `Bearer ${token}` } })).json() as { steps: { id: number; modality: string; reportDuringExam: boolean }[] };
    const stepId = setup.steps.find((st) => st.modality === 'CT' && !st.reportDuringExam)!.id;
    const reg = await app.inject({ method: 'POST', url: '/api/v1/registry', headers: { authorization: `Bearer ${token}` }, payload: {
      bucketId: hospitalId,
      patient: { patientName: '压测患者', patientId: 'BM0', patientGender: 'M', patientDob: '1970-01-01', patientSource: 'O', outpatientId: 'BM0', phone: '13800138000' },
      exams: [{ procedureStepId: stepId, scheduledTime: new Date(Date.now() + 3_600_000).toISOString() }],
    } });
    if (reg.statusCode !== 200) throw new Error(`registry: ${reg.statusCode} ${reg.body}`);
    const templateId = (reg.json() as { lines: { examId: number }[] }).lines[0]!.examId;
    const columns = ((await database.db.execute(sql`select column_name from information_schema.columns where table_name = 'exams' and column_name <> 'id' order by ordinal_position`)) as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name);
    const replaced: Record<string, string> = {
      patient_id: `'BM' || g`, accession_number: `'BMA' || g`, patient_name: `'压测患者' || g`, scheduled_study_uid: 'null', outpatient_id: `'BM' || g`,
    };
    const t0 = performance.now();
    await database.db.execute(sql.raw(`insert into exams (${columns.map((c) => `"${c}"`).join(', ')})
      select ${columns.map((c) => replaced[c] ?? `e."${c}"`).join(', ')} from exams e, generate_series(1, ${LINES}) g where e.id = ${templateId}`));
    // As autovacuum would soon after such a copy: the planner sees the lines.
    await database.db.execute(sql`analyze exams`);
    console.log(`\n${LINES.toLocaleString('en')} worklist lines copied in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + 3_600_000)).replaceAll('-', '');
    const step = (extra: Record<string, unknown>) => ({ Modality: 'CT', ScheduledStationAETitle: CALLING, ScheduledProcedureStepStartDate: day, ScheduledProcedureStepStartTime: '', ...extra });
    const base = { PatientName: '', PatientID: '', AccessionNumber: '', StudyInstanceUID: '', PatientBirthDate: '', PatientSex: '' };
    const queries: [string, Record<string, unknown>][] = [
      ['one patient by PatientID', { ...base, PatientID: `BM${Math.floor(LINES / 2)}`, ScheduledProcedureStepSequence: [step({})] }],
      ['one accession number', { ...base, AccessionNumber: `BMA${Math.floor(LINES / 3)}`, ScheduledProcedureStepSequence: [step({})] }],
      ['name prefix (压测患者12*)', { ...base, SpecificCharacterSet: 'ISO_IR 192', PatientName: '压测患者12*', ScheduledProcedureStepSequence: [step({})] }],
      ["the day's CT worklist of the station (capped at 500 answers)", { ...base, ScheduledProcedureStepSequence: [step({})] }],
    ];
    const table: string[][] = [['query', 'answers', 'p50', 'p95', 'max', 'query alone p50', 'query alone p95', 'of it select p50']];
    const phaseRows: string[][] = [['query (medians, ms from the call)', ...PHASES]];
    const svc = services(deps);
    for (const [label, q] of queries) {
      const samples: number[] = [];
      const phases: Phases[] = [];
      let answers = 0;
      for (let i = 0; i < FINDS + 5; i++) {
        const t = performance.now();
        const r = await worklistFind(listener.port, q);
        answers = r.answers;
        if (i >= 5) { samples.push(performance.now() - t); phases.push(r.phases); }
      }
      // The same query without the network: the listener's worklist service in this process (query + encoding).
      const dataset = new dimse.Dataset(q, '1.2.840.10008.1.2');
      const alone: number[] = [];
      const select: number[] = [];
      for (let i = 0; i < FINDS + 5; i++) {
        let t = performance.now();
        await svc.worklist(ids.hospitalId, dataset, '1.2.840.10008.1.2');
        if (i >= 5) alone.push(performance.now() - t);
        t = performance.now();
        await findWorklist(deps, ids.hospitalId, worklistQuery(q));
        if (i >= 5) select.push(performance.now() - t);
      }
      select.sort((a, b) => a - b);
      if (EXPLAIN) {
        const statement = worklistSelect(database.db, ids.hospitalId, worklistQuery(q), 'Asia/Shanghai')!.toSQL();
        const client = (database.db as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: Record<string, string>[] }> } }).$client;
        const plan = await client.query(`explain (analyze, buffers, costs off) ${statement.sql}`, statement.params);
        console.log(`\n── ${label}\n${plan.rows.map((r) => Object.values(r)[0]).join('\n')}`);
      }
      samples.sort((a, b) => a - b);
      alone.sort((a, b) => a - b);
      table.push([label, String(answers), percentile(samples, 50).toFixed(1), percentile(samples, 95).toFixed(1), samples.at(-1)!.toFixed(1),
        percentile(alone, 50).toFixed(1), percentile(alone, 95).toFixed(1), percentile(select, 50).toFixed(1)]);
      phaseRows.push([label, ...PHASES.map((k) => percentile(phases.map((x) => x[k]).sort((a, b) => a - b), 50).toFixed(1))]);
    }
    // For comparison: the same first query by findscu -W, a process per query (its start dominates).
    const spawned: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await run('findscu', ['-W', '-aet', CALLING, '-aec', 'RADWS', '127.0.0.1', String(listener.port), '-k', `PatientID=BM${Math.floor(LINES / 2)}`, '-k', 'PatientName', '-k', 'AccessionNumber']);
      spawned.push(performance.now() - t);
    }
    // findscu's own start and exit (no association): subtracted, it leaves what the association costs dcmtk.
    const started: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await run('findscu', ['--version']);
      started.push(performance.now() - t);
    }
    spawned.sort((a, b) => a - b);
    started.sort((a, b) => a - b);
    table.push(['(findscu -W process, by PatientID, 10 calls)', '1', percentile(spawned, 50).toFixed(1), percentile(spawned, 95).toFixed(1), spawned.at(-1)!.toFixed(1), '', '', '']);
    table.push(['(findscu --version process, 10 calls)', '', percentile(started, 50).toFixed(1), percentile(started, 95).toFixed(1), started.at(-1)!.toFixed(1), '', '', '']);
    console.log(`MWL C-FIND on ${LINES.toLocaleString('en')} scheduled lines, dcmjs-dimse client (one association per call), ${FINDS} calls each after 5 warm-up, ms:`);
    printTable(table);
    console.log(`phases of the association (client side${CLIENT_NODELAY ? ', client socket without Nagle' : ''}):`);
    printTable(phaseRows);
  } finally {
    await orthanc?.stop().catch(() => {});
    await listener.close().catch(() => {});
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    await drop().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
