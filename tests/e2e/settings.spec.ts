import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { looks } from './support/looks';
import { DEMO_PASSWORD, prefer, RAW_KEY, signIn } from './support/session';
import { runFromPalette } from './support/palette';

/**
 * Personal settings by keyboard (and the mouse where only a hand will do: drawing a signature), as a fresh member of
 * the demo group: the signature drawn on the pad is saved, survives a reload and is what the server stores; a mobile
 * number is bound with the code the local SMS sender wrote to SMS_OUTBOX_FILE; the new-exam sound is switched off
 * and stays off after a reload.
 */
const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** The lane's outbox file: playwright.config.ts's smsOutbox(port), beside the server's data folder. */
function outboxOf(baseURL: string): string {
  const port = Number(new URL(baseURL).port);
  return port === 8181 ? '.tmp/e2e-data/sms-outbox.jsonl' : `.tmp/e2e-data-${port}/sms-outbox.jsonl`;
}

function codeSentTo(baseURL: string, mobile: string): string | null {
  let text: string;
  try {
    text = readFileSync(outboxOf(baseURL), 'utf8');
  } catch {
    return null;
  }
  const lines = text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { mobile: string; text: string });
  const last = lines.reverse().find((m) => m.mobile === mobile);
  return last ? /(\d{6})/.exec(last.text)![1]! : null;
}

async function freshMember(suffix: string): Promise<string> {
  const username = `set_${suffix}_${stamp}`;
  const res = await apiAs('admin', 'POST', 'groups/1/members/create-account', { username, name: `设置 ${suffix}`, password: DEMO_PASSWORD });
  expect(res.status).toBe(201);
  return username;
}

async function openSection(page: Page, username: string, section: string) {
  await prefer(page, { language: 'en' });
  await signIn(page, username);
  await page.goto(`/settings/${section}`);
}

test('a signature drawn with the mouse is saved and is there after a reload', async ({ page }) => {
  const username = await freshMember('sign');
  await openSection(page, username, 'signature');
  await expect(page.getByText('No signature yet')).toBeVisible();

  // An empty pad is refused in the browser.
  await page.getByRole('button', { name: 'Save signature' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('The signature cannot be empty: draw it first')).toBeVisible();

  const pad = page.getByTestId('signature-pad');
  const box = (await pad.boundingBox())!;
  const stroke = async (points: [number, number][]) => {
    await page.mouse.move(box.x + points[0]![0], box.y + points[0]![1]);
    await page.mouse.down();
    for (const [x, y] of points.slice(1)) await page.mouse.move(box.x + x, box.y + y, { steps: 6 });
    await page.mouse.up();
  };
  await stroke([[40, 120], [90, 40], [140, 130], [200, 50], [260, 120], [320, 60]]);
  await stroke([[60, 150], [380, 140]]);
  // Undo takes the last stroke back; the first stays, so saving is allowed.
  const undo = page.getByRole('button', { name: 'Undo' });
  await undo.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save signature' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Signature saved')).toBeVisible();
  const current = page.getByTestId('signature-current');
  await expect(current).toBeVisible();
  const src = await current.getAttribute('src');
  expect(src).toMatch(/^\/api\/v1\/signatures\/\d+\/[a-f0-9]{24}\.png$/);

  await page.reload();
  await expect(page.getByTestId('signature-current')).toHaveAttribute('src', src!);
  // The image loads (naturalWidth > 0) and the account holds it.
  await expect.poll(() => page.getByTestId('signature-current').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const me = await apiAs<{ signature: string }>(username, 'GET', 'accounts/me');
  expect(me.body.signature).toBe(src);
});

