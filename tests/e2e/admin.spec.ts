import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { openPalette } from './support/palette';
import { apiAs } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * Administration (issue 14) end to end, by keyboard where the screens offer it: the group admin adds an organisation
 * with a code, gives it a custom role with two actions and maps rad2 (a member there) to it; rad2's next request has
 * exactly those actions there, and rad2's navbar and palette follow at the session's next refresh (window focus),
 * without a reload. Then a procedure list re-sorted with Alt+↓ keeps its order after a reload.
 */
const GROUP = 1;
const stamp = String(Date.now()).slice(-6);
const ORG_NAME = `东院区${stamp}`;
const ORG_CODE = `EAST${stamp}`;
const ROLE = `发布员${stamp}`;
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

/** rad2's actions per organisation, as the server answers them now. */
async function rad2Actions(orgId: number): Promise<string[]> {
  const res = await apiAs<Record<string, { actions: string[] }>>('rad2', 'GET', 'accounts/me/permissions');
  expect(res.status).toBe(200);
  return [...(res.body[String(orgId)]?.actions ?? [])].sort();
}

/** Asks the app's session again the way a returning user does (the window comes back into focus), until `check` holds. */
async function refreshUntil(page: Page, check: () => Promise<number>, expected: number) {
  await expect.poll(async () => {
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    return check();
  }, { timeout: 30_000, intervals: [500, 1000, 2000] }).toBe(expected);
}

