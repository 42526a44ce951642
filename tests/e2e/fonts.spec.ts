import { expect, test, type Page } from '@playwright/test';
import { prefer, signIn } from './support/session';

/**
 * Tibetan is readable on a machine without a Tibetan font: the app brings Noto Serif Tibetan when Tibetan is chosen,
 * and only then (Chinese and English keep the system's fonts and never download it).
 */
function fontRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (req) => {
    if (/noto-serif-tibetan.*\.woff2/.test(req.url())) urls.push(req.url());
  });
  return urls;
}

test('Chinese and English never download the Tibetan font', async ({ page }) => {
  const urls = fontRequests(page);
  await prefer(page, { language: 'chs' });
  await signIn(page, 'rad1');
  await page.goto('/studies');
  await expect(page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]')).toBeVisible();
  // The language menu names Tibetan in Tibetan script; the palette's language commands too.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('bo');
  await page.waitForTimeout(500);
  expect(urls).toEqual([]);
});

test('Tibetan loads its web font and draws Tibetan text with it', async ({ page }) => {
  const urls = fontRequests(page);
  await prefer(page, { language: 'tib' });
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'bo');
  await expect.poll(() => urls.length).toBeGreaterThan(0);
  await expect.poll(() => page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Tibetan UI Web' && f.status === 'loaded');
  })).toBe(true);
});
