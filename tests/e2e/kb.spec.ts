import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { openPalette } from './support/palette';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The knowledge base (/kb) by keyboard: an item moved down its level with Alt+↓ is there after a reload (the server
 * kept it), the arrows walk the tree, and a text is found from the command palette by a word of its content and
 * opened at its place. Items are made through the API as the hospital's admin (template_upsert).
 */
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

interface Item { id: number; name: string; parentId: number | null; bucketId: number }

async function hospital(): Promise<number> {
  const orgs = await apiAs<{ id: number; code: string }[]>('orgadmin', 'GET', 'accounts/me/organizations');
  return orgs.body.find((o) => o.code === 'CITY1-RAD')!.id;
}

async function make(body: Record<string, unknown>): Promise<Item> {
  const res = await apiAs<Item>('orgadmin', 'POST', 'kb-items', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function levelOnServer(bucketId: number, parentId: number): Promise<number[]> {
  const res = await apiAs<{ items: Item[] }>('orgadmin', 'GET', `kb-items/query?bucketId=${bucketId}`);
  return res.body.items.filter((i) => i.parentId === parentId).map((i) => i.id);
}

/** The rows under a folder as the tree shows them, in order. */
async function rowsIn(page: Page, ids: number[]): Promise<number[]> {
  const shown = await page.getByTestId('kb-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-kb-id'))));
  return shown.filter((id) => ids.includes(id));
}

test('Alt+↓ moves an item down its level, and the new place holds after a reload', async ({ page }) => {
  const bucketId = await hospital();
  const folder = await make({ bucketId, type: 'folder', name: `E2E folder ${stamp}` });
  const [a, b, c] = [
    await make({ bucketId, parentId: folder.id, type: 'text', name: `Alpha ${stamp}`, content: '<p>a</p>' }),
    await make({ bucketId, parentId: folder.id, type: 'text', name: `Beta ${stamp}`, content: '<p>b</p>' }),
    await make({ bucketId, parentId: folder.id, type: 'text', name: `Gamma ${stamp}`, content: '<p>c</p>' }),
  ];
  const ids = [a.id, b.id, c.id];
  await prefer(page, { language: 'en' });
  await signIn(page, 'orgadmin');
  // Opened at Alpha: its folder opens so it shows, and it is the current row.
  await page.goto(`/kb?bucketId=${bucketId}&item=${a.id}`);
  const alpha = page.locator(`[data-kb-id="${a.id}"]`);
  await expect(alpha).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: a.name })).toBeVisible();
  expect(await rowsIn(page, ids)).toEqual(ids);

  await alpha.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(() => rowsIn(page, ids)).toEqual([b.id, a.id, c.id]);
  await expect(alpha).toBeFocused();
  await expect.poll(() => levelOnServer(bucketId, folder.id)).toEqual([b.id, a.id, c.id]);
  // Past the end of the level nothing moves; the item stays in its folder.
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(() => levelOnServer(bucketId, folder.id)).toEqual([b.id, c.id, a.id]);
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => levelOnServer(bucketId, folder.id)).toEqual([b.id, a.id, c.id]);

  await page.reload();
  await expect(page.locator(`[data-kb-id="${a.id}"]`)).toHaveAttribute('aria-selected', 'true');
  expect(await rowsIn(page, ids)).toEqual([b.id, a.id, c.id]);

  // The arrows walk the tree: ↓ to Gamma, ← to the folder (its parent), ← closes it, → opens it again.
  await page.locator(`[data-kb-id="${a.id}"]`).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(`[data-kb-id="${c.id}"]`)).toBeFocused();
  await expect(page.getByRole('heading', { name: c.name })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  const folderRow = page.locator(`[data-kb-id="${folder.id}"]`);
  await expect(folderRow).toBeFocused();
  await expect(folderRow).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(folderRow).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator(`[data-kb-id="${c.id}"]`)).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(folderRow).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator(`[data-kb-id="${c.id}"]`)).toBeVisible();
});

test('M moves an item into another folder, where it stays after a reload', async ({ page }) => {
  const bucketId = await hospital();
  const from = await make({ bucketId, type: 'folder', name: `From ${stamp}` });
  const to = await make({ bucketId, type: 'folder', name: `Into ${stamp}` });
  const item = await make({ bucketId, parentId: from.id, type: 'text', name: `Moving ${stamp}`, content: '<p>m</p>' });
  await prefer(page, { language: 'en' });
  await signIn(page, 'orgadmin');
  await page.goto(`/kb?bucketId=${bucketId}&item=${item.id}`);
  const row = page.locator(`[data-kb-id="${item.id}"]`);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await row.focus();
  await page.keyboard.press('m');
  const dialog = page.getByRole('dialog', { name: `Move “${item.name}” to` });
  await expect(dialog).toBeVisible();
  // The folder it is in is not offered; typing narrows the list to the other one, Enter moves it there.
  await expect(dialog.getByRole('option', { name: new RegExp(`^From ${stamp}`) })).toHaveCount(0);
  await page.keyboard.type(`Into ${stamp}`);
  await expect(dialog.getByRole('option', { name: new RegExp(`^Into ${stamp}`) })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect.poll(() => levelOnServer(bucketId, to.id)).toEqual([item.id]);
  await expect(row).toBeFocused();
  await page.reload();
  await expect(page.locator(`[data-kb-id="${item.id}"]`)).toHaveAttribute('aria-selected', 'true');
  expect(await levelOnServer(bucketId, from.id)).toEqual([]);
});

test('a text is found from the palette by a word of its content and opens at its place', async ({ page }) => {
  const bucketId = await hospital();
  const word = `nodule${stamp}`;
  const folder = await make({ bucketId, type: 'folder', name: `Palette folder ${stamp}` });
  const text = await make({ bucketId, parentId: folder.id, type: 'text', name: `Follow-up ${stamp}`, content: `<p>Solid ${word} of 7 mm: CT in 6–12 months.</p>` });
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto('/studies');
  const palette = await openPalette(page);
  await page.keyboard.type(word);
  const option = palette.getByRole('option', { name: new RegExp(`Follow-up ${stamp}`) });
  await expect(option).toBeVisible();
  await expect(palette.getByText('Knowledge base', { exact: true })).toBeVisible();
  for (let i = 0; i < 20 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/kb\\?bucketId=${bucketId}&item=${text.id}$`));
  await expect(page.getByRole('heading', { name: text.name })).toBeVisible();
  await expect(page.locator(`[data-kb-id="${text.id}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('kb-pane')).toContainText(`Solid ${word} of 7 mm`);
  // A radiologist reads; the writes are not offered.
  await expect(page.getByRole('toolbar')).toHaveCount(0);
});

test.describe('looks', () => {
  for (const [language, theme] of looks({ tibetan: false })) {
    test(`knowledge base in ${language}, ${theme}`, async ({ page }) => {
      const dir = '/tmp/kb-shots';
      mkdirSync(dir, { recursive: true });
      await prefer(page, { language, theme });
      await signIn(page, 'orgadmin');
      await page.goto('/kb');
      const first = page.getByTestId('kb-row').first();
      await expect(first).toBeVisible({ timeout: 15_000 });
      await first.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      await expect(page.getByTestId('kb-pane').locator('h2')).toBeVisible();
      await expect(page.locator('body')).not.toContainText(RAW_KEY);
      await page.screenshot({ path: `${dir}/kb-${language}-${theme}.png` });
    });
  }
});
