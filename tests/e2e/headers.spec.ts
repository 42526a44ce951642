import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * The Content-Security-Policy leaves every main screen working (issue "Hardening"): login, worklist, report
 * workspace, viewer with images (cornerstone's workers and WebAssembly), an electronic film, the waiting-room screen
 * and the print view.
 * A refused script, style, image, font, connection, worker or sound shows as a console message naming the
 * Content Security Policy (Chromium's own, and the securitypolicyviolation event's, recorded below); any one fails.
 */

interface ExamRow { id: number; reportId: number | null; hasImage: boolean }

const HOSPITAL = 1;

/** Every CSP message of a page (its workers' refusals surface as a screen that does not draw). */
function watchPolicy(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) found.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (/Content[- ]Security[- ]Policy|EvalError|WebAssembly/i.test(error.message)) found.push(`${page.url()}: ${error.message}`);
  });
  return found;
}

/** Reports each violation the document sees as a console message too, with the directive it broke. */
async function reportViolations(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
    });
  });
}

/**
 * Zod 4 asks once whether it may compile parsers (`try { Function(''); return true } catch { return false }`, its
 * `allowsEval`); the policy refuses and zod parses without compiling. Chromium reports that refusal to the page (not to
 * the console): it is the policy working, not a screen breaking. Only a refusal at exactly that probe is let through.
 */
const sources = new Map<string, Promise<string>>();
async function isZodEvalProbe(violation: string): Promise<boolean> {
  const at = /: script-src blocked eval at (\S+):(\d+):(\d+)$/.exec(violation);
  if (!at) return false;
  const [, url, line, column] = at;
  if (!sources.has(url!)) sources.set(url!, fetch(url!).then((res) => res.text()));
  const code = (await sources.get(url!)!).split('\n')[Number(line) - 1] ?? '';
  const around = code.slice(Math.max(0, Number(column) - 80), Number(column) + 80);
  return /try\{return Function\(``\),!0\}catch\{return!1\}/.test(around);
}

async function realViolations(found: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const violation of found) if (!(await isZodEvalProbe(violation))) real.push(violation);
  return real;
}

async function examsOf(status: string, withImages: boolean): Promise<ExamRow[]> {
  const res = await apiAs<{ items: ExamRow[] }>('rad1', 'POST', 'exams/page-query', {
    filters: [
      { field: 'bucketId', operator: 'equal', values: [HOSPITAL] },
      { field: 'reportStatus', operator: 'equal', values: [status] },
      ...(withImages ? [{ field: 'hasImage', operator: 'equal', values: [true] }] : []),
    ],
    sorts: [{ field: 'examTime', direction: 'desc' }], limit: 20,
  });
  expect(res.status).toBe(200);
  return res.body.items.filter((e) => e.reportId !== null);
}

test('the main screens run under the Content-Security-Policy without a single violation', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const violations = watchPolicy(page);
  await reportViolations(page);
  await prefer(page, { language: 'en', theme: 'dark' });

  // Login: the shell carries the policy, the theme bootstrap is a file it allows and it ran before the app.
  const bootstrap = page.waitForResponse((res) => new URL(res.url()).pathname === '/theme-boot.js');
  const shell = await page.goto('/login');
  const policy = shell!.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(shell!.headers()['referrer-policy']).toBe('no-referrer');
  expect((await bootstrap).status()).toBe(200);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await expect(page.locator('input[name=username]')).toBeVisible();

  // Worklist.
  await signIn(page, 'rad1');
  await page.goto('/studies');
  await expect(page.getByTestId('worklist-grid')).toBeVisible();

  // Report workspace of an approved report with images, then its print view.
  const approved = (await examsOf('corrected', true))[0] ?? (await examsOf('corrected', false))[0];
  expect(approved, 'an approved report in the demo data').toBeDefined();
  const path = `/studies/${approved!.id}/reports/${approved!.reportId}`;
  await page.goto(path);
  await expect(page.locator('[data-report-workspace]')).toBeVisible();
  await expect(page.locator('[data-status]').first()).toBeVisible();
  await page.goto(`${path}/print`);
  const sheet = page.locator('.print-preview .print-sheet');
  await expect(sheet).toBeVisible();

  // The viewer draws the images: its decoders run in workers and compile WebAssembly.
  const imaged = (await examsOf('corrected', true))[0] ?? (await examsOf('partial', true))[0];
  expect(imaged, 'an exam with images in the demo data').toBeDefined();
  await page.goto(`/viewer/${imaged!.id}`);
  await expect(page.getByTestId('viewer-viewport')).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });

  // An electronic film, opened by its code without an account: the same viewer with a film token.
  const film = await apiAs<{ path: string; code: string }>('admin', 'POST', 'film-share/share', { examId: imaged!.id });
  expect(film.status).toBe(201);
  const outsider = await browser.newContext();
  const filmPage = await outsider.newPage();
  const filmViolations = watchPolicy(filmPage);
  await reportViolations(filmPage);
  await filmPage.goto(film.body.path);
  await filmPage.locator('input[name=code]').fill(film.body.code);
  await filmPage.locator('form button[type=submit]').click();
  await expect(filmPage.getByTestId('viewer-viewport')).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  await outsider.close();

  // The waiting-room screen: its event stream and its speech (served audio) are the API's.
  const token = await apiAs<{ token: string }>('registrar', 'POST', `buckets/${HOSPITAL}/screen-tokens`, { name: 'e2e CSP TV' });
  expect([200, 201]).toContain(token.status);
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const screen = await context.newPage();
  const screenViolations = watchPolicy(screen);
  await reportViolations(screen);
  await screen.goto(`/calling/${HOSPITAL}/screen-show?token=${encodeURIComponent(token.body.token)}`);
  await expect(screen.locator('[data-calling-screen]')).toHaveAttribute('data-status', 'live');
  // The TTS audio the screen plays when the browser has no voice: same origin, allowed by media-src.
  const audio = await screen.evaluate(async (url) => {
    const sound = new Audio(url);
    return new Promise<string>((resolve) => {
      sound.addEventListener('error', () => resolve(`error ${sound.error?.code ?? ''}`));
      sound.addEventListener('loadedmetadata', () => resolve('loaded'));
      sound.load();
      setTimeout(() => resolve('timeout'), 5000);
    });
  }, '/sounds/notify.wav');
  expect(audio).toBe('loaded');
  await context.close();

  expect(await realViolations([...violations, ...filmViolations, ...screenViolations])).toEqual([]);
});
