/**
 * Foundation benchmark (`npm run bench:foundation`): prints numbers, never passes or fails on a time.
 *  (a) cold start to listening on embedded PGlite with a fresh DATA_DIR (migrations + demo seed), then a warm
 *      restart on the same data: `npx tsx server/main.ts` until GET /api/v1/domain answers;
 *  (b) login latency (sequential) and throughput (10 concurrent) with the scrypt cost in use;
 *  (c) gzipped JS and CSS that /login loads, against the 120 KB target (issue 37; it was 150).
 * Runs beside other work on a shared machine: read the numbers as an order of magnitude, run twice to compare.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { hashPassword, verifyPassword } from '../server/auth/password';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { freePort, percentile } from './support/stats';
import { printTable as table } from './support/table';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCRYPT_COST = Number(process.env.SCRYPT_COST ?? 16384);
const LOGIN_SEQUENTIAL = Number(process.env.BENCH_LOGINS ?? 200);
const LOGIN_CONCURRENCY = 10;
const BUNDLE_TARGET_KB = 120; // issue 37 (was 150)
const GZIP_LEVEL = 6; // what a proxy or @fastify/compress sends by default; level 9 saves a few more percent

const children = new Set<ChildProcess>();
process.on('exit', () => { for (const c of children) killGroup(c, 'SIGKILL'); });

// ── helpers ─────────────────────────────────────────────────────────────────
const ms = (v: number) => v.toFixed(v < 10 ? 1 : 0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** npx → tsx → node: signal the whole process group so the server itself gets it and closes PGlite cleanly. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try { process.kill(-child.pid, signal); } catch { /* already gone */ }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) { children.delete(child); return; }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

