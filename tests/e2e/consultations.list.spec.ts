import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { apiAs, openWorkspace } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The consultation list and the request form (areas §2): rad1 reaches /consultations with `g c`, walks the rows with
 * the keys, filters by status and opens one with Enter; then asks a consultation from a reported exam's workspace
 * (Alt+Shift+C), finds the form filled from the exam and the report, sends it with Ctrl+Enter and lands on the new
 * consultation, which heads "My consultations".
 */
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const OUT = process.env.SHOTS_DIR ?? '.tmp/screens';

const rows = (page: Page) => page.locator('[data-testid=consultation-table] tbody tr');

/** A hospital exam with a signed report (one with a conclusion) that rad1 may ask a consultation for. */
async function reportedExam(): Promise<{ examId: number; reportId: number; patientName: string; diagnosis: string }> {
  const list = await apiAs<{ items: { id: number; reportId: number | null; patientName: string }[] }>('rad1', 'POST', 'exams/page-query', {
    filters: [{ field: 'reportStatus', operator: 'equal', values: ['final'] }, { field: 'bucketId', operator: 'equal', values: [1] }],
    skip: 0, limit: 20, sorts: [{ field: 'created', direction: 'desc' }],
  });
  expect(list.status).toBe(200);
  for (const exam of list.body.items) {
    if (exam.reportId === null) continue;
    const report = await apiAs<{ diagnosis: string }>('rad1', 'GET', `reports/${exam.reportId}/detail`);
    const text = report.body.diagnosis.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
    if (report.status === 200 && text.length > 4) return { examId: exam.id, reportId: exam.reportId, patientName: exam.patientName, diagnosis: text };
  }
  throw new Error('no signed report with a conclusion in the demo hospital');
}

test('g c opens the list; j/k move, a status key filters, Enter opens the consultation', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  // The global keys are live once the session is ready: the navbar shows the consultations entry then.
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Consultations' })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('c');
  await expect(page).toHaveURL(/\/consultations$/);
  await expect(rows(page).first()).toBeVisible();
  expect(await rows(page).count()).toBeGreaterThan(1);
  expect(await rows(page).count()).toBeLessThanOrEqual(20);

  // The first row has the keyboard; j moves down, k back up.
  await expect(rows(page).first()).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows(page).nth(1)).toBeFocused();
  await expect(rows(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(rows(page).first()).toBeFocused();

  // 1 = pending only: every row the server answers is pending, the chip says so; 0 = all again.
  await page.keyboard.press('1');
  await expect(page.locator('[data-status-chip="0"]')).toHaveAttribute('aria-pressed', 'true');
  // The old page stays on screen (dimmed, aria-busy) until the filtered one arrives, and its first row may be pending
  // too: wait for the filtered page's range and a settled table, then read every row (polled, not one snapshot).
  const pending = await apiAs<{ total: number }>('rad1', 'POST', 'consultations/query-page', { filters: [{ field: 'status', operator: 'equal', values: [0] }], limit: 1 });
  await expect(page.getByTestId('consultation-range')).toHaveText(new RegExp(`of ${pending.body.total}$`));
  await expect(page.getByTestId('consultation-table')).not.toHaveAttribute('aria-busy', 'true');
  await expect
    .poll(async () => [...new Set(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status'))))])
    .toEqual(['0']);

  // The export takes the same filters: a workbook comes down.
  const download = page.waitForEvent('download');
  await page.getByTestId('consultation-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^consultations-\d{8}-\d{4}\.xlsx$/);
  const bytes = readFileSync(await file.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  await rows(page).first().focus();

  // Enter opens the row in hand (the filtered page's first row took the keyboard; j moves on).
  await expect(rows(page).first()).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows(page).nth(1)).toBeFocused();
  const id = await rows(page).nth(1).getAttribute('data-consultation-id');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/consultations/${id}$`));
});

test('a consultation asked from the report workspace, prefilled, sent with Ctrl+Enter, heads My consultations', async ({ page }) => {
  mkdirSync(OUT, { recursive: true });
  const exam = await reportedExam();
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await openWorkspace(page, `/studies/${exam.examId}/reports/${exam.reportId}`);
  await expect(page.getByTestId('request-consultation')).toBeVisible();
  await page.keyboard.press('Control+.');
  await page.getByTestId('exam-header').screenshot({ path: `${OUT}/consultations-workspace-entry.png` });
  await page.keyboard.press('Alt+Shift+KeyC');
  await expect(page).toHaveURL(new RegExp(`/consultations/add\\?examId=${exam.examId}&reportId=${exam.reportId}$`));

  // The patient comes from the exam, the conclusion from the report; the target is preselected.
  const form = page.getByTestId('consultation-create');
  await expect(form.getByTestId('consultation-patient')).toContainText(exam.patientName);
  await expect(form.getByTestId('consultation-conclusion')).toContainText(exam.diagnosis.slice(0, 10));
  await expect(form.getByLabel('Target organisation')).not.toHaveValue('');

  // The reason is required: Ctrl+Enter on an empty one says so and sends nothing.
  await expect(page.getByTestId('consultation-reason')).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('consultation-reason')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/consultations\/add/);

  const reason = `E2E list ${stamp}: nodule, second opinion`;
  await page.keyboard.type(reason);
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/\/consultations\/\d+$/);
  const id = Number(/\/consultations\/(\d+)$/.exec(page.url())![1]);
  const detail = await apiAs<{ reason: string; examId: number; reportId: number; status: number }>('rad1', 'GET', `consultations/${id}`);
  expect(detail.body).toMatchObject({ reason, examId: exam.examId, reportId: exam.reportId, status: 0 });

  // My consultations: the newest first.
  await page.goto('/consultations/my');
  await expect(rows(page).first()).toHaveAttribute('data-consultation-id', String(id));
  await expect(rows(page).first()).toContainText(reason);
});

test('Shift+C on the worklist asks a consultation for the focused exam', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await expect(page).toHaveURL(/\/studies/);
  const focused = page.locator('[role=row][data-focused]');
  await expect(focused).toBeVisible();
  await page.keyboard.press('j');
  await expect(focused).toHaveAttribute('aria-rowindex', '3');
  const examId = await focused.getAttribute('data-exam-id');
  expect(examId).not.toBeNull();
  await page.keyboard.press('Shift+C');
  await expect(page).toHaveURL(new RegExp(`/consultations/add\\?examId=${examId}(&reportId=\\d+)?$`));
  await expect(page.getByTestId('consultation-patient')).toBeVisible();
  // Esc leaves the form the way it came.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/studies/);
});

for (const [language, theme] of looks({ tibetan: false })) {
  test(`consultation list and request form in ${language}, ${theme}`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const exam = await reportedExam();
    await prefer(page, { language, theme });
    await signIn(page, 'rad1');
    await page.goto('/consultations');
    await expect(rows(page).first()).toBeFocused();
    await page.keyboard.press('j');
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.keyboard.press('Control+.'); // the notification toasts, which would cover the rows
    await page.screenshot({ path: `${OUT}/consultations-list-${language}-${theme}.png` });
    await page.goto(`/consultations/add?examId=${exam.examId}&reportId=${exam.reportId}`);
    await expect(page.getByTestId('consultation-conclusion')).toBeVisible();
    await expect(page.locator('[data-members-side=target] [data-person]').first().or(page.locator('[data-members-side=target] p')).first()).toBeVisible();
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('consultation-reason')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.keyboard.press('Control+.');
    await page.screenshot({ path: `${OUT}/consultations-create-${language}-${theme}.png`, fullPage: true });
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
}
