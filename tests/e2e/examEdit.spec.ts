import { expect, test } from '@playwright/test';
import { apiAs, freshCase, openWorkspace } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * Editing an exam's information (exam_update) by keyboard, as admin (the demo role holding it): from the report
 * workspace (Alt+Shift+I) and the worklist (Shift+I); a change by someone else meanwhile is refused and reloaded.
 * And the navbar's help: F1 opens the shortcut reference, which lists these keys, and the version.
 */
interface Exam { id: number; version: number; patientName: string; bodyPart: string | null }

test.beforeEach(async ({ page }) => {
  await prefer(page, { language: 'en' });
});

test('edits the exam of the open report with Alt+Shift+I, version-checked', async ({ page }) => {
  const { examId, path } = await freshCase('admin');
  const before = (await apiAs<Exam>('admin', 'GET', `exams/${examId}`)).body;
  await signIn(page, 'admin');
  await openWorkspace(page, path);
  await page.keyboard.press('Alt+Shift+KeyI');
  const dialog = page.getByRole('dialog', { name: 'Edit exam information' });
  const name = dialog.getByLabel('Patient name');
  await expect(name).toBeFocused();
  await expect(name).toHaveValue(before.patientName);
  await name.fill(`${before.patientName}改`);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Exam information saved')).toBeVisible();
  const after = (await apiAs<Exam>('admin', 'GET', `exams/${examId}`)).body;
  expect([after.patientName, after.version]).toEqual([`${before.patientName}改`, before.version + 1]);
});

test('from the worklist with Shift+I: another edit meanwhile is refused, and Reload shows it', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/studies');
  const grid = page.locator('[data-testid="worklist-grid"]');
  await expect(grid).toBeFocused();
  const row = page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]');
  const examId = Number(await row.getAttribute('data-exam-id'));
  await page.keyboard.press('Shift+I');
  const dialog = page.getByRole('dialog', { name: 'Edit exam information' });
  await expect(dialog.getByLabel('Patient name')).toBeFocused();

  const read = (await apiAs<Exam>('admin', 'GET', `exams/${examId}`)).body;
  const meanwhile = await apiAs<Exam>('admin', 'POST', `exams/${examId}`, { version: read.version, bodyPart: 'KNEE-E2E' });
  expect(meanwhile.status).toBe(200);

  await dialog.getByLabel('Study description').fill('mine');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText('Someone else changed this exam');
  expect((await apiAs<Exam>('admin', 'GET', `exams/${examId}`)).body.version).toBe(read.version + 1);
  await dialog.getByTestId('exam-edit-reload').click();
  await expect(dialog.getByLabel('Body part')).toHaveValue('KNEE-E2E');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a patient source without its fields cannot be saved', async ({ page }) => {
  const { examId, path } = await freshCase('admin');
  await signIn(page, 'admin');
  await openWorkspace(page, path);
  await page.keyboard.press('Alt+Shift+KeyI');
  const dialog = page.getByRole('dialog', { name: 'Edit exam information' });
  await dialog.getByLabel('Patient source').selectOption('I');
  await dialog.getByLabel('Inpatient no.').fill('');
  await expect(dialog.getByText('Required for this patient source').first()).toBeVisible();
  await expect(dialog.getByTestId('exam-edit-save')).toBeDisabled();
  await dialog.getByLabel('Inpatient no.').fill('ZY-9');
  await dialog.getByLabel('Bed').fill('3');
  await dialog.getByTestId('exam-edit-save').click();
  await expect(dialog).toBeHidden();
  expect((await apiAs<{ patientSource: string; bedNum: string }>('admin', 'GET', `exams/${examId}`)).body).toMatchObject({ patientSource: 'I', bedNum: '3' });
});

test('F1 opens the help: shortcuts by screen from the commands, the learning videos, the version', async ({ page }) => {
  await signIn(page, 'rad1');
  await page.goto('/studies');
  await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();
  await page.keyboard.press('F1');
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
  await expect(page.getByTestId('help-version')).toHaveText(/Version \d+\.\d+\.\d+/);
  const worklist = page.getByRole('region', { name: 'Worklist' });
  await expect(worklist.getByText('Edit exam information')).toBeVisible();
  await expect(worklist.locator('[data-shortcut="Shift+I"]')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the learning area' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/learning/);
});