test('a custom role with two actions reaches rad2 at its next request; its navbar and palette follow', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // rad2 is at work in its own browser before anything changes.
  const rad2Context = await browser.newContext();
  const rad2 = await rad2Context.newPage();
  await prefer(rad2, { language: 'en' });
  await signIn(rad2, 'rad2');
  const publishLink = rad2.getByRole('link', { name: 'Report publishing' });
  await expect(publishLink).toHaveCount(0);

  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/groups/${GROUP}/organizations`);
  await expect(page.getByTestId('org-table')).toBeVisible();

  // Alt+N opens "Add organisation"; a code with a space is refused before it is sent.
  await page.keyboard.press('Alt+KeyN');
  const form = page.getByTestId('org-add-form');
  await expect(form).toBeVisible();
  await page.keyboard.type(ORG_NAME);
  await page.keyboard.press('Tab');
  await page.keyboard.type('EA ST');
  await expect(form.getByRole('button', { name: 'Add' })).toBeDisabled();
  await form.getByLabel('Code').fill(ORG_CODE);
  await form.getByLabel('Code').press('Enter');
  const row = page.getByTestId('org-table').locator('tr', { hasText: ORG_NAME });
  await expect(row).toContainText(ORG_CODE);
  const orgId = Number(await row.getAttribute('data-org-id'));
  expect(orgId).toBeGreaterThan(0);
  expect(await rad2Actions(orgId)).toEqual([]);

  // The organisation's home: rad2 joins as a member.
  await row.getByRole('link', { name: ORG_NAME }).click();
  await expect(page.getByTestId('admin-title')).toHaveText(ORG_NAME);
  const addMember = page.getByTestId('org-member-add');
  await addMember.getByPlaceholder('Username').fill('rad2');
  await addMember.getByPlaceholder('Username').press('Enter');
  await expect(page.getByTestId('org-member-table').locator('tr[data-account-id]', { hasText: 'rad2' })).toBeVisible();

  // Esc hands the keys back to the page; 2: the roles tab. A new role, two actions ticked with Space in the grid.
  await page.keyboard.press('Escape');
  await page.keyboard.press('2');
  await expect(page).toHaveURL(new RegExp(`/groups/${GROUP}/organizations/${orgId}/roles$`));
  const create = page.getByTestId('role-create');
  await create.getByPlaceholder('Role name').fill(ROLE);
  await create.getByPlaceholder('Role name').press('Enter');
  const grid = page.getByTestId('role-grid');
  await expect(grid.getByRole('columnheader', { name: ROLE })).toBeVisible();
  const first = grid.locator('input[data-action]').first();
  await first.focus();
  // The arrow keys walk the grid: down from the first row to "Publish reports", then Space.
  const rows = await grid.locator('input[data-action]').evaluateAll((els) => els.map((el) => el.getAttribute('data-action')));
  for (let i = 0; i < rows.indexOf('order_report_publish'); i++) await page.keyboard.press('ArrowDown');
  await expect(grid.locator('input[data-action="order_report_publish"]')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(grid.locator('input[data-action="order_report_publish"]')).toBeChecked();
  // A tick saves at once and the grid waits for it (disabled meanwhile): the next key goes to an enabled box.
  await expect(grid.locator('input[data-action="registry_create"]')).toBeEnabled();
  await grid.locator('input[data-action="registry_create"]').focus();
  await page.keyboard.press('Space');
  await expect(grid.locator('input[data-action="registry_create"]')).toBeChecked();
  // rad2 holds the role.
  const holder = page.getByTestId('role-holders').locator('input[data-username="rad2"]');
  await expect(holder).toBeEnabled();
  await holder.focus();
  await page.keyboard.press('Space');
  await expect(holder).toBeChecked();

  // rad2's very next request: exactly those two actions in the new organisation.
  await expect.poll(() => rad2Actions(orgId)).toEqual(['order_report_publish', 'registry_create']);

  // rad2's navbar and palette follow at the session's next refresh, on the page rad2 is on.
  await refreshUntil(rad2, () => publishLink.count(), 1);
  const palette = await openPalette(rad2, 'Command palette');
  await palette.getByRole('combobox').fill('report publishing');
  await expect(palette.getByRole('option', { name: /Go to report publishing/ })).toBeVisible();
  await rad2.keyboard.press('Escape');

  // Unticking one action takes it away at the next request too.
  await expect(grid.locator('input[data-action="order_report_publish"]')).toBeEnabled();
  await grid.locator('input[data-action="order_report_publish"]').focus();
  await page.keyboard.press('Space');
  await expect.poll(() => rad2Actions(orgId)).toEqual(['registry_create']);
  await refreshUntil(rad2, () => publishLink.count(), 0);

  const texts = await page.locator('main, [role=main], body').first().innerText();
  expect(texts).not.toMatch(RAW_KEY);
  await rad2Context.close();
});

test('a procedure list re-sorted by keyboard keeps its order after a reload', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/groups/${GROUP}/organizations/1/procedures`);
  const list = page.getByTestId('procedure-list');
  await expect(list.locator('li').first()).toBeVisible();
  const names = () => list.locator('[data-procedure-name]').allInnerTexts();
  const before = await names();
  expect(before.length).toBeGreaterThan(3);

  // The first row goes down twice, the second Alt+↓ pressed while the first move is still being saved (a quick user's
  // pace: it must not be dropped); the focus stays on the row.
  await list.locator('li').first().focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(list.locator('li').nth(1)).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  const expected = [before[1], before[2], before[0], ...before.slice(3)];
  await expect.poll(names).toEqual(expected);
  await expect(list.locator('li').nth(2)).toBeFocused();
  // ↑ alone moves the focus, not the row.
  await page.keyboard.press('ArrowUp');
  await expect(list.locator('li').nth(1)).toBeFocused();
  await expect.poll(names).toEqual(expected);
  // Both moves reach the server (one after the other; a move made while the first is saved is not dropped).
  await expect.poll(async () => (await apiAs<{ name: string }[]>('admin', 'GET', 'buckets/1/procedures')).body.map((p) => p.name).slice(0, expected.length))
    .toEqual(expected);

  await page.reload();
  await expect(list.locator('li').first()).toBeVisible();
  expect(await names()).toEqual(expected);

  // The call queues below, the same way: the operator's columns follow the new order.
  const queues = page.getByTestId('ordered-list-queue-types');
  const queueNames = () => queues.locator('[data-row-name]').allInnerTexts();
  const queuesBefore = await queueNames();
  expect(queuesBefore.length).toBeGreaterThan(1);
  await queues.locator('li').first().focus();
  await page.keyboard.press('Alt+ArrowDown');
  const queuesAfter = [queuesBefore[1], queuesBefore[0], ...queuesBefore.slice(2)];
  await expect.poll(queueNames).toEqual(queuesAfter);
  await expect.poll(async () => (await apiAs<{ name: string }[]>('admin', 'GET', 'buckets/1/queue-types')).body.map((q) => q.name)).toEqual(queuesAfter);
  // Put it back for the call-queue tests.
  await queues.locator('li').nth(1).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(queueNames).toEqual(queuesBefore);
});

test('accounts: find by name, last sign-in time and place, disable asks first', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto('/accounts');
  await page.getByTestId('accounts-find').fill('王芳');
  const table = page.getByTestId('accounts-table');
  await expect(table.locator('tr[data-account-id]')).toHaveCount(1);
  const row = table.locator('tr[data-account-id]').first();
  await expect(row).toContainText('rad2');
  // rad2 signed in during this run (the role test above), from this machine.
  await expect(row).toContainText(/127\.0\.0\.1|::1/);
  await row.getByRole('button', { name: 'Disable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disable the account?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Normal');
});

