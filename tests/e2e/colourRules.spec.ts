import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { looks } from './support/looks';
import { prefer, signIn } from './support/session';

/**
 * Colour rules and sample graphs, by keyboard as the demo group admin:
 *  - a rule made on the group settings screen (modality equals CT, a distinctive background) tints the worklist's CT
 *    rows once the worklist is opened again, with the same mix the worklist draws; deleting it takes the tint away;
 *  - on the organisation's sample graphs tab a point placed by arrows and Enter is saved by Ctrl+S and is still there
 *    after a reload; Shift+Tab chooses it, Delete removes it, Ctrl+S saves that too.
 */
const GROUP = 1;
const HOSPITAL = 1;
const BACK = '#00c853';
const stamp = String(Date.now()).slice(-6);

// Several screens and reloads per test on a machine shared with other lanes.
test.describe.configure({ timeout: 120_000 });

/** What the worklist paints for a back colour (Grid.tsx's mix), resolved by the browser on a probe element. */
async function tintOf(page: Page, colour: string): Promise<string> {
  return page.evaluate((c) => {
    const probe = document.createElement('div');
    probe.style.backgroundColor = `color-mix(in oklab, ${c} 32%, var(--surface))`;
    document.body.append(probe);
    const value = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return value;
  }, colour);
}

