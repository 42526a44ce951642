import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { prefer, RAW_KEY, signIn } from './support/session';
import { apiAs, freshCase } from './support/reportApi';

const OUT = process.env.SHOTS_DIR ?? '.tmp/screens';

/**
 * Issue 32, the expert request's journey to its end, by keyboard on both sides: rad1 asks the expert centre (Space
 * picks, A agrees, Ctrl+Enter submits) and pays by QR in the sandbox (the phone's page: Enter pays); the order says
 * it waits for an expert. The expert opens the copy from the worklist (J, Enter), writes, saves (Ctrl+S) and submits
 * (Ctrl+Enter): the demo centre issues on submit, so the report is approved by its writer. rad1 reads it on the order
 * page, approved by the expert. Asking the same centre again is refused in the form, which links the open request.
 * Screenshots of the order page and the apply form in Chinese and English.
 */

interface Order { id: number; paymentStatus: number; targets: { expertExamId: number | null }[] }

/** No untranslated key on screen (the rendered text: texts that end and start with words would join in textContent). */
async function noRawKeys(page: Page) {
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
}

const editorOf = (page: Page, field: 'finding' | 'diagnosis') => page.locator(`.report-editor[data-field="${field}"]`);

test('rad1 pays, the expert writes and submits, rad1 reads the issued report; the same centre is not asked twice', async ({ page, browser }) => {
  test.setTimeout(240_000);
  mkdirSync(OUT, { recursive: true });
  const { examId } = await freshCase('rad1');
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');

  // The application, by keyboard: the list has the focus.
  await page.goto(`/${examId}/apply-report`);
  await expect(page.getByTestId('apply-targets')).toBeFocused();
  const centre = page.getByTestId('apply-target').filter({ hasText: '远程影像专家中心' });
  await expect(centre).toHaveAttribute('data-active', 'true');
  await page.keyboard.press('Space');
  await expect(centre).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('a');
  await expect(page.getByTestId('apply-agree')).toBeChecked();
  const total = (await page.getByTestId('apply-total').innerText()).trim();
  await page.keyboard.press('Control+Enter');

  // The order page: Q opens the QR; the payer's phone pays with Enter.
  await expect(page).toHaveURL(new RegExp(`/${examId}/apply-report/\\d+\\?type=expert$`));
  const orderUrl = new URL(page.url());
  const orderId = Number(orderUrl.pathname.split('/').at(-1));
  await expect(page.getByTestId('payment-order')).toBeVisible();
  await page.keyboard.press('q');
  await expect(page).toHaveURL(new RegExp(`/charge/${orderId}$`));
  const codeUrl = await page.getByTestId('charge-link').getAttribute('href');
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await prefer(phone, { language: 'en' });
  await phone.goto(codeUrl!);
  await expect(phone.getByRole('button', { name: `Pay ${total}` })).toBeFocused();
  await phone.keyboard.press('Enter');
  await expect(phone.getByText('Paid', { exact: true })).toBeVisible();
  await phoneContext.close();
  await expect(page.getByTestId('charge-page')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });

  // Paid: the order says what it waits for.
  await page.goto(orderUrl.pathname + orderUrl.search);
  await expect(page.getByTestId('order-waiting')).toHaveText('Waiting for an expert to start the report.');
  await noRawKeys(page);
  const paid = await apiAs<Order>('rad1', 'GET', `report-requests/${orderId}`);
  const copyId = paid.body.targets[0]!.expertExamId!;
  expect(copyId).not.toBeNull();

  // The expert, by keyboard: the worklist's expert origin narrowed to the patient, J to the row, Enter opens it.
  const expertContext = await browser.newContext();
  const expert = await expertContext.newPage();
  await prefer(expert, { language: 'en' });
  await signIn(expert, 'expert');
  const exam = await apiAs<{ exam: { patientId: string } }>('rad1', 'GET', `exams/${examId}/detail`);
  await expert.goto(`/studies?origin=expert&pid=${encodeURIComponent(exam.body.exam.patientId)}`);
  const row = expert.locator(`[role=row][data-exam-id="${copyId}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expert.locator('body').press('j');
  await expect(row).toHaveAttribute('data-focused', /.*/);
  await expert.keyboard.press('Enter');
  await expect(editorOf(expert, 'finding')).toBeFocused({ timeout: 30_000 });
  await expert.keyboard.type('双肺纹理清晰，未见结节。');
  await expert.keyboard.press('Tab');
  await expect(editorOf(expert, 'diagnosis')).toBeFocused();
  await expert.keyboard.type('胸部CT未见异常。');
  await expert.keyboard.press('Control+s');
  await expect(expert.locator('[data-save-state]')).toHaveAttribute('data-save-state', 'saved');
  await expert.keyboard.press('Control+Enter');
  // Issued on submit: approved, with nothing left to withdraw.
  await expect(expert.locator('[data-status="corrected"]')).toBeVisible();
  await expect(expert.locator('[data-action="cancelSubmit"]')).toHaveCount(0);
  await expertContext.close();

  // rad1 reads the expert's report, approved by the expert.
  await page.reload();
  const report = page.getByTestId('expert-report');
  await expect(report).toContainText('双肺纹理清晰，未见结节。');
  await expect(report).toContainText('胸部CT未见异常。');
  await expect(report).toContainText('Approved by 刘志远');
  await expect(page.locator('[data-progress="reported"]').first()).toBeVisible();
  await expect(page.getByTestId('order-waiting')).toHaveCount(0);
  await page.screenshot({ path: `${OUT}/payments-journey-order-en.png`, fullPage: true });

  // Asking the centre again about this exam: the form marks it, refuses it and links the open request.
  await page.goto(`/${examId}/apply-report`);
  await expect(page.getByTestId('apply-targets')).toBeFocused();
  await expect(centre.getByTestId('apply-target-open')).toHaveText('Already asked');
  await expect(page.getByTestId('apply-open-orders')).toContainText('already has an open request with 远程影像专家中心');
  await page.keyboard.press('Space');
  await expect(centre).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByTestId('apply-problem')).toContainText('already has an open request');
  await expect(page.getByTestId('apply-problem-order')).toHaveAttribute('href', `/${examId}/apply-report/${orderId}?type=expert`);
  await page.screenshot({ path: `${OUT}/payments-journey-apply-en.png`, fullPage: true });

  // The same screens in Chinese.
  await prefer(page, { language: 'chs' });
  await page.reload();
  await expect(page.getByTestId('apply-open-orders')).toContainText('此检查已向远程影像专家中心申请');
  await noRawKeys(page);
  await page.screenshot({ path: `${OUT}/payments-journey-apply-chs.png`, fullPage: true });
  await page.goto(orderUrl.pathname + orderUrl.search);
  await expect(page.getByTestId('expert-report')).toContainText('审核：刘志远');
  await noRawKeys(page);
  await page.screenshot({ path: `${OUT}/payments-journey-order-chs.png`, fullPage: true });
});

test('an exam with nothing to read yet (a booked registry line) is not sold: the form says why and will not submit', async ({ page }) => {
  // The demo's registry desk books lines without images; the server names the first one it refuses.
  const list = await apiAs<{ items: { id: number }[] }>('rad1', 'POST', 'exams/page-query', {
    filters: [{ field: 'hasImage', operator: 'equal', values: [false] }, { field: 'bucketId', operator: 'equal', values: [1] }],
    skip: 0, limit: 100, sorts: [{ field: 'created', direction: 'desc' }],
  });
  let booked: number | null = null;
  let centreId = 0;
  for (const exam of list.body.items) {
    const products = await apiAs<{ blockedBy: string | null; products: { bucketId: number }[] }>('rad1', 'GET', `report-requests/products?examId=${exam.id}&type=expert`);
    if (products.body.blockedBy === 'ExamNotReportable') {
      booked = exam.id;
      centreId = products.body.products[0]!.bucketId;
      break;
    }
  }
  expect(booked).not.toBeNull();
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto(`/${booked}/apply-report`);
  await expect(page.getByText('The exam has nothing to read yet: it was not performed and has no images')).toBeVisible();
  await expect(page.getByTestId('apply-submit')).toBeDisabled();
  await page.keyboard.press('Space');
  await page.keyboard.press('a');
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(new RegExp(`/${booked}/apply-report$`));
  await page.screenshot({ path: `${OUT}/payments-journey-apply-booked-en.png`, fullPage: true });
  const refused = await apiAs<{ code: string }>('rad1', 'POST', 'report-requests/apply', { examId: booked, type: 'expert', bucketIds: [centreId], agreeTerms: true });
  expect(refused.body.code).toBe('ExamNotReportable');
});
