/**
 * `npm run bench:department [-- --exams 1000000] [-- --registrations 100000] [-- --queue 2000] [-- --users 50,200]
 *   [-- --seconds 60] [-- --solo 200] [-- --think 1] [-- --seed 1]`
 *
 * A department's morning under load (issue 37): on PostgreSQL, with 1,000,000 exams, 100,000 registrations and a day of
 * 2,000 queue entries, every kind of user at once — radiologists paging the worklist, opening an exam and writing its
 * report (lock, saves at a typing pace, submit), registrars querying the desk, registering and checking patients in,
 * operators calling the next patient, waiting-room screens holding their event stream, a chief approving, a statistics
 * dashboard open — as simulated users, one role each, in a department's proportions. Each user loops with think times
 * from a seeded PRNG (mulberry32), so two runs ask the same things in the same order; each level runs `--seconds`.
 *
 * The API server runs as a child process (server/main.ts through tsx, as in production), so its CPU time can be read
 * from /proc/<pid>/stat: before the levels, each request kind runs alone (4 at a time, `--solo` requests, the state it
 * needs prepared untimed), and the server's CPU time delta / requests is that kind's cost. During the levels
 * pg_stat_activity is sampled twice a second: the connections of the server's pools in use and the sessions waiting on
 * a lock (the server does not expose its pool's queue; see server/db/client.ts: a pool of 20 and a planned pool of 10).
 *
 * Prints a table per level (p50 / p95 / p99 / max, count, errors by code, CPU per request) and appends one JSON line per
 * run to .bench/department.jsonl. Database: `bench_department` on the server of DATABASE_URL (or BENCH_DATABASE_URL as
 * is), filled once by the generators of bench:exams, bench:registry and server/seed/benchQueue.ts, and reused; today's
 * queue is rebuilt before each level. Prints numbers; never fails on a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Filter } from '../contract/common';
import type { Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { examCount, seedBench } from '../server/seed/benchSeed';
import { insertBenchQueue } from '../server/seed/benchQueue';
import { insertBenchRegistrations, registrationCount } from '../server/seed/benchRegistry';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { addDays, dayOf, instantIn } from '../server/seed/registry';
import { dayIn } from '../contract/days';
import { arg } from './support/args';
import { benchDatabase } from './support/database';
import { freePort, percentile } from './support/stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXAMS = Number(arg('exams') ?? 1_000_000);
const REGISTRATIONS = Number(arg('registrations') ?? 100_000);
const QUEUE = Number(arg('queue') ?? 2_000);
const LEVELS = (arg('users') ?? '50,200').split(',').map(Number).filter((n) => n > 0);
const SECONDS = Number(arg('seconds') ?? 60);
const SOLO = Number(arg('solo') ?? 200);
/** Think times are multiplied by this: 0 turns every user into a closed loop with no pause. */
const THINK = Number(arg('think') ?? 1);
const SEED = Number(arg('seed') ?? 1);
const SCRYPT_COST = 1024;
const CLOCK_TICK_MS = 10; // USER_HZ 100: /proc/<pid>/stat counts CPU time in 10 ms ticks
const SOLO_CONCURRENCY = 4;

// ── the seeded PRNG ─────────────────────────────────────────────────────────
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ── the database ────────────────────────────────────────────────────────────
function benchUrl(): string {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = '/bench_department';
  return url.toString();
}

interface Ids { bucketId: number; groupId: number; timeZone: string; queueTypes: { id: number; modality: string | null }[]; registrarId: number }

async function prepare(database: Database): Promise<Ids> {
  const have = await examCount(database.db);
  if (have < EXAMS) {
    console.log(`${have.toLocaleString('en')} exams, seeding ${(EXAMS - have).toLocaleString('en')} more…`);
    await seedBench(database.db, { add: EXAMS - have, days: 1095, scryptCost: SCRYPT_COST, log: (l) => console.log(`  ${l}`) });
  }
  const [hospital] = await database.db.select().from(t.buckets).where(eq(t.buckets.code, 'CITY1-RAD'));
  const regs = await registrationCount(database.db, hospital!.id);
  if (regs < REGISTRATIONS) {
    console.log(`${regs.toLocaleString('en')} registrations, seeding ${(REGISTRATIONS - regs).toLocaleString('en')} more…`);
    const started = performance.now();
    await insertBenchRegistrations(database.db, {
      count: REGISTRATIONS - regs, days: 730, scryptCost: SCRYPT_COST,
      onProgress: (done, total) => { if (done === total || done % 50_000 === 0) console.log(`  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${((performance.now() - started) / 1000).toFixed(0)} s)`); },
    });
  }
  const [registrar] = await database.db.select().from(t.accounts).where(eq(t.accounts.username, 'registrar'));
  const queueTypes = await database.db.select({ id: t.queueTypes.id, modality: t.queueTypes.modality }).from(t.queueTypes)
    .where(eq(t.queueTypes.bucketId, hospital!.id)).orderBy(t.queueTypes.sortOrder, t.queueTypes.id);
  return { bucketId: hospital!.id, groupId: hospital!.groupId, timeZone: hospital!.timeZone, queueTypes, registrarId: registrar!.id };
}

