import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { DEMO_PASSWORD, prefer, RAW_KEY, signIn } from './support/session';
import { apiAs, freshCase, openWorkspace } from './support/reportApi';

const OUT = process.env.SHOTS_DIR ?? '.tmp/screens';

/**
 * An expert report, paid by QR code in the sandbox, end to end (issue 13): rad1 asks the expert centre from the report
 * workspace by keyboard (Alt+Shift+E; Space picks, A agrees, Ctrl+Enter submits), pays on the charge page by scanning —
 * the sandbox's confirmation page opened from the QR's address in a browser of its own —, the charge page turns paid;
 * the expert finds the copy in the worklist's expert origin, writes and submits it — the demo centre issues on submit
 * (one expert, nobody to approve: docs/report-lifecycle.md "Final on submit") —; rad1 reads it
 * on the order page; the chief refunds it from the order list and the expert's report is gone. English texts keep the
 * assertions readable.
 */

interface Target { bucketId: number; expertExamId: number | null; report: { id: number } | null }
interface Order { id: number; requestNo: string; paymentStatus: number; progress: string; channel: string | null; targets: Target[] }

const editorOf = (page: Page, field: 'finding' | 'diagnosis') => page.locator(`.report-editor[data-field="${field}"]`);

test('rad1 asks an expert, pays by QR in the sandbox; the expert reports; rad1 reads it; the chief refunds and the report is gone', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const { examId, path } = await freshCase('rad1');
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await openWorkspace(page, path);

  // Alt+Shift+E from the workspace opens the application for this exam.
  await page.keyboard.press('Alt+Shift+E');
  await expect(page).toHaveURL(new RegExp(`/${examId}/apply-report$`));
  const targets = page.getByTestId('apply-targets');
  await expect(targets).toBeFocused();
  await expect(page.getByTestId('apply-terms')).toContainText('chosen expert organisations');
  // Submitting without a choice and without the terms is refused before asking the server.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('apply-problem')).toHaveText('Choose at least one expert organisation.');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('apply-target').first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('apply-problem')).not.toHaveText('');
  await page.keyboard.press('a');
  await expect(page.getByTestId('apply-agree')).toBeChecked();
  const total = (await page.getByTestId('apply-total').innerText()).trim();
  expect(total).toMatch(/^¥\d+\.\d\d$/);
  await page.keyboard.press('Control+Enter');

  // The order page: unpaid, the amount as chosen; Q pays by QR.
  await expect(page).toHaveURL(new RegExp(`/${examId}/apply-report/\\d+\\?type=expert$`));
  const orderUrl = new URL(page.url());
  const orderId = Number(orderUrl.pathname.split('/').at(-1));
  await expect(page.getByTestId('payment-order')).toBeVisible();
  await expect(page.getByTestId('order-amount')).toHaveText(total);
  await expect(page.locator('[data-payment="unpaid"]').first()).toBeVisible();
  await page.keyboard.press('q');
  await expect(page).toHaveURL(new RegExp(`/charge/${orderId}$`));
  const charge = page.getByTestId('charge-page');
  await expect(charge).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('qr-code').locator('img')).toBeVisible();
  await expect(page.getByTestId('charge-countdown')).toHaveText(/Expires in \d+:\d\d/);
  const codeUrl = await page.getByTestId('charge-link').getAttribute('href');
  expect(codeUrl).toContain('/sandbox-pay/');

  // The payer's phone: the sandbox confirmation page in a browser of its own, nobody signed in.
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await prefer(phone, { language: 'en' });
  await phone.goto(codeUrl!);
  const pay = phone.getByRole('button', { name: `Pay ${total}` });
  await expect(pay).toBeFocused();
  await phone.keyboard.press('Enter');
  await expect(phone.getByText('Paid', { exact: true })).toBeVisible();

  // The charge page hears it on its next poll.
  await expect(charge).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  await expect(page.getByTestId('charge-paid')).toContainText('Paid');
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: `${OUT}/payments-charge-paid-en-light.png` });
  await phoneContext.close();
  const paid = await apiAs<Order>('rad1', 'GET', `report-requests/${orderId}`);
  expect(paid.body.paymentStatus).toBe(1);
  expect(paid.body.channel).toBe('weixin');
  const copyId = paid.body.targets[0]!.expertExamId;
  expect(copyId).not.toBeNull();

  // The expert finds the copy in the worklist's expert origin, writes and submits it by keyboard: issued at once.
  const expertContext = await browser.newContext();
  const expert = await expertContext.newPage();
  await prefer(expert, { language: 'en' });
  await signIn(expert, 'expert');
  await expect(expert).toHaveURL(/\/studies/);
  // The worklist's expert origin, narrowed to the patient (the centre has many requests): a view address.
  const exam = await apiAs<{ exam: { patientId: string } }>('rad1', 'GET', `exams/${examId}/detail`);
  await expert.goto(`/studies?origin=expert&pid=${encodeURIComponent(exam.body.exam.patientId)}`);
  await expect(expert.getByLabel('Report origin')).toHaveValue('expert');
  const row = expert.locator(`[role=row][data-exam-id="${copyId}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.click();
  await expect(row).toHaveAttribute('data-focused', /.*/);
  await expert.keyboard.press('Enter');
  await expect(expert.locator('[data-report-workspace]')).toBeVisible();
  await expect(editorOf(expert, 'finding')).toBeFocused({ timeout: 30_000 });
  await expert.keyboard.type('双肺纹理清晰，未见结节。');
  await editorOf(expert, 'diagnosis').click();
  await expert.keyboard.type('胸部CT未见异常。');
  await expert.keyboard.press('Control+s');
  await expect(expert.locator('[data-save-state]')).toHaveAttribute('data-save-state', 'saved');
  await expert.keyboard.press('Control+Enter');
  await expect(expert.locator('[data-status="corrected"]')).toBeVisible();
  await expertContext.close();

  // rad1 reads the expert's report on the order page.
  await page.goto(orderUrl.pathname + orderUrl.search);
  const report = page.getByTestId('expert-report');
  await expect(report).toContainText('双肺纹理清晰，未见结节。');
  await expect(report).toContainText('胸部CT未见异常。');
  await expect(page.locator('[data-progress="reported"]').first()).toBeVisible();
  await page.screenshot({ path: `${OUT}/payments-order-reported-en-light.png`, fullPage: true });

  // The chief refunds it from the order list (r, a reason, Ctrl+Enter): the money goes back, the report is gone.
  const chiefContext = await browser.newContext();
  const chief = await chiefContext.newPage();
  await prefer(chief, { language: 'en' });
  await signIn(chief, 'chief');
  await chief.goto('/orders');
  const orderRow = chief.locator(`[data-order-id="${orderId}"]`);
  await expect(orderRow).toBeVisible({ timeout: 30_000 });
  await orderRow.click();
  await chief.keyboard.press('r');
  await expect(chief.getByTestId('refund-dialog')).toBeVisible();
  await chief.getByTestId('refund-reason').fill('Asked by mistake; the patient went elsewhere.');
  await chief.getByTestId('refund-reason').press('Control+Enter');
  await expect(chief.getByTestId('refund-dialog')).toBeHidden({ timeout: 20_000 });
  await chiefContext.close();

  await expect.poll(async () => (await apiAs<Order>('rad1', 'GET', `report-requests/${orderId}`)).body.paymentStatus, { timeout: 20_000 }).toBe(3);
  const refunded = await apiAs<Order>('rad1', 'GET', `report-requests/${orderId}`);
  expect(refunded.body.targets.every((t) => t.report === null && t.expertExamId === null)).toBe(true);
  // The copy the expert wrote on is gone with its report.
  expect((await apiAs('expert', 'GET', `exams/${copyId}/detail`)).status).toBe(404);
  await page.reload();
  await expect(page.locator('[data-payment="refunded"]').first()).toBeVisible();
  await expect(page.getByTestId('expert-report')).toHaveCount(0);
});

/** An unpaid application of a fresh exam to the first paid expert organisation, as rad1 (for the looks). */
async function unpaidApplication(): Promise<{ examId: number; id: number }> {
  const { examId } = await freshCase('rad1');
  const products = await apiAs<{ products: { bucketId: number; free: boolean }[] }>('rad1', 'GET', `report-requests/products?examId=${examId}&type=expert`);
  const paid = products.body.products.find((p) => !p.free)!;
  const applied = await apiAs<{ id: number }>('rad1', 'POST', 'report-requests/apply', { examId, type: 'expert', bucketIds: [paid.bucketId], agreeTerms: true });
  expect(applied.status).toBe(201);
  return { examId, id: applied.body.id };
}

test('credit: B asks the password once (the charge token stays in the tab), pays, and the next pays without asking; signed out, the order page asks to sign in', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const first = await unpaidApplication();
  const second = await unpaidApplication();
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto(`/${first.examId}/apply-report/${first.id}?type=expert`);
  await expect(page.getByTestId('pay-credit')).toBeEnabled();
  await page.keyboard.press('b');
  const dialog = page.getByTestId('credit-password');
  await expect(page.getByTestId('credit-password-input')).toBeFocused();
  // A wrong password is refused in the dialog (counted by the login throttle on the server).
  await page.keyboard.type('not-the-password');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).not.toBeEmpty();
  await page.getByTestId('credit-password-input').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-payment="paid"]').first()).toBeVisible();
  await expect(page.getByTestId('payment-order')).toContainText('Credit');
  expect(await page.evaluate(() => sessionStorage.getItem('charge-access-token'))).not.toBeNull();

  await page.goto(`/${second.examId}/apply-report/${second.id}?type=expert`);
  await expect(page.getByTestId('pay-credit')).toBeEnabled();
  await page.keyboard.press('b');
  await expect(page.locator('[data-payment="paid"]').first()).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await prefer(stranger, { language: 'en' });
  await stranger.goto(`/charge/${second.id}`);
  const prompt = stranger.getByTestId('payments-sign-in');
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/login?redirect=${encodeURIComponent(`/charge/${second.id}`)}`);
  await strangerContext.close();
});

