import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM, type RegistryPage } from '../../contract/registry';
import { apiAs } from './support/reportApi';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The registry desk (areas §2 /registry, issue 10) as a registrar works it, by keyboard only: a patient with two
 * exams, found in the list, one checked in, two same-day labels printed (the PDF's pages are 80 × 50 mm and the
 * barcode reads back as the accession number), the check-in revoked and the earlier state back.
 */
const HOSPITAL = 1;
const OUT = '.tmp/screens';
const MM_TO_PT = 72 / 25.4;
const NAME = `键盘测试${Date.now() % 100000}`;

// The barcode reader's wasm comes from node_modules (no network here).
const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));

/** Tab until `target` has the focus (the keyboard's way there), failing after a form's worth of stops. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < 40; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

/** Page sizes in points, read from the PDF's MediaBox entries (Chromium writes them uncompressed). */
function pageSizes(pdf: Buffer): { width: number; height: number }[] {
  return [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/g)]
    .map((m) => ({ width: Number(m[1]), height: Number(m[2]) }));
}

async function linesOf(name: string) {
  const res = await apiAs<RegistryPage>('registrar', 'POST', `buckets/${HOSPITAL}/registry/query`, {
    filters: [{ field: 'search', operator: 'like', values: [name] }, { field: 'sourceScope', operator: 'equal', values: ['all'] }],
    skip: 0, limit: 10,
  });
  expect(res.status).toBe(200);
  return res.body.items;
}

// The label is read the way its printer makes it: a label printer's 203 dpi is about two device pixels per CSS pixel.
// At one, a Code 128 module of the 55 mm barcode is about 1.3 px wide and whether it reads depends on where the bars
// fall on the pixel grid (CI met an accession number that did not read; a 55 mm box read none of 150 at 1×, all at 2×).
test.describe('at print resolution', () => {
  test.use({ deviceScaleFactor: 2 });

test('a registrar registers two exams by keyboard, checks one in, prints two same-day labels and revokes the check-in', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await expect(page).toHaveURL(/\/registry/);
  const form = page.getByTestId('registry-form');
  await expect(form).toBeVisible();

  // Alt+N: a new patient, the name field in hand.
  await page.keyboard.press('Alt+KeyN');
  const name = form.getByRole('combobox', { name: /Name/ });
  await expect(name).toBeFocused();
  await page.keyboard.type(NAME);
  await page.keyboard.press('Tab');
  await page.keyboard.type('F'); // the sex select: Female
  await page.keyboard.press('Tab');
  await page.keyboard.type('46');
  await tabTo(page, form.getByLabel('Phone'));
  await page.keyboard.type('13800138000');
  // Outpatient (the default source) needs an outpatient number.
  await tabTo(page, form.getByLabel(/Outpatient no/));
  await page.keyboard.type('MZ2026E2E');

  // Exam 1: a CT step; Alt+A adds exam 2, a chest radiograph.
  const lines = form.getByTestId('exam-line');
  await tabTo(page, lines.nth(0).getByLabel('Procedure'));
  await page.keyboard.type('CT');
  await expect(lines.nth(0).getByLabel('Procedure')).not.toHaveValue('');
  await page.keyboard.press('Alt+KeyA');
  await expect(lines).toHaveCount(2);
  await tabTo(page, lines.nth(1).getByLabel('Procedure'));
  await page.keyboard.type('DR');
  await expect(lines.nth(1).getByLabel('Procedure')).not.toHaveValue('');

  // Enter saves from any field; the list shows both lines and the keyboard is on the first.
  await page.keyboard.press('Enter');
  const rows = page.locator('[data-testid=registry-table] tbody tr', { hasText: NAME });
  await expect(rows).toHaveCount(2);
  await expect(rows.and(page.locator(':focus'))).toHaveCount(1);
  await expect(form.getByRole('combobox', { name: /Name/ })).toHaveValue('');
  const saved = await linesOf(NAME);
  expect(saved.map((l) => l.status)).toEqual(['Registered', 'Registered']);

  // i checks the row in hand in.
  const focusedId = Number(await page.locator('tr:focus').getAttribute('data-exam-id'));
  await page.keyboard.press('i');
  const arrivedRow = page.locator(`tr[data-exam-id="${focusedId}"]`);
  await expect(arrivedRow).toHaveAttribute('data-status', 'Arrived');
  const arrived = (await linesOf(NAME)).find((l) => l.examId === focusedId)!;
  expect(arrived.arrivedTime).not.toBeNull();

  // Space chooses both lines for labels (the other is the next or the previous row), p prints them.
  const ids = await rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-exam-id'))));
  const otherId = ids.find((id) => id !== focusedId)!;
  await expect(arrivedRow).toBeFocused();
  await page.keyboard.press('Space');
  const order = await page.locator('[data-testid=registry-table] tbody tr').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-exam-id'))));
  await page.keyboard.press(order.indexOf(otherId) > order.indexOf(focusedId) ? 'j' : 'k');
  await expect(page.locator(`tr[data-exam-id="${otherId}"]`)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.locator('tr[aria-selected=true]')).toHaveCount(2);
  await page.keyboard.press('p');

  await expect(page).toHaveURL(/\/registry\/labels\?/);
  const labels = page.getByTestId('label');
  await expect(labels).toHaveCount(2);
  await expect(page.getByTestId('labels-print')).toBeFocused();
  await expect(page.locator('body')).not.toContainText(RAW_KEY);
  for (const id of [focusedId, otherId]) await expect(page.locator(`[data-testid=label][data-exam-id="${id}"]`)).toContainText(NAME);

  // The print: one 80 × 50 mm page per label.
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  const sizes = pageSizes(pdf);
  expect(sizes).toHaveLength(2);
  for (const size of sizes) {
    expect(Math.abs(size.width - LABEL_WIDTH_MM * MM_TO_PT)).toBeLessThan(1.5);
    expect(Math.abs(size.height - LABEL_HEIGHT_MM * MM_TO_PT)).toBeLessThan(1.5);
  }

  // The barcode reads back as the accession number.
  await prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
  const accession = saved.find((l) => l.examId === focusedId)!.accessionNumber;
  const barcode = page.locator(`[data-testid=label][data-exam-id="${focusedId}"] svg[data-barcode] rect`).first();
  await expect(barcode).toBeAttached();
  const shot = await page.locator(`[data-testid=label][data-exam-id="${focusedId}"] svg[data-barcode]`).screenshot({ scale: 'device' });
  const read = await readBarcodes(new Uint8Array(shot), { formats: ['Code128'], tryHarder: true });
  expect(read.map((r) => r.text)).toContain(accession);

  // Esc back to the desk; the arrived line's check-in is revoked with u.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/registry(\?|$)/);
  await expect(rows).toHaveCount(2);
  await page.keyboard.press('Alt+KeyL');
  const target = page.locator(`tr[data-exam-id="${focusedId}"]`);
  for (let i = 0; i < 12 && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('j');
  await expect(target).toBeFocused();
  await page.keyboard.press('u');
  await expect(target).toHaveAttribute('data-status', 'Registered');
  const after = (await linesOf(NAME)).find((l) => l.examId === focusedId)!;
  expect(after.status).toBe('Registered');
  expect(after.arrivedTime).toBeNull();
});
});

