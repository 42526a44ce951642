import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { SignJWT } from 'jose';

export const DEMO_PASSWORD = 'Demo1234';
/** The secret playwright.config.ts gives the server, so a test can mint tokens the server judges. */
const E2E_SECRET = new TextEncoder().encode('e2e-secret-not-for-production');

/** Chooses the language and theme before the app starts, as a returning user would have them. */
export async function prefer(page: Page, prefs: { language?: 'chs' | 'en' | 'tib'; theme?: 'light' | 'dark' }) {
  await page.addInitScript((p) => {
    if (p.language) localStorage.setItem('language', p.language);
    if (p.theme) localStorage.setItem('theme', p.theme);
  }, prefs);
}

/** Signs in through the login form, in whatever language, and waits until the app has left /login. */
export async function signIn(page: Page, username = 'rad1', password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** The signed-in account's id, as the server tells it. */
export async function accountId(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const res = await fetch('/api/v1/accounts/me', { headers: { authorization: `Bearer ${localStorage.getItem('user-access-token')}` } });
    return ((await res.json()) as { id: number }).id;
  });
}

/** A token for the same account that the server's clock already sees as expired. */
export async function expiredTokenFor(accountId: number, tokenVersion = 0): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tv: tokenVersion, lt: 'normal' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(accountId))
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 60)
    .sign(E2E_SECRET);
}

/**
 * Text that looks like an i18n key ("auth.login.title") left untranslated on screen: one of the locale file's
 * namespaces (read from it, so a new feature is covered the day it lands) followed by a key path.
 */
const NAMESPACES = Object.keys(JSON.parse(readFileSync(new URL('../../../locales/en.json', import.meta.url), 'utf8')) as object);
export const RAW_KEY = new RegExp(`\\b(${NAMESPACES.join('|')})\\.[A-Za-z]+(\\.[A-Za-z]+)*\\b`);