/** No untranslated key on screen (the rendered text: the terms' paragraphs end and start with words that would join). */
async function noRawKeys(page: Page) {
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
}

for (const [language, theme] of looks({ tibetan: false })) {
  test(`apply, order and charge screens in ${language}, ${theme}`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    const { examId } = await freshCase('rad1');
    const order = await unpaidApplication();
    await prefer(page, { language, theme });
    await signIn(page, 'rad1');

    await page.goto(`/${examId}/apply-report`);
    await expect(page.getByTestId('apply-targets')).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('a');
    await expect(page.getByTestId('apply-agree')).toBeChecked();
    await noRawKeys(page);
    await page.screenshot({ path: `${OUT}/payments-apply-${language}-${theme}.png`, fullPage: true });

    await page.goto(`/${order.examId}/apply-report/${order.id}?type=expert`);
    await expect(page.getByTestId('pay-qr')).toBeVisible();
    await noRawKeys(page);
    await page.screenshot({ path: `${OUT}/payments-order-${language}-${theme}.png`, fullPage: true });

    await page.goto(`/charge/${order.id}`);
    await expect(page.getByTestId('charge-page')).toHaveAttribute('data-state', 'waiting');
    await expect(page.getByTestId('qr-code').locator('img')).toBeVisible();
    await noRawKeys(page);
    await page.screenshot({ path: `${OUT}/payments-charge-${language}-${theme}.png`, fullPage: true });
  });
}
