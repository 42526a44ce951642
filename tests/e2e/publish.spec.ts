import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiAs, freshCase, reportAs } from './support/reportApi';
import { openPalette, runFromPalette } from './support/palette';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The publishing desk (core §2 /report-publish and /report-publish/detail): admin (the only demo account with
 * order_report_publish) finds a report published through the API, opens it, takes it off the patients' list by
 * keyboard and puts it back. Both screens are saved to .tmp/screens/ in Chinese and English, light and dark.
 */
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

const HOSPITAL = 1;
/** PublishListPage's page size: more publications than this make a second page. */
const PAGE_SIZE = 25;

interface ExamRow { id: number; reportId: number | null; patientName: string; reportStatus: string | null }
interface Published { examId: number; reportId: number; patientName: string }
interface PublicationState { reportId: number; published: boolean; publishedAt: string | null; publishedByName: string | null }

let newest: Published;
let recalled: Published;
let others: Published[] = [];
let total = 0;

/** Approved reports of the hospital, oldest exams first, through the worklist's query as admin. */
async function approvedReports(count: number): Promise<Published[]> {
  const page = await apiAs<{ items: ExamRow[] }>('admin', 'POST', 'exams/page-query', {
    filters: [{ field: 'reportStatus', values: ['corrected'], operator: 'equal' }, { field: 'bucketId', values: [HOSPITAL], operator: 'equal' }],
    skip: 0, limit: count, sorts: [{ field: 'created', direction: 'asc' }],
  });
  expect(page.status).toBe(200);
  const found = page.body.items.filter((e) => e.reportId !== null).map((e) => ({ examId: e.id, reportId: e.reportId!, patientName: e.patientName }));
  expect(found.length).toBe(count);
  return found;
}

async function publish(report: Published) {
  const res = await apiAs('admin', 'POST', `reports/${report.reportId}/publish`, {});
  expect(res.status).toBe(200);
}

const stateOf = async (reportId: number) => (await apiAs<PublicationState>('admin', 'GET', `reports/${reportId}/publish`)).body;

test.beforeAll(async () => {
  // A second page's worth, one of them recalled after publishing, and the newest published last (top of the list).
  const reports = await approvedReports(PAGE_SIZE + 6);
  [recalled, ...others] = reports.slice(0, -1);
  newest = reports.at(-1)!;
  for (const report of [recalled, ...others]) await publish(report);
  const before = await reportAs('admin', recalled.reportId);
  const recall = await apiAs('admin', 'POST', `reports/${recalled.reportId}/recall`, { version: before.version, reason: '测量值有误，需复核' });
  expect(recall.status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 20));
  await publish(newest);
  // What the list holds (a retried worker runs this again on a list that already has publications).
  total = (await apiAs<{ total: number }>('admin', 'GET', `report-publish/list?bucketId=${HOSPITAL}&limit=1`)).body.total;
  expect(total).toBeGreaterThan(PAGE_SIZE);
});

/** The report workspace, once its report is in (its chunk is the app's largest: give the first load time). */
async function openWorkspace(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('[data-report-workspace] [data-status]').first()).toBeVisible({ timeout: 20_000 });
}

const row = (page: Page, reportId: number): Locator => page.locator(`tr[data-report-id="${reportId}"]`);

async function expectNoRawKeys(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(RAW_KEY);
}

