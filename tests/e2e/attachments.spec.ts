import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { apiAs, apiBase as base, freshCase, openWorkspace, reportAs } from './support/reportApi';
import { looks } from './support/looks';
import { openPalette, runFromPalette } from './support/palette';
import { DEMO_PASSWORD, prefer, RAW_KEY, signIn } from './support/session';
import { dismissToasts } from './support/toasts';

/**
 * A report's attachments from the workspace's side tab: a technician (every attachment action) opens the tab from
 * the palette, adds a picture and a PDF by keyboard, opens one, deletes one after the confirm dialog, and hands out
 * an upload code that a stranger uses without an account; a radiologist (no attachment action) sees the files of an
 * approved report and no control. Screens of the panel go to .tmp/screens/ in Chinese light and English dark.
 */
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

test.describe.configure({ mode: 'serial' });

const HOSPITAL = 1;

/** A real 1×1 PNG and a small real PDF: the server checks the bytes, not the names. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from([
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
  'trailer << /Root 1 0 R >>',
  '%%EOF',
].join('\n'));

interface Attachment { id: number; name: string; contentType: string; size: number; createdBy: number | null }
interface ExamRow { id: number; reportId: number | null }

/** Adds a file to a report through the API as `username` (bearer, form data), for tests that start from files. */
async function attachAs(username: string, reportId: number, name: string, bytes: Buffer, type: string) {
  const login = await fetch(`${base()}accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${base()}reports/${reportId}/upload-attachments`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: form });
  expect(res.status).toBe(201);
}

/** An approved report of the hospital that no other test has given attachments. */
async function approvedWithoutAttachments(skip: number): Promise<{ examId: number; reportId: number }> {
  const page = await apiAs<{ items: ExamRow[] }>('rad1', 'POST', 'exams/page-query', {
    filters: [{ field: 'reportStatus', values: ['corrected'], operator: 'equal' }, { field: 'bucketId', values: [HOSPITAL], operator: 'equal' }],
    skip: 0, limit: 60, sorts: [{ field: 'examTime', direction: 'asc' }, { field: 'id', direction: 'asc' }],
  });
  let seen = 0;
  for (const exam of page.body.items) {
    if (exam.reportId === null) continue;
    const listed = await apiAs<Attachment[]>('rad1', 'GET', `reports/${exam.reportId}/attachments`);
    if (listed.body.length === 0 && seen++ >= skip) return { examId: exam.id, reportId: exam.reportId };
  }
  throw new Error('no approved report without attachments left in the demo data');
}