/** Today's queue as the bench's morning: the day's entries and counters removed, then QUEUE entries generated. */
async function resetQueue(database: Database, ids: Ids): Promise<{ day: string; entries: number; waiting: number }> {
  const day = dayIn(new Date(), ids.timeZone);
  await database.db.delete(t.queueEntries).where(and(eq(t.queueEntries.bucketId, ids.bucketId), eq(t.queueEntries.day, day)));
  for (const q of ids.queueTypes) await database.db.delete(t.queueCounters).where(and(eq(t.queueCounters.queueTypeId, q.id), eq(t.queueCounters.day, day)));
  const made = await insertBenchQueue(database.db, { bucketId: ids.bucketId, count: QUEUE, now: new Date(), operatorId: ids.registrarId });
  const [w] = await database.db.select({ n: sql<number>`count(*)::int` }).from(t.queueEntries)
    .where(and(eq(t.queueEntries.bucketId, ids.bucketId), eq(t.queueEntries.day, day), eq(t.queueEntries.status, 'waiting')));
  return { ...made, waiting: Number(w?.n ?? 0) };
}

// ── the server as a child process ───────────────────────────────────────────
interface Server { child: ChildProcess; base: string; dataDir: string }

async function startServer(): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-department-'));
  // node --import tsx: the child's pid is the server's own (npx would put two processes in between).
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env, DATABASE_URL: benchUrl(), PORT: String(port), HOST: '127.0.0.1', DICOM_PORT: '0', HL7_PORT: '0', DATA_DIR: dataDir,
      SEED_DEMO: '0', SCRYPT_COST: String(SCRYPT_COST), CLIENT_DIR: '/nonexistent', LOG: '0',
    },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  const base = `http://127.0.0.1:${port}/api/v1/`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${base}domain`)).status === 200) break;
    } catch { /* not listening yet */ }
    if (performance.now() - started > 180_000) throw new Error(`server did not answer within 180 s: ${stderr}`);
    await sleep(100);
  }
  return { child, base, dataDir };
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode === null) {
    const exited = new Promise<void>((r) => s.child.once('exit', () => r()));
    try { process.kill(-s.child.pid!, 'SIGTERM'); } catch { /* gone */ }
    const timer = setTimeout(() => { try { process.kill(-s.child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 15_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(s.dataDir, { recursive: true, force: true });
}

/** The server's user + system CPU time so far, ms (fields 14 and 15 of /proc/<pid>/stat, after the command's parentheses). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

// ── requests, timed per kind ────────────────────────────────────────────────
type Kind =
  | 'page' | 'page-unreported' | 'exam-detail' | 'report-open' | 'report-detail' | 'lock' | 'save' | 'submit' | 'approve-page' | 'approve'
  | 'registry-query' | 'register' | 'check-in' | 'call-next' | 'queue-board' | 'statistics' | 'screen-call-event';
const KINDS: Kind[] = ['page', 'page-unreported', 'exam-detail', 'report-open', 'report-detail', 'lock', 'save', 'submit', 'approve-page', 'approve',
  'registry-query', 'register', 'check-in', 'call-next', 'queue-board', 'statistics', 'screen-call-event'];
/** The kinds a person waits on at the desk or the editor (the issue's p95 ≤ 50 ms at 50 users). */
const INTERACTIVE = new Set<Kind>(['page', 'page-unreported', 'registry-query', 'call-next', 'save', 'check-in']);

class Recorder {
  samples = new Map<Kind, number[]>();
  errors = new Map<Kind, Map<string, number>>();
  /** 409s: two users raced for one object (two radiologists opening one exam, two chiefs one report); the right answer, counted apart. */
  conflicts = new Map<Kind, Map<string, number>>();
  on = true;
  add(kind: Kind, ms: number) { if (this.on) (this.samples.get(kind) ?? this.samples.set(kind, []).get(kind)!).push(ms); }
  fail(kind: Kind, code: string) {
    if (!this.on) return;
    const into = code.startsWith('409') ? this.conflicts : this.errors;
    const m = into.get(kind) ?? into.set(kind, new Map()).get(kind)!;
    m.set(code, (m.get(code) ?? 0) + 1);
  }
}

interface Answer { status: number; body: Record<string, unknown> & { code?: string } }

function client(base: string, rec: () => Recorder) {
  /** `expected`: codes that are a step of the flow (the joint-exam question), counted as neither error nor conflict. */
  return async (kind: Kind, token: string, method: string, route: string, body?: unknown, expected: string[] = []): Promise<Answer | null> => {
    const started = performance.now();
    try {
      const res = await fetch(`${base}${route}`, {
        method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      const json = (text ? JSON.parse(text) : {}) as Answer['body'];
      rec().add(kind, ms);
      if (res.status >= 300 && !expected.includes(json.code ?? '')) rec().fail(kind, `${res.status} ${json.code ?? ''}`.trim());
      return { status: res.status, body: json };
    } catch (err) {
      rec().add(kind, performance.now() - started);
      rec().fail(kind, (err as Error).message.slice(0, 40));
      return null;
    }
  };
}
type Call = ReturnType<typeof client>;

// ── what each role asks ─────────────────────────────────────────────────────
const byExamTime = [{ field: 'examTime', direction: 'desc' as const }];
const snapshot = (): Filter => ({ field: 'created', operator: 'lte', values: [new Date().toISOString()] });
const status = (values: string[]): Filter => ({ field: 'reportStatus', operator: 'in', values });
const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳'];
const FINDING = '双肺纹理清晰，走行自然，肺野内未见明显实变影。两肺门不大，纵隔居中。心影大小、形态未见异常。';

interface Ctx {
  call: Call; ids: Ids; tokens: Record<string, string>; statsToken: string;
  deadline: number; pause: (rng: () => number, min: number, max: number) => Promise<void>;
  /** queueNo → when its call-next was sent, for the screens' event latency. */
  calledAt: Map<string, number>;
}
const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function registryToday(timeZone: string): Filter[] {
  const day = dayOf(new Date(), timeZone);
  return [
    { field: 'scheduledTime', operator: 'gte', values: [instantIn(day, 0, timeZone).toISOString()] },
    { field: 'scheduledTime', operator: 'lt', values: [instantIn(addDays(day, 1), 0, timeZone).toISOString()] },
    { field: 'sourceScope', operator: 'equal', values: ['internal'] },
  ];
}

interface ReportView { id: number; version: number; status: string }
interface ExamItem { id: number; reportId: number | null }

/** Opens an exam as the workspace does: the exam's detail, its report (made when it has none), then the editing lock. */
async function openReport(c: Ctx, token: string, exam: ExamItem): Promise<ReportView | null> {
  await c.call('exam-detail', token, 'GET', `exams/${exam.id}/detail${exam.reportId ? `?reportId=${exam.reportId}` : ''}`);
  const view = exam.reportId
    ? await c.call('report-detail', token, 'GET', `reports/${exam.reportId}/detail`)
    : await c.call('report-open', token, 'POST', `exams/${exam.id}/reports`, {});
  if (!view || view.status >= 300) return null;
  return view.body as unknown as ReportView;
}

/**
 * Submit as the workspace does: when the patient has other exams that may share the report, the server answers 409
 * JointExamsPending with them, the user decides (here: each reported on its own) and the client submits again.
 */
async function submitReport(call: Call, token: string, id: number, version: number, finding: string): Promise<Answer | null> {
  const body = { version, finding, diagnosis: '<p>胸部未见明显异常。</p>', allowAdvisorEdit: false };
  const first = await call('submit', token, 'POST', `reports/${id}/submit`, body, ['JointExamsPending']);
  if (first?.status !== 409 || first.body.code !== 'JointExamsPending') return first;
  const pending = ((first.body.details as { exams?: { id: number }[] } | undefined)?.exams ?? []).map((e) => e.id);
  return call('submit', token, 'POST', `reports/${id}/submit`, { ...body, jointExams: { confirm: [], discard: pending } });
}

async function radiologist(c: Ctx, rng: () => number, token: string, index: number): Promise<void> {
  while (Date.now() < c.deadline) {
    await c.call('page', token, 'POST', 'exams/page-query', { filters: [snapshot()], sorts: byExamTime, skip: 20 * Math.floor(rng() * 3), limit: 20 });
    await c.pause(rng, 1, 4);
    const page = await c.call('page-unreported', token, 'POST', 'exams/page-query',
      // Each radiologist works from a page of their own (of the first 20), as colleagues split the list.
      { filters: [snapshot(), status(['none'])], sorts: byExamTime, skip: 20 * ((index + Math.floor(rng() * 2)) % 20), limit: 20 });
    const items = ((page?.body.items ?? []) as ExamItem[]);
    if (items.length === 0) { await c.pause(rng, 1, 3); continue; }
    await c.pause(rng, 1, 3);
    const opened = await openReport(c, token, pick(rng, items));
    if (!opened) continue;
    // The first keystroke takes the lock (machines/reportWorkspace.ts requestLock); then saves at a typing pace.
    const locked = await c.call('lock', token, 'POST', `reports/${opened.id}/lock`, { version: opened.version });
    if (!locked || locked.status >= 300) continue;
    let version = (locked.body as unknown as ReportView).version;
    let text = '';
    const saves = 2 + Math.floor(rng() * 4);
    for (let i = 0; i < saves && Date.now() < c.deadline; i++) {
      await c.pause(rng, 2, 6);
      text += FINDING.slice(0, 10 + Math.floor(rng() * 30));
      const saved = await c.call('save', token, 'POST', `reports/${opened.id}/save`, { version, finding: `<p>${text}</p>`, diagnosis: '<p>胸部未见明显异常。</p>', allowAdvisorEdit: false });
      if (!saved || saved.status >= 300) break;
      version = (saved.body as unknown as ReportView).version;
    }
    await c.pause(rng, 1, 3);
    await submitReport(c.call, token, opened.id, version, `<p>${text}</p>`);
    await c.pause(rng, 1, 3);
  }
}

async function chief(c: Ctx, rng: () => number, token: string): Promise<void> {
  while (Date.now() < c.deadline) {
    const page = await c.call('approve-page', token, 'POST', 'exams/page-query', { filters: [snapshot(), status(['final'])], sorts: byExamTime, skip: 0, limit: 20 });
    const items = ((page?.body.items ?? []) as ExamItem[]).filter((i) => i.reportId);
    if (items.length === 0) { await c.pause(rng, 3, 8); continue; }
    const item = pick(rng, items);
    const view = await c.call('report-detail', token, 'GET', `reports/${item.reportId}/detail`);
    if (!view || view.status >= 300) continue;
    await c.pause(rng, 3, 10);
    await c.call('approve', token, 'POST', `reports/${item.reportId}/approve`, { version: (view.body as unknown as ReportView).version });
    await c.pause(rng, 1, 3);
  }
}

function registration(c: Ctx, rng: () => number) {
  const modality = pick(rng, c.ids.queueTypes.map((q) => q.modality ?? 'CT'));
  return {
    bucketId: c.ids.bucketId,
    patient: {
      patientName: pick(rng, SURNAMES) + pick(rng, GIVEN) + pick(rng, GIVEN), patientGender: pick(rng, ['M', 'F']), patientSource: pick(rng, ['O', 'O', 'O', 'I', 'E']),
      age: 20 + Math.floor(rng() * 60), phone: `139${String(Math.floor(rng() * 1e8)).padStart(8, '0')}`,
      // The source's own number (contract SOURCE_REQUIRED_FIELDS): the HIS card of an outpatient, the ward bed of an inpatient.
      outpatientId: `MZ${Math.floor(rng() * 1e8)}`, inpatientId: `ZY${Math.floor(rng() * 1e7)}`, bedNum: String(1 + Math.floor(rng() * 60)),
    },
    exams: [{ modality, scheduledTime: new Date(Date.now() + 5 * 60_000).toISOString() }],
  };
}

async function registrar(c: Ctx, rng: () => number, token: string): Promise<void> {
  while (Date.now() < c.deadline) {
    await c.call('registry-query', token, 'POST', `buckets/${c.ids.bucketId}/registry/query`, { filters: registryToday(c.ids.timeZone), skip: 0, limit: 10 });
    await c.pause(rng, 2, 6); // typing the patient in
    const reg = await c.call('register', token, 'POST', 'registry', registration(c, rng));
    if (!reg || reg.status >= 300) continue;
    await c.pause(rng, 1, 4);
    // The patient arrives at the desk: Arrived puts the line into today's queue of its modality.
    const lines = reg.body.lines as { examId: number }[];
    await c.call('check-in', token, 'POST', 'exam/status', { examId: lines[0]!.examId, status: 'Arrived', version: reg.body.version });
    await c.pause(rng, 1, 4);
  }
}

async function operator(c: Ctx, rng: () => number, token: string, queueTypeId: number): Promise<void> {
  while (Date.now() < c.deadline) {
    const sent = performance.now();
    const called = await c.call('call-next', token, 'POST', 'queue-exams/call-next', { bucketId: c.ids.bucketId, queueTypeId });
    if (called?.status === 200) c.calledAt.set(String(called.body.queueNo), sent);
    await c.call('queue-board', token, 'GET', `buckets/${c.ids.bucketId}/queue-exams`);
    await c.pause(rng, 5, 15); // the exam in the room
  }
}

async function statistics(c: Ctx, rng: () => number): Promise<void> {
  const names = ['statistics/study', 'statistics/modality', 'statistics/report', 'statistics/registrar', 'statistics/report-positive'];
  const to = dayIn(new Date(), c.ids.timeZone);
  const from = dayIn(new Date(Date.now() - 29 * 86_400_000), c.ids.timeZone);
  while (Date.now() < c.deadline) {
    await c.call('statistics', c.statsToken, 'POST', pick(rng, names), { groupId: c.ids.groupId, from, to, unit: 'day', by: pick(rng, ['modality', 'radiologist']) });
    await c.pause(rng, 5, 20);
  }
}

/** A waiting-room screen: the stream held open; every `call` event timed from its call-next's sending. */
function screen(c: Ctx, base: string, token: string, rec: () => Recorder, counts: { state: number; call: number; opened: number; failed: number }): AbortController {
  const abort = new AbortController();
  void (async () => {
    try {
      const res = await fetch(`${base}buckets/${c.ids.bucketId}/screen/stream`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
      if (res.status !== 200 || !res.body) { counts.failed++; return; }
      counts.opened++;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(message)?.[1];
          if (event === 'state') counts.state++;
          if (event === 'call') {
            counts.call++;
            const data = JSON.parse(/^data: (.*)$/m.exec(message)?.[1] ?? '{}') as { queueNo?: string };
            const sent = c.calledAt.get(data.queueNo ?? '');
            if (sent !== undefined) rec().add('screen-call-event', performance.now() - sent);
          }
        }
      }
    } catch {
      if (!abort.signal.aborted) counts.failed++;
    }
  })();
  return abort;
}

// ── roles in a department's proportions ─────────────────────────────────────
const ROLES = [
  ['radiologist', 50], ['registrar', 15], ['operator', 10], ['screen', 10], ['chief', 5], ['statistics', 5], ['radiologist', 5],
] as const;
type Role = 'radiologist' | 'registrar' | 'operator' | 'screen' | 'chief' | 'statistics';

/** `users` roles by largest remainder over ROLES' weights, at least one of each. */
function rolesFor(users: number): Role[] {
  const weights = new Map<Role, number>();
  for (const [role, w] of ROLES) weights.set(role, (weights.get(role) ?? 0) + w);
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const shares = [...weights].map(([role, w]) => ({ role, exact: (users * w) / total, n: Math.max(1, Math.floor((users * w) / total)) }));
  let left = users - shares.reduce((a, s) => a + s.n, 0);
  for (const s of [...shares].sort((a, b) => (b.exact % 1) - (a.exact % 1))) { if (left-- > 0) s.n++; }
  return shares.flatMap((s) => Array<Role>(s.n).fill(s.role));
}

// ── the database seen from inside: connections in use and lock waits ────────
interface DbSample { inUse: number[]; active: number[]; idleInTransaction: number[]; lockWaits: number[]; waiting: Map<string, number> }
function sampler(url: string): { stop: () => Promise<DbSample> } {
  const out: DbSample = { inUse: [], active: [], idleInTransaction: [], lockWaits: [], waiting: new Map() };
  const c = new pg.Client({ connectionString: url });
  let running = true;
  const loop = (async () => {
    await c.connect();
    while (running) {
      const { rows } = await c.query<{ state: string | null; wait: string | null; query: string }>(
        `select state, wait_event_type as wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`);
      const busy = rows.filter((r) => r.state && r.state !== 'idle');
      out.inUse.push(busy.length);
      out.active.push(rows.filter((r) => r.state === 'active').length);
      // A transaction open while the server computes (or waits for its event loop) holds its row locks and its connection.
      out.idleInTransaction.push(rows.filter((r) => r.state === 'idle in transaction').length);
      const locks = rows.filter((r) => r.wait === 'Lock');
      out.lockWaits.push(locks.length);
      for (const l of locks) out.waiting.set(l.query, (out.waiting.get(l.query) ?? 0) + 1);
      await sleep(500);
    }
    await c.end();
  })();
  return { stop: async () => { running = false; await loop; return out; } };
}

/** The machine's idle and busy CPU ticks so far (the first line of /proc/stat), to tell a busy machine from a busy server. */
function machineTicks(): { idle: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: f[3]! + f[4]!, total: f.reduce((a, b) => a + b, 0) };
}

// ── the solo phase: each kind alone, its server CPU per request ─────────────
async function solo<T>(kind: Kind, pid: number, items: T[], op: (item: T) => Promise<unknown>): Promise<{ kind: Kind; n: number; cpuMsPerRequest: number; p50: number; failed: number }> {
  const rec = new Recorder();
  current = rec;
  let next = 0;
  const before = cpuMs(pid);
  const times: number[] = [];
  await Promise.all(Array.from({ length: SOLO_CONCURRENCY }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      const t0 = performance.now();
      await op(item);
      times.push(performance.now() - t0);
    }
  }));
  await sleep(200); // the screens' refreshes after a publish run after the answer
  const cpu = cpuMs(pid) - before;
  times.sort((a, b) => a - b);
  const failed = [...rec.errors.values(), ...rec.conflicts.values()].reduce((a, m) => a + [...m.values()].reduce((x, y) => x + y, 0), 0);
  return { kind, n: items.length, cpuMsPerRequest: items.length ? cpu / items.length : 0, p50: percentile(times, 50), failed };
}

// ── main ────────────────────────────────────────────────────────────────────
if (!process.env.DATABASE_URL && !process.env.BENCH_DATABASE_URL) {
  console.log('bench:department runs on PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  process.exit(0);
}
const runStarted = new Date();
const loadAtStart = loadavg()[0]!;
const database = await benchDatabase('department', 'postgres');
const ids = await prepare(database);
const exams = await examCount(database.db);
const registrations = await registrationCount(database.db, ids.bucketId);
console.log(`\nbench:department — PostgreSQL bench_department: ${exams.toLocaleString('en')} exams, ${registrations.toLocaleString('en')} registrations, `
  + `queue of ${QUEUE.toLocaleString('en')} today; ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

