import { expect, test } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * The group's pathology system opened with the exam in hand (core §2 navbar "pathology", §3 pathologyUrl): Shift+P on
 * the worklist opens the template filled with the focused exam's identifiers in a new tab. The address here is a page
 * of this server, so the tab loads without the outside world; the group's setting is put back afterwards.
 */
interface Group { id: number; pathologyUrl: string | null }
interface Exam { id: number; accessionNumber: string | null; patientId: string }

test('Shift+P opens the pathology system for the focused exam, filled with its identifiers', async ({ page }) => {
  await prefer(page, { language: 'en' });
  const [group] = (await apiAs<Group[]>('admin', 'GET', 'groups/mine')).body;
  const before = group!.pathologyUrl;
  const origin = new URL(test.info().project.use.baseURL!).origin;
  try {
    const set = await apiAs('admin', 'PATCH', `groups/${group!.id}`, { pathologyUrl: `${origin}/learning?pid={patientId}&exam={examId}` });
    expect(set.status).toBe(200);
    await signIn(page, 'admin');
    await page.goto('/studies');
    await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();
    const row = page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]');
    const exam = (await apiAs<Exam>('admin', 'GET', `exams/${await row.getAttribute('data-exam-id')}`)).body;
    const popup = page.waitForEvent('popup');
    await page.keyboard.press('Shift+P');
    const tab = await popup;
    await tab.waitForURL((url) => url.pathname === '/learning');
    const url = new URL(tab.url());
    expect([url.searchParams.get('pid'), url.searchParams.get('exam')]).toEqual([exam.patientId, String(exam.id)]);
    await tab.close();
  } finally {
    await apiAs('admin', 'PATCH', `groups/${group!.id}`, { pathologyUrl: before });
  }
});