/** Page errors and console errors, collected for the end of a test: none is allowed. */
function watch(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

async function noRawKeys(locator: Locator) {
  expect(await locator.innerText()).not.toMatch(RAW_KEY);
}

const panelOf = (page: Page) => page.getByTestId('attachments-panel');
const rowOf = (panel: Locator, name: string) => panel.locator('[data-attachment]').filter({ hasText: name });

let draft: { examId: number; reportId: number; path: string };

test('a technician adds, opens and deletes attachments, and hands out an upload code a stranger uses', async ({ page, browser }) => {
  const errors = watch(page);
  draft = await freshCase('rad1');
  await prefer(page, { language: 'en' });
  await signIn(page, 'tech');
  await openWorkspace(page, draft.path);

  await runFromPalette(page, 'attach', /^Attachments…/);
  await expect(page.getByRole('tab', { name: 'Attachments' })).toHaveAttribute('aria-selected', 'true');
  const panel = panelOf(page);
  await expect(panel.getByText('No attachments yet')).toBeVisible();
  await expect(panel.getByTestId('attachment-limits')).toHaveText('PDF, PNG, JPG, WEBP, up to 20.0 MB each');

  // Enter on the focused "Add files…" opens the file chooser: a picture and a PDF at once.
  const add = panel.getByRole('button', { name: 'Add files…' });
  await expect(add).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles([
    { name: 'wound photo.png', mimeType: 'image/png', buffer: PNG },
    { name: 'referral letter.pdf', mimeType: 'application/pdf', buffer: PDF },
  ]);
  await expect(panel.locator('[data-attachment]')).toHaveCount(2);
  await expect(panel.getByTestId('attachment-count')).toHaveText('2');
  await expect(rowOf(panel, 'wound photo.png')).toContainText(`PNG·${PNG.length} B·`);
  await expect(rowOf(panel, 'referral letter.pdf')).toContainText(`PDF·${PDF.length} B·`);
  await expect(panel.getByTestId('attachment-uploads')).toHaveCount(0);
  const stored = await apiAs<Attachment[]>('tech', 'GET', `reports/${draft.reportId}/attachments`);
  expect(stored.body.map((a) => [a.name, a.contentType, a.size])).toEqual([
    ['wound photo.png', 'image/png', PNG.length],
    ['referral letter.pdf', 'application/pdf', PDF.length],
  ]);

  // A file the server would refuse says why at once; it is not sent and the list stays as it was.
  const chooser2 = page.waitForEvent('filechooser');
  await add.press('Enter');
  await (await chooser2).setFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') }]);
  const refused = panel.locator('[data-upload="notes.txt"]');
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await expect(refused).toContainText('This type of file is not accepted here');
  await refused.getByRole('button', { name: 'Remove notes.txt from this list' }).click();
  await expect(refused).toHaveCount(0);
  expect((await apiAs<Attachment[]>('tech', 'GET', `reports/${draft.reportId}/attachments`)).body).toHaveLength(2);

  // Opening asks for a signed link and sends a new tab to it: the file itself, answered 200 (the server names it for
  // saving, so the browser keeps it as a download with its name).
  const answer = page.context().waitForEvent('response', (res) => res.url().includes('/api/v1/files?token='));
  // The new tab may start its download at once: its listener is attached in the popup event itself, before anything
  // else of that tab is handled.
  const opened = new Promise<{ tab: Page; download: Promise<Download> }>((resolve) => {
    page.once('popup', (tab) => resolve({ tab, download: tab.waitForEvent('download') }));
  });
  await rowOf(panel, 'referral letter.pdf').getByRole('button', { name: 'referral letter.pdf', exact: true }).focus();
  await page.keyboard.press('Enter');
  const { tab, download } = await opened;
  const file = await answer;
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toContain('application/pdf');
  expect(file.headers()['content-disposition']).toContain('referral letter.pdf');
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('referral letter.pdf');
  expect(readFileSync(await saved.path()).equals(PDF)).toBe(true);
  if (!tab.isClosed()) await tab.close();

  // Delete asks first with the focus on Cancel: Tab to Delete, Enter.
  await rowOf(panel, 'wound photo.png').getByRole('button', { name: 'Delete wound photo.png' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete this attachment?' });
  await expect(confirm).toContainText('wound photo.png will be removed from the report for everyone.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await noRawKeys(confirm);
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Attachment wound photo.png deleted')).toBeVisible();
  await expect(panel.locator('[data-attachment]')).toHaveCount(1);
  await expect(rowOf(panel, 'wound photo.png')).toHaveCount(0);
  expect((await apiAs<Attachment[]>('tech', 'GET', `reports/${draft.reportId}/attachments`)).body.map((a) => a.name)).toEqual(['referral letter.pdf']);

  // An upload code: the hours are checked here first, then the code comes with its link, QR code and expiry.
  const code = panel.getByTestId('upload-code');
  const hours = code.locator('input[name=ttlHours]');
  await expect(hours).toHaveValue('72');
  await hours.fill('721');
  await hours.press('Enter');
  await expect(code.getByText('Enter a whole number of hours from 1 to 720')).toBeVisible();
  await expect(code.getByTestId('upload-code-made')).toHaveCount(0);
  await hours.fill('2');
  await hours.press('Enter');
  const made = code.getByTestId('upload-code-made');
  await expect(made).toBeVisible();
  const url = await made.getByTestId('upload-code-url').inputValue();
  const value = (await made.getByTestId('upload-code-value').innerText()).trim();
  expect(url).toBe(`${new URL(page.url()).origin}/attachments/upload?code=${value}`);
  await expect(made.getByTestId('qr-code').locator('img')).toBeVisible();
  await expect(made.getByRole('button', { name: 'Copy the upload link' })).toBeFocused();
  const until = new Date(Date.now() + 2 * 3_600_000);
  const day = `${until.getFullYear()}-${String(until.getMonth() + 1).padStart(2, '0')}-${String(until.getDate()).padStart(2, '0')}`;
  await expect(made.getByTestId('upload-code-expiry')).toContainText(`Valid until ${day} `);
  await noRawKeys(panel);

  // Someone without an account opens the link in a browser of their own and adds a file.
  const context = await browser.newContext();
  const stranger = await context.newPage();
  await prefer(stranger, { language: 'en' });
  await stranger.goto(url);
  await expect(stranger.getByText('Drop PDF files or pictures here')).toBeVisible();
  await stranger.locator('input[type=file]').setInputFiles([{ name: 'letter from outside.pdf', mimeType: 'application/pdf', buffer: PDF }]);
  await expect(stranger.getByText('Uploaded')).toBeVisible();
  await context.close();

  // Refreshing the list shows it, marked as come through a code.
  await panel.getByRole('button', { name: 'Refresh' }).click();
  await expect(rowOf(panel, 'letter from outside.pdf')).toContainText('via upload code');
  await expect(panel.getByTestId('attachment-count')).toHaveText('2');
  await noRawKeys(panel);
  expect(errors).toEqual([]);
});

test('a radiologist without attachment actions sees the files of an approved report and no control', async ({ page }) => {
  const errors = watch(page);
  const approved = await approvedWithoutAttachments(0);
  await attachAs('tech', approved.reportId, 'prior CT findings.pdf', PDF, 'application/pdf');
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await openWorkspace(page, `/studies/${approved.examId}/reports/${approved.reportId}`);

  await runFromPalette(page, 'attach', /^Attachments…/);
  const panel = panelOf(page);
  await expect(rowOf(panel, 'prior CT findings.pdf')).toContainText('PDF·');
  await expect(panel.getByTestId('attachment-count')).toHaveText('1');
  // The name is plain text (no attachment_presigned_url), and nothing adds, deletes or hands out a code.
  await expect(panel.getByRole('button', { name: 'prior CT findings.pdf', exact: true })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^Add files/ })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(panel.getByTestId('upload-code')).toHaveCount(0);
  await expect(panel.getByTestId('attachment-input')).toHaveCount(0);
  await noRawKeys(panel);
  expect(errors).toEqual([]);
});

test('a deleted report (opened to recover it) offers neither the tab nor the command', async ({ page }) => {
  // The server lists no attachments of a deleted report (404 until it is recovered).
  const doomed = await freshCase('rad1');
  const { version } = await reportAs('rad1', doomed.reportId);
  expect((await apiAs('rad1', 'POST', `reports/${doomed.reportId}/delete`, { version })).status).toBe(200);
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await openWorkspace(page, doomed.path);
  await expect(page.locator('[data-banner="deleted"]')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Attachments' })).toHaveCount(0);
  const palette = await openPalette(page);
  await page.keyboard.type('attach');
  await expect(palette.getByRole('option', { name: /^Attachments…/ })).toHaveCount(0);
});

for (const [language, theme] of looks({ tibetan: false })) {
  test(`the attachments panel looks right (${language}, ${theme})`, async ({ page }) => {
    const errors = watch(page);
    await prefer(page, { language, theme });
    await signIn(page, 'tech');
    await openWorkspace(page, draft.path);
    await runFromPalette(page, 'attachment', language === 'en' ? /^Attachments…/ : /^附件…/);
    const panel = panelOf(page);
    await expect(panel.locator('[data-attachment]')).toHaveCount(2);
    // A refused file and a fresh upload code, so every part of the panel is on the screen.
    const chooser = page.waitForEvent('filechooser');
    await panel.locator('[data-attachments-start]').press('Enter');
    await (await chooser).setFiles([{ name: 'photo of a very long referral letter from another hospital.txt', mimeType: 'text/plain', buffer: Buffer.from('text') }]);
    await expect(panel.locator('[data-upload][data-state="failed"]')).toBeVisible();
    await panel.locator('input[name=ttlHours]').press('Enter');
    await expect(panel.getByTestId('upload-code-made').getByTestId('qr-code').locator('img')).toBeVisible();
    await dismissToasts(page);
    await noRawKeys(panel);
    // The side tabs and the panel, whole: a window tall enough that nothing sticky lies over them.
    await page.setViewportSize({ width: 1280, height: 2000 });
    await panel.locator('xpath=ancestor::*[@role="tabpanel"]/..').screenshot({ path: `${OUT}/report-attachments-${theme}-${language}.png` });
    expect(errors).toEqual([]);
  });
}
