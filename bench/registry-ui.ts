/**
 * Registry desk benchmark (`npm run bench:registry-ui`): prints numbers, never passes or fails on a time.
 * In Debian's Chromium with Playwright, against the real server (fresh PGlite database, demo data, built client), the
 * registrar (`registrar`) on /registry registers patients by keyboard as tests/e2e/registry.spec.ts does — Alt+N, the
 * name, sex, age, phone, outpatient number, a CT procedure step — and the time is taken from the Enter that saves
 * (POST registry, the list's reload) to the saved row painted in the day's list (target ≤ 150 ms, issue 10).
 * BENCH_RUNS (default 20) registrations after 2 warm-up ones; p50 / p95 / max in milliseconds.
 * BENCH_CLIENT_DIR uses an existing build instead of building into a temporary folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Locator, type Page } from '@playwright/test';
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

function clientDir(): string {
  if (process.env.BENCH_CLIENT_DIR) return path.resolve(process.env.BENCH_CLIENT_DIR);
  const out = mkdtempSync(path.join(tmpdir(), 'bench-registry-ui-client-'));
  cleanup.push(() => rmSync(out, { recursive: true, force: true }));
  const build = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(path.join(out, 'index.html'))) throw new Error('vite build failed');
  return out;
}

async function startServer(client: string): Promise<{ base: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-registry-ui-data-'));
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

/** Tab until `target` has the focus (the keyboard's way there), failing after a form's worth of stops. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('could not reach a form field with Tab');
}

/** Records the time of the next Enter keydown on the window (awaited before the key is pressed). */
async function armEnter(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__benchStart = null;
    window.addEventListener('keydown', (event) => { if (event.key === 'Enter') window.__benchStart = performance.now(); }, { capture: true, once: true });
  })()`);
}

/** Ms from the armed Enter to a painted list row holding `name` (checked every frame). Page scripts are strings: see report-ui.ts. */
function enterToRow(page: Page, name: string): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const shown = () => [...document.querySelectorAll('[data-testid="registry-table"] tbody tr')].some((tr) => tr.textContent.includes(${JSON.stringify(name)}));
    const check = () => (window.__benchStart !== null && shown() ? resolve(performance.now() - window.__benchStart) : requestAnimationFrame(check));
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
  console.log(`registry desk UI benchmark — ${cpus().length} cores, Chromium /usr/bin/chromium, ${RUNS} runs after ${WARMUP} warm-up`);
  const client = clientDir();
  const { base } = await startServer(client);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name=username]').fill('registrar');
    await page.locator('input[name=password]').fill(DEMO_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    if (!new URL(page.url()).pathname.startsWith('/registry')) await page.goto('/registry');
    const form = page.getByTestId('registry-form');
    await withinSeconds(form.waitFor(), 30, () => `no registry form at ${page.url()}`);
    await page.locator('[data-testid="registry-table"]').waitFor();

    const samples: number[] = [];
    const parts: Record<string, number[]> = {};
    const stamp = Date.now() % 100_000;
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const name = `测速${stamp}号${run}`;
      await page.keyboard.press('Alt+KeyN');
      const nameField = form.getByRole('combobox', { name: /Name/ });
      await withinSeconds(nameField.waitFor(), 10, () => 'no name field');
      // The form is cleared and the name field focused on the next frame.
      await withinSeconds(page.waitForFunction(`document.activeElement?.getAttribute('role') === 'combobox' && document.activeElement.value === ''`),
        5, () => `run ${run}: Alt+N did not put an empty name field in hand`);
      await page.keyboard.type(name);
      await page.keyboard.press('Tab');
      await page.keyboard.type(run % 2 ? 'M' : 'F');
      await page.keyboard.press('Tab');
      await page.keyboard.type(String(20 + run));
      await tabTo(page, form.getByLabel('Phone'));
      await page.keyboard.type(`1390000${String(1000 + run).padStart(4, '0')}`);
      await tabTo(page, form.getByLabel(/Outpatient no/));
      await page.keyboard.type(`MZ-BENCH-${run}`);
      const step = form.getByTestId('exam-line').nth(0).getByLabel('Procedure');
      await tabTo(page, step);
      await page.keyboard.type('CT');
      await armEnter(page);
      await page.keyboard.press('Enter');
      const elapsed = await withinSeconds(enterToRow(page, name), 30, () => `run ${run}: the saved row did not appear in the list (at ${page.url()})`);
      if (run >= WARMUP) {
        samples.push(elapsed);
        // Where the time went: the save's POST and the list's reload, from the Enter (resource timing).
        const calls = await page.evaluate(`performance.getEntriesByType('resource')
          .filter((e) => e.startTime >= window.__benchStart && /\\/api\\/v1\\/(registry|buckets\\/\\d+\\/registry\\/query)$/.test(e.name))
          .map((e) => [e.name.endsWith('/query') ? 'query' : 'save', e.startTime - window.__benchStart, e.duration])`) as [string, number, number][];
        for (const [what, , duration] of calls) (parts[what] ??= []).push(duration);
        const reload = calls.find(([what]) => what === 'query');
        if (reload) (parts['query starts after Enter'] ??= []).push(reload[1]);
      }
      await page.evaluate('performance.clearResourceTimings()');
    }

    const sorted = [...samples].sort((a, b) => a - b);
    const head = ['path', 'runs', 'p50 ms', 'p95 ms', 'max ms'];
    const row = ['Enter → saved row in the list', String(samples.length), percentile(sorted, 50).toFixed(0), percentile(sorted, 95).toFixed(0), sorted.at(-1)!.toFixed(0)];
    const widths = head.map((h, i) => Math.max(h.length, row[i]!.length));
    console.log(`\n${head.map((h, i) => (i === 0 ? h.padEnd(widths[i]!) : h.padStart(widths[i]!))).join('  ')}`);
    console.log(widths.map((w) => '─'.repeat(w)).join('  '));
    console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
    console.log(`target: p95 ≤ 150 ms${percentile(sorted, 95) > 150 ? ' (over)' : ''}`);
    for (const [what, values] of Object.entries(parts)) {
      const s = [...values].sort((a, b) => a - b);
      console.log(`  ${what}: p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms`);
    }
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
