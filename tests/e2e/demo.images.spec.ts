import { expect, test } from '@playwright/test';
import type { ExamPage } from '../../contract/exams';
import { api, apiToken, coloursOnCanvas } from './support/images';
import { prefer, signIn } from './support/session';

/**
 * The demo data shows the product working (issue 8 §4): exams of every modality come with images made at seed time,
 * which the viewer draws; patients come back, so an exam has past exams.
 */
test('the newest imaged demo exam of each modality opens in the viewer with a picture', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await prefer(page, { language: 'en', theme: 'dark' });
  const token = await apiToken(baseURL!, 'rad1');
  await signIn(page, 'rad1');
  for (const modality of ['CT', 'MR', 'DX', 'US', 'MG']) {
    const page1 = await api<ExamPage>(baseURL!, token, 'POST', 'exams/page-query', {
      filters: [{ field: 'modality', operator: 'equal', values: [modality] }], sorts: [{ field: 'examTime', direction: 'desc' }], limit: 40,
    });
    // The newest done exam: registry lines booked for later today have no images yet (issue 10).
    const exam = page1.items.find((e) => e.hasImage);
    expect(exam, modality).toBeDefined();
    if (!exam) continue;
    await page.goto(`/viewer/${exam.id}`);
    const viewport = page.getByTestId('viewer-viewport');
    await expect(viewport, modality).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
    expect(await coloursOnCanvas(page), `${modality}: a picture with detail`).toBeGreaterThan(8);
    await page.screenshot({ path: `.tmp/screens/demo-${modality}.png` });
  }
});

test('demo patients come back: some exams have past exams of the same patient', async ({ baseURL }) => {
  const token = await apiToken(baseURL!, 'rad1');
  const list = await api<ExamPage>(baseURL!, token, 'POST', 'exams/page-query', { sorts: [{ field: 'examTime', direction: 'desc' }], limit: 60 });
  let withPast = 0;
  for (const exam of list.items) {
    const past = await api<{ total: number }>(baseURL!, token, 'POST', `exams/${exam.id}/past/count`, {});
    if (past.total > 0) withPast += 1;
  }
  expect(withPast).toBeGreaterThan(5);
});