const server = await startServer();
const pid = server.child.pid!;
process.on('exit', () => { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } });
// Declared before solo() runs: the recorder the client writes into (each solo kind and each level its own).
let current = new Recorder();
const call = client(server.base, () => current);
const tokens: Record<string, string> = {};
for (const user of ['rad1', 'rad2', 'chief', 'registrar', 'admin']) {
  const res = await fetch(`${server.base}accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user, password: DEMO_PASSWORD }) });
  tokens[user] = ((await res.json()) as { accessToken: string }).accessToken;
}
const statsProbe = { groupId: ids.groupId, from: dayIn(new Date(Date.now() - 29 * 86_400_000), ids.timeZone), to: dayIn(new Date(), ids.timeZone), unit: 'day' };
let statsToken = tokens.chief!;
if ((await call('statistics', statsToken, 'POST', 'statistics/study', statsProbe))?.status !== 200) statsToken = tokens.admin!;

// Solo: each kind alone, the state it needs made untimed first.
const q0 = await resetQueue(database, ids);
console.log(`queue today: ${q0.entries} entries, ${q0.waiting} waiting`);
const soloRows: Awaited<ReturnType<typeof solo>>[] = [];
// `--solo 0` skips it (a quick look at the levels; the CPU column is then empty).
if (SOLO > 0) {
  const n = SOLO;
  const rad = tokens.rad1!;
  const pageBody = () => ({ filters: [snapshot()], sorts: byExamTime, limit: 20 });
  const unreported = (skip: number) => ({ filters: [snapshot(), status(['none'])], sorts: byExamTime, skip, limit: 20 });
  for (let i = 0; i < 10; i++) await call('page', rad, 'POST', 'exams/page-query', pageBody()); // warm the server's JIT and plans
  soloRows.push(await solo('page', pid, Array.from({ length: n }), () => call('page', rad, 'POST', 'exams/page-query', pageBody())));
  soloRows.push(await solo('page-unreported', pid, Array.from({ length: n }, (_, i) => i % 10), (p) => call('page-unreported', rad, 'POST', 'exams/page-query', unreported(p * 20))));
  // Exams without a report of rad1's worklist (from the unreported pages, offsets past the radiologists' during the levels).
  const fresh: ExamItem[] = [];
  for (let skip = 400; fresh.length < n * 2 && skip < 400 + 40 * n; skip += 100) {
    const page = await call('page-unreported', rad, 'POST', 'exams/page-query', { ...unreported(skip), limit: 100 });
    fresh.push(...((page?.body.items ?? []) as ExamItem[]).filter((e) => !e.reportId && !fresh.some((f) => f.id === e.id)));
  }
  const mine = fresh.slice(0, n);
  soloRows.push(await solo('exam-detail', pid, mine, (e) => call('exam-detail', rad, 'GET', `exams/${e.id}/detail`)));
  const views: ReportView[] = [];
  soloRows.push(await solo('report-open', pid, mine, async (e) => {
    const v = await call('report-open', rad, 'POST', `exams/${e.id}/reports`, {});
    if (v && v.status < 300) views.push(v.body as unknown as ReportView);
  }));
  soloRows.push(await solo('report-detail', pid, views, (v) => call('report-detail', rad, 'GET', `reports/${v.id}/detail`)));
  const lockedViews: ReportView[] = [];
  soloRows.push(await solo('lock', pid, views, async (v) => {
    const l = await call('lock', rad, 'POST', `reports/${v.id}/lock`, { version: v.version });
    if (l && l.status < 300) lockedViews.push(l.body as unknown as ReportView);
  }));
  const savedViews: ReportView[] = [];
  soloRows.push(await solo('save', pid, lockedViews, async (v) => {
    const s = await call('save', rad, 'POST', `reports/${v.id}/save`, { version: v.version, finding: `<p>${FINDING}</p>`, diagnosis: '<p>胸部未见明显异常。</p>', allowAdvisorEdit: false });
    if (s && s.status < 300) savedViews.push(s.body as unknown as ReportView);
  }));
  const submitted: ReportView[] = [];
  soloRows.push(await solo('submit', pid, savedViews, async (v) => {
    const s = await submitReport(call, rad, v.id, v.version, `<p>${FINDING}</p>`);
    if (s && s.status < 300) submitted.push(s.body as unknown as ReportView);
  }));
  soloRows.push(await solo('approve', pid, submitted, (v) => call('approve', tokens.chief!, 'POST', `reports/${v.id}/approve`, { version: v.version })));
  soloRows.push(await solo('approve-page', pid, Array.from({ length: n }), () => call('approve-page', tokens.chief!, 'POST', 'exams/page-query', { filters: [snapshot(), status(['final'])], sorts: byExamTime, limit: 20 })));
  const reg = tokens.registrar!;
  const soloCtx = { ids } as Ctx;
  const soloRng = mulberry32(SEED * 7919);
  soloRows.push(await solo('registry-query', pid, Array.from({ length: n }), () => call('registry-query', reg, 'POST', `buckets/${ids.bucketId}/registry/query`, { filters: registryToday(ids.timeZone), skip: 0, limit: 10 })));
  const made: { examId: number; version: number }[] = [];
  soloRows.push(await solo('register', pid, Array.from({ length: Math.min(n, 150) }), async () => {
    const r = await call('register', reg, 'POST', 'registry', registration(soloCtx, soloRng));
    if (r && r.status < 300) made.push({ examId: (r.body.lines as { examId: number }[])[0]!.examId, version: Number(r.body.version) });
  }));
  soloRows.push(await solo('check-in', pid, made, (m) => call('check-in', reg, 'POST', 'exam/status', { examId: m.examId, status: 'Arrived', version: m.version })));
  const perQueue = Math.floor(q0.waiting / ids.queueTypes.length);
  soloRows.push(await solo('call-next', pid, Array.from({ length: Math.min(n, perQueue) }, (_, i) => ids.queueTypes[i % ids.queueTypes.length]!.id),
    (queueTypeId) => call('call-next', reg, 'POST', 'queue-exams/call-next', { bucketId: ids.bucketId, queueTypeId })));
  soloRows.push(await solo('queue-board', pid, Array.from({ length: Math.min(n, 100) }), () => call('queue-board', reg, 'GET', `buckets/${ids.bucketId}/queue-exams`)));
  soloRows.push(await solo('statistics', pid, Array.from({ length: 20 }, (_, i) => ['statistics/study', 'statistics/modality', 'statistics/report', 'statistics/registrar', 'statistics/report-positive'][i % 5]!),
    (route) => call('statistics', statsToken, 'POST', route, statsProbe)));
  // call-next again with 10 screens listening: the fan-out's share (each publish re-reads the screen state per stream).
  {
    const counts = { state: 0, call: 0, opened: 0, failed: 0 };
    const ctx = { ids, calledAt: new Map() } as unknown as Ctx;
    const screens = Array.from({ length: 10 }, () => screen(ctx, server.base, reg, () => current, counts));
    await sleep(1000);
    const row = await solo('call-next', pid, Array.from({ length: Math.min(60, perQueue) }, (_, i) => ids.queueTypes[i % ids.queueTypes.length]!.id),
      (queueTypeId) => call('call-next', reg, 'POST', 'queue-exams/call-next', { bucketId: ids.bucketId, queueTypeId }));
    await sleep(500);
    screens.forEach((s) => s.abort());
    soloRows.push({ ...row, kind: 'call-next (10 screens)' as Kind });
  }
}
const cpuOf = new Map<string, number>(soloRows.map((r) => [r.kind, r.cpuMsPerRequest]));
console.log(`\nsolo: each kind alone, ${SOLO_CONCURRENCY} at a time; server CPU = (user + system time of the server process) / requests, 10 ms ticks`);
console.log(`${'kind'.padEnd(24)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'CPU ms/req'.padStart(11)} ${'non-2xx'.padStart(8)}`);
for (const r of soloRows) console.log(`${r.kind.padEnd(24)} ${String(r.n).padStart(5)} ${r.p50.toFixed(1).padStart(8)} ${r.cpuMsPerRequest.toFixed(2).padStart(11)} ${String(r.failed).padStart(8)}`);

// The levels.
interface LevelResult {
  users: number; roles: Record<string, number>; seconds: number; serverCpuPercent: number; loadGeneratorPercent: number; machineIdlePercent: number; load: number;
  kinds: { kind: Kind; n: number; p50: number; p95: number; p99: number; max: number; errors: Record<string, number>; conflicts: Record<string, number>; cpuMsPerRequest: number | null }[];
  screens: { opened: number; failed: number; stateEvents: number; callEvents: number };
  db: { poolMax: number; plannedPoolMax: number; inUseMax: number; inUseMean: number; activeMean: number; idleInTransactionMean: number; lockWaitSamples: number; lockWaitMax: number; topLockWaits: [string, number][] };
}
const levels: LevelResult[] = [];
for (const users of LEVELS) {
  const q = await resetQueue(database, ids);
  const roles = rolesFor(users);
  const rec = new Recorder();
  current = rec;
  const ctx: Ctx = {
    call, ids, tokens, statsToken, deadline: Date.now() + SECONDS * 1000, calledAt: new Map(),
    pause: (rng, min, max) => sleep(THINK * (min + rng() * (max - min)) * 1000),
  };
  const counts = { state: 0, call: 0, opened: 0, failed: 0 };
  const db = sampler(benchUrl());
  const cpuBefore = cpuMs(pid);
  const selfBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const wallBefore = performance.now();
  let operators = 0;
  let radiologists = 0;
  const screens: AbortController[] = [];
  const loops = roles.map(async (role, i) => {
    const rng = mulberry32(SEED * 100_003 + users * 1_009 + i);
    // Users arrive over the first seconds, not all in one instant.
    await sleep(rng() * Math.min(5_000, SECONDS * 100));
    switch (role) {
      case 'radiologist': { const r = radiologists++; return radiologist(ctx, rng, r % 2 ? tokens.rad2! : tokens.rad1!, r); }
      case 'chief': return chief(ctx, rng, tokens.chief!);
      case 'registrar': return registrar(ctx, rng, tokens.registrar!);
      case 'operator': return operator(ctx, rng, tokens.registrar!, ids.queueTypes[operators++ % ids.queueTypes.length]!.id);
      case 'statistics': return statistics(ctx, rng);
      case 'screen': screens.push(screen(ctx, server.base, tokens.registrar!, () => rec, counts)); return undefined;
    }
  });
  await Promise.all(loops);
  const wall = performance.now() - wallBefore;
  const cpu = cpuMs(pid) - cpuBefore;
  const self = process.cpuUsage(selfBefore);
  const machine = machineTicks();
  const idlePercent = Math.round(((machine.idle - machineBefore.idle) / Math.max(1, machine.total - machineBefore.total)) * 1000) / 10;
  const loadGeneratorPercent = Math.round(((self.user + self.system) / 1000 / wall) * 1000) / 10;
  await sleep(300);
  screens.forEach((s) => s.abort());
  const sample = await db.stop();
  const tally: Record<string, number> = {};
  for (const r of roles) tally[r] = (tally[r] ?? 0) + 1;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const result: LevelResult = {
    users, roles: tally, seconds: Math.round(wall / 100) / 10, serverCpuPercent: Math.round((cpu / wall) * 1000) / 10, loadGeneratorPercent, machineIdlePercent: idlePercent, load: loadavg()[0]!,
    kinds: KINDS.filter((k) => rec.samples.has(k)).map((kind) => {
      const s = rec.samples.get(kind)!.sort((a, b) => a - b);
      return {
        kind, n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1)!,
        errors: Object.fromEntries(rec.errors.get(kind) ?? []), conflicts: Object.fromEntries(rec.conflicts.get(kind) ?? []), cpuMsPerRequest: cpuOf.get(kind) ?? null,
      };
    }),
    screens: { opened: counts.opened, failed: counts.failed, stateEvents: counts.state, callEvents: counts.call },
    db: {
      poolMax: 20, plannedPoolMax: 10, inUseMax: Math.max(0, ...sample.inUse), inUseMean: mean(sample.inUse), activeMean: mean(sample.active), idleInTransactionMean: mean(sample.idleInTransaction),
      lockWaitSamples: sample.lockWaits.filter((x) => x > 0).length, lockWaitMax: Math.max(0, ...sample.lockWaits),
      topLockWaits: [...sample.waiting].sort((a, b) => b[1] - a[1]).slice(0, 5),
    },
  };
  levels.push(result);
  const f = (v: number) => v.toFixed(v < 10 ? 1 : 0);
  console.log(`\n${users} users (${Object.entries(tally).map(([r, k]) => `${k} ${r}`).join(', ')}), ${result.seconds} s, think × ${THINK}; `
    + `queue ${q.entries} today, ${q.waiting} waiting at the start; server CPU ${result.serverCpuPercent} % of one core, this load generator ${loadGeneratorPercent} %, machine idle ${idlePercent} %; load ${result.load.toFixed(2)}`);
  console.log(`${'kind'.padEnd(18)} ${'n'.padStart(6)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)} ${'CPU ms/req'.padStart(11)}  errors; 409 conflicts`);
  for (const k of result.kinds) {
    const list = (m: Record<string, number>) => Object.entries(m).map(([code, c]) => `${c}× ${code}`).join(', ');
    const errs = `${list(k.errors) || '0'}${Object.keys(k.conflicts).length ? `; ${list(k.conflicts)}` : ''}`;
    console.log(`${(k.kind + (INTERACTIVE.has(k.kind) ? ' *' : '')).padEnd(18)} ${String(k.n).padStart(6)} ${f(k.p50).padStart(7)} ${f(k.p95).padStart(7)} ${f(k.p99).padStart(7)} ${f(k.max).padStart(7)} `
      + `${(k.cpuMsPerRequest === null ? '-' : k.cpuMsPerRequest.toFixed(2)).padStart(11)}  ${errs}`);
  }
  console.log(`(ms; * interactive: target p95 ≤ 50 ms at 50 users, p99 ≤ 500 ms at 200; screen-call-event: call-next sent → the screen's "call" event)`);
  console.log(`screens: ${counts.opened} streams open (${counts.failed} failed), ${counts.state} state and ${counts.call} call events`);
  console.log(`database: the server's pools hold at most ${result.db.poolMax} + ${result.db.plannedPoolMax} connections (server/db/client.ts; their queue is not exposed); `
    + `sampled every 0.5 s: ${result.db.inUseMax} busy at most, ${result.db.inUseMean.toFixed(1)} busy, ${result.db.activeMean.toFixed(1)} active and ${result.db.idleInTransactionMean.toFixed(1)} idle in a transaction on average; `
    + `lock waits in ${result.db.lockWaitSamples} of ${sample.inUse.length} samples (at most ${result.db.lockWaitMax} at once)`);
  for (const [query, c] of result.db.topLockWaits) console.log(`  waiting on a lock ${c}×: ${query}`);
}

await stopServer(server);
await database.close();
mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
appendFileSync(path.join(ROOT, '.bench/department.jsonl'), `${JSON.stringify({
  at: runStarted.toISOString(), exams, registrations, queue: QUEUE, seconds: SECONDS, think: THINK, seed: SEED, cores: cpus().length,
  loadAtStart, solo: soloRows, levels,
})}\n`);
console.log('\none line appended to .bench/department.jsonl');
process.exit(0);