test('labels of exams on different days are refused with a clear message', async ({ page }) => {
  // Two lines of one patient, today and tomorrow, made through the API as another desk would.
  const setup = await apiAs<{ steps: { id: number }[]; timeZone: string }>('registrar', 'GET', `buckets/${HOSPITAL}/registry/setup`);
  expect(setup.status).toBe(200);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000 + 3_600_000);
  const name = `两天标签${Date.now() % 100000}`;
  const created = await apiAs<{ lines: { examId: number }[] }>('registrar', 'POST', 'registry', {
    bucketId: HOSPITAL,
    patient: { patientName: name, patientGender: 'M', patientSource: 'P', physicalExamId: 'TJ-E2E-1' },
    exams: [{ procedureStepId: setup.body.steps[0]!.id, scheduledTime: day(0).toISOString() }, { procedureStepId: setup.body.steps[1]!.id, scheduledTime: day(1).toISOString() }],
  });
  expect(created.status).toBe(200);
  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await page.goto(`/registry/labels?bucketId=${HOSPITAL}&examIds=${created.body.lines.map((l) => l.examId).join(',')}`);
  await expect(page.getByText(/Labels print together only for exams on the same day/)).toBeVisible();
  await expect(page.getByTestId('labels-print')).toBeDisabled();
  await expect(page.getByTestId('label')).toHaveCount(0);
});

for (const [language, theme] of looks()) {
  test(`registry screens in ${language}, ${theme}`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await prefer(page, { language, theme });
    await signIn(page, 'registrar');
    await expect(page).toHaveURL(/\/registry/);
    const rows = page.locator('[data-testid=registry-table] tbody tr');
    await expect(rows.first()).toBeVisible();
    await page.keyboard.press('Alt+KeyL');
    await page.keyboard.press('j');
    await expect(page.getByTestId('patient-history')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.screenshot({ path: `${OUT}/registry-${language}-${theme}.png` });
    // The form with its errors shown (Enter on an empty form).
    await page.keyboard.press('Alt+KeyN');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('registry-form').locator('[aria-invalid=true]').first()).toBeVisible();
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.screenshot({ path: `${OUT}/registry-form-errors-${language}-${theme}.png` });
    // A label sheet of the first line.
    const first = await rows.first().getAttribute('data-exam-id');
    await page.goto(`/registry/labels?bucketId=${HOSPITAL}&examIds=${first}`);
    await expect(page.getByTestId('label')).toHaveCount(1);
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.screenshot({ path: `${OUT}/registry-label-${language}-${theme}.png` });
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
}
