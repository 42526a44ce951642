import { expect, test, type Page } from '@playwright/test';
import { accountId, DEMO_PASSWORD, expiredTokenFor, prefer, signIn } from './support/session';

/**
 * A session that ends while the worklist is open (issue 8 §1): the tokens end elsewhere (a logout on another
 * computer, an administrator disabling the account, a token expiring between two actions). The page must ask the
 * server a handful of times at most, open "Login expired", and after the right password carry on where it was —
 * the rows back, the token kept, no 401 after it.
 */

interface Traffic { pageQueries: number; unauthorized: number }

function watch(page: Page): Traffic {
  const traffic: Traffic = { pageQueries: 0, unauthorized: 0 };
  page.on('request', (req) => {
    if (req.url().includes('/api/v1/exams/page-query')) traffic.pageQueries += 1;
  });
  page.on('response', (res) => {
    if (res.url().includes('/api/v1/') && res.status() === 401) traffic.unauthorized += 1;
  });
  return traffic;
}

async function openWorklist(page: Page, username: string) {
  await prefer(page, { language: 'en' });
  await signIn(page, username);
  await page.goto('/studies');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
}

const token = (page: Page) => page.evaluate(() => localStorage.getItem('user-access-token'));

async function reloginAndCarryOn(page: Page, traffic: Traffic) {
  const dialog = page.getByRole('dialog', { name: 'Login expired' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Sign in again' }).click();
  await expect(dialog).toBeHidden();
  expect(await token(page)).not.toBeNull();
  await expect(page).toHaveURL(/\/studies/);
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  traffic.unauthorized = 0;
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(1_500);
  expect(traffic.unauthorized).toBe(0);
  expect(await token(page)).not.toBeNull();
}

test('a logout elsewhere while the worklist is open: no request storm, and the re-login carries on', async ({ page }) => {
  await openWorklist(page, 'rad2');
  const traffic = watch(page);
  const current = await token(page);
  const out = await page.request.post('/api/v1/accounts/logout', { headers: { authorization: `Bearer ${current}` } });
  expect(out.status()).toBe(204);

  traffic.pageQueries = 0;
  await page.keyboard.press('r');
  await page.waitForTimeout(500);
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(3_000);
  // One refresh and one page: the loop sent about 860 in these 3 seconds.
  expect(traffic.pageQueries).toBeLessThanOrEqual(4);
  await reloginAndCarryOn(page, traffic);
});

test('a token that expired between two actions: one 401, the modal, and the list carries on', async ({ page }) => {
  await openWorklist(page, 'rad2');
  const traffic = watch(page);
  await page.evaluate((t) => localStorage.setItem('user-access-token', t), await expiredTokenFor(await accountId(page), 0).catch(() => ''));
  traffic.pageQueries = 0;
  await page.keyboard.press('r');
  await page.waitForTimeout(3_000);
  expect(traffic.pageQueries).toBeLessThanOrEqual(2);
  // The expired token was minted with token version 0; a logout earlier in this file bumped rad2's version, which
  // the server refuses the same way (401): either way the session has ended.
  await reloginAndCarryOn(page, traffic);
});

test('an administrator disables the account: the modal says so without a storm, and enabling lets the user back in', async ({ page }) => {
  await openWorklist(page, 'rad2');
  const traffic = watch(page);
  const adminLogin = await page.request.post('/api/v1/accounts/login', { data: { username: 'admin', password: DEMO_PASSWORD } });
  const adminToken = ((await adminLogin.json()) as { accessToken: string }).accessToken;
  const rad2 = await accountId(page);
  const setStatus = (status: number) => page.request.post(`/api/v1/accounts/${rad2}/status`, { headers: { authorization: `Bearer ${adminToken}` }, data: { status } });
  expect((await setStatus(1)).status()).toBe(204);
  try {
    traffic.pageQueries = 0;
    await page.keyboard.press('PageDown');
    await page.keyboard.press('r');
    await page.waitForTimeout(3_000);
    expect(traffic.pageQueries).toBeLessThanOrEqual(4);
    const dialog = page.getByRole('dialog', { name: 'Login expired' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in again' }).click();
    await expect(dialog).toBeVisible(); // a disabled account cannot sign in again
    expect(await token(page)).toBeNull();
  } finally {
    expect((await setStatus(0)).status()).toBe(204);
  }
  await reloginAndCarryOn(page, traffic);
});
