import { expect, test } from '@playwright/test';
import { prefer, signIn } from './support/session';

/** Keys of the report workspace added for people who never reach for the mouse (issue 8 §5). */
test('Alt+I takes the keyboard from the editor to the images in one press, and the palette names it', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto('/studies?work=unreported');
  await expect(page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]')).toBeVisible();
  await page.keyboard.press('n');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/studies\/\d+\/reports\/\d+/);
  const editor = page.locator('[contenteditable="true"]').first();
  await expect(editor).toBeFocused();

  await page.keyboard.press('Alt+KeyI');
  const inViewer = () => page.evaluate(() => document.activeElement?.closest('[data-testid="workspace-viewer"]') != null);
  await expect.poll(inViewer).toBe(true);
  await expect(editor).not.toBeFocused();

  await page.keyboard.press('Control+k');
  await page.keyboard.type('Go to the images');
  await expect(page.getByRole('option', { name: /Go to the images/ })).toContainText(/Alt\s*I/);
});
