import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { looks } from './support/looks';
import { accountId, expiredTokenFor, prefer, RAW_KEY, signIn } from './support/session';

/**
 * Every foundation screen in both themes, in Chinese and English, saved to .tmp/screens/ for a
 * look. Each one must show no untranslated key and log no error on the console.
 */
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

interface Screen {
  name: string;
  signedIn?: boolean;
  open: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  { name: 'login', open: async (p) => { await p.goto('/login'); await p.locator('form').waitFor(); } },
  {
    name: 'login-error',
    open: async (p) => {
      await p.goto('/login');
      await p.locator('input[name=username]').fill('rad1');
      await p.locator('input[name=password]').fill('wrong-password-1');
      await p.locator('button[type=submit]').click();
      await p.locator('input[name=password][aria-invalid=true]').waitFor();
    },
  },
  { name: 'login-required', open: async (p) => { await p.goto('/login'); await p.locator('button[type=submit]').click(); await p.locator('[aria-invalid=true]').first().waitFor(); } },
  { name: 'register', open: async (p) => { await p.goto('/register'); await p.locator('form').waitFor(); } },
  { name: 'forget-password', open: async (p) => { await p.goto('/forget-password'); await p.locator('a.btn').waitFor(); } },
  { name: 'change-password', open: async (p) => { await p.goto('/change-password?username=rad1'); await p.locator('form').waitFor(); } },
  { name: 'auth-token-invalid', open: async (p) => { await p.goto('/auth/token?accessToken=x&expires=1'); await p.getByRole('alert').waitFor(); } },
  { name: 'not-found', open: async (p) => { await p.goto('/no/such/page'); await p.getByText('404', { exact: true }).waitFor(); } },
  { name: 'profile', signedIn: true, open: async (p) => { await p.goto('/settings/profile'); await p.locator('input[name=name]').waitFor(); } },
  { name: 'unauthorized-signed-in', signedIn: true, open: async (p) => { await p.goto('/401'); await p.getByText('401', { exact: true }).waitFor(); } },
  {
    name: 'account-menu',
    signedIn: true,
    open: async (p) => {
      await p.goto('/settings/profile');
      await p.locator('button[aria-haspopup=menu]').click();
      await p.getByRole('menu').waitFor();
    },
  },
  {
    name: 'chunk-error',
    signedIn: true,
    open: async (p) => {
      await p.route(/ProfilePage-.*\.js$/, (route) => route.abort());
      await p.goto('/settings/profile');
      await p.getByText('ChunkLoadError').waitFor();
    },
  },
  {
    name: 'login-expired',
    signedIn: true,
    open: async (p) => {
      await p.goto('/settings/profile');
      await p.locator('input[name=name]').fill('李明 (draft)');
      const token = await expiredTokenFor(await accountId(p));
      await p.evaluate((t) => localStorage.setItem('user-access-token', t), token);
      await p.locator('form button[type=submit]').first().click();
      await p.getByRole('dialog').waitFor();
    },
  },
];

// Every language and both themes (support/looks.ts: the whole grid with SCREENS=all).
const RUNS = looks({ tibetan: 'once' });

for (const [language, theme] of RUNS) {
  {
    test(`screens in ${language}, ${theme} theme`, async ({ page }) => {
      test.setTimeout(90_000);
      const errors: string[] = [];
      page.on('console', (m) => {
        // A refused chunk is the point of the chunk-error screen; the refused 401 of the expiry screen too.
        if (m.type() === 'error' && !/Failed to (load resource|fetch dynamically)|ERR_FAILED|401/.test(m.text())) errors.push(m.text());
      });
      await prefer(page, { language, theme });
      let signedIn = false;
      for (const screen of SCREENS) {
        if (screen.signedIn && !signedIn) {
          await signIn(page);
          signedIn = true;
        }
        await screen.open(page);
        await page.waitForTimeout(150); // let transitions settle before the picture
        await page.screenshot({ path: `${OUT}/${screen.name}-${language}-${theme}.png` });
        const text = await page.locator('body').innerText();
        expect(text, `${screen.name}: an untranslated key is on screen`).not.toMatch(RAW_KEY);
        await page.unrouteAll();
      }
      expect(errors).toEqual([]);
    });
  }
}
