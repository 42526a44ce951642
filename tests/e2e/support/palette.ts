import { expect, type Locator, type Page } from '@playwright/test';

/** Opens the palette with Ctrl+K, retried until the session's (or the workspace's) commands are mounted. */
export async function openPalette(page: Page, name: string | RegExp = /^(Command palette|命令面板)$/): Promise<Locator> {
  const palette = page.getByRole('dialog', { name });
  // Each try waits longer for the palette to be drawn (1, 2, 4, 8 s): on a slow machine a second Ctrl+K sent before
  // the first one's palette appeared closed it again, and the two kept cancelling out (CI, November 27).
  let wait = 1000;
  await expect(async () => {
    if (!(await palette.isVisible())) await page.keyboard.press('Control+k');
    const now = wait;
    wait = Math.min(wait * 2, 8000);
    await expect(palette).toBeVisible({ timeout: now });
  }).toPass({ timeout: 30_000 });
  return palette;
}

/** Ctrl+K, type `query`, arrow down to the command named `name`, Enter: the palette way of running a command. */
export async function runFromPalette(page: Page, query: string, name: RegExp) {
  const palette = await openPalette(page);
  await page.keyboard.type(query);
  const option = palette.getByRole('option', { name });
  await expect(option).toBeVisible();
  for (let i = 0; i < 10 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
}
