import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { DEMO_PASSWORD, prefer, RAW_KEY, signIn } from './support/session';

/**
 * The group administration screens (issue "group parts") as the demo group admin, by keyboard: an assign rule added,
 * changed and deleted (the delete asks first); an expert organisation with its free flag; a notification user, and
 * the server's limit shown in place; the members tab paging 20 at a time, finding by username and name, and a new
 * account created in the group, the server's refusals shown first. Each step is checked against what the API holds.
 */
const GROUP = 1;
const stamp = String(Date.now()).slice(-6);
const RULE = `CT-${stamp}`;
const HOSPITAL = '市第一人民医院放射科';
const CENTRE = '远程影像专家中心';

test.describe.configure({ mode: 'serial' });

interface Org { id: number; name: string }
interface Member { accountId: number; username: string; name: string }
interface Rule { id: number; name: string; bucketId: number; reporterId: number | null; modality: string | null; memberIds: number[]; priority: number }

let orgs: Record<'hospital' | 'centre', number>;
let people: Record<string, number>;

test.beforeAll(async () => {
  const list = await apiAs<Org[]>('admin', 'GET', `groups/${GROUP}/organizations`);
  expect(list.status).toBe(200);
  orgs = { hospital: list.body.find((o) => o.name === HOSPITAL)!.id, centre: list.body.find((o) => o.name === CENTRE)!.id };
  const members = await apiAs<Member[]>('admin', 'GET', `groups/${GROUP}/members`);
  people = Object.fromEntries(members.body.map((m) => [m.username, m.accountId]));
});

async function openAs(page: Page, path: string) {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(path);
}

/** Moves a focused, closed <select> with the arrow keys until it holds `value` (Chromium changes it in place). */
async function arrowTo(page: Page, select: Locator, value: string) {
  await expect(select).toBeFocused();
  const values = await select.locator('option').evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
  const from = values.indexOf(await select.inputValue());
  const to = values.indexOf(value);
  expect(to).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < Math.abs(to - from); i++) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  await expect(select).toHaveValue(value);
}

