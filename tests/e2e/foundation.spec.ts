import { expect, test } from '@playwright/test';
import { accountId, DEMO_PASSWORD, expiredTokenFor, prefer, signIn } from './support/session';

test.beforeEach(async ({ page }) => {
  await prefer(page, { language: 'en' });
});

test('signs in with username and password and shows the account in the navbar', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('云影像诊断报告平台');
  await page.getByLabel('Username').fill('  rad1 ');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('李明');
  expect(await page.evaluate(() => localStorage.getItem('user-access-token'))).toBeTruthy();
});

test('a wrong password shows the catalogue message and stays on the login page', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill('rad2');
  await page.getByLabel('Password').fill('not-the-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('empty fields are refused before anything is sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
});

test('a protected page sends a visitor to /login with the full path, and back there after signing in', async ({ page }) => {
  await page.goto('/settings/profile?section=account');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/settings/profile?section=account');
  await page.getByLabel('Username').fill('rad1');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/profile\?section=account$/);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
});

test('an expired token opens "Login expired"; the password brings the user back to the same page with the unsaved edit', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings/profile');
  const name = page.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue('李明');
  await page.waitForLoadState('networkidle');
  await name.fill('李明 (unsaved)');
  // The page marks the element it rendered: a remount would lose the mark as well as the edit.
  await name.evaluate((el) => el.setAttribute('data-mounted-before-expiry', 'yes'));

  await page.evaluate((token) => localStorage.setItem('user-access-token', token), await expiredTokenFor(await accountId(page)));
  await page.getByRole('button', { name: 'Save profile' }).click();

  const dialog = page.getByRole('dialog', { name: 'Login expired' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('rad1');
  expect(await page.evaluate(() => localStorage.getItem('user-access-token'))).toBeNull();

  await dialog.getByRole('button', { name: 'Sign in again' }).click();
  await expect(page.getByText('Password is required')).toBeVisible();

  await dialog.getByLabel('Password').fill('wrong-password-1');
  await dialog.getByRole('button', { name: 'Sign in again' }).click();
  await expect(page.getByText('Login verification failed')).toBeVisible();
  await expect(dialog).toBeVisible();

  await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Sign in again' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(name).toHaveValue('李明 (unsaved)');
  await expect(name).toHaveAttribute('data-mounted-before-expiry', 'yes');

  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('李明 (unsaved)');
  await page.getByLabel('Name', { exact: true }).fill('李明');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
});

test('the language choice survives a reload and sets <html lang>', async ({ page }) => {
  await prefer(page, { language: 'chs' });
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();

  await page.getByRole('combobox', { name: '语言' }).selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // From here on the stored choice decides; no init script resets it.
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  const fresh = await page.context().newPage();
  await fresh.goto('/login');
  await expect(fresh.locator('html')).toHaveAttribute('lang', 'en');
  await fresh.getByRole('combobox', { name: 'Language' }).selectOption('tib');
  await expect(fresh.locator('html')).toHaveAttribute('lang', 'bo');
  await fresh.reload();
  await expect(fresh.locator('html')).toHaveAttribute('lang', 'bo');
  await expect(fresh.getByRole('heading', { name: 'ནང་འཛུལ།' })).toBeVisible();
  expect(await fresh.evaluate(() => localStorage.getItem('language'))).toBe('tib');
});

test('a screen whose chunk cannot be loaded offers a reload that brings it back', async ({ page }) => {
  await signIn(page);
  let refuse = true;
  await page.route(/ProfilePage-[^/]*\.js$/, (route) => (refuse ? route.abort() : route.continue()));
  await page.goto('/settings/profile');
  await expect(page.getByRole('heading', { name: 'The page could not be loaded' })).toBeVisible();
  await expect(page.getByText('ChunkLoadError')).toBeVisible();
  refuse = false;
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
});

test('logging out ends the session here and on the server', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings/profile');
  const token = await page.evaluate(() => localStorage.getItem('user-access-token'));
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('user-access-token'))).toBeNull();
  const status = await page.evaluate(async (t) => (await fetch('/api/v1/accounts/me', { headers: { authorization: `Bearer ${t}` } })).status, token);
  expect(status).toBe(401);
  await page.goto('/settings/profile');
  await expect(page).toHaveURL(/\/login\?redirect=/);
});

test('unknown paths show page not found; the root sends a signed-in user to the landing page', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await signIn(page);
  await page.goto('/');
  await expect(page).not.toHaveURL(/\/$/);
  await expect(page).not.toHaveURL(/\/login/);
});

test('a new account registers with the checked rules and is signed in', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('Username').fill('new user');
  await page.getByLabel('Name', { exact: true }).fill('Zhao Wei');
  await page.getByLabel('Password', { exact: true }).fill('abcdefgh');
  await page.getByLabel('Confirm password').fill('abcdefgh9');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Username may contain only letters, digits, dash and underscore')).toBeVisible();
  await expect(page.getByText('The password is too simple')).toBeVisible();
  await expect(page.getByText('The two password entries do not match')).toBeVisible();

  const username = `e2e_${Date.now().toString(36)}`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill('Welcome-2024');
  await page.getByLabel('Confirm password').fill('Welcome-2024');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).not.toHaveURL(/\/register/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Zhao Wei');
});

test('a scan login arrives through /auth/token; when it expires the user is warned and sent to sign in', async ({ page, request }) => {
  const login = await request.post('/api/v1/accounts/login', { data: { username: 'chief', password: DEMO_PASSWORD } });
  const { accessToken, expires } = (await login.json()) as { accessToken: string; expires: number };
  await page.goto(`/auth/token?accessToken=${encodeURIComponent(accessToken)}&expires=${expires}`);
  await expect(page).not.toHaveURL(/\/auth\/token/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('张建国');
  expect(await page.evaluate(() => localStorage.getItem('loginType'))).toBe('scan');

  await page.goto('/settings/profile');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('张建国');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Name', { exact: true }).fill('张建国 (unsaved)');
  await page.evaluate((token) => localStorage.setItem('user-access-token', token), await expiredTokenFor(await accountId(page)));
  await page.getByRole('button', { name: 'Save profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Login expired' });
  await expect(dialog).toContainText('Unsaved edits will be lost');
  await dialog.getByRole('button', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings%2Fprofile$/);
});

test('a token link that is malformed or already expired is refused', async ({ page }) => {
  await page.goto('/auth/token?accessToken=abc&expires=12');
  await expect(page.getByText('The sign-in link is invalid or has expired')).toBeVisible();
  await page.goto('/auth/token?accessToken=abc&expires=9999999999');
  await expect(page.getByText('The sign-in link is invalid or has expired')).toBeVisible();
});
