import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { runFromPalette } from './support/palette';
import { apiAs, freshCase, openWorkspace } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * Template management by keyboard (/templates): the group admin creates a template with a distinctive finding in the
 * hospital's tree (N, a name, Enter, the finding, Ctrl+S), renames it (F2), then writes a report and inserts it through
 * the workspace's picker; the group's shared tree is a tab of its own and shows in the picker too.
 */
const stamp = String(Date.now()).slice(-6);
const tree = (page: Page) => page.getByTestId('templates-tree');
const editorOf = (page: Page, field: 'finding' | 'diagnosis') => page.locator(`.report-editor[data-field="${field}"]`);

interface Node { id: number; name: string; finding: string; children: Node[] }
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

test.beforeEach(async ({ page }) => {
  // Each test walks two screens (and the screenshots four sign-ins): more than the default 30 s on a busy machine.
  test.setTimeout(120_000);
  await prefer(page, { language: 'en' });
});

test('a template made by keyboard on /templates is inserted through the report picker', async ({ page }) => {
  const name = `Keyboard ${stamp}`;
  const renamed = `Keyboard template ${stamp}`;
  const finding = `DISTINCT-FINDING-${stamp}`;
  await signIn(page, 'admin');
  await page.goto('/templates');
  await expect(page.getByTestId('templates-organisation')).toHaveValue('b1');
  await expect(tree(page)).toBeVisible();
  await tree(page).focus();

  // ↓ then → opens the second folder, ← closes it again; the cursor is a treeitem with aria-selected.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const selected = tree(page).locator('[role="treeitem"][aria-selected="true"]');
  await expect(selected).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(selected).toHaveAttribute('aria-expanded', 'false');

  // N: a new template in that folder, named in a dialog; the findings editor takes the focus.
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog', { name: 'New template' });
  await expect(dialog.getByTestId('template-name-input')).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type(finding);
  await expect(page.getByTestId('template-unsaved')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTestId('template-unsaved')).toBeHidden();

  // Esc back to the tree, F2 renames it.
  await page.keyboard.press('Escape');
  await expect(tree(page)).toBeFocused();
  await expect(selected).toContainText(name);
  await page.keyboard.press('F2');
  const rename = page.getByRole('dialog', { name: 'Rename' });
  await expect(rename.getByTestId('template-name-input')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(renamed);
  await page.keyboard.press('Enter');
  await expect(rename).toBeHidden();
  await expect(selected).toContainText(renamed);

  const stored = flat((await apiAs<{ items: Node[] }>('admin', 'GET', 'report-templates?bucketId=1')).body.items).find((n) => n.name === renamed);
  expect(stored?.finding).toContain(finding);

  // The workspace: the palette's "insert template" opens the picker; the name finds it; Enter inserts it.
  const { path } = await freshCase('admin');
  await openWorkspace(page, path);
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type('/');
  const picker = page.getByRole('dialog', { name: 'Report templates' });
  await expect(picker.getByRole('combobox')).toBeFocused();
  await page.keyboard.type(renamed);
  await expect(picker.locator('[aria-selected="true"]')).toContainText(renamed);
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();
  await expect(editorOf(page, 'finding')).toContainText(finding);
});

test('the group\'s shared tree is a tab for its administrator and a folder of the report picker', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/templates');
  await page.getByTestId('templates-group-tab').focus();
  await page.keyboard.press('Enter');
  await expect(tree(page)).toContainText('集团规范');
  await tree(page).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('template-name')).toHaveValue('肺结节随访（Fleischner）');

  const { path } = await freshCase('admin');
  await openWorkspace(page, path);
  await page.keyboard.type('/');
  const picker = page.getByRole('dialog', { name: 'Report templates' });
  await page.keyboard.type('Fleischner');
  await expect(picker.locator('[aria-selected="true"]')).toContainText('肺结节随访');
  await page.keyboard.press('Enter');
  await expect(editorOf(page, 'diagnosis')).toContainText('Fleischner');
});

test('export downloads the tree as JSON; import shows what it adds, adds it, and shows the server\'s refusal of a clash', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/templates');
  await expect(tree(page)).toBeVisible();
  await tree(page).focus();
  const first = (await apiAs<{ items: Node[] }>('admin', 'GET', 'report-templates?bucketId=1')).body.items[0]!.name;
  await expect(tree(page).locator('[role="treeitem"]').first()).toContainText(first);

  const downloading = page.waitForEvent('download');
  await runFromPalette(page, 'export', /Templates: export/);
  const download = await downloading;
  const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { format: string; version: number; items: { name: string; folder?: boolean; children?: unknown[] }[] };
  expect(exported).toMatchObject({ format: 'report-templates', version: 1 });
  expect(exported.items[0]!.name).toBe(first);

  // The first folder of the export, imported into the folder under the cursor (the same first folder).
  const one = { ...exported, items: [exported.items[0]!] };
  const file = { name: 'one-folder.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(one)) };
  const importOnce = async () => {
    // Home: the first folder, where the first import went (afterwards the cursor stands on what it added).
    await tree(page).focus();
    await page.keyboard.press('Home');
    const choosing = page.waitForEvent('filechooser');
    await runFromPalette(page, 'import', /Templates: import/);
    await (await choosing).setFiles(file);
    const dialog = page.getByRole('dialog', { name: 'Import templates' });
    await expect(dialog.getByTestId('import-summary')).toContainText(`1 folder(s) and ${exported.items[0]!.children!.length} template(s) under “${first}”`);
    await expect(dialog.getByTestId('import-confirm')).toBeFocused();
    await page.keyboard.press('Enter');
    return dialog;
  };
  const dialog = await importOnce();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Imported ')).toBeVisible();
  const before = flat((await apiAs<{ items: Node[] }>('admin', 'GET', 'report-templates?bucketId=1')).body.items).length;

  // The same again: the folder already has it; the server's refusal stays in the dialog and nothing is added.
  const again = await importOnce();
  await expect(again.getByRole('alert')).toContainText(`«${first}»`);
  await page.keyboard.press('Escape');
  await expect(again).toBeHidden();
  expect(flat((await apiAs<{ items: Node[] }>('admin', 'GET', 'report-templates?bucketId=1')).body.items).length).toBe(before);
});

// Screenshots for looking at (/tmp/templates-shots): the tree and editor, and the move dialog (support/looks.ts: one run
// in CI, both themes and languages with SCREENS=all).
test('screens of template management', async ({ page }) => {
  mkdirSync('/tmp/templates-shots', { recursive: true });
  for (const [language, theme] of looks({ tibetan: false })) {
    await prefer(page, { language, theme });
    await signIn(page, 'admin');
    await page.goto('/templates');
    await expect(tree(page)).toBeVisible();
    await tree(page).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('template-editor')).toBeVisible();
    await page.screenshot({ path: `/tmp/templates-shots/templates-${language}-${theme}.png` });
    await page.keyboard.press('m');
    await expect(page.getByRole('listbox')).toBeFocused();
    await page.screenshot({ path: `/tmp/templates-shots/move-${language}-${theme}.png` });
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.clear());
  }
});
