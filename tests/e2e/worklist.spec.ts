import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiAs } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * The worklist by keyboard only, as rad1 (and as admin for the export, which needs export_exams): quick filters
 * with digits, j to move, Enter to open, Back or Esc to return to the same row; `e` downloads the view as .xlsx.
 */

const DEMO_PASSWORD = 'Demo1234';

async function apiToken(page: Page, username: string): Promise<string> {
  const res = await page.request.post('/api/v1/accounts/login', { data: { username, password: DEMO_PASSWORD } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/**
 * Eight CT exams registered just now (examTime = now), so "CT today" has rows at any hour of the day. They are
 * made as the technician does, through study upload init, before any image arrives.
 */
async function registerCtExamsToday(page: Page, count: number, name = '键盘测试'): Promise<number[]> {
  const token = await apiToken(page, 'tech');
  const headers = { authorization: `Bearer ${token}` };
  const buckets = (await (await page.request.get('/api/v1/buckets/uploadable', { headers })).json()) as { id: number; code: string }[];
  const hospital = buckets.find((b) => b.code === 'CITY1-RAD') ?? buckets[0]!;
  const ids: number[] = [];
  const stamp = Date.now();
  for (let i = 0; i < count; i++) {
    const res = await page.request.post(`/api/v1/buckets/${hospital.id}/studies/upload`, {
      headers,
      data: {
        studyInstanceUid: `1.2.826.0.1.3680043.8.498.99.${stamp}.${i}`,
        patientName: `${name}${i}`,
        patientId: `KB${stamp % 100000}${i}`,
        modality: 'CT',
        bodyPart: '胸部',
        examTime: new Date(Date.now() - (count - i) * 1000).toISOString(),
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    ids.push(((await res.json()) as { exam: { id: number } }).exam.id);
  }
  return ids;
}

const focusedRow = (page: Page) => page.locator('[data-testid="worklist-grid"] [role="row"][data-focused]');
const renderedIds = (page: Page) =>
  page.locator('[data-testid="worklist-grid"] [data-exam-id]').evaluateAll((rows) =>
    rows
      .map((row) => ({ id: Number((row as HTMLElement).dataset.examId), index: Number(row.getAttribute('aria-rowindex')) }))
      .sort((a, b) => a.index - b.index)
      .map((r) => r.id),
  );

test.describe('worklist by keyboard', () => {
  test('filters to CT today with digits, opens the sixth row with Enter and comes back to the same row', async ({ page }) => {
    await registerCtExamsToday(page, 8);
    await signIn(page, 'rad1');
    await page.goto('/studies');
    await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();

    await page.keyboard.press('1');
    await page.keyboard.press('3');
    await expect(page).toHaveURL(/\/studies\?today=1&mod=ct$/);
    await expect(page.getByRole('button', { name: /CT/ }).first()).toHaveAttribute('aria-pressed', 'true');
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '2');

    for (let i = 0; i < 5; i++) await page.keyboard.press('j');
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '7');
    const examId = await focusedRow(page).getAttribute('data-exam-id');
    expect(examId).not.toBeNull();

    await page.keyboard.press('Enter');
    const workspace = new RegExp(`/studies/${examId}/reports/\\d+`);
    const drawer = new RegExp(`exam=${examId}`);
    await expect(page).toHaveURL((url) => workspace.test(url.href) || drawer.test(url.href));
    if (workspace.test(page.url())) {
      await page.goBack();
    } else {
      // A build without the report workspace opens the exam detail instead; Esc closes it.
      await expect(page.getByTestId('exam-drawer')).toBeVisible();
      await page.keyboard.press('Escape');
    }

    await expect(page).toHaveURL(/\/studies\?today=1&mod=ct$/);
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', examId!);
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '7');
    // The keys still act on the list: one more j moves on from the same row.
    await page.keyboard.press('j');
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '8');
  });

  test('comes back with Esc from the report workspace on the case it moved to with Alt+↓', async ({ page }) => {
    await registerCtExamsToday(page, 8);
    await signIn(page, 'rad1');
    await page.goto('/studies?today=1&mod=ct');
    await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '2');
    for (let i = 0; i < 2; i++) await page.keyboard.press('j');
    const ids = await renderedIds(page);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/studies/${ids[2]}/reports/\\d+`));
    // The workspace's keys exist once its editor is there.
    await expect(page.locator('[contenteditable="true"]').first()).toBeVisible();
    await page.keyboard.press('Alt+ArrowDown');
    await expect(page).toHaveURL(new RegExp(`/studies/${ids[3]}/reports/\\d+`));
    await expect(page.locator('[contenteditable="true"]').first()).toBeVisible();
    // The first Esc leaves the editor, the second leaves the workspace (the report screen's rule).
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/studies\?today=1&mod=ct$/);
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(ids[3]));
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '5');
  });

  test('Back and Forward restore the filters of the view', async ({ page }) => {
    await signIn(page, 'rad1');
    await page.goto('/studies');
    await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();
    await page.keyboard.press('4');
    await expect(page).toHaveURL(/mod=mr/);
    await page.keyboard.press('t');
    await expect(page).toHaveURL(/tab=mine&mod=mr/);
    await page.goBack();
    await expect(page).toHaveURL(/\/studies\?mod=mr$/);
    await expect(page.getByRole('tab', { name: /./ }).first()).toHaveAttribute('aria-selected', 'true');
    await page.goForward();
    await expect(page).toHaveURL(/tab=mine&mod=mr/);
    await expect(page.getByRole('tab').nth(1)).toHaveAttribute('aria-selected', 'true');
  });

  test('exports the view with e: the file holds exactly the rows of the list, in its order', async ({ page }) => {
    // A view of its own (other tests register CT exams today too): these three, found by their name.
    const name = `导出${Date.now() % 1_000_000}号`;
    await registerCtExamsToday(page, 3, name);
    await signIn(page, 'admin');
    await page.goto(`/studies?today=1&mod=ct&name=${encodeURIComponent(name)}`);
    const grid = page.locator('[data-testid="worklist-grid"]');
    await expect(grid).toBeFocused();
    await expect(page.locator('[data-exam-id]').first()).toBeVisible();
    const total = Number((await grid.getAttribute('aria-rowcount'))!) - 1;
    expect(total).toBe(3); // every row is rendered, so the screen's rows are the whole view
    const shown = await renderedIds(page);
    expect(shown).toHaveLength(total);

    const download = page.waitForEvent('download');
    await page.keyboard.press('e');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^exams-\d{8}-\d{4}\.xlsx$/);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readAll(await file.createReadStream())) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const ids: number[] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) ids.push(Number(row.getCell(1).value));
    });
    expect(ids).toEqual(shown);
  });
});

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

test.describe('the worklist says what it is sorted by and finds the next case one can report', () => {
  test('marks the exam-time column as the order (latest first) and flips it from its header', async ({ page }) => {
    await signIn(page, 'rad1');
    await page.goto('/studies');
    const header = page.locator('[data-testid="worklist-grid"] [role="columnheader"][aria-sort]');
    await expect(header).toHaveCount(1);
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(header).toContainText(/检查时间|Exam time/);
    await header.getByRole('button').click();
    await expect(page).toHaveURL(/sort=examTime\.asc/);
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
  });

  test('6 and 7 filter to unreported exams and to reports pending approval', async ({ page }) => {
    await signIn(page, 'rad1');
    await page.goto('/studies');
    await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();
    const statuses = () => page.locator('[data-testid="worklist-grid"] [data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));

    await page.keyboard.press('6');
    await expect(page).toHaveURL(/work=unreported/);
    await expect(page.locator('[data-testid="worklist-grid"] [data-status]').first()).toBeVisible();
    // Polled: the rows of the view before may still be on screen for a moment after the address changes.
    await expect.poll(async () => {
      const open = await statuses();
      return open.length > 0 && open.every((s) => !['final', 'corrected', 'printed'].includes(s ?? ''));
    }).toBe(true);

    await page.keyboard.press('7');
    await expect(page).toHaveURL(/work=pending/);
    await expect(page.locator('[data-testid="worklist-grid"] [data-status]').first()).toBeVisible();
    await expect.poll(async () => [...new Set(await statuses())]).toEqual(['final']);

    await page.keyboard.press('7');
    await expect(page).not.toHaveURL(/work=/);
  });

  test("n skips a case another radiologist is writing and stops on the next one this user can write", async ({ page }) => {
    const name = `下一例${Date.now() % 100000}`;
    const ids = await registerCtExamsToday(page, 4, name);
    // The list is latest exam first: ids[3], ids[2], ids[1], ids[0]. rad2 starts a draft on ids[2].
    const rad2 = await apiToken(page, 'rad2');
    const headers = { authorization: `Bearer ${rad2}` };
    const created = await page.request.post(`/api/v1/exams/${ids[2]}/reports`, { headers });
    expect(created.ok()).toBe(true);
    const report = (await created.json()) as { id: number; version: number };
    const saved = await page.request.post(`/api/v1/reports/${report.id}/save`, {
      headers, data: { version: report.version, finding: '<p>草稿。</p>', diagnosis: '<p>草稿。</p>' },
    });
    expect(saved.ok(), await saved.text()).toBe(true);

    await signIn(page, 'rad1');
    await page.goto(`/studies?today=1&mod=ct&name=${encodeURIComponent(name)}`);
    await expect(page.locator('[data-testid="worklist-grid"]')).toBeFocused();
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(ids[3]));
    await page.keyboard.press('n');
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(ids[1]));
    await page.keyboard.press('n');
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(ids[0]));
    await page.keyboard.press('n'); // round past the end, still past rad2's draft
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(ids[3]));
  });

  test('the default view holds what can be reported and says so; b shows the booked lines; n never stops on one', async ({ page }) => {
    // One patient at the registry desk: a CT performed today, and an MR booked three days ahead (latest exam time,
    // so it sorts first when shown). Found by the patient's name, so other tests' exams stay out of the view.
    const name = `预约${Date.now() % 1_000_000}`;
    const buckets = (await apiAs<{ id: number; code: string }[]>('tech', 'GET', 'buckets/uploadable')).body;
    const hospital = buckets.find((b) => b.code === 'CITY1-RAD')!.id;
    const hour = 3_600_000;
    const made = await apiAs<{ id: number; version: number; lines: { examId: number }[] }>('registrar', 'POST', 'registry', {
      bucketId: hospital,
      patient: { patientName: name, patientGender: 'F', patientSource: 'O', outpatientId: 'MZ0001', phone: '13800138000', age: 40, ageUnit: 'Y' },
      exams: [
        { modality: 'CT', bodyPart: '胸部', scheduledTime: new Date(Date.now() + hour).toISOString() },
        { modality: 'MR', bodyPart: '头颅', scheduledTime: new Date(Date.now() + 72 * hour).toISOString() },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [performed, booked] = made.body.lines.map((l) => l.examId) as [number, number];
    let version = made.body.version;
    for (const status of ['Arrived', 'Performed']) {
      const res = await apiAs<{ version: number }>('registrar', 'POST', 'exam/status', { examId: performed, status, version });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      version = res.body.version;
    }

    await prefer(page, { language: 'en' });
    await signIn(page, 'rad1');
    await page.goto(`/studies?name=${encodeURIComponent(name)}`);
    const grid = page.locator('[data-testid="worklist-grid"]');
    await expect(grid).toBeFocused();
    // By default: the performed exam only, and the count says what the list holds.
    await expect(grid.locator('[data-exam-id]')).toHaveCount(1);
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(performed));
    await expect(page.getByTestId('worklist-total')).toHaveText('1 to report (performed or with images)');

    // b: the booked line too, first (latest exam time); the chip is pressed and the count is of every exam.
    await page.keyboard.press('b');
    await expect(page).toHaveURL(/booked=1/);
    await expect(page.getByRole('button', { name: /Booked lines/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(grid.locator('[data-exam-id]')).toHaveCount(2);
    expect(await renderedIds(page)).toEqual([booked, performed]);
    await expect(page.getByTestId('worklist-total')).toHaveText('2 exams');

    // n from the performed exam goes round past the end to the booked line only if it counted as reportable: it does
    // not, so nothing else can be written and the focus stays.
    await page.keyboard.press('End');
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(performed));
    await page.keyboard.press('n');
    await expect(page.getByText('No exam in this list whose report you can write now')).toBeVisible();
    await expect(focusedRow(page)).toHaveAttribute('data-exam-id', String(performed));

    // b again: back to the default view.
    await page.keyboard.press('b');
    await expect(page).not.toHaveURL(/booked=/);
    await expect(grid.locator('[data-exam-id]')).toHaveCount(1);
  });
});
