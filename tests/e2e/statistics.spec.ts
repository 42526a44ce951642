import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { StatGroupsAnswer, StatName, StatResult, StatScopeAnswer, StatUnit } from '../../contract/statistics';
import { STAT_PATHS } from '../../contract/statistics';
import { addDays } from '../../contract/days';
import { runFromPalette } from './support/palette';
import { apiAs } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * The statistics screens (issue 16) by keyboard: the chief opens them from the navbar, 3 (30 days) and M (month)
 * change the question and the table shows exactly what the API answers to the same question; J/K walk the rail; the
 * palette opens a chart directly; B turns the turnaround table to radiologists; E downloads the workbook; a custom
 * range the server would refuse shows the catalogue message without asking it. rad1 (no statistics_report) has no
 * navbar entry and is refused on the address.
 */

interface Question { name: StatName; from: string; to: string; unit: StatUnit; by: 'modality' | 'radiologist' }

const result = (page: Page) => page.getByTestId('stat-result');

/** Waits until the page shows the answer to `q` (not a stale one), then returns the table's raw cells. */
async function settled(page: Page, q: Question) {
  await expect.poll(async () => JSON.parse((await result(page).getAttribute('data-question')) ?? '{}') as Question).toEqual(q);
  await expect(result(page)).toHaveAttribute('data-loading', 'false');
  await expect(page.getByTestId('stat-main')).toHaveAttribute('data-chart', q.name);
  const head = await page.locator('[data-testid=stat-table] thead th').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-col')));
  const rows = await page.getByTestId('stat-row').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-value'))));
  const total = await page.locator('[data-testid=stat-total] td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-value')));
  return { head, rows, total };
}

/** The same question asked of the lane's server, as the table's raw cells. */
async function asked(groupId: number, q: Question) {
  const res = await apiAs<StatResult>('chief', 'POST', STAT_PATHS[q.name], { groupId, from: q.from, to: q.to, unit: q.unit, by: q.by });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cols = res.body.columns;
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    head: cols.map((c) => c.key),
    rows: res.body.rows.map((row) => cols.map((c) => cell(row[c.key]))),
    // The total row: the first cell is the word, text columns are empty.
    total: res.body.rows.length === 0 ? [] : cols.map((c, i) => (i === 0 || c.kind === 'text' || c.kind === 'code' ? '' : cell(res.body.totals[c.key]))),
  };
}

