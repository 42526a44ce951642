import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { apiAs, freshCase } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * Issue 32: the notifications have a lane of their own. With the new-exam and the pending-consultation toasts up, no
 * toast lies over the report workspace's patient bar or positive/negative switch, the consultation request's submit
 * button, or the statistics table's last row and its total, at a desktop window (1366×768) and a narrow one
 * (1280×720). The toasts come from the real feeds: rad1 asks for a consultation through the API (pending, so the
 * chief is told of it), and the demo's unreported exams of the week are news once the acknowledged ids are forgotten
 * (each page load polls at once).
 */

const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

const SIZES = [{ width: 1366, height: 768 }, { width: 1280, height: 720 }] as const;

const examToast = (page: Page) => page.locator('[data-toast-key="notify-exams"]');
const consultationToast = (page: Page) => page.locator('[data-toast-key="notify-consultations"]');

/** A pending consultation newer than anything the chief has acknowledged. */
async function requestConsultation() {
  const { examId, reportId } = await freshCase('rad1');
  const targets = await apiAs<{ targets: { id: number }[]; defaultTargetId: number | null }>('rad1', 'GET', `consultations/targets?examId=${examId}`);
  expect(targets.status, JSON.stringify(targets.body)).toBe(200);
  const targetBucketId = targets.body.defaultTargetId ?? targets.body.targets[0]!.id;
  const created = await apiAs<{ id: number }>('rad1', 'POST', 'consultations', { examId, reportId, targetBucketId, reason: `Toast lane ${Date.now()}` });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

async function chiefAt(browser: Browser, viewport: { width: number; height: number }, language: 'chs' | 'en' | 'tib' = 'en', theme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await prefer(page, { language, theme });
  // Nothing acknowledged: every page load's first poll brings both toasts up.
  await page.addInitScript(() => {
    localStorage.removeItem('notify-last-exam-id');
    localStorage.removeItem('notify-last-consultation-id');
  });
  await signIn(page, 'chief');
  return page;
}

interface Rect { x: number; y: number; width: number; height: number }
const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * With both toasts up, measures them and the named controls in one go (a toast may leave by itself: its 10 s run),
 * and answers which control any toast covers. The controls are brought into view first.
 */
async function covered(page: Page, controls: Record<string, string>): Promise<string[]> {
  await expect(examToast(page)).toBeVisible({ timeout: 15_000 });
  await expect(consultationToast(page)).toBeVisible({ timeout: 15_000 });
  // Held while the pointer is on it (its 10 s stand still), so at least one toast is there to be measured on a slow machine.
  await examToast(page).hover();
  for (const selector of Object.values(controls)) await page.locator(selector).last().scrollIntoViewIfNeeded();
  const measured = await page.evaluate((named) => {
    // What of an element can be seen: its box cut by every scrolling or clipping box around it (a wide table's row
    // runs on under its scroller's edge, unseen).
    const rect = (el: Element) => {
      const r = el.getBoundingClientRect();
      let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
      for (let up = el.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const c = up.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right), Math.min(bottom, c.bottom)];
      }
      return { x: left, y: top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
    };
    const all = (selector: string) => [...document.querySelectorAll(selector)];
    return {
      toasts: all('[data-toast-key]').map(rect),
      controls: Object.entries(named).map(([name, selector]) => ({ name, boxes: all(selector).slice(-1).map(rect) })),
    };
  }, controls);
  expect(measured.toasts.length).toBeGreaterThanOrEqual(1);
  const problems: string[] = [];
  for (const control of measured.controls) {
    if (control.boxes.length === 0 || control.boxes[0]!.width === 0) problems.push(`${control.name}: not on the screen`);
    else if (measured.toasts.some((toast) => overlap(toast, control.boxes[0]!))) problems.push(`${control.name}: under a toast`);
  }
  // The screen as it was, for whoever reads the failure.
  if (problems.length > 0) await page.screenshot({ path: test.info().outputPath('covered.png') });
  return problems;
}

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} no toast covers the workspace's patient bar and positive switch, the consultation's submit button or the statistics' last rows`, async ({ browser }) => {
    test.setTimeout(120_000);
    await requestConsultation();
    const { path, examId, reportId } = await freshCase('chief');
    const page = await chiefAt(browser, size);

    await page.goto(path);
    await expect(page.locator('[data-report-workspace]')).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: 'Positive / negative' })).toBeVisible();
    expect(await covered(page, {
      'patient bar': '[data-testid="exam-header"]',
      'positive/negative switch': '[data-report-workspace] [role="radiogroup"]',
      'action bar': '[data-report-workspace] [data-toast-avoid]',
    })).toEqual([]);

    await page.goto(`/consultations/add?examId=${examId}&reportId=${reportId}`);
    await expect(page.getByTestId('consultation-submit')).toBeVisible();
    expect(await covered(page, { 'submit button': '[data-testid="consultation-submit"]' })).toEqual([]);

    await page.goto('/group-statistics');
    await expect(page.getByTestId('stat-result')).toHaveAttribute('data-loading', 'false');
    await expect(page.getByTestId('stat-row').first()).toBeVisible();
    expect(await covered(page, { 'last row': '[data-testid="stat-row"]', 'total row': '[data-testid="stat-total"]' })).toEqual([]);

    // The lane gives the room back once the toasts are closed ($mod+. closes every one).
    await page.keyboard.press('Control+.');
    await expect(page.locator('[data-toast-key]')).toHaveCount(0);
    await expect.poll(() => page.locator('[data-toast-lane]').evaluate((el) => el.getBoundingClientRect().width)).toBe(0);
    await page.context().close();
  });
}

// The looks of the workspace with its toasts, for a person to review (.tmp/screens/toasts-lane-*.png).
for (const [language, theme] of looks({ tibetan: false })) {
  test(`the workspace with its toasts in the lane (${language}, ${theme})`, async ({ browser }) => {
    const { path } = await freshCase('chief');
    const page = await chiefAt(browser, SIZES[1], language, theme);
    await page.goto(path);
    await expect(page.locator('[data-report-workspace]')).toBeVisible();
    await expect(examToast(page)).toBeVisible({ timeout: 15_000 });
    await expect(consultationToast(page)).toBeVisible({ timeout: 15_000 });
    await examToast(page).hover(); // held while it is photographed
    await page.screenshot({ path: `${OUT}/toasts-lane-${language}-${theme}.png` });
    await page.context().close();
  });
}
