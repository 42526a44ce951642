import { expect, type Page } from '@playwright/test';

/**
 * Dismisses the corner toasts (new-exam notices come and go with the demo data), which would cover the screen. A toast
 * may leave by itself while its button is being clicked: Playwright's click then waits for the button to come back,
 * which it never does, until the test's time is out (CI on a slow machine, November 27). So each click is short, its
 * failure is ignored, and only the count of toasts decides.
 */
export async function dismissToasts(page: Page) {
  const close = page.locator('section[aria-live="polite"] button');
  await expect(async () => {
    if ((await close.count()) > 0) await close.first().click({ timeout: 1000 }).catch(() => undefined);
    await expect(close).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
}