test('group settings: features switch by keyboard and the navbar follows', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/groups/${GROUP}/settings`);
  const flags = page.getByTestId('group-flags');
  const calling = flags.locator('[data-flag="enableCalling"]');
  await expect(calling).toHaveAttribute('aria-checked', 'true');
  const callingLink = page.getByRole('link', { name: 'Calling', exact: true });
  await expect(callingLink).toHaveCount(1);
  // Tab lands on the first switch; ↓ walks to "Call queue"; Space turns it off.
  await flags.locator('[role=switch]').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(calling).toBeFocused();
  await page.keyboard.press('Space');
  await expect(calling).toHaveAttribute('aria-checked', 'false');
  await expect(callingLink).toHaveCount(0);
  const group = await apiAs<{ enableCalling: boolean }>('admin', 'GET', `groups/${GROUP}`);
  expect(group.body.enableCalling).toBe(false);
  // And on again (the rest of the suite's screens use the call queue).
  await page.keyboard.press('Space');
  await expect(calling).toHaveAttribute('aria-checked', 'true');
  await expect(callingLink).toHaveCount(1);
});

test('a procedure step: its flags switch by keyboard, and Delete on the row asks before it deletes', async ({ page }) => {
  const name = `Step ${String(Date.now()).slice(-6)}`;
  const made = await apiAs<{ id: number }>('admin', 'POST', 'buckets/1/steps', { name, modality: 'CT' });
  expect(made.status).toBe(200);
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto('/groups/1/organizations/1/procedures');
  const row = page.getByTestId('ordered-list-steps').locator(`li[data-row-id="${made.body.id}"]`);
  const during = row.locator('[data-step-flag="reportDuringExam"]');
  await expect(during).toHaveAttribute('aria-pressed', 'false');
  await during.focus();
  await page.keyboard.press('Space');
  await expect(during).toHaveAttribute('aria-pressed', 'true');
  const stored = async () => (await apiAs<{ id: number; reportDuringExam: boolean; showLocalVideo: boolean; modality: string }[]>('admin', 'GET', 'buckets/1/steps')).body
    .find((s) => s.id === made.body.id);
  // Polled: the switch may show its new state while its write is still on the way.
  await expect.poll(stored).toMatchObject({ reportDuringExam: true, showLocalVideo: false, modality: 'CT' });

  // Delete on the focused row: the dialog starts on Cancel (Escape keeps the step), then Delete confirms.
  await row.focus();
  await page.keyboard.press('Delete');
  const dialog = page.getByRole('dialog', { name: 'Delete this entry?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row).toBeVisible();
  await row.focus();
  await page.keyboard.press('Delete');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await expect.poll(stored).toBeUndefined();
});

test('a member leaves the group after a confirmation, and the group is gone from their list', async ({ page }) => {
  const username = `leaver${String(Date.now()).slice(-6)}`;
  const made = await apiAs<{ accountId: number }>('admin', 'POST', `groups/${GROUP}/members/create-account`, { username, name: 'Leaver', password: 'Leave2026!x' });
  expect(made.status).toBe(201);
  await prefer(page, { language: 'en' });
  await signIn(page, username, 'Leave2026!x');
  await page.goto(`/groups/${GROUP}`);
  await expect(page.getByTestId('group-quality')).toBeVisible();
  await expect(page.getByTestId('group-delete')).toHaveCount(0); // a member may leave, not delete
  await page.getByTestId('group-quit').click();
  const dialog = page.getByRole('dialog', { name: 'Leave this group?' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('group-danger-confirm')).toHaveText('Leave the group');
  await page.getByTestId('group-danger-confirm').click();
  await expect(page).toHaveURL(/\/groups$/);
  const members = await apiAs<{ items: { username: string }[] }>('admin', 'POST', `groups/${GROUP}/members/query`, { filters: [{ field: 'username', operator: 'equal', values: [username] }], skip: 0, limit: 20 });
  expect(members.status).toBe(200);
  expect(members.body.items).toEqual([]);
});

// One run in CI (the suite's time: the dark theme in English; the whole grid with SCREENS=all).
for (const [language, theme] of looks()) {
  test(`looks: group and organisation administration, ${language} ${theme}`, async ({ page }) => {
    test.setTimeout(90_000);
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await prefer(page, { language, theme });
    await signIn(page, 'admin');
    const screens: [string, string, string][] = [
      ['groups', '/groups', 'group-list'],
      ['group-home', `/groups/${GROUP}`, 'group-quality'],
      ['group-organizations', `/groups/${GROUP}/organizations`, 'org-table'],
      ['group-members', `/groups/${GROUP}/members`, 'member-table'],
      ['group-settings', `/groups/${GROUP}/settings`, 'group-flags'],
      ['org-home', `/groups/${GROUP}/organizations/1`, 'org-member-table'],
      ['org-roles', `/groups/${GROUP}/organizations/1/roles`, 'role-grid'],
      ['org-settings', `/groups/${GROUP}/organizations/1/settings`, 'dictionary-bodyparts'],
      ['org-procedures', `/groups/${GROUP}/organizations/1/procedures`, 'procedure-list'],
      ['accounts', '/accounts', 'accounts-table'],
    ];
    for (const [name, path, testId] of screens) {
      await page.goto(path);
      await expect(page.getByTestId(testId)).toBeVisible();
      await expect(page.locator('body')).not.toContainText(RAW_KEY);
      await page.screenshot({ path: `${OUT}/admin-${name}-${language}-${theme}.png` });
    }
    expect(errors).toEqual([]);
  });
}
