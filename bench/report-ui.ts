/**
 * Report workspace benchmark (`npm run bench:report-ui`): prints numbers, never passes or fails on a time.
 * In Debian's Chromium with Playwright, against the real server (fresh PGlite database, demo data, built client):
 *  (a) worklist → workspace: from pressing Enter on a focused worklist row (the view "not yet reported") to the
 *      findings editor being editable and focused — the worklist's open, the draft creation (POST exams/{id}/reports),
 *      the workspace chunk, GET report detail and the editor's first paint;
 *  (b) the same from opening the workspace URL in a new page load (a bookmark, a reload): navigation start to the
 *      editable editor, including the app's own start (session, permissions).
 * Each measures BENCH_RUNS (default 20) different exams after 2 warm-up runs; p50 / p95 / max in milliseconds. The
 * first open after sign-in (the workspace's code not fetched yet, unless the worklist fetched it ahead) is printed
 * on its own line: the warm-up leaves it out of (a).
 * BENCH_CLIENT_DIR uses an existing build instead of building into a temporary folder.
 */
import { cpus } from 'node:os';
import type { Page } from '@playwright/test';
import { clientDir, launchChromium, printSummaries, runBench, signIn, startServer, summary, withinSeconds } from './support/browserBench';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
/** Before the first Enter: a reader looks at the list a moment (the worklist fetches the workspace's code meanwhile). */
const FIRST_PAUSE_MS = Number(process.env.BENCH_FIRST_PAUSE_MS ?? 1500);


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

async function main() {
  console.log(`report workspace UI benchmark — ${cpus().length} cores, Chromium ${'/usr/bin/chromium'}, ${RUNS} runs after ${WARMUP} warm-up`);
  const base = await startServer('report-ui', clientDir('report-ui'));
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base });
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    const page = await context.newPage();
    await signIn(page, 'rad1');

    // (a) The reading-room loop on the "not yet reported" view: Enter opens the focused row, Esc Esc comes back to
    // the same row, j moves to the next one.
    const fromWorklist: number[] = [];
    let firstOpen = 0;
    const opened: string[] = [];
    const focusedRow = page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]');
    await page.goto('/studies?status=none&org=1');
    await focusedRow.waitFor();
    await page.waitForTimeout(FIRST_PAUSE_MS);
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const before = await focusedRow.getAttribute('data-exam-id');
      await armEnter(page);
      await page.keyboard.press('Enter');
      const elapsed = await withinSeconds(enterToEditor(page), 30, () => `run ${run}: no editable editor after Enter (at ${page.url()})`);
      opened.push(new URL(page.url()).pathname);
      if (run >= WARMUP) fromWorklist.push(elapsed);
      if (run === 0) firstOpen = elapsed;
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
    printSummaries(rows);
    console.log(`first worklist Enter after sign-in → editable editor: ${firstOpen.toFixed(0)} ms (after ${FIRST_PAUSE_MS} ms on the list; the workspace's code cold unless fetched ahead)`);
  } finally {
    await browser.close();
  }
}

// No process.exit(): it can cut the table off a piped stdout before it is written.
runBench(main);
