import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { looks, type Language, type Theme } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The organisation settings tab's doctors, extension packages and public upload token, by keyboard as the demo group
 * admin: a doctor is added with a department, edited and deleted (after a confirmation); a second extension package of
 * the same name is refused with the catalogue's message; a new upload token (after a confirmation) replaces the old
 * one, which the public look-up no longer knows.
 */
const GROUP = 1;
const ORG = 1;
const SETTINGS = `/groups/${GROUP}/organizations/${ORG}/settings`;
const stamp = String(Date.now()).slice(-6);

async function openSettings(page: Page, prefs: { language?: Language; theme?: Theme } = { language: 'en' }) {
  await prefer(page, prefs);
  await signIn(page, 'admin');
  await page.goto(SETTINGS);
}

test('doctors: added with a department, edited, and deleted after a confirmation', async ({ page }) => {
  await openSettings(page);
  const section = page.getByTestId('org-doctors');
  const add = section.locator('tfoot'); // the add row under the table's columns
  const name = `Dr Keys ${stamp}`;
  const renamed = `Dr Tabs ${stamp}`;

  // Name, Tab to the department menu, ↓ chooses the first department, Tab to the physician type, Enter adds.
  await add.getByLabel('Name').focus();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  const department = add.getByLabel('Department');
  await expect(department).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const departmentName = await department.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text ?? '');
  expect(departmentName).not.toBe('None');
  await page.keyboard.press('Tab');
  await expect(add.getByLabel('Physician type')).toHaveValue('1');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  const row = section.locator('tr[data-doctor-id]', { hasText: name });
  await expect(row).toContainText(departmentName);
  await expect(row.locator('td').nth(2)).toHaveText('2');
  await expect(add.getByLabel('Name')).toHaveValue('');

  // Edit: the dialog opens on the name; the department goes back to "none".
  await row.getByRole('button', { name: `Edit ${name}` }).focus();
  await page.keyboard.press('Enter');
  const edit = page.getByTestId('doctor-edit');
  await expect(edit.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(renamed);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Home');
  await expect(edit.getByLabel('Department')).toHaveValue('0');
  await page.keyboard.press('Tab');
  await expect(edit.getByLabel('Physician type')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(edit).toBeHidden();
  const renamedRow = section.locator('tr[data-doctor-id]', { hasText: renamed });
  await expect(renamedRow).toContainText('None');
  const saved = await apiAs<{ name: string; departmentId: number; physicianType: number }[]>('admin', 'GET', `buckets/${ORG}/doctors`);
  expect(saved.body.find((d) => d.name === renamed)).toMatchObject({ departmentId: 0, physicianType: 2 });

  // Delete asks first: the focus starts on Cancel, Tab reaches Delete.
  await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete the doctor?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(renamedRow).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(RAW_KEY);
});

test('extension packages: a second package of the same name is refused with the catalogue message', async ({ page }) => {
  await openSettings(page);
  const section = page.getByTestId('org-packages');
  const name = `Nodule ${stamp}`;
  const create = async (fieldName: string) => {
    await section.getByRole('button', { name: 'New package' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByTestId('package-form');
    await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
    await page.keyboard.type(name);
    await page.keyboard.press('Tab'); // type: Report
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Name of field 1')).toBeFocused();
    await page.keyboard.type(fieldName);
    await page.keyboard.press('Tab');
    await page.keyboard.type('mm');
    await page.keyboard.press('Enter');
    return form;
  };

  const first = await create('Diameter');
  await expect(first).toBeHidden();
  const rows = section.locator('tr[data-package-id]', { hasText: name });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Diameter (mm)');

  const second = await create('Depth');
  await expect(second.getByRole('alert')).toHaveText('An extension package with this name already exists');
  await expect(second.getByLabel('Name', { exact: true })).toHaveValue(name);
  await page.keyboard.press('Escape');
  await expect(second).toBeHidden();
  await expect(rows).toHaveCount(1);
});

test('upload token: a new one after a confirmation, and the old one no longer answers', async ({ page, request }) => {
  await openSettings(page);
  const section = page.getByTestId('org-upload-token');
  const holder = section.locator('[data-token]');
  const old = await holder.getAttribute('data-token');
  expect(old).toBeTruthy();
  await expect(section.getByTestId('upload-address')).toHaveValue(`${new URL(page.url()).origin}/upload?token=${encodeURIComponent(old!)}`);
  expect((await request.get(`/api/v1/buckets/find-one?token=${encodeURIComponent(old!)}`)).status()).toBe(200);

  await section.getByRole('button', { name: 'New link' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Make a new upload link?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(holder).not.toHaveAttribute('data-token', old!);
  const fresh = await holder.getAttribute('data-token');
  expect(fresh).toBeTruthy();
  expect(fresh).not.toBe(old);
  await expect(section.getByTestId('upload-address')).toHaveValue(new RegExp(`/upload\\?token=${encodeURIComponent(fresh!)}$`));

  expect((await request.get(`/api/v1/buckets/find-one?token=${encodeURIComponent(old!)}`)).status()).toBe(404);
  const found = await request.get(`/api/v1/buckets/find-one?token=${encodeURIComponent(fresh!)}`);
  expect(found.status()).toBe(200);
  expect(((await found.json()) as { id: number }).id).toBe(ORG);
});

// Screens of the new sections in .tmp/screens/: one run in CI (English, dark), the whole grid with SCREENS=all.
const SHOTS = '.tmp/screens';
for (const [language, theme] of looks()) {
  test(`looks: organisation settings, ${language} ${theme}`, async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 2300 });
    await openSettings(page, { language, theme });
    await expect(page.getByTestId('doctor-table')).toBeVisible();
    await expect(page.getByTestId('upload-address')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.screenshot({ path: `${SHOTS}/org-settings-${language}-${theme}.png` });
    // The new sections at their own size: from the doctors down to the upload link.
    const top = (await page.getByTestId('org-doctors').boundingBox())!;
    const bottom = (await page.getByTestId('org-upload-token').boundingBox())!;
    await page.screenshot({ path: `${SHOTS}/org-parts-${language}-${theme}.png`, clip: { x: 0, y: top.y - 8, width: 940, height: bottom.y + bottom.height - top.y + 16 } });
    // The package dialog with the server's refusal of a name used already (the package the test above added).
    const taken = await page.locator('tr[data-package-id] td').first().innerText();
    await page.getByTestId('org-packages').getByRole('button').first().click();
    const form = page.getByTestId('package-form');
    await form.locator('input').first().fill(taken);
    await form.locator('[data-field-row]').first().fill('x');
    await form.locator('[data-field-row]').first().press('Enter');
    await expect(form.getByRole('alert')).toBeVisible();
    await page.getByRole('dialog').screenshot({ path: `${SHOTS}/org-package-dialog-${language}-${theme}.png` });
  });
}
