import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { openPalette, runFromPalette } from './support/palette';
import { prefer, signIn } from './support/session';

/**
 * Issue 32, "hands and focus", by keyboard only: each screen's main control takes the keyboard on arrival (after
 * sign-in, `g` keys and the palette), the registry form's new line and sex, the check-in's undo, the call desk's keys
 * that say why not, and the administration's tabs, keys, sections and palette destinations.
 */
const HOSPITAL = 1;
const GROUP = 1;

const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? `${el.tagName.toLowerCase()}${el.id === 'main' ? '#main' : ''}` : null;
});

test('a registrar signs in on the name field; Alt+A focuses the new line; the sex must be chosen; a check-in is undone from its toast', async ({ page }) => {
  const name = `焦点测试${Date.now() % 100000}`;
  const made = await apiAs<{ version: number; lines: { examId: number }[] }>('registrar', 'POST', 'registry', {
    bucketId: HOSPITAL, patient: { patientName: name, patientGender: 'F', patientSource: 'E' },
    exams: [{ modality: 'DX', scheduledTime: new Date().toISOString() }],
  });
  expect(made.status).toBe(200);
  const examId = made.body.lines[0]!.examId;

  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await expect(page).toHaveURL(/\/registry/);
  const form = page.getByTestId('registry-form');
  // Sign-in leaves the keyboard on the form's first field, not on the page's body.
  await expect(form.getByRole('combobox', { name: /Name/ })).toBeFocused();

  // No sex is preset: a save without one says so beside the field.
  const sex = form.getByLabel('Sex');
  await expect(sex).toHaveValue('');
  await page.keyboard.type('无性别');
  await page.keyboard.press('Enter');
  await expect(sex).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Choose a sex')).toBeVisible();

  // Alt+A: the new exam line takes the keyboard, so ↓ chooses its step and line 1 stays as it was.
  const lines = form.getByTestId('exam-line');
  const firstStep = lines.nth(0).getByLabel('Procedure');
  await page.keyboard.press('Alt+KeyA');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(1).getByLabel('Procedure')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(lines.nth(1).getByLabel('Procedure')).not.toHaveValue('');
  await expect(firstStep).toHaveValue('');

  // i on the row in hand checks it in; the toast offers Undo (Shift+U), which revokes that step through the API.
  await page.keyboard.press('Escape');
  await expect(form.getByRole('combobox', { name: /Name/ })).toBeFocused();
  await page.keyboard.press('Alt+KeyL');
  await expect(page.locator('[data-testid=registry-table] tbody tr:focus')).toHaveCount(1);
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: /Search/ })).toBeFocused();
  await page.keyboard.type(name);
  const row = page.locator(`tr[data-exam-id="${examId}"]`);
  await expect(page.locator('[data-testid=registry-table] tbody tr')).toHaveCount(1);
  await expect(row).toBeVisible();
  await page.keyboard.press('Alt+KeyL');
  await expect(row).toBeFocused();
  await page.keyboard.press('i');
  await expect(row).toHaveAttribute('data-status', 'Arrived');
  const toast = page.locator('[data-toast-key]', { hasText: name });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(toast).toContainText('Shift+U');
  await page.keyboard.press('Shift+U');
  await expect(row).toHaveAttribute('data-status', 'Registered');
});

