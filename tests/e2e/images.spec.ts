import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prefer, signIn } from './support/session';
import { CT_SERIES_FILES, api, apiToken } from './support/images';

/**
 * Images end to end: a technician uploads the CT series (and a broken file) through the wizard, a
 * radiologist scrolls it in the viewer and captures a key image into the report, and the approved report's
 * share link opens in a fresh browser without signing in.
 */

test.describe.configure({ mode: 'serial' });

let folder: string;
let examId: number;
let reportId: number;

test.beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'wizard-'));
  for (const file of CT_SERIES_FILES) copyFileSync(file, path.join(folder, path.basename(file)));
  // A copy cut inside its pixel data: the wizard must name it and go on without it.
  const whole = readFileSync(CT_SERIES_FILES[0]!);
  writeFileSync(path.join(folder, 'broken.dcm'), whole.subarray(0, whole.length - 300));
});

test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `.tmp/screens/${name}.png` });
}

test('a technician uploads a CT series through the wizard; the broken file is named and left out', async ({ page, baseURL }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'tech');
  await page.goto('/upload');
  const files = ['17106.dcm', '17136.dcm', '17166.dcm', '17196.dcm', 'broken.dcm'].map((f) => path.join(folder, f));
  await page.getByTestId('upload-files-input').setInputFiles(files);

  await expect(page.getByTestId('upload-study')).toHaveCount(1);
  await expect(page.getByTestId('upload-study')).toContainText('files: 4');
  const refused = page.getByTestId('upload-refused');
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText('broken.dcm');
  await expect(refused).toContainText('The file is incomplete (cut short)');
  await shot(page, 'upload-choose-light-en');

  await page.getByRole('button', { name: 'Next' }).click();
  const form = page.getByTestId('upload-exam-form');
  await expect(form.locator('input[name=patientName]')).toHaveValue('Doe Archibald');
  await expect(form.locator('input[name=modality]')).toHaveValue('CT');
  const patientId = await form.locator('input[name=patientId]').inputValue();
  expect(patientId).not.toBe('');
  await shot(page, 'upload-info-light-en');

  await page.getByRole('button', { name: 'Start upload' }).click();
  await expect(page.getByRole('heading', { name: 'Complete' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('upload-done-exam')).toContainText('series: 1 · images: 4');
  await shot(page, 'upload-done-light-en');

  // The exam is there with its images, as the server says.
  const token = await apiToken(baseURL!, 'tech');
  const page1 = await api<{ items: { id: number; patientName: string; hasImage: boolean }[] }>(baseURL!, token, 'POST', 'exams/page-query',
    { filters: [{ field: 'patientId', values: [patientId], operator: 'equal' }], skip: 0, limit: 5, sorts: [{ field: 'created', direction: 'desc' }] });
  const exam = page1.items[0]!;
  expect(exam.hasImage).toBe(true);
  examId = exam.id;
  const series = await api<{ instanceCount: number }>(baseURL!, token, 'GET', `exams/${examId}/series`);
  expect(series.instanceCount).toBe(4);
});

test('a radiologist scrolls the series and captures a key image into the report', async ({ page, baseURL }) => {
  const token = await apiToken(baseURL!, 'rad1');
  const report = await api<{ id: number }>(baseURL!, token, 'POST', `exams/${examId}/reports`);
  reportId = report.id;
  await prefer(page, { language: 'en', theme: 'dark' });
  await signIn(page, 'rad1');
  await page.goto(`/studies/${examId}/reports/${reportId}`);
  const viewport = page.getByTestId('viewer-viewport');
  await expect(viewport).toHaveAttribute('data-rendered', 'true', { timeout: 20_000 });
  const position = page.getByTestId('viewer-position');
  await expect(position).toContainText('Image 1 / 4');
  // The workspace is whole (its editor has the caret) before the user turns to the images.
  await expect(page.locator('.report-editor[data-field="finding"]')).toBeFocused();
  await viewport.focus();
  await expect(viewport).toBeFocused();
  // One key, one image: each press waits for the image it asked for, as a reader's eye does.
  await page.keyboard.press('j');
  await expect(position).toContainText('Image 2 / 4');
  await page.keyboard.press('j');
  await expect(position).toContainText('Image 3 / 4');
  await page.keyboard.press('ArrowDown');
  await expect(position).toContainText('Image 4 / 4');
  await page.keyboard.press('k');
  await expect(position).toContainText('Image 3 / 4');
  // The wheel scrolls too.
  await viewport.hover();
  await page.mouse.wheel(0, 120);
  await expect(position).toContainText('Image 4 / 4');
  await page.keyboard.press('c');
  await expect(page.getByText('Key image added to the report')).toBeVisible({ timeout: 10_000 });
  await page.getByRole('tab', { name: 'Key images' }).click();
  await expect(page.getByTestId('key-image-count')).toContainText('1 / 6');
  await expect(page.getByRole('img', { name: /S2 I182$/ })).toBeVisible();
  await shot(page, 'viewer-workspace-dark-en');
  const images = await api<{ instanceId: number | null; contentType: string }[]>(baseURL!, token, 'GET', `reports/${reportId}/images`);
  expect(images).toHaveLength(1);
  expect(images[0]!.contentType).toBe('image/png');
});

test('a share link opens in a fresh browser without signing in, and says when the report was recalled', async ({ browser, baseURL }) => {
  const rad1 = await apiToken(baseURL!, 'rad1');
  const chief = await apiToken(baseURL!, 'chief');
  let view = await api<{ version: number }>(baseURL!, rad1, 'GET', `reports/${reportId}/detail`);
  view = await api(baseURL!, rad1, 'POST', `reports/${reportId}/save`, { version: view.version, finding: '<p>Lungs clear.<script>alert(1)</script></p>', diagnosis: '<p>No abnormality.</p>' });
  view = await api(baseURL!, rad1, 'POST', `reports/${reportId}/submit`, { version: view.version });
  view = await api(baseURL!, chief, 'POST', `reports/${reportId}/approve`, { version: view.version });
  const share = await api<{ path: string }>(baseURL!, rad1, 'POST', `reports/${reportId}/share`, { ttlDays: 7 });

  const context = await browser.newContext();
  const page = await context.newPage();
  await prefer(page, { language: 'en' });
  await page.goto(share.path);
  await expect(page.getByTestId('share-patient')).toHaveText('Doe Archibald');
  await expect(page.getByText('Lungs clear.')).toBeVisible();
  await expect(page.getByText('No abnormality.')).toBeVisible();
  await expect(page.locator('script', { hasText: 'alert' })).toHaveCount(0);
  await expect(page.getByTestId('share-banner')).toHaveCount(0);
  await shot(page, 'share-final-light-en');

  await api(baseURL!, chief, 'POST', `reports/${reportId}/recall`, { version: view.version, reason: 'Wrong side' });
  await page.reload();
  await expect(page.getByTestId('share-banner')).toHaveAttribute('data-state', 'recalled');
  await expect(page.getByText('Lungs clear.')).toHaveCount(0);
  await shot(page, 'share-recalled-light-en');
  await context.close();
});

test('the key images print with the report: recalled, corrected and approved again, the print view shows them in a grid', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const rad1 = await apiToken(baseURL!, 'rad1');
  const chief = await apiToken(baseURL!, 'chief');
  // Recalled above: rad1 corrects it (and adds two more views of the captured image), submits, chief approves.
  const captured = (await api<{ id: number; url: string; description: string | null }[]>(baseURL!, rad1, 'GET', `reports/${reportId}/images`))[0]!;
  const bytes = new Uint8Array(await (await fetch(new URL(captured.url, baseURL))).arrayBuffer());
  for (const description of ['右肺上叶结节（放大）', '']) {
    const form = new FormData();
    if (description) form.append('description', description);
    form.append('file', new Blob([bytes], { type: 'image/png' }), 'key.png');
    const res = await fetch(new URL(`/api/v1/reports/${reportId}/images`, baseURL), { method: 'POST', headers: { authorization: `Bearer ${rad1}` }, body: form });
    expect(res.status).toBe(201);
  }
  let view = await api<{ version: number }>(baseURL!, rad1, 'GET', `reports/${reportId}/detail`);
  view = await api(baseURL!, rad1, 'POST', `reports/${reportId}/save`, { version: view.version, finding: '<p>Lungs clear. A 5 mm nodule in the right upper lobe.</p>', diagnosis: '<p>Right upper lobe nodule.</p>' });
  view = await api(baseURL!, rad1, 'POST', `reports/${reportId}/submit`, { version: view.version });
  await api(baseURL!, chief, 'POST', `reports/${reportId}/approve`, { version: view.version });

  // By keyboard: the workspace's Ctrl+P opens the print view.
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto(`/studies/${examId}/reports/${reportId}`);
  await expect(page.getByTestId('exam-header').locator('[data-status="corrected"]')).toBeVisible();
  await page.keyboard.press('Control+p');
  await expect(page).toHaveURL(new RegExp(`/reports/${reportId}/print$`));
  const sheet = page.locator('.print-preview .print-sheet');
  await expect(sheet).toContainText('Lungs clear.');
  const figures = sheet.locator('[data-print-key-image]');
  await expect(figures).toHaveCount(3);
  // In their order, between the conclusion and the signatures, loaded, with their captions.
  await expect(figures.first().locator('figcaption')).toHaveText(/S2 I182$/);
  await expect(figures.nth(1).locator('figcaption')).toHaveText('右肺上叶结节（放大）');
  await expect(figures.nth(2).locator('figcaption')).toHaveCount(0);
  await expect(figures.nth(2).locator('img')).toHaveAttribute('alt', 'Key image 3');
  await expect.poll(() => figures.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth > 0))).toEqual([true, true, true]);
  const order = await sheet.evaluate((el) => [...el.querySelectorAll('h2, .print-foot')].map((n) => n.className.includes('print-foot') ? 'signatures' : n.textContent));
  expect(order).toEqual(['Findings', 'Conclusion', 'Key images', 'signatures']);
  await expect(sheet.locator('.print-image-grid')).toHaveAttribute('data-columns', '3');
  // The copy for the printer carries them too, and nothing is refused or failed.
  await expect(page.locator('.print-root [data-print-key-image]')).toHaveCount(3);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Print/ })).toBeEnabled();
  // Tall enough for the whole A4 sheet in the screenshots.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await shot(page, 'print-keyimages-light-en');

  // A key image that does not load (its signed link expired, say) stops the print until Reload brings fresh links.
  let refuse = true;
  await page.route((url) => url.pathname === '/api/v1/files', (route) => (refuse ? route.fulfill({ status: 403, body: '' }) : route.continue()));
  await page.reload();
  const failed = page.getByRole('alert').filter({ hasText: 'A key image could not be loaded' });
  await expect(failed).toBeVisible();
  await expect(page.getByRole('button', { name: /Print the report/ })).toBeDisabled();
  refuse = false;
  await failed.getByRole('button', { name: 'Reload' }).focus();
  await page.keyboard.press('Enter');
  await expect(failed).toHaveCount(0);
  await expect.poll(() => figures.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth > 0))).toEqual([true, true, true]);
  await expect(page.getByRole('button', { name: /Print the report/ })).toBeEnabled();

  // The same sheet in the other languages and themes (paper stays black on white; support/looks.ts: the dark theme in
  // English in CI, the whole grid with SCREENS=all).
  for (const [language, theme] of looks({ tibetan: false })) {
    const context = await browser.newContext();
    const other = await context.newPage();
    await other.setViewportSize({ width: 1280, height: 1400 });
    await prefer(other, { language, theme });
    await signIn(other, 'rad1');
    await other.goto(`/studies/${examId}/reports/${reportId}/print`);
    await expect(other.locator('.print-preview [data-print-key-image] img')).toHaveCount(3);
    await expect.poll(() => other.locator('.print-preview [data-print-key-image] img').evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await shot(other, `print-keyimages-${theme}-${language}`);
    await context.close();
  }
});