/** Spawns the server and measures the time until GET /api/v1/domain answers 200. */
async function startServer(dataDir: string, port: number): Promise<{ child: ChildProcess; ms: number; inProcessMs: number | null; base: string }> {
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn('npx', ['tsx', 'server/main.ts'], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DICOM_PORT: '0', HL7_PORT: '0', HOST: '127.0.0.1', LOG: '1', SCRYPT_COST: String(SCRYPT_COST), DATABASE_URL: '' },
  });
  children.add(child);
  let stderr = '';
  let inProcessMs: number | null = null;
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  // main.ts logs "listening on ... after N ms": the time inside the server process, after Node and tsx are up.
  child.stdout?.on('data', (d: Buffer) => {
    const m = /listening on [^"]* after (\d+) ms/.exec(d.toString());
    if (m) inProcessMs = Number(m[1]);
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
    try {
      const res = await fetch(`${base}/api/v1/domain`);
      if (res.status === 200) {
        const total = performance.now() - started;
        await new Promise((r) => setTimeout(r, 50)); // the log line may trail the first answer
        return { child, ms: total, inProcessMs, base };
      }
    } catch { /* not listening yet */ }
    if (performance.now() - started > 180_000) throw new Error(`server did not answer within 180 s: ${stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The same process start without the server: how much of a start is npx + tsx + Node itself. */
function toolStartMs(): number {
  const started = performance.now();
  spawnSync('npx', ['tsx', '-e', 'process.exit(0)'], { cwd: ROOT, stdio: 'ignore' });
  return performance.now() - started;
}

async function login(base: string, username: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/accounts/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status}`);
  return performance.now() - started;
}

// ── (a) start ───────────────────────────────────────────────────────────────
async function benchStart(): Promise<{ base: string; child: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-foundation-'));
  const tool = toolStartMs();
  const port = await freePort();
  const cold = await startServer(dataDir, port);
  await stop(cold.child);
  const warm = await startServer(dataDir, await freePort());
  const inside = (v: number | null) => (v === null ? '-' : ms(v));
  table('(a) start to listening (GET /api/v1/domain answers), embedded PGlite', ['run', 'total ms', 'in server ms'], [
    ['npx tsx alone (no server: the floor of every start)', ms(tool), '-'],
    ['cold: fresh DATA_DIR (create PGlite, migrate, seed demo data with ~2200 exams)', ms(cold.ms), inside(cold.inProcessMs)],
    ['warm: restart on the same DATA_DIR', ms(warm.ms), inside(warm.inProcessMs)],
  ]);
  console.log('"in server" is main.ts\'s own count from its first line to listening (config, database, seed, routes).');
  return { base: warm.base, child: warm.child, dataDir };
}

// ── (b) login ───────────────────────────────────────────────────────────────
async function benchLogin(base: string): Promise<void> {
  const users = ['rad1', 'rad2', 'chief', 'registrar', 'tech', 'expert', 'admin'];
  for (let i = 0; i < 5; i++) await login(base, users[i % users.length]!); // warm-up: JIT, pools, the decoy hash

  const sequential: number[] = [];
  for (let i = 0; i < LOGIN_SEQUENTIAL; i++) sequential.push(await login(base, users[i % users.length]!));
  sequential.sort((a, b) => a - b);

  const concurrentLatencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: LOGIN_CONCURRENCY }, async () => {
    while (next < LOGIN_SEQUENTIAL) {
      const i = next++;
      concurrentLatencies.push(await login(base, users[i % users.length]!));
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  concurrentLatencies.sort((a, b) => a - b);

  // scrypt alone, in this process: the floor under a login.
  const stored = await hashPassword(DEMO_PASSWORD, SCRYPT_COST);
  const scrypt: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await verifyPassword(DEMO_PASSWORD, stored);
    scrypt.push(performance.now() - t0);
  }
  scrypt.sort((a, b) => a - b);

  const row = (name: string, sorted: number[]) => [name, sorted.length, ms(percentile(sorted, 50)), ms(percentile(sorted, 95)), ms(percentile(sorted, 99))];
  table(`(b) POST accounts/login, scrypt N=${SCRYPT_COST}, r=8, p=1 (SCRYPT_COST), ${cpus().length} CPU, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
    ['run', 'n', 'p50 ms', 'p95 ms', 'p99 ms'], [
      row('sequential, one at a time', sequential),
      row(`${LOGIN_CONCURRENCY} concurrent`, concurrentLatencies),
      row('scrypt verify alone (in the bench process)', scrypt),
    ]);
  console.log(`throughput with ${LOGIN_CONCURRENCY} concurrent: ${(LOGIN_SEQUENTIAL / elapsed).toFixed(1)} logins/s (${LOGIN_SEQUENTIAL} in ${elapsed.toFixed(2)} s)`);
}

// ── (c) bundle ──────────────────────────────────────────────────────────────
interface ManifestChunk { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] }

/** dist/ when it is built with a manifest; otherwise a fresh build into a temp folder (dist/ may be in use by a running server). */
function clientDir(): { dir: string; note: string } | { error: string } {
  // BENCH_CLIENT_DIR: measure a build made elsewhere (e.g. `vite build --outDir .tmp/dist-x`) and keep it.
  const given = process.env.BENCH_CLIENT_DIR;
  if (given) return existsSync(path.join(given, '.vite', 'manifest.json')) ? { dir: path.resolve(given), note: given } : { error: `${given} has no .vite/manifest.json` };
  const dist = path.join(ROOT, 'dist');
  if (existsSync(path.join(dist, 'index.html')) && existsSync(path.join(dist, '.vite', 'manifest.json'))) return { dir: dist, note: 'dist/' };
  const out = existsSync(path.join(dist, 'index.html')) ? mkdtempSync(path.join(tmpdir(), 'bench-dist-')) : dist;
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', out, '--emptyOutDir'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) return { error: (build.stderr || build.stdout || '').trim().split('\n').slice(-5).join(' | ') };
  if (!existsSync(path.join(out, '.vite', 'manifest.json'))) return { error: 'the build wrote no .vite/manifest.json (build.manifest in vite.config.ts)' };
  return { dir: out, note: out === dist ? 'dist/ (built now)' : `a fresh build in ${out}` };
}

/** The route table's chunk for a path: `{ path: '/login', ... import('@/features/auth/LoginPage') }` → its source file. */
function routeSource(routePath: string): string | null {
  const routes = readFileSync(path.join(ROOT, 'src/app/routes.tsx'), 'utf8');
  const line = routes.split('\n').find((l) => l.includes(`path: '${routePath}'`));
  const spec = line && /import\('([^']+)'\)/.exec(line)?.[1];
  return spec ? spec.replace(/^@\//, 'src/') : null;
}

function benchBundle(): void {
  const found = clientDir();
  if ('error' in found) {
    console.log(`\n(c) /login bundle: client not built (${found.error}); the other numbers stand.`);
    return;
  }
  const { dir, note } = found;
  try {
    measureBundle(dir, note);
  } finally {
    if (dir !== path.join(ROOT, 'dist') && !process.env.BENCH_CLIENT_DIR) rmSync(dir, { recursive: true, force: true });
  }
}

function measureBundle(dir: string, note: string): void {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));

  const files = new Map<string, string>(); // file → why it loads
  const add = (file: string, why: string) => { if (!files.has(file)) files.set(file, why); };
  // What index.html names: the entry script, its modulepreloads, its stylesheets.
  for (const m of html.matchAll(/<(script|link)\b([^>]*)>/g)) {
    const attrs = m[2]!;
    const url = /\b(?:src|href)="([^"]+)"/.exec(attrs)?.[1];
    if (!url || /^https?:/.test(url)) continue;
    if (m[1] === 'script' && /type="module"/.test(attrs)) add(url.replace(/^\//, ''), 'index.html script');
    else if (/rel="(modulepreload|stylesheet)"/.test(attrs)) add(url.replace(/^\//, ''), `index.html ${/rel="(\w+)"/.exec(attrs)![1]}`);
  }
  // Static imports of a chunk, transitively, with their CSS.
  const walk = (key: string, why: string) => {
    const chunk = manifest[key];
    if (!chunk) return;
    add(chunk.file, why);
    for (const css of chunk.css ?? []) add(css, `css of ${chunk.src ?? key}`);
    for (const imp of chunk.imports ?? []) if (!files.has(manifest[imp]?.file ?? '')) walk(imp, `imported by ${chunk.src ?? key}`);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key, 'entry');
  // The screen itself: a lazy chunk the router loads for /login.
  const screen = routeSource('/login');
  const screenKey = screen && Object.keys(manifest).find((k) => k.replace(/\.[jt]sx?$/, '') === screen);
  if (screenKey) walk(screenKey, '/login screen (lazy)');
  else console.log(`(c) note: no chunk found for the /login screen (${screen ?? 'not in src/app/routes.tsx'})`);

  const rows = [...files].map(([file, why]) => {
    const bytes = readFileSync(path.join(dir, file));
    return { file, why, raw: bytes.length, gz: gzipSync(bytes, { level: GZIP_LEVEL }).length, name: byFile.get(file) };
  }).sort((a, b) => b.gz - a.gz);
  const js = rows.filter((r) => r.file.endsWith('.js')).reduce((n, r) => n + r.gz, 0);
  const css = rows.filter((r) => r.file.endsWith('.css')).reduce((n, r) => n + r.gz, 0);
  table(`(c) JS and CSS that /login loads, from ${note} (gzip level ${GZIP_LEVEL})`, ['file', 'why', 'raw KB', 'gzip KB'],
    [...rows.map((r) => [r.file, r.why, kb(r.raw), kb(r.gz)]),
      ['total JS', '', kb(rows.filter((r) => r.file.endsWith('.js')).reduce((n, r) => n + r.raw, 0)), kb(js)],
      ['total CSS', '', kb(rows.filter((r) => r.file.endsWith('.css')).reduce((n, r) => n + r.raw, 0)), kb(css)]]);
  console.log(`total gzip ${kb(js + css)} KB against the ${BUNDLE_TARGET_KB} KB target (${((js + css) / 1024 / BUNDLE_TARGET_KB * 100).toFixed(0)}% of it)`);
}

// ── run ─────────────────────────────────────────────────────────────────────
if (process.env.BENCH_ONLY === 'bundle') {
  benchBundle();
  process.exit(0);
}
console.log(`foundation benchmark — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString()}`);
let server: { child: ChildProcess; dataDir: string } | null = null;
try {
  const started = await benchStart();
  server = started;
  await benchLogin(started.base);
} catch (err) {
  console.log(`\nserver part failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  if (server) {
    await stop(server.child);
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}
benchBundle();
