import { expect, test, type Page } from '@playwright/test';
import type { LearningPage, LearningProgress } from '../../contract/learning';
import { apiAs, apiBase } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * Learning videos (areas §2 /learning, /learning/{id}) by keyboard: the list walked with ↑/↓ and opened with Enter,
 * the video played and paused with k in plyr's player, the position written on pause and found again after a
 * reload; the end marks the video watched, and the list shows both. Signed out the screens work and write nothing.
 */

/** The demo library's videos by file (server/seed/learning.ts), as the lane's server numbered them. */
async function videoIds(): Promise<Record<string, number>> {
  const res = await fetch(`${apiBase()}learnings`);
  const page = (await res.json()) as LearningPage;
  return Object.fromEntries(page.items.map((i) => [i.videoUrl.replace(/^\/learning\/|\.webm$/g, ''), i.id]));
}

const currentTime = (page: Page) => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
const isPaused = (page: Page) => page.locator('video').evaluate((v: HTMLVideoElement) => v.paused);

/** Waits until plyr is set up and holds the focus (it takes it when ready), so its keys reach it. */
async function playerFocused(page: Page) {
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.plyr')))).toBe(true);
}

// Each video test plays real seconds of video on a shared 2-core machine.
test.describe.configure({ timeout: 60_000 });

const progressPut = (page: Page, id: number) =>
  page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/v1/learnings/${id}/progress`));

test('signed in: opened from the list by keyboard, played and paused with k, resumed after a reload; the list shows it', async ({ page }) => {
  const ids = await videoIds();
  await prefer(page, { language: 'en' });
  await signIn(page, 'tech');
  await page.goto('/learning');
  const rows = page.getByTestId('learning-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('Calling patients');

  // ↓ ↓ to the third video, Enter opens it.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/learning/${ids.calling}$`));
  await expect(page.getByTestId('learning-title')).toContainText('Calling patients');
  await playerFocused(page);

  // k plays (plyr's key, taken while the player has the focus); the time runs.
  await page.keyboard.press('k');
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(3);
  // k again pauses, and the pause writes the position.
  const saved = progressPut(page, ids.calling);
  await page.keyboard.press('k');
  const answer = (await (await saved).json()) as LearningProgress;
  expect(await isPaused(page)).toBe(true);
  expect(answer.positionSec).toBeGreaterThan(3);
  expect(answer.completed).toBe(false);
  expect((await apiAs<LearningProgress>('tech', 'GET', `learnings/${ids.calling}/progress`)).body.positionSec).toBe(answer.positionSec);
  await expect(page.getByTestId('learning-save-state')).toHaveText('Progress saved');

  // A reload starts where it stopped.
  await page.reload();
  await expect(page.getByTestId('learning-save-state')).toHaveText(/^Resumed at 0:0\d$/);
  await expect.poll(async () => Math.abs((await currentTime(page)) - answer.positionSec)).toBeLessThan(0.6);
  expect(await isPaused(page)).toBe(true);

  // b goes back to the list (not a player key: it reaches the app), where the row shows the share watched.
  await playerFocused(page);
  await page.keyboard.press('b');
  await expect(page).toHaveURL(/\/learning$/);
  const progress = rows.nth(2).getByTestId('learning-progress');
  const percent = Math.round((answer.positionSec / 20) * 100);
  await expect(progress).toHaveAttribute('data-percent', String(percent));
  await expect(progress).toContainText(`${percent}%`);
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(0).getByTestId('learning-progress')).toContainText('Not started');
  await expect(page.locator('body')).not.toContainText(RAW_KEY);
});

test('the end marks a video watched: → seeks by keyboard, the ended write says completed, the list says Watched', async ({ page }) => {
  const ids = await videoIds();
  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await page.goto(`/learning/${ids.worklist}`);
  await playerFocused(page);
  await page.keyboard.press('k');
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
  // Three times → (5 s each) to the last seconds; then it plays to the end.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentTime(page)).toBeGreaterThan(15);
  const ended = page.waitForResponse(async (r) => r.request().method() === 'PUT' && r.url().endsWith(`/learnings/${ids.worklist}/progress`)
    && ((await r.json()) as LearningProgress).completed);
  const answer = (await (await ended).json()) as LearningProgress;
  expect(answer).toMatchObject({ positionSec: 20, completed: true });
  await expect(page.getByTestId('learning-progress')).toContainText('Watched');

  await page.goto('/learning');
  const row = page.getByTestId('learning-row').filter({ hasText: 'The worklist by keyboard' });
  await expect(row.getByTestId('learning-progress')).toHaveAttribute('data-completed', 'true');
  await expect(row.getByTestId('learning-progress')).toContainText('Watched');
});

test('signed out: list, search and a video work without signing in, and nothing is written', async ({ page }) => {
  const writes: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/progress')) writes.push(`${r.method()} ${r.url()}`); });
  await prefer(page, { language: 'en' });
  await page.goto('/learning');
  await expect(page).toHaveURL(/\/learning$/);
  const rows = page.getByTestId('learning-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('learning-progress')).toHaveCount(0);
  await expect(page.getByText('Sign in to keep your progress on each video.')).toBeVisible();

  // / goes to the search; typing narrows the list; ↓ moves into it and Enter opens the video in hand.
  await page.keyboard.press('/');
  await expect(page.getByTestId('learning-search')).toBeFocused();
  await page.keyboard.type('approving');
  await expect(rows).toHaveCount(1);
  await expect(page).toHaveURL(/\/learning\?q=approving$/);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('learning-list')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('learning-title')).toContainText('Writing and approving a report');
  await playerFocused(page);
  await page.keyboard.press('k');
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(1);
  await page.keyboard.press('k');
  await expect.poll(() => isPaused(page)).toBe(true);
  await expect(page.getByText('Sign in to keep your progress.')).toBeVisible();
  // Leaving the page would write too, were anyone signed in.
  await page.keyboard.press('b');
  await expect(page).toHaveURL(/\/learning$/);
  await expect(rows).toHaveCount(3);
  expect(writes).toEqual([]);
});

test('an id that is no video says so, with the way back', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await page.goto('/learning/999999');
  await expect(page.getByTestId('learning-not-found')).toContainText('This video does not exist');
  await page.getByTestId('learning-back').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/learning$/);
});