/** Tab until `target` has the focus (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 12) {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
}

const rulesNow = async () => (await apiAs<Rule[]>('admin', 'GET', `groups/${GROUP}/rules`)).body.filter((r) => r.name.endsWith(stamp));

test('an assign rule is added, changed and deleted by keyboard', async ({ page }) => {
  await openAs(page, `/groups/${GROUP}/settings`);
  const table = page.getByTestId('rule-table');
  await expect(table).toContainText('No assign rule yet');

  await page.getByTestId('rule-add').focus();
  await page.keyboard.press('Enter');
  const form = page.getByTestId('rule-form');
  await expect(form.getByLabel('Name')).toBeFocused();
  await page.keyboard.type(RULE);
  await page.keyboard.press('Tab');
  await arrowTo(page, form.getByLabel('Organisation'), String(orgs.hospital));
  await page.keyboard.press('Tab');
  await arrowTo(page, form.getByLabel('Modality'), 'CT');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Reporter')).toHaveValue('');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Priority')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('5');
  // Without a reporter or a member the rule cannot be saved.
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(form.locator('input[data-username="rad2"]')).toBeVisible();
  for (const username of ['rad1', 'rad2']) {
    await tabTo(page, form.locator(`input[data-username="${username}"]`));
    await page.keyboard.press('Space');
  }
  await tabTo(page, form.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();

  const row = table.locator('tr[data-rule-id]', { hasText: RULE });
  await expect(row).toContainText('CT');
  await expect(row).toContainText('李明, 王芳');
  await expect(row).toContainText('Least loaded member');
  const [created] = await rulesNow();
  expect(created).toMatchObject({ name: RULE, bucketId: orgs.hospital, modality: 'CT', reporterId: null, priority: 5 });
  expect([...created!.memberIds].sort()).toEqual([people.rad1, people.rad2].sort());

  // Edit: a new name and the chief as reporter; Enter in the priority field saves.
  await row.getByRole('button', { name: `Edit ${RULE}` }).focus();
  await page.keyboard.press('Enter');
  await expect(form.getByLabel('Name')).toBeFocused();
  await expect(form.locator(`option[value="${people.chief}"]`)).toHaveCount(1);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(`MR-${stamp}`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await arrowTo(page, form.getByLabel('Modality'), 'MR');
  await page.keyboard.press('Tab');
  await arrowTo(page, form.getByLabel('Reporter'), String(people.chief));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  const changed = table.locator('tr[data-rule-id]', { hasText: `MR-${stamp}` });
  await expect(changed).toContainText('张建国');
  await expect(table.locator('tr[data-rule-id]', { hasText: RULE })).toHaveCount(0);
  expect(await rulesNow()).toEqual([expect.objectContaining({ id: created!.id, name: `MR-${stamp}`, modality: 'MR', reporterId: people.chief })]);

  // Delete asks first; Esc keeps the rule, the dialog's Delete removes it.
  await changed.getByRole('button', { name: `Delete MR-${stamp}` }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete the rule?' });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  expect(await rulesNow()).toHaveLength(1);
  await changed.getByRole('button', { name: `Delete MR-${stamp}` }).focus();
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(changed).toHaveCount(0);
  await expect(page.getByTestId('rule-add')).toBeFocused();
  await expect.poll(rulesNow).toEqual([]);
});

test('an expert organisation with its free flag, and notification users up to the limit', async ({ page }) => {
  await openAs(page, `/groups/${GROUP}/settings`);
  const experts = page.getByTestId('expert-table');
  const centreRow = experts.locator(`tr[data-bucket-id="${orgs.centre}"]`);
  const expert = centreRow.locator('input[data-field="expert"]');
  const free = centreRow.locator('input[data-field="free"]');
  // The demo's centre is the group's paid expert organisation (the payments area asks it for reports).
  await expect(expert).toBeChecked();
  await expect(free).toBeEnabled();
  await expect(free).not.toBeChecked();
  await expert.focus();
  await page.keyboard.press('Tab');
  await expect(free).toBeFocused();
  await page.keyboard.press('Space');
  await expect(free).toBeChecked();
  await expect(centreRow).toContainText('Free');
  await expect.poll(async () => (await apiAs('admin', 'GET', `groups/${GROUP}/expert-buckets`)).body).toEqual([{ bucketId: orgs.centre, name: CENTRE, free: true }]);
  // Paid again, as the demo has it (later files of this lane pay for reports); off, the free flag cannot be set.
  await page.keyboard.press('Space');
  await expect.poll(async () => (await apiAs('admin', 'GET', `groups/${GROUP}/expert-buckets`)).body).toEqual([{ bucketId: orgs.centre, name: CENTRE, free: false }]);
  await expert.focus();
  await page.keyboard.press('Space');
  await expect(expert).not.toBeChecked();
  await expect(free).toBeDisabled();
  await expect.poll(async () => (await apiAs('admin', 'GET', `groups/${GROUP}/expert-buckets`)).body).toEqual([]);
  await page.keyboard.press('Space');
  await expect(expert).toBeChecked();
  await expect.poll(async () => (await apiAs('admin', 'GET', `groups/${GROUP}/expert-buckets`)).body).toEqual([{ bucketId: orgs.centre, name: CENTRE, free: false }]);

  // New exams at the hospital: rad1, chosen from the row's menu.
  const notify = page.getByTestId('notify-table');
  const examRow = notify.locator(`tr[data-bucket-id="${orgs.hospital}"][data-type="exam"]`);
  await examRow.getByRole('button', { name: /Add a member to notify/ }).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  for (let i = 0; i < 10 && !(await menu.locator('[data-item="rad1"]').evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(examRow.locator(`li[data-account-id="${people.rad1}"]`)).toHaveText(/李明/);
  await expect(examRow).toContainText('1 / 2');

  // Critical values already tell the chief (demo data); a second member fits, a third is the server's refusal.
  const criticalRow = notify.locator(`tr[data-bucket-id="${orgs.hospital}"][data-type="criticalValue"]`);
  const add = criticalRow.getByRole('button', { name: /Add a member to notify/ });
  for (const [username, name] of [['rad2', '王芳'], ['rad1', '李明']] as const) {
    await add.focus();
    await page.keyboard.press('Enter');
    for (let i = 0; i < 10 && !(await menu.locator(`[data-item="${username}"]`).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    if (username === 'rad2') await expect(criticalRow).toContainText(name);
  }
  await expect(page.getByTestId('notify-error')).toHaveText('Only 2 users per organisation can be notified');
  await expect(criticalRow).toContainText('2 / 2');
  await expect(criticalRow).not.toContainText('李明');
  const settings = (await apiAs<{ bucketId: number; type: string; accountIds: number[] }[]>('admin', 'GET', `groups/${GROUP}/notifications`)).body;
  expect(settings.find((s) => s.bucketId === orgs.hospital && s.type === 'exam')?.accountIds).toEqual([people.rad1]);
  expect(settings.find((s) => s.bucketId === orgs.hospital && s.type === 'criticalValue')?.accountIds).toEqual([people.chief, people.rad2]);
  expect(await page.locator('main, body').first().innerText()).not.toMatch(RAW_KEY);

  // Put the demo's settings back for the rest of the suite.
  expect((await apiAs('admin', 'PUT', `groups/${GROUP}/expert-buckets`, [])).status).toBe(200);
  expect((await apiAs('admin', 'PUT', `groups/${GROUP}/notifications`, [{ bucketId: orgs.hospital, type: 'criticalValue', accountIds: [people.chief] }])).status).toBe(200);
});

test('members page 20 at a time, are found by username and name, and a new account joins the group', async ({ page }) => {
  // Fourteen more members (through the same API the dialog uses): the group has more than one page.
  for (let i = 1; i <= 14; i++) {
    const res = await apiAs('admin', 'POST', `groups/${GROUP}/members/create-account`,
      { username: `p${stamp}_${String(i).padStart(2, '0')}`, name: `Page ${stamp} ${String(i).padStart(2, '0')}`, password: DEMO_PASSWORD, accessLevel: 0 });
    expect(res.status).toBe(201);
  }
  const total = (await apiAs<{ total: number }>('admin', 'POST', `groups/${GROUP}/members/query`, { limit: 1 })).body.total;
  expect(total).toBeGreaterThan(20);

  await openAs(page, `/groups/${GROUP}/members`);
  const rows = page.getByTestId('member-table').locator('tr[data-account-id]');
  await expect(rows).toHaveCount(20);
  await expect(page.getByTestId('member-total')).toHaveText(`${total} members`);
  await expect(page.getByTestId('member-page')).toHaveText(`1 / ${Math.ceil(total / 20)}`);
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('member-page')).toHaveText(`2 / ${Math.ceil(total / 20)}`);
  await expect(rows).toHaveCount(total - 20);
  await expect(page.getByRole('button', { name: 'Next' })).toBeFocused();

  // "/" finds; by username, then by name.
  await page.keyboard.press('/');
  await expect(page.getByTestId('member-find')).toBeFocused();
  await page.keyboard.type('rad');
  await page.getByTestId('member-find-field').selectOption('username');
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('member-page')).toHaveText('1 / 1');
  await page.getByTestId('member-find-field').selectOption('name');
  await page.getByTestId('member-find').fill(`Page ${stamp}`);
  await expect(rows).toHaveCount(14);
  await expect(page.getByTestId('member-total')).toHaveText('14 members');

  // Create account: the server's refusals first (a short username, a too simple password), then a good one.
  // `a` (out of the find field) opens the dialog, as the palette's "Create an account…" does.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('a');
  const form = page.getByTestId('account-create-form');
  await expect(form.getByLabel('Username')).toBeFocused();
  await page.keyboard.type('ab');
  await page.keyboard.press('Tab');
  await page.keyboard.type(`New ${stamp}`);
  await page.keyboard.press('Tab');
  await page.keyboard.type('abcdefg');
  await page.keyboard.press('Enter');
  const error = page.getByTestId('account-create-error');
  await expect(error).toHaveText('Parameter error: Username');
  await expect(form.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Username').fill(`new${stamp}`);
  await form.getByLabel('Password').press('Enter');
  await expect(error).toHaveText('The password is too simple: try at least two of letters, digits and special characters');
  await expect(form.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByLabel('Level in the group').focus();
  await arrowTo(page, form.getByLabel('Level in the group'), '0');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Create' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  // The list shows the new member, found by username.
  await expect(page.getByTestId('member-find')).toHaveValue(`new${stamp}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`New ${stamp}`);

  const found = await apiAs<{ items: Member[]; total: number }>('admin', 'POST', `groups/${GROUP}/members/query`,
    { filters: [{ field: 'username', operator: 'equal', values: [`new${stamp}`] }] });
  expect(found.body.total).toBe(1);
  expect(found.body.items[0]).toMatchObject({ username: `new${stamp}`, name: `New ${stamp}`, accessLevel: 0 });
  // The account signs in with its first password.
  expect((await apiAs<{ username: string }>(`new${stamp}`, 'GET', 'accounts/me')).body.username).toBe(`new${stamp}`);
});