test('a mobile number is bound with the code from the SMS outbox', async ({ page, baseURL }) => {
  const username = await freshMember('mob');
  const mobile = `139${String(Date.now()).slice(-8)}`;
  await openSection(page, username, 'mobile');
  await expect(page.getByTestId('mobile-current')).toHaveText('None');

  await page.getByRole('textbox', { name: 'Mobile number' }).focus();
  await page.keyboard.type('12345');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Enter an 11-digit mainland number, or + and the international number')).toBeVisible();

  await page.getByRole('textbox', { name: 'Mobile number' }).focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(mobile);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const masked = `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;
  await expect(page.getByText(`A code was sent to ${masked}; it is valid for 10 minutes.`)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Send again in \d+ s$/ })).toBeDisabled();
  const code = codeSentTo(baseURL!, mobile);
  expect(code).toMatch(/^\d{6}$/);

  const codeField = page.getByLabel('Verification code (6 digits)');
  await expect(codeField).toBeFocused();
  await page.keyboard.type(code!);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Mobile number bound')).toBeVisible();
  await expect(page.getByTestId('mobile-current')).toHaveText(masked);
  await page.reload();
  await expect(page.getByTestId('mobile-current')).toHaveText(masked);
});

test('a forgotten password is reset with the code sent to the bound mobile', async ({ page, baseURL }) => {
  // The demo's expert has a bound mobile (server/seed/demo.ts); the password is put back at the end.
  const mobile = '13800138007';
  const before = codeSentTo(baseURL!, mobile);
  await prefer(page, { language: 'en' });
  await page.goto('/forget-password');
  await expect(page.getByLabel('Username')).toBeFocused();
  await page.keyboard.type('expert');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('forget-reset')).toBeVisible();
  await expect.poll(() => codeSentTo(baseURL!, mobile)).not.toBe(before);
  const code = codeSentTo(baseURL!, mobile)!;
  const newPassword = `Reset-${stamp}-9a`;
  await expect(page.getByLabel('Verification code (6 digits)')).toBeFocused();
  // A wrong code is refused in the catalogue's words; the right one sets the password.
  await page.keyboard.type(code === '000000' ? '111111' : '000000');
  await page.keyboard.press('Tab');
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Tab');
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('forget-reset').getByRole('alert')).toHaveText('The verification code is wrong or no longer valid');
  await page.getByLabel('Verification code (6 digits)').fill(code);
  await page.getByLabel('Verification code (6 digits)').press('Enter');
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'expert', newPassword);
  // Back to the demo password, for whatever signs in as the expert later in this lane.
  const changed = await page.evaluate(async ({ from, to }) => (await fetch('/api/v1/accounts/change-password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('user-access-token')}` },
    body: JSON.stringify({ oldPassword: from, newPassword: to }),
  })).status, { from: newPassword, to: DEMO_PASSWORD });
  expect(changed).toBeLessThan(300);
});

test('the new-exam sound switched off stays off after a reload; sections are reachable by keyboard and palette', async ({ page }) => {
  const username = await freshMember('snd');
  await openSection(page, username, 'profile');
  // ↓ in the section list moves between sections; Enter opens one.
  await page.locator('a[data-section="profile"]').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(page.locator('a[data-section="notification"]')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings\/notification$/);

  const exams = page.getByRole('switch', { name: 'Sound for new exams' });
  await expect(exams).toBeChecked();
  await exams.focus();
  await page.keyboard.press('Space');
  await expect(exams).not.toBeChecked();
  await expect.poll(async () => (await apiAs<{ notificationPrefs: { examSound: boolean } }>(username, 'GET', 'accounts/me')).body.notificationPrefs.examSound).toBe(false);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sound for new exams' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Sound for pending consultations' })).toBeChecked();

  await runFromPalette(page, 'settings: my groups', /Settings: my groups/);
  await expect(page).toHaveURL(/\/settings\/groups$/);
  await expect(page.getByTestId('settings-groups')).toContainText('Member');
});

test('quitting a group asks first and shows the server rule', async ({ page }) => {
  // The demo admin is the group's only admin: the server refuses (LastGroupAdmin), the dialog says so.
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto('/settings/groups');
  const quit = page.getByTestId('settings-groups').getByRole('button', { name: 'Leave group' }).first();
  await quit.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Leave the group?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  // The server's rule, in the catalogue's words (LastGroupAdmin).
  await expect(dialog.getByRole('alert')).toHaveText('The group needs at least one administrator');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.goto('/settings/admin');
  await expect(page.getByTestId('settings-admin-links').getByRole('link').first()).toBeVisible();
});

test('looks: the settings screens in both themes and languages', async ({ page }) => {
  // Three language/theme runs of six screens each (Tibetan loads its own font): more than the default 30 s.
  test.setTimeout(120_000);
  const dir = '/tmp/settings-shots';
  mkdirSync(dir, { recursive: true });
  const username = await freshMember('look');
  for (const [language, theme] of looks({ tibetan: 'once' })) {
    await prefer(page, { language, theme });
    await signIn(page, username);
    for (const section of ['profile', 'signature', 'mobile', 'notification', 'groups', 'admin']) {
      await page.goto(`/settings/${section}`);
      await expect(page.locator('section h2').first()).toBeVisible();
      await expect(page.locator('main')).not.toContainText(RAW_KEY);
      await page.screenshot({ path: `${dir}/${section}-${language}-${theme}.png` });
    }
    await page.evaluate(() => localStorage.removeItem('user-access-token'));
  }
});
