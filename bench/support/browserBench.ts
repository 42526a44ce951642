/**
 * What the browser benches share (report-ui, registry-ui, calling-ui): a production build of the client, the real
 * server started as its own process on a fresh embedded database with the demo data, Debian's Chromium, a signed-in
 * page, and percentiles. Benches print numbers and never pass or fail on a time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { untilAnswering } from './answering';
import { freePort, percentile } from './stats';

export { percentile };

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

const children = new Set<ChildProcess>();
const cleanup: (() => void)[] = [];
process.on('exit', () => {
  for (const child of children) if (child.pid) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
  for (const fn of cleanup) fn();
});

/** label, runs, p50, p95, max (ms, whole numbers) of one set of samples. */
export function summary(label: string, samples: number[]): string[] {
  const sorted = [...samples].sort((a, b) => a - b);
  return [label, String(samples.length), percentile(sorted, 50).toFixed(0), percentile(sorted, 95).toFixed(0), sorted.at(-1)!.toFixed(0)];
}

/** BENCH_CLIENT_DIR, or a fresh production build in a temporary folder (removed at exit). */
export function clientDir(name: string): string {
  if (process.env.BENCH_CLIENT_DIR) return path.resolve(process.env.BENCH_CLIENT_DIR);
  const out = mkdtempSync(path.join(tmpdir(), `bench-${name}-client-`));
  cleanup.push(() => rmSync(out, { recursive: true, force: true }));
  const build = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(path.join(out, 'index.html'))) throw new Error('vite build failed');
  return out;
}

/** `server/main.ts` in its own process group on a free port and a fresh PGlite data folder; resolves with its base URL. */
export async function startServer(name: string, client: string): Promise<string> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-${name}-data-`));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), DICOM_PORT: '0', HL7_PORT: '0', DATA_DIR: dataDir, CLIENT_DIR: client, SCRYPT_COST: '1024', LOG: '0', DATABASE_URL: '' },
  });
  children.add(child);
  child.unref();
  const base = `http://127.0.0.1:${port}`;
  await untilAnswering(`${base}/api/v1/domain`, 120_000, 200);
  return base;
}

export function stopServers(): void {
  for (const child of children) if (child.pid) try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
  children.clear();
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Signs a demo account in through the login form and waits to leave /login. */
export async function signIn(page: Page, username: string): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(DEMO_PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Rejects with `what()` when the promise takes longer than `seconds`. */
export function withinSeconds<T>(promise: Promise<T>, seconds: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Runs a bench's main: stops the server either way, prints an error and sets a failing exit code. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => stopServers(),
    (error: unknown) => {
      console.error(error);
      stopServers();
      process.exitCode = 1;
    },
  );
}

/** Prints summary() rows under a path / runs / p50 / p95 / max head, numbers right-aligned. */
export function printSummaries(rows: string[][]): void {
  const head = ['path', 'runs', 'p50 ms', 'p95 ms', 'max ms'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${line(head)}`);
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