/** The computed background of an unfocused CT row of the worklist. */
async function ctRowBackground(page: Page): Promise<string> {
  const row = page.locator('[role=row][data-exam-id]:not([data-focused])').filter({ has: page.getByRole('gridcell', { name: 'CT', exact: true }) }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  return row.evaluate((el) => getComputedStyle(el).backgroundColor);
}

test('a colour rule made on the settings screen tints the worklist rows it matches', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  const name = `CT green ${stamp}`;

  await page.goto('/studies');
  const expected = await tintOf(page, BACK);
  expect(await ctRowBackground(page)).not.toBe(expected);

  await page.goto(`/groups/${GROUP}/settings`);
  const section = page.getByTestId('colour-rules');
  await section.getByTestId('colour-rule-add').focus();
  await page.keyboard.press('Enter');
  const form = page.getByTestId('colour-rule-form');
  await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0');
  await expect(form.getByLabel('Column')).toHaveValue('modality');
  await expect(form.getByLabel('Match')).toHaveValue('equals');
  await form.getByLabel('Value').focus();
  await page.keyboard.type('CT');
  await form.getByLabel('Background colour (hex #rrggbb)').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(BACK);
  // The sample row follows at once; a pale green under the theme's text reads well.
  await expect(page.getByTestId('colour-rule-preview')).toHaveCSS('background-color', expected);
  await expect(page.getByTestId('colour-rule-contrast')).toContainText('easy to read');
  // A text colour too: Space ticks it, a light green on the green tint is flagged, a dark green is not.
  await form.getByRole('checkbox', { name: 'Text colour' }).focus();
  await page.keyboard.press('Space');
  await form.getByLabel('Text colour (hex #rrggbb)').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('#00ff66');
  await expect(page.getByTestId('colour-rule-contrast')).toContainText('hard to read');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('#1b5e20');
  await expect(page.getByTestId('colour-rule-contrast')).toContainText('easy to read');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  const row = section.locator('tr[data-colour-rule-id]', { hasText: name });
  await expect(row).toContainText('Modality = CT');
  // Priority 0 sorts first.
  await expect(section.locator('tr[data-colour-rule-id]').first()).toContainText(name);

  await page.goto('/studies');
  await expect.poll(() => ctRowBackground(page)).toBe(expected);

  // Deleting asks first (the focus starts on Cancel), then the rows lose the tint.
  await page.goto(`/groups/${GROUP}/settings`);
  await section.getByRole('button', { name: `Delete “${name}”` }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(row).toHaveCount(0);
  await page.goto('/studies');
  await expect.poll(() => ctRowBackground(page)).not.toBe(expected);
});

test('a rule on a yes/no column paints exactly the rows whose flag has that value (urgent = true)', async ({ page }) => {
  const made = await apiAs<{ id: number }>('admin', 'POST', 'report-table-colour/create', {
    groupId: GROUP, name: `urgent ${stamp}`, priority: 0, column: 'urgentFlag', value: 'true', foreColor: null, backColor: BACK,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  try {
    await prefer(page, { language: 'en' });
    await signIn(page, 'admin');
    await page.goto('/studies');
    await expect(page.locator('[role=row][data-exam-id]').first()).toBeVisible({ timeout: 20_000 });
    // Wait for the rules to arrive (fetched as the worklist mounts): some row is tinted.
    await expect(page.locator('[role=row][data-exam-id]:not([data-focused])[style*="background-color"]').first()).toBeVisible();
    // Every drawn row except the focused one (focus shows instead of the tint): tinted exactly when it bears the mark.
    const rows = await page.locator('[role=row][data-exam-id]:not([data-focused])').evaluateAll((els) => els.map((el) => ({
      id: (el as HTMLElement).dataset.examId,
      tinted: (el as HTMLElement).style.backgroundColor !== '',
      urgent: el.querySelector('[title="Urgent"]') !== null,
    })));
    expect(rows.filter((r) => r.urgent).length).toBeGreaterThan(0);
    expect(rows.filter((r) => !r.urgent).length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.tinted !== r.urgent)).toEqual([]);
  } finally {
    expect((await apiAs('admin', 'DELETE', `report-table-colour/${made.body.id}`)).status).toBe(204);
  }
});

interface Graph { id: number; name: string; points: { x: number; y: number; color: string }[] }

test('sample graphs: a point placed by keyboard is saved and still there after a reload; Delete removes it', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/groups/${GROUP}/organizations/${HOSPITAL}/sample-graphs`);
  const before = (await apiAs<Graph[]>('admin', 'GET', `sample-graphs/query?bucketId=${HOSPITAL}`)).body;
  const first = before[0]!;
  const canvas = page.getByTestId('sample-graph-canvas');
  // The first paint of the tab waits for the lazy screen, the organisation, the list and the drawing: a loaded
  // machine may take longer than the default 5 s.
  await expect(canvas.locator('img')).toHaveAttribute('alt', first.name, { timeout: 20_000 });
  await expect(canvas.locator('[data-point-index]')).toHaveCount(first.points.length);

  // From the middle: three steps right, one big step down (Shift), Enter places the point in the first colour.
  await canvas.focus();
  await expect(page.getByTestId('sample-graph-crosshair')).toBeVisible();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Enter');
  await expect(canvas.locator('[data-point-index]')).toHaveCount(first.points.length + 1);
  await expect(page.getByTestId('sample-graph-state')).toHaveText('Unsaved changes');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTestId('sample-graph-state')).toHaveText('All saved');

  const saved = (await apiAs<Graph[]>('admin', 'GET', `sample-graphs/query?bucketId=${HOSPITAL}`)).body.find((g) => g.id === first.id)!;
  expect(saved.points.at(-1)).toEqual({ x: 0.53, y: 0.55, color: '#e03131' });

  await page.reload();
  const placed = canvas.locator(`[data-point-index="${first.points.length}"]`);
  await expect(placed).toHaveAttribute('style', /left: 53%; top: 55%/);

  // Shift+Tab from the drawing chooses the last point; Delete removes it; Ctrl+S saves.
  await canvas.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(placed).toHaveAttribute('data-selected', 'true');
  await expect(page.getByTestId('sample-graph-point')).toContainText('x 53%, y 55%');
  await page.keyboard.press('Delete');
  await expect(canvas.locator('[data-point-index]')).toHaveCount(first.points.length);
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTestId('sample-graph-state')).toHaveText('All saved');
  await page.reload();
  await expect(canvas.locator('[data-point-index]')).toHaveCount(first.points.length);
  const after = (await apiAs<Graph[]>('admin', 'GET', `sample-graphs/query?bucketId=${HOSPITAL}`)).body.find((g) => g.id === first.id)!;
  expect(after.points).toEqual(first.points);
});

test('looks of the colour rule dialog and the sample graph editor', async ({ page }) => {
  const dir = '/tmp/colourRules-shots';
  mkdirSync(dir, { recursive: true });
  for (const [language, theme] of looks({ tibetan: 'once' })) {
    await prefer(page, { language, theme });
    await signIn(page, 'admin');
    await page.goto(`/groups/${GROUP}/organizations/${HOSPITAL}/sample-graphs`);
    await expect(page.getByTestId('sample-graph-canvas').locator('img')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('sample-graph-canvas').focus();
    await page.screenshot({ path: `${dir}/sample-graphs-${language}-${theme}.png` });
    await page.goto(`/groups/${GROUP}/settings`);
    await page.getByTestId('colour-rule-add').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('colour-rule-form')).toBeVisible();
    await page.screenshot({ path: `${dir}/colour-rule-${language}-${theme}.png` });
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.clear());
  }
});
