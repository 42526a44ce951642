import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { apiAs, freshCase, openWorkspace } from './support/reportApi';
import { runFromPalette } from './support/palette';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';
import { dismissToasts } from './support/toasts';

/**
 * Handing things out, end to end: a radiologist shares an approved report from the workspace's Share tab (opened
 * from the palette), the link opens in a fresh browser without signing in, and once revoked it is refused; an
 * electronic film made in the exam drawer opens with its printed code until it is revoked; a technician finds the
 * upload wizard on the worklist (button and Shift+U). Screens of all three go to .tmp/screens/ in Chinese and
 * English, light and dark.
 */
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

const HOSPITAL = 1;
const FILM_CODE = /^[A-HJ-NP-Z2-9]{8}$/;

interface ExamRow { id: number; reportId: number | null; patientName: string; patientId: string; reportStatus: string | null }
interface ShareLink { link: string; path: string; expires: number; revoked: boolean }
interface FilmShareItem { link: string; code: string; path: string; expires: number; revoked: boolean }

/** Approved reports of the hospital, newest exams first (other files take the oldest), as rad1 sees them. */
async function approvedReports(count: number, skip = 0): Promise<ExamRow[]> {
  const page = await apiAs<{ items: ExamRow[] }>('rad1', 'POST', 'exams/page-query', {
    filters: [{ field: 'reportStatus', values: ['corrected'], operator: 'equal' }, { field: 'bucketId', values: [HOSPITAL], operator: 'equal' }],
    skip, limit: count, sorts: [{ field: 'examTime', direction: 'desc' }, { field: 'id', direction: 'desc' }],
  });
  expect(page.status).toBe(200);
  const rows = page.body.items.filter((e) => e.reportId !== null);
  expect(rows.length).toBe(count);
  return rows;
}

/** Exams this file has taken already: each test starts from its own untouched case. */
const taken = new Set<number>();

/**
 * The newest approved case nobody has shared yet: neither a report link nor a film (another file, or a worker that
 * started again after a failure, may have shared some), so "no links yet" and the counts below hold.
 */
async function unsharedApproved(): Promise<ExamRow & { reportId: number }> {
  for (const exam of await approvedReports(40)) {
    if (taken.has(exam.id)) continue;
    const links = await apiAs<ShareLink[]>('rad1', 'GET', `reports/${exam.reportId}/shares`);
    const films = await apiAs<FilmShareItem[]>('rad1', 'GET', `exams/${exam.id}/film-shares`);
    if (links.body.length === 0 && films.body.length === 0) {
      taken.add(exam.id);
      return { ...exam, reportId: exam.reportId! };
    }
  }
  throw new Error('no approved case without shares left in the demo data');
}

/** A browser with nobody signed in, showing `url`. */
async function stranger(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await prefer(page, { language: 'en' });
  await page.goto(url);
  return page;
}

async function noRawKeys(locator: Locator) {
  expect(await locator.innerText()).not.toMatch(RAW_KEY);
}

