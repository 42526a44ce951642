/**
 * Report workspace benchmark (`npm run bench:report-ui`): prints numbers, never passes or fails on a time.
 * In Debian's Chromium with Playwright, against the real server (fresh PGlite database, demo data, built client):
 *  (a) worklist → workspace: from pressing Enter on a focused worklist row (the view "not yet reported") to the
 *      findings editor being editable and focused — the worklist's open, the draft creation (POST exams/{id}/reports),
 *      the workspace chunk, GET report detail and the editor's first paint;
 *  (b) the same from opening the workspace URL in a new page load (a bookmark, a reload): navigation start to the
 *      editable editor, including the app's own start (session, permissions).
 * Each measures BENCH_RUNS (default 20) different exams after 2 warm-up runs; p50 / p95 / max in milliseconds.
 * BENCH_CLIENT_DIR uses an existing build instead of building into a temporary folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../server/seed/demo';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;

const children = new Set<ChildProcess>();
const cleanup: (() => void)[] = [];
process.on('exit', () => {
  for (const child of children) if (child.pid) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
  for (const fn of cleanup) fn();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function summary(label: string, samples: number[]): string[] {
  const sorted = [...samples].sort((a, b) => a - b);
  return [label, String(samples.length), percentile(sorted, 50).toFixed(0), percentile(sorted, 95).toFixed(0), sorted.at(-1)!.toFixed(0)];
}

function clientDir(): string {
  if (process.env.BENCH_CLIENT_DIR) return path.resolve(process.env.BENCH_CLIENT_DIR);
  const out = mkdtempSync(path.join(tmpdir(), 'bench-report-ui-client-'));
  cleanup.push(() => rmSync(out, { recursive: true, force: true }));
  const build = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(path.join(out, 'index.html'))) throw new Error('vite build failed');
  return out;
}

async function startServer(client: string): Promise<{ base: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-report-ui-data-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, CLIENT_DIR: client, SCRYPT_COST: '1024', LOG: '0', DATABASE_URL: '' },
  });
  children.add(child);
  child.unref();
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/v1/domain`)).ok) return { base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

// Page scripts are strings: tsx names the functions it compiles (`__name(...)`), a helper the page does not have.
const EDITOR_READY = `() => { const el = document.querySelector('.report-editor[contenteditable="true"]'); return el !== null && document.activeElement === el; }`;

/** Records the time of the next Enter keydown on the window (awaited before the key is pressed). */
async function armEnter(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__benchStart = null;
    window.addEventListener('keydown', (event) => { if (event.key === 'Enter') window.__benchStart = performance.now(); }, { capture: true, once: true });
  })()`);
}

/** Ms from the armed Enter to an editable, focused findings editor (same document). */
function enterToEditor(page: Page): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const ready = ${EDITOR_READY};
    const check = () => (window.__benchStart !== null && ready() ? resolve(performance.now() - window.__benchStart) : requestAnimationFrame(check));
    check();
  })`) as Promise<number>;
}

/** Ms from navigation start of this document to an editable, focused findings editor. */
function loadToEditor(page: Page): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const ready = ${EDITOR_READY};
    const check = () => (ready() ? resolve(performance.now()) : requestAnimationFrame(check));
    check();
  })`) as Promise<number>;
}

function withinSeconds<T>(promise: Promise<T>, seconds: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function main() {
  console.log(`report workspace UI benchmark — ${cpus().length} cores, Chromium ${'/usr/bin/chromium'}, ${RUNS} runs after ${WARMUP} warm-up`);
  const client = clientDir();
  const { base } = await startServer(client);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base });
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name=username]').fill('rad1');
    await page.locator('input[name=password]').fill(DEMO_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    // (a) The reading-room loop on the "not yet reported" view: Enter opens the focused row, Esc Esc comes back to
    // the same row, j moves to the next one.
    const fromWorklist: number[] = [];
    const opened: string[] = [];
    const focusedRow = page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]');
    await page.goto('/studies?status=none&org=1');
    await focusedRow.waitFor();
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const before = await focusedRow.getAttribute('data-exam-id');
      await armEnter(page);
      await page.keyboard.press('Enter');
      const elapsed = await withinSeconds(enterToEditor(page), 30, () => `run ${run}: no editable editor after Enter (at ${page.url()})`);
      opened.push(new URL(page.url()).pathname);
      if (run >= WARMUP) fromWorklist.push(elapsed);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.waitForURL((url) => url.pathname === '/studies');
      await focusedRow.waitFor();
      if ((await focusedRow.getAttribute('data-exam-id')) !== before) throw new Error(`run ${run}: the worklist came back on another row`);
      await page.keyboard.press('j');
      await page.waitForFunction((id) => document.querySelector('[data-testid="worklist-grid"] [role="row"][data-focused]')?.getAttribute('data-exam-id') !== id, before);
    }

    // (b) The workspace URL loaded as a new page (the same reports, now existing drafts).
    const fromUrl: number[] = [];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      await page.goto(opened[run % opened.length]!);
      const elapsed = await withinSeconds(loadToEditor(page), 30, () => `run ${run}: no editable editor at ${page.url()}`);
      if (run >= WARMUP) fromUrl.push(elapsed);
    }

    const rows = [summary('worklist Enter → editable editor', fromWorklist), summary('workspace URL load → editable editor', fromUrl)];
    const head = ['path', 'runs', 'p50 ms', 'p95 ms', 'max ms'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    console.log(`\n${head.map((h, i) => (i === 0 ? h.padEnd(widths[i]!) : h.padStart(widths[i]!))).join('  ')}`);
    console.log(widths.map((w) => '─'.repeat(w)).join('  '));
    for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  } finally {
    await browser.close();
  }
}

function stopServers() {
  for (const child of children) if (child.pid) try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
  children.clear();
}

// No process.exit(): it can cut the table off a piped stdout before it is written.
main().then(
  () => stopServers(),
  (error: unknown) => {
    console.error(error);
    stopServers();
    process.exitCode = 1;
  },
);
