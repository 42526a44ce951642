import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, freshCase, openWorkspace, reportAs } from './support/reportApi';
import { openPalette, runFromPalette } from './support/palette';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';
import { dismissToasts } from './support/toasts';

/**
 * The report's housekeeping in the workspace, by keyboard through the palette: the chief assigns a report to
 * rad2 and removes the assignment; a writer resets a draft, deletes it, and recovers it from its address.
 * Only what the report's `transitions` allow is offered. English texts keep the assertions readable.
 */

interface Assigned { assignee: { id: number; name: string } | null; deleted: boolean }

const editorOf = (page: Page, field: 'finding' | 'diagnosis') => page.locator(`.report-editor[data-field="${field}"]`);
const saveState = (page: Page) => page.locator('[data-save-state]');

/** The palette, searched for `query`, offers the `shown` commands and not the `hidden` ones; closed again with Esc. */
async function expectPalette(page: Page, query: string, shown: RegExp[], hidden: RegExp[]) {
  const palette = await openPalette(page);
  await page.keyboard.type(query);
  for (const name of shown) await expect(palette.getByRole('option', { name })).toBeVisible();
  for (const name of hidden) await expect(palette.getByRole('option', { name })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
}

test.beforeAll(() => mkdirSync('.tmp/screens', { recursive: true }));

test('chief assigns a report to rad2 through the palette by keyboard, sees the assignee, and removes the assignment', async ({ page }) => {
  test.setTimeout(60_000);
  const { reportId, path } = await freshCase('chief');
  const rad2 = (await apiAs<{ id: number }>('rad2', 'GET', 'accounts/me')).body.id;
  await prefer(page, { language: 'en' });
  await signIn(page, 'chief');
  await openWorkspace(page, path);
  await expect(page.locator('[data-assignee]')).toHaveCount(0);
  // Unassigned: removing an assignment is not offered, assigning is (palette and the action bar's "More" menu).
  await expectPalette(page, 'assign', [/^Assign…/], [/Remove assignment/]);
  await page.getByRole('button', { name: 'More' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem')).toHaveText([/Assign…\s*Ctrl\+Shift\+E/, /Delete…/]);
  await page.keyboard.press('Escape');

  await runFromPalette(page, 'assign', /^Assign…/);
  const dialog = page.getByRole('dialog', { name: 'Assign the report' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Not assigned to anyone yet.')).toBeVisible();
  const search = dialog.getByRole('combobox');
  await expect(search).toBeFocused();
  // The hospital's report writers only: not the registrar, nor the expert of the other organisation.
  await expect(dialog.locator('[data-account="rad2"]')).toBeVisible();
  await expect(dialog.locator('[data-account="registrar"]')).toHaveCount(0);
  await expect(dialog.locator('[data-account="expert"]')).toHaveCount(0);
  await page.keyboard.type('rad2');
  await expect(dialog.getByRole('option')).toHaveCount(1);
  await expect(dialog.getByRole('option', { name: /王芳/ })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('button', { name: 'Assign to 王芳' })).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  await expect(page.getByText('Assigned to 王芳').first()).toBeVisible();
  await expect(page.locator('[data-assignee]')).toContainText('王芳');
  expect((await apiAs<Assigned>('chief', 'GET', `reports/${reportId}/detail`)).body.assignee?.id).toBe(rad2);
  await dismissToasts(page);
  await page.screenshot({ path: '.tmp/screens/report-assigned-light-en.png' });

  // Assigned: the dialog says to whom, and "Remove assignment" is offered now.
  await page.keyboard.press('Control+Shift+E');
  await expect(dialog.getByText('Assigned to 王芳')).toBeVisible();
  await expect(dialog.locator('[data-account="rad2"]')).toContainText('Assigned now');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await runFromPalette(page, 'remove assignment', /Remove assignment/);
  await expect(page.getByText('Assignment removed')).toBeVisible();
  await expect(page.locator('[data-assignee]')).toHaveCount(0);
  expect((await apiAs<Assigned>('chief', 'GET', `reports/${reportId}/detail`)).body.assignee).toBeNull();
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
});

test('the assign dialog in Chinese and English, light and dark (Ctrl+Shift+E)', async ({ browser }) => {
  test.setTimeout(120_000);
  const { path } = await freshCase('chief');
  for (const [language, theme] of looks({ tibetan: false })) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await prefer(page, { language, theme });
    await signIn(page, 'chief');
    await openWorkspace(page, path);
    await dismissToasts(page);
    const dialog = page.locator('dialog[open]:has([data-assign-dialog])');
    await expect(async () => {
      if (!(await dialog.isVisible())) await page.keyboard.press('Control+Shift+E');
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(dialog.locator('[data-account="rad2"]')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.screenshot({ path: `.tmp/screens/report-assign-${theme}-${language}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // The action bar's "More" menu, opened upwards from the foot of the page.
    await dismissToasts(page);
    await page.locator('[data-action-menu] button').focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.screenshot({ path: `.tmp/screens/report-more-${theme}-${language}.png` });
    await context.close();
  }
});

test('a writer resets a draft (confirmed), deletes it back to the worklist, and recovers it from its address', async ({ page }) => {
  test.setTimeout(60_000);
  const { reportId, path } = await freshCase('rad1');
  const start = await reportAs('rad1', reportId);
  expect((await apiAs('rad1', 'POST', `reports/${reportId}/save`, { version: start.version, finding: '<p>Old findings.</p>', diagnosis: '<p>Old conclusion.</p>' })).status).toBe(200);
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await openWorkspace(page, path);
  await expect(editorOf(page, 'finding')).toHaveText('Old findings.');
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type(' Not saved.');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'unsaved');

  // Esc in the confirmation keeps everything as it was.
  await runFromPalette(page, 'reset', /Reset…/);
  const reset = page.getByRole('dialog', { name: 'Reset the report?' });
  await expect(reset.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(reset).toBeHidden();
  await expect(editorOf(page, 'finding')).toContainText('Old findings. Not saved.');

  // Tab to "Reset", Enter: the text is cleared on the server and on screen, and nothing is left unsaved.
  await runFromPalette(page, 'reset', /Reset…/);
  await expect(reset.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(reset.getByRole('button', { name: 'Reset' })).toBeFocused();
  await page.screenshot({ path: '.tmp/screens/report-reset-light-en.png' });
  await page.keyboard.press('Enter');
  await expect(reset).toBeHidden();
  await expect(page.getByText('Report reset to an unwritten draft')).toBeVisible();
  await expect(page.getByTestId('exam-header').locator('[data-status="none"]')).toBeVisible();
  await expect(editorOf(page, 'finding')).toHaveText('');
  await expect(editorOf(page, 'diagnosis')).toHaveText('');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');
  const cleared = await reportAs('rad1', reportId);
  expect([cleared.status, cleared.finding, cleared.diagnosis]).toEqual(['none', '', '']);

  // Delete: confirmed the same way; back on the worklist, which says so.
  await runFromPalette(page, 'delete', /Delete…/);
  const remove = page.getByRole('dialog', { name: 'Delete the report?' });
  await expect(remove.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/studies(\?.*)?$/);
  await expect(page.getByText('Report deleted')).toBeVisible();
  expect((await apiAs<Assigned>('rad1', 'GET', `reports/${reportId}/detail`)).body.deleted).toBe(true);

  // Its address still shows it, read only, with a banner; Recover (palette) puts it back on the list.
  await openWorkspace(page, path);
  const banner = page.locator('[data-banner="deleted"]');
  await expect(banner).toContainText('This report was deleted on');
  await page.screenshot({ path: '.tmp/screens/report-deleted-light-en.png' });
  await expect(page.locator('.report-editor')).toHaveCount(0);
  await expectPalette(page, '', [/Recover/], [/^Delete…/, /^Reset…/, /^Assign…/]);
  await runFromPalette(page, 'recover', /Recover/);
  await expect(page.getByText('Report recovered')).toBeVisible();
  await expect(banner).toHaveCount(0);
  await expect(editorOf(page, 'finding')).toBeVisible();
  const recovered = await apiAs<Assigned & { status: string }>('rad1', 'GET', `reports/${reportId}/detail`);
  expect([recovered.body.deleted, recovered.body.status]).toEqual([false, 'none']);
});