test.describe('report share links from the workspace', () => {
  test('rad1 makes a link by keyboard, copies it, a stranger reads the report, and after revoking is refused', async ({ page, browser, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const exam = await unsharedApproved();
    await prefer(page, { language: 'en' });
    await signIn(page, 'rad1');
    await openWorkspace(page, `/studies/${exam!.id}/reports/${exam!.reportId}`);

    await runFromPalette(page, 'share rep', /^Share report/);
    await expect(page.getByRole('tab', { name: 'Share' })).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByTestId('share-panel');
    const days = panel.locator('input[name=ttlDays]');
    await expect(days).toBeFocused();
    await expect(days).toHaveValue('30');

    // Out of the server's bounds: said here, nothing is sent.
    await days.fill('400');
    await page.keyboard.press('Enter');
    await expect(panel.getByText('Enter a whole number of days from 1 to 365')).toBeVisible();
    await expect(panel.locator('[data-share-link]')).toHaveCount(0);

    await days.fill('7');
    await page.keyboard.press('Enter');
    const row = panel.locator('[data-share-link][data-state="active"]');
    await expect(row).toHaveCount(1);
    await expect(page.getByText(/^Link created, valid until /)).toBeVisible();
    const url = await row.getByTestId('share-url').inputValue();
    const link = (await row.getAttribute('data-share-link'))!;
    expect(url).toBe(`${new URL(page.url()).origin}/reports/s?link=${link}`);
    await expect(row.getByTestId('qr-code').locator('img')).toBeVisible();

    // The server holds the link with the chosen validity.
    const listed = await apiAs<ShareLink[]>('rad1', 'GET', `reports/${exam!.reportId}/shares`);
    const made = listed.body.find((l) => l.link === link)!;
    expect(made.revoked).toBe(false);
    expect(Math.abs(made.expires - (Date.now() / 1000 + 7 * 86_400))).toBeLessThan(120);

    // The new link's copy button has the focus: Enter copies the full address.
    await expect(row.getByRole('button', { name: 'Copy the link' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Copied to the clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await noRawKeys(panel);

    const outsider = await stranger(browser, url);
    await expect(outsider.getByTestId('share-patient')).toHaveText(exam!.patientName);
    await expect(outsider.getByTestId('share-banner')).toHaveCount(0);
    await expect(outsider.getByText('Findings', { exact: true })).toBeVisible();

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this link?' });
    await expect(confirm).toBeVisible();
    await noRawKeys(confirm);
    await expect(confirm.getByRole('button', { name: 'Revoke' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    await expect(page.getByText('Link revoked')).toBeVisible();
    await expect(panel.locator(`[data-share-link="${link}"]`)).toHaveAttribute('data-state', 'revoked');
    expect((await apiAs<ShareLink[]>('rad1', 'GET', `reports/${exam!.reportId}/shares`)).body.find((l) => l.link === link)!.revoked).toBe(true);

    await outsider.reload();
    await expect(outsider.getByText('This link has expired or has been withdrawn')).toBeVisible();
    await expect(outsider.getByTestId('share-patient')).toHaveCount(0);
    await outsider.context().close();
  });

  test('a report that is not approved explains why it cannot be shared and offers no link', async ({ page }) => {
    const draft = await freshCase('rad1');
    await prefer(page, { language: 'en' });
    await signIn(page, 'rad1');
    await openWorkspace(page, draft.path);
    await runFromPalette(page, 'share', /^Share report/);
    const panel = page.getByTestId('share-panel');
    await expect(panel.getByTestId('share-not-approved')).toContainText('Only an approved report can be shared');
    await expect(panel.getByRole('button', { name: 'Create link' })).toHaveCount(0);
    await expect(panel.getByText('No links yet')).toBeVisible();
  });

  test('an account without report_print has neither the tab nor the command', async ({ page }) => {
    const [exam] = await approvedReports(1);
    await prefer(page, { language: 'en' });
    await signIn(page, 'tech');
    await openWorkspace(page, `/studies/${exam!.id}/reports/${exam!.reportId}`);
    await expect(page.getByRole('tab', { name: 'Key images' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Share' })).toHaveCount(0);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette).toBeVisible();
    await page.keyboard.type('share report');
    await expect(palette.getByRole('option', { name: /^Share report/ })).toHaveCount(0);
  });
});

test('an electronic film made in the exam drawer opens with its code, and not once revoked', async ({ page, browser }) => {
  const exam = await unsharedApproved();
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto(`/studies?exam=${exam!.id}`);
  const drawer = page.getByTestId('exam-drawer');
  const film = drawer.getByTestId('film-share');
  // The drawer is a lazy chunk, loaded the first time a drawer opens.
  await expect(film).toBeVisible({ timeout: 15_000 });
  await expect(film.getByText('No electronic film shared yet')).toBeVisible();
  await film.getByRole('button', { name: 'Share film' }).click();

  const made = film.locator('[data-film-link][data-state="active"]');
  await expect(made).toHaveCount(1);
  const code = (await made.getByTestId('film-code').innerText()).trim();
  expect(code).toMatch(FILM_CODE);
  const link = (await made.getAttribute('data-film-link'))!;
  const url = await made.getByTestId('film-url').inputValue();
  expect(url).toBe(`${new URL(page.url()).origin}/sf/${link}`);
  await expect(made.getByRole('button', { name: 'Copy the code' })).toBeVisible();
  await expect(made.getByRole('button', { name: 'Copy the film link' })).toBeVisible();
  await noRawKeys(film);
  const listed = await apiAs<FilmShareItem[]>('rad1', 'GET', `exams/${exam!.id}/film-shares`);
  expect(listed.body[0]).toMatchObject({ link, code, revoked: false });

  // The drawer shows the film again when it is opened later (the code can be printed again).
  await page.reload();
  await expect(page.getByTestId('film-code')).toHaveText(code);

  const outsider = await stranger(browser, url);
  await outsider.locator('input[name=code]').fill(code.toLowerCase());
  await outsider.getByRole('button', { name: 'Open' }).click();
  await expect(outsider.getByTestId('share-patient')).toHaveText(exam!.patientName);

  await page.getByTestId('film-share').getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this film?' });
  await expect(confirm).toContainText(code);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Film revoked')).toBeVisible();
  await expect(page.getByTestId('film-share').locator(`[data-film-link="${link}"]`)).toHaveAttribute('data-state', 'revoked');

  await outsider.reload();
  await outsider.locator('input[name=code]').fill(code);
  await outsider.getByRole('button', { name: 'Open' }).click();
  await expect(outsider.getByText('This link has expired or has been withdrawn')).toBeVisible();
  await outsider.context().close();
});

test.describe('the upload wizard from the worklist', () => {
  test('tech sees the upload button on /studies and reaches /upload with Shift+U', async ({ page }) => {
    await prefer(page, { language: 'en' });
    await signIn(page, 'tech');
    await page.goto('/studies');
    const entry = page.getByTestId('upload-entry');
    await expect(entry).toBeVisible();
    await expect(entry).toHaveText(/Upload images/);
    await expect(page.getByTestId('worklist-grid')).toBeFocused();
    await page.keyboard.press('Shift+U');
    await expect(page).toHaveURL(/\/upload$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/studies/);
    await page.getByTestId('upload-entry').click();
    await expect(page).toHaveURL(/\/upload$/);
  });

  test('rad1 (no exam_upload) has neither the button nor Shift+U', async ({ page }) => {
    await prefer(page, { language: 'en' });
    await signIn(page, 'rad1');
    await page.goto('/studies');
    await expect(page.getByTestId('worklist-grid')).toBeFocused();
    await expect(page.getByTestId('upload-entry')).toHaveCount(0);
    await page.keyboard.press('Shift+U');
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(/\/studies/);
  });
});

test.describe('screens', () => {
  let shared: ExamRow;
  let filmed: ExamRow;

  test.beforeAll(async () => {
    [shared, filmed] = [await unsharedApproved(), await unsharedApproved()];
    // Something to show: an active link (with its QR), a revoked one; an active film and a revoked one.
    await apiAs('rad1', 'POST', `reports/${shared.reportId}/share`, { ttlDays: 30 });
    const old = await apiAs<ShareLink>('rad1', 'POST', `reports/${shared.reportId}/share`, { ttlDays: 7 });
    await apiAs('rad1', 'POST', `reports/${shared.reportId}/shares/${old.body.link}/revoke`);
    await apiAs('rad1', 'POST', `reports/${shared.reportId}/share`, { ttlDays: 90 });
    const oldFilm = await apiAs<FilmShareItem>('rad1', 'POST', 'film-share/share', { examId: filmed.id, ttlDays: 3 });
    await apiAs('rad1', 'POST', `film-share/${oldFilm.body.link}/revoke`);
    await apiAs('rad1', 'POST', 'film-share/share', { examId: filmed.id, ttlDays: 7 });
  });

  for (const [language, theme] of looks({ tibetan: false })) {
    test.describe(`${language} ${theme}`, () => {
      const errors: string[] = [];
      test.beforeEach(async ({ page }) => {
        errors.length = 0;
        page.on('pageerror', (error) => errors.push(error.message));
        await prefer(page, { language, theme });
      });
      test.afterEach(() => expect(errors).toEqual([]));

      test('the share panel', async ({ page }) => {
        await signIn(page, 'rad1');
        await openWorkspace(page, `/studies/${shared.id}/reports/${shared.reportId}`);
        await page.getByRole('tab', { name: language === 'en' ? 'Share' : '分享' }).click();
        const panel = page.getByTestId('share-panel');
        const first = panel.locator('[data-share-link][data-state="active"]').first();
        await first.getByRole('button', { name: language === 'en' ? 'Show the link and its QR code' : '显示链接和二维码' }).click();
        await expect(first.getByTestId('qr-code').locator('img')).toBeVisible();
        await expect(panel.locator('[data-state="revoked"]')).toHaveCount(1);
        await noRawKeys(panel);
        await dismissToasts(page);
        await first.getByTestId('qr-code').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: `${OUT}/share-panel-${language}-${theme}.png` });
      });

      test('the film in the exam drawer', async ({ page }) => {
        await signIn(page, 'rad1');
        await page.goto(`/studies?exam=${filmed.id}`);
        const film = page.getByTestId('film-share');
        await expect(film.getByTestId('film-code')).toHaveText(FILM_CODE, { timeout: 15_000 });
        await expect(film.locator('[data-state="revoked"]')).toHaveCount(1);
        await film.scrollIntoViewIfNeeded();
        await noRawKeys(page.getByTestId('exam-drawer'));
        await dismissToasts(page);
        await page.screenshot({ path: `${OUT}/film-drawer-${language}-${theme}.png` });
      });

      test('the worklist toolbar with the upload button', async ({ page }) => {
        await signIn(page, 'tech');
        await page.goto('/studies');
        await expect(page.getByTestId('upload-entry')).toBeVisible();
        await expect(page.getByTestId('worklist-grid')).toBeFocused();
        await noRawKeys(page.locator('body'));
        await dismissToasts(page);
        await page.screenshot({ path: `${OUT}/worklist-upload-${language}-${theme}.png` });
      });
    });
  }
});
