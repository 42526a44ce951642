import { expect, type Locator, type Page } from '@playwright/test';

/** Opens the palette with Ctrl+K, retried until the session's (or the workspace's) commands are mounted. */
export async function openPalette(page: Page, name: string | RegExp = /^(Command palette|命令面板)$/): Promise<Locator> {
  const palette = page.getByRole('dialog', { name });
  await expect(async () => {
    if (!(await palette.isVisible())) await page.keyboard.press('Control+k');
    await expect(palette).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
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