test('the chief reads the statistics by keyboard: ranges, units, charts, rows by radiologist, export, refused ranges', async ({ page }) => {
  const groups = await apiAs<StatGroupsAnswer>('chief', 'GET', 'statistics/groups');
  const groupId = groups.body.groups[0]!.id;
  const scope = await apiAs<StatScopeAnswer>('chief', 'GET', `statistics/scope?groupId=${groupId}`);
  expect(scope.body.allowOverview).toBe(true);
  const today = scope.body.today;

  await prefer(page, { language: 'en' });
  await signIn(page, 'chief');
  await page.getByRole('navigation').getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/group-statistics$/);

  // The overview first, last 7 days by day.
  const week: Question = { name: 'overview-total', from: addDays(today, -6), to: today, unit: 'day', by: 'modality' };
  expect(await settled(page, week)).toEqual(await asked(groupId, week));
  await expect(page.getByTestId('stat-cards')).toBeVisible();

  // 3 = the last 30 days; M = by month: the table is the API's answer to the same question.
  await page.keyboard.press('3');
  await expect(page.getByTestId('stat-quick-30d')).toHaveAttribute('aria-pressed', 'true');
  const days30: Question = { ...week, from: addDays(today, -29) };
  expect(await settled(page, days30)).toEqual(await asked(groupId, days30));
  await page.keyboard.press('m');
  await expect(page.getByTestId('stat-unit-month')).toHaveAttribute('aria-pressed', 'true');
  const month: Question = { ...days30, unit: 'month' };
  const byMonth = await settled(page, month);
  expect(byMonth).toEqual(await asked(groupId, month));
  expect(byMonth.rows.length, 'the last 30 days span one or two months').toBeGreaterThanOrEqual(1);
  expect(byMonth.rows.length).toBeLessThanOrEqual(2);

  // J / K walk the rail.
  await page.keyboard.press('j');
  await settled(page, { ...month, name: 'overview-user' });
  await expect(page.locator('[role=tab][aria-selected=true]')).toHaveAttribute('data-chart', 'overview-user');
  await page.keyboard.press('k');
  await settled(page, month);

  // The palette opens a chart directly (from anywhere: the address carries it).
  await runFromPalette(page, 'Open statistics', /Open statistics: Positive rate/);
  await expect(page).toHaveURL(/\/group-statistics\?chart=report-positive$/);
  const positive: Question = { ...month, name: 'report-positive' };
  expect(await settled(page, positive)).toEqual(await asked(groupId, positive));

  // K to the turnaround chart; B turns its rows to radiologists.
  await page.keyboard.press('k');
  const turnaround: Question = { ...month, name: 'report' };
  expect((await settled(page, turnaround)).head[0]).toBe('modality');
  await page.keyboard.press('b');
  await expect(page.getByTestId('stat-by-radiologist')).toHaveAttribute('aria-pressed', 'true');
  const byRadiologist: Question = { ...turnaround, by: 'radiologist' };
  const table = await settled(page, byRadiologist);
  expect(table.head[0]).toBe('radiologist');
  expect(table).toEqual(await asked(groupId, byRadiologist));

  // E: the workbook comes down.
  const download = page.waitForEvent('download');
  await page.keyboard.press('e');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^statistics-report-\d{8}-\d{4}\.xlsx$/);
  expect(readFileSync(await file.path()).subarray(0, 2).toString()).toBe('PK');

  // D = by day (30 days: fine); then F and a from-date 45 days back: over a month by day. The catalogue message shows,
  // the server is not asked, the last good chart stays.
  await page.keyboard.press('d');
  const daily: Question = { ...byRadiologist, unit: 'day' };
  await settled(page, daily);
  const asks: string[] = [];
  page.on('request', (r) => r.url().includes('/api/v1/statistics/') && asks.push(r.postData() ?? r.url()));
  await page.keyboard.press('f');
  await expect(page.getByTestId('stat-from')).toBeFocused();
  const longAgo = addDays(today, -45);
  await page.getByTestId('stat-from').fill(longAgo);
  await expect(page.getByTestId('stat-problem')).toHaveText('The period is too long: device workload and daily figures cover at most one month, note-takers and remote reports at most one year');
  await expect(page.getByTestId('stat-from')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('stat-quick-30d')).toHaveAttribute('aria-pressed', 'false');
  await settled(page, daily);
  // W makes the same range answerable: now it is asked.
  await page.getByTestId('stat-from').blur();
  await page.keyboard.press('w');
  await expect(page.getByTestId('stat-problem')).toHaveText('');
  await settled(page, { ...daily, from: longAgo, unit: 'week' });
  expect(asks.filter((body) => body.includes(longAgo) && body.includes('"unit":"day"'))).toEqual([]);
  expect(asks.some((body) => body.includes(longAgo) && body.includes('"unit":"week"'))).toBe(true);
});

test('rad1 (no statistics_report) has no statistics entry and is refused on the address', async ({ page }) => {
  const groups = await apiAs<StatGroupsAnswer>('chief', 'GET', 'statistics/groups');
  const groupId = groups.body.groups[0]!.id;
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Workstation' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Statistics' })).toHaveCount(0);
  await page.goto('/group-statistics');
  await expect(page.getByTestId('statistics-refused')).toBeVisible();
  await page.goto(`/groups/${groupId}/statistics`);
  await expect(page.getByTestId('statistics-refused')).toBeVisible();
  await expect(page.getByTestId('statistics-page')).toHaveCount(0);
});

test('the group administrator opens the group statistics from the group page and narrows them to one organisation', async ({ page }) => {
  const groups = await apiAs<StatGroupsAnswer>('admin', 'GET', 'statistics/groups');
  const groupId = groups.body.groups[0]!.id;
  const scope = await apiAs<StatScopeAnswer>('admin', 'GET', `statistics/scope?groupId=${groupId}`);
  // The group's administrator counts every organisation of the group (the chief only the hospital); other files of
  // this lane may have added organisations to the demo group.
  const names = scope.body.buckets.map((b) => b.name);
  expect(names).toEqual(expect.arrayContaining(['市第一人民医院放射科', '远程影像专家中心']));
  const centre = scope.body.buckets.find((b) => b.name === '远程影像专家中心')!;

  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`/groups/${groupId}`);
  await page.getByTestId('group-statistics-link').click();
  await expect(page).toHaveURL(new RegExp(`/groups/${groupId}/statistics$`));
  await expect(page.getByTestId('stat-main')).toHaveAttribute('data-chart', 'overview-total');
  await expect(result(page)).toHaveAttribute('data-loading', 'false');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page.getByTestId('stat-main')).toHaveAttribute('data-chart', 'overview-bucket');
  await expect(page.getByTestId('stat-row')).toHaveCount(scope.body.buckets.length);
  await page.getByTestId('stat-bucket').selectOption(String(centre.id));
  await expect(page.getByTestId('stat-row')).toHaveCount(1);
  await expect(page.getByTestId('stat-row').first()).toContainText(centre.name);
});