test('admin opens the publishing list from the navbar, pages it and unpublishes and republishes a report by keyboard', async ({ page }) => {
  await prefer(page, { language: 'en', theme: 'light' });
  await signIn(page, 'admin');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Report publishing' }).click();
  await expect(page).toHaveURL(new RegExp(`/report-publish\\?bucketId=${HOSPITAL}$`));
  await expect(page.getByRole('heading', { name: 'Report publishing', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Organisation')).toHaveValue(String(HOSPITAL));

  // Newest first, with who published it; the recalled one is flagged as not shown to patients.
  const top = page.locator('[data-testid="publish-table"] tbody tr').first();
  await expect(top).toHaveAttribute('data-report-id', String(newest.reportId));
  await expect(top).toContainText(newest.patientName);
  await expect(top).toContainText('Approved');
  await expect(top).toContainText('系统管理员');
  await expect(top.getByTestId('hidden-note')).toHaveCount(0);
  await expect(page.getByTestId('publish-range')).toHaveText(`1–${PAGE_SIZE} of ${total}`);
  await expectNoRawKeys(page);

  // ] and [ turn the page; the recalled report (published first) is on the last page.
  await page.keyboard.press(']');
  await expect(page).toHaveURL(new RegExp(`skip=${PAGE_SIZE}`));
  await expect(page.getByTestId('publish-range')).toHaveText(`${PAGE_SIZE + 1}–${total} of ${total}`);
  await expect(row(page, recalled.reportId)).toContainText('Recalled');
  await expect(row(page, recalled.reportId).getByTestId('hidden-note')).toHaveText(/Not shown to patients/);
  await page.keyboard.press('[');
  await expect(page.getByTestId('publish-range')).toHaveText(`1–${PAGE_SIZE} of ${total}`);
  await expect(page).not.toHaveURL(/skip=/);

  // j takes the first row, Enter opens it.
  await page.keyboard.press('j');
  await expect(top.getByRole('link', { name: `Open the report of ${newest.patientName}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/report-publish/detail\\?examId=${newest.examId}&reportId=${newest.reportId}$`));
  await expect(page.getByTestId('publish-patient')).toHaveText(newest.patientName);
  const state = page.getByTestId('publish-state');
  await expect(state).toHaveAttribute('data-published', 'true');
  await expect(state).toHaveText('Published · shown to patients');
  await expect(page.getByTestId('publish-approval')).toContainText('Approved by');
  await expectNoRawKeys(page);

  // Unpublish through the palette, confirmed with Enter (the confirm button holds the focus).
  await runFromPalette(page, 'Unpublish this', /Unpublish this report/);
  const dialog = page.getByRole('dialog', { name: 'Unpublish this report?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-unpublish')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Unpublished the report of ${newest.patientName}`)).toBeVisible();
  await expect(state).toHaveAttribute('data-published', 'false');
  expect(await stateOf(newest.reportId)).toEqual({ reportId: newest.reportId, published: false, publishedAt: null, publishedByName: null });

  // Publish again, from the keyboard: Tab to the button and press Enter.
  const publishButton = page.getByTestId('publish-button');
  await expect(publishButton).toBeVisible();
  for (let i = 0; i < 40 && !(await publishButton.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(publishButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Published the report of ${newest.patientName}`, { exact: true })).toBeVisible();
  await expect(state).toHaveAttribute('data-published', 'true');
  const again = await stateOf(newest.reportId);
  expect(again).toMatchObject({ published: true, publishedByName: '系统管理员' });

  // Esc goes back to the list the user came from.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/report-publish\\?bucketId=${HOSPITAL}$`));
  await expect(page.locator('[data-testid="publish-table"] tbody tr').first()).toHaveAttribute('data-report-id', String(newest.reportId));
});

test('the recalled report says why patients do not see it; u on a row unpublishes it after asking', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/report-publish/detail?examId=${recalled.examId}&reportId=${recalled.reportId}`);
  await expect(page.getByTestId('publish-state')).toHaveText('Published · hidden until approved again');
  await expect(page.getByRole('status').filter({ hasText: 'It stays published, but patients do not see it until it is approved again.' })).toBeVisible();
  // Not approved: there is nothing to publish, only to unpublish.
  await expect(page.getByTestId('publish-button')).toHaveCount(0);
  await expect(page.getByTestId('unpublish-button')).toBeVisible();

  await page.getByRole('link', { name: 'Back to the publishing list' }).click();
  await expect(page.getByTestId('publish-range')).toHaveText(`1–${PAGE_SIZE} of ${total}`);
  await page.keyboard.press(']');
  const gone = others[0]!;
  const target = row(page, gone.reportId);
  await expect(target).toBeVisible();
  await target.getByRole('link', { name: `Open the report of ${gone.patientName}` }).focus();
  await page.keyboard.press('u');
  const dialog = page.getByRole('dialog', { name: 'Unpublish this report?' });
  await expect(dialog).toContainText(gone.patientName);
  // Esc keeps it; u and Enter take it off.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(target).toBeVisible();
  await page.keyboard.press('u');
  await expect(dialog).toBeVisible();
  // Enter goes to what has the focus: the dialog moves it to its confirm button once it is open (an Enter before
  // that would reach the row behind it).
  await expect(dialog.getByTestId('confirm-unpublish')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(target).toHaveCount(0);
  total -= 1;
  await expect(page.getByTestId('publish-range')).toHaveText(`${PAGE_SIZE + 1}–${total} of ${total}`);
  await expect(page.getByText(`Unpublished the report of ${gone.patientName}`)).toBeVisible();
  expect((await stateOf(gone.reportId)).published).toBe(false);
  // The keyboard stays in the table: the next row has the focus.
  await expect(page.locator('[data-testid="publish-table"] tbody tr a:focus')).toHaveCount(1);
});

test('a report that is not approved cannot be published, and says so', async ({ page }) => {
  const draft = await freshCase('rad1');
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/report-publish/detail?examId=${draft.examId}&reportId=${draft.reportId}`);
  await expect(page.getByTestId('publish-state')).toHaveText('Not published');
  await expect(page.getByText('Only an approved report can be published. This report is “Not written”.')).toBeVisible();
  await expect(page.getByTestId('publish-button')).toHaveCount(0);
  await expect(page.getByTestId('unpublish-button')).toHaveCount(0);
});

test('bad or foreign ids on the detail page show an error, not a crash', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto('/report-publish/detail?examId=abc');
  await expect(page.getByTestId('publish-problem')).toContainText('This link does not name an exam and a report.');
  await page.goto('/report-publish/detail?examId=1&reportId=999999');
  await expect(page.getByTestId('publish-problem')).toContainText('This report was not found.');
  await page.goto(`/report-publish/detail?examId=${others[0]!.examId}&reportId=${others[1]!.reportId}`);
  await expect(page.getByTestId('publish-problem')).toContainText('This report does not belong to this exam.');
  await page.getByRole('link', { name: 'Back to the publishing list' }).click();
  await expect(page).toHaveURL(/\/report-publish/);
  await expect(page.getByTestId('publish-table')).toBeVisible();
});