test('the call desk: the palette leads to the queues in hand; U after P brings the passed patient back; a key that cannot act says why', async ({ page }) => {
  // One patient waiting in a queue of its own modality, checked in at the desk through the API.
  const made = await apiAs<{ version: number; lines: { examId: number }[] }>('registrar', 'POST', 'registry', {
    bucketId: HOSPITAL, patient: { patientName: '焦点叫号', patientGender: 'M', patientSource: 'E' },
    exams: [{ modality: 'CT', scheduledTime: new Date().toISOString() }],
  });
  expect(made.status).toBe(200);
  expect((await apiAs('registrar', 'POST', 'exam/status', { examId: made.body.lines[0]!.examId, status: 'Arrived', version: made.body.version })).status).toBe(200);
  const board = await apiAs<{ entries: { examId: number; queueTypeId: number; queueNo: string }[] }>('registrar', 'GET', `buckets/${HOSPITAL}/queue-exams`);
  const found = board.body.entries.find((e) => e.examId === made.body.lines[0]!.examId)!;
  const entry = { queueTypeId: found.queueTypeId, number: found.queueNo };

  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await runFromPalette(page, 'calling', /^Calling$/);
  await expect(page).toHaveURL(/\/calling/);
  await expect(page.getByTestId('calling-queues')).toBeFocused();

  const columns = page.getByTestId('calling-queue');
  const keys = await columns.evaluateAll((els) => els.map((el) => el.getAttribute('data-queue')));
  const index = keys.indexOf(String(entry.queueTypeId));
  expect(index).toBeGreaterThanOrEqual(0);
  await page.keyboard.press(String(index + 1));
  const column = columns.nth(index);
  await expect(column).toHaveAttribute('data-active', 'true');

  // N until our patient is the called one; P passes them (nobody is called or picked then).
  const current = column.getByTestId('calling-current');
  for (let i = 0; i < 20 && !((await current.textContent()) ?? '').includes(entry.number); i++) {
    const before = await current.textContent();
    await page.keyboard.press('n');
    await expect(current).not.toHaveText(before ?? '');
  }
  await expect(current).toContainText(entry.number);
  await page.keyboard.press('p');
  await expect(column.locator('[data-testid=calling-entry][data-state=passed]', { hasText: entry.number })).toBeVisible();
  await expect(current).not.toContainText(entry.number);

  // U, nobody picked: the patient passed last comes back (the return dialog asks where). It used to do nothing.
  await page.keyboard.press('u');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(entry.number);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A key that cannot act says why instead of nothing: R with nobody called, P on the passed patient.
  await page.keyboard.press('r');
  await expect(page.getByTestId('calling-status')).toContainText('Nobody is called in');
  await page.keyboard.press('p');
  await expect(page.getByTestId('calling-status')).toHaveText(`${entry.number} has already been passed`);

  // The palette lists the desk's commands even when they cannot act now.
  const palette = await openPalette(page);
  await page.keyboard.type('return');
  await expect(palette.getByRole('option', { name: /Return to the queue/ })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('administration: every organisation tab on a number key, Alt+N a new role, the palette finds the group and the roles, settings sections on Shift+1–7', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');

  // "group" finds the group's administration before the statistics.
  const palette = await openPalette(page);
  await page.keyboard.type('group');
  await expect(palette.getByRole('option').first()).toHaveText(/Group administration/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/groups/${GROUP}$`));

  // An organisation's roles from anywhere.
  await runFromPalette(page, 'roles', /Organisation roles · 市第一/);
  await expect(page).toHaveURL(/\/organizations\/\d+\/roles$/);
  await expect(page.getByTestId('role-grid').or(page.getByTestId('role-create')).first()).toBeVisible();
  // The roles tab's main control has the keyboard (the grid's cell, or the name when there is no role yet).
  expect(await focused(page)).toBe('input');

  // 5 and 6 reach the last two tabs; 2 comes back.
  // (Each tab's page is a screen of its own: its keys are live once its tab is marked current.)
  const tab = (id: string) => page.locator(`[data-tab="${id}"][aria-current=page]`);
  await page.keyboard.press('5');
  await expect(page).toHaveURL(/\/print-templates$/);
  await expect(tab('print-templates')).toBeVisible();
  await page.keyboard.press('2');
  await expect(page).toHaveURL(/\/roles$/);
  await expect(tab('roles')).toBeVisible();
  await expect(page.getByTestId('role-create')).toBeVisible();
  await page.keyboard.press('6');
  await expect(page).toHaveURL(/\/sample-graphs$/);
  await expect(tab('sample-graphs')).toBeVisible();
  await page.goto(page.url().replace(/sample-graphs$/, 'roles'));

  // Alt+N: the new role's name (once the roles tab is drawn).
  await expect(tab('roles')).toBeVisible();
  await expect(page.getByTestId('role-create')).toBeVisible();
  await page.keyboard.press('Alt+KeyN');
  await expect(page.getByTestId('role-create').getByRole('textbox')).toBeFocused();
  await page.keyboard.press('Escape');

  // The group's settings: Shift+2 puts the keyboard in the assignment rules.
  await page.goto(`/groups/${GROUP}/settings`);
  await expect(page.getByTestId('settings-jump')).toBeVisible();
  await expect(page.getByTestId('group-rules')).toBeVisible();
  await page.keyboard.press('Shift+Digit2');
  await expect(page.getByTestId('group-rules').locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Shift+Digit7');
  await expect(page.getByTestId('colour-rules').locator(':focus')).toHaveCount(1);
});

test('statistics and the worklist take the keyboard on arrival; the worklist\'s focused row shows its ring', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  await expect(page).toHaveURL(/\/studies/);
  const grid = page.getByTestId('worklist-grid');
  await expect(grid).toBeFocused();
  const row = grid.locator('[role=row][data-focused]');
  await expect(row).toBeVisible();
  // A 2 px ring all round (inset), not only a tint.
  expect(await row.evaluate((el) => getComputedStyle(el).boxShadow)).toMatch(/0px 0px 0px 2px inset/);

  await runFromPalette(page, 'statistics', /^Statistics$/);
  await expect(page).toHaveURL(/statistics/);
  await expect(page.getByTestId('stat-rail').getByRole('tab', { selected: true })).toBeFocused();
});