test('the report workspace offers "Publish to patients…" to admin, not to a radiologist', async ({ page }) => {
  test.setTimeout(60_000);
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await openWorkspace(page, `/studies/${others[2]!.examId}/reports/${others[2]!.reportId}`);
  await runFromPalette(page, 'Publish to', /Publish to patients/);
  await expect(page).toHaveURL(new RegExp(`/report-publish/detail\\?examId=${others[2]!.examId}&reportId=${others[2]!.reportId}$`));
  await expect(page.getByTestId('publish-state')).toHaveAttribute('data-published', 'true');

  await page.evaluate(() => localStorage.clear());
  await signIn(page, 'rad1');
  await openWorkspace(page, `/studies/${others[2]!.examId}/reports/${others[2]!.reportId}`);
  const palette = await openPalette(page);
  await page.keyboard.type('Publish to');
  await expect(palette.getByRole('option', { name: /Publish to patients/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // Nor is the desk in rad1's navbar.
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Report publishing' })).toHaveCount(0);
});

for (const [language, theme] of looks({ tibetan: false })) {
  test(`screens in ${language}, ${theme}`, async ({ page }) => {
    await prefer(page, { language, theme });
    await signIn(page, 'admin');
    await page.goto(`/report-publish?bucketId=${HOSPITAL}`);
    await expect(page.locator('[data-testid="publish-table"] tbody tr').first()).toBeVisible();
    await page.keyboard.press('j');
    await expectNoRawKeys(page);
    await page.screenshot({ path: `${OUT}/publish-list-${language}-${theme}.png` });
    // The last page holds the recalled report and its note.
    await page.keyboard.press(']');
    await expect(row(page, recalled.reportId).getByTestId('hidden-note')).toBeVisible();
    await expectNoRawKeys(page);
    await page.screenshot({ path: `${OUT}/publish-list-last-${language}-${theme}.png` });

    await page.goto(`/report-publish/detail?examId=${newest.examId}&reportId=${newest.reportId}`);
    await expect(page.getByTestId('publish-state')).toBeVisible();
    await expectNoRawKeys(page);
    await page.screenshot({ path: `${OUT}/publish-detail-${language}-${theme}.png` });

    await page.getByTestId('unpublish-button').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoRawKeys(page);
    await page.screenshot({ path: `${OUT}/publish-confirm-${language}-${theme}.png` });
    await page.keyboard.press('Escape');

    await page.goto(`/report-publish/detail?examId=${recalled.examId}&reportId=${recalled.reportId}`);
    await expect(page.getByTestId('publish-state')).toHaveAttribute('data-published', 'true');
    await expectNoRawKeys(page);
    await page.screenshot({ path: `${OUT}/publish-detail-recalled-${language}-${theme}.png` });
  });
}

test('screens in tib (a look at Tibetan line heights and widths)', async ({ page }) => {
  await prefer(page, { language: 'tib', theme: 'light' });
  await signIn(page, 'admin');
  await page.goto(`/report-publish?bucketId=${HOSPITAL}&skip=${PAGE_SIZE}`);
  await expect(row(page, recalled.reportId).getByTestId('hidden-note')).toBeVisible();
  await expectNoRawKeys(page);
  await page.screenshot({ path: `${OUT}/publish-list-last-tib-light.png` });
  await page.goto(`/report-publish/detail?examId=${recalled.examId}&reportId=${recalled.reportId}`);
  await expect(page.getByTestId('publish-state')).toHaveAttribute('data-published', 'true');
  await expectNoRawKeys(page);
  await page.screenshot({ path: `${OUT}/publish-detail-recalled-tib-light.png` });
});
