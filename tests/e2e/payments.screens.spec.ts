import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { apiAs } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The order list and the credit page (issue 13) by keyboard: chief reaches /orders from the navbar, filters, opens an
 * order with Enter, refunds an order paid from credit with a reason (the balance on /credit rises by exactly its
 * amount); the credit page recharges through the sandbox channel (its confirmation page in a second context) and the
 * balance rises by the package. Screenshots of both screens in both themes (support/looks.ts).
 */
const OUT = process.env.SHOTS_DIR ?? '.tmp/screens';

const rows = (page: Page) => page.locator('[data-testid=order-table] tbody tr');
/** The payment states of the rows on screen, once each, once the table is not waiting for a page. */
async function paymentsShown(page: Page): Promise<(string | null)[]> {
  if (await page.getByTestId('order-table').getAttribute('aria-busy')) return ['busy'];
  return [...new Set(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-payment'))))];
}
const balanceFen = async (page: Page) => Number(await page.getByTestId('credit-balance').getAttribute('data-fen'));

async function creditBalance(page: Page): Promise<number> {
  await page.goto('/credit');
  await expect(page.getByTestId('credit-balance')).not.toHaveAttribute('data-fen', '');
  return balanceFen(page);
}

test('chief filters the orders, opens one by keyboard and refunds a credit payment with a reason', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'chief');
  const before = await creditBalance(page);

  await page.getByRole('navigation').getByRole('link', { name: 'Orders' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await expect(rows(page).first()).toBeFocused();
  const all = await rows(page).count();
  expect(all).toBeGreaterThan(5);
  expect(all).toBeLessThanOrEqual(20);

  // j/k move the row in hand.
  await page.keyboard.press('j');
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press('k');
  await expect(rows(page).first()).toBeFocused();

  // 1 = unpaid only; 0 back to all; s cycles the side (sent: the hospital's own applications).
  await page.keyboard.press('1');
  await expect(page.locator('[data-status-chip=unpaid]')).toHaveAttribute('aria-pressed', 'true');
  await expect(rows(page).first()).toHaveAttribute('data-payment', '0');
  // The old page stays on screen (dimmed) until the filtered one arrives and may start with an unpaid row too: poll.
  await expect.poll(() => paymentsShown(page)).toEqual(['0']);
  await page.keyboard.press('0');
  await page.keyboard.press('s');
  await expect(page.locator('[data-filter=side]')).toHaveValue('out');
  await expect(page.getByTestId('order-range')).toContainText(`of ${all}`);

  // The export takes the filters: a workbook comes down.
  const download = page.waitForEvent('download');
  await page.keyboard.press('e');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^orders-\d{8}-\d{4}\.xlsx$/);
  expect(readFileSync(await file.path()).subarray(0, 2).toString()).toBe('PK');

  // 2 = paid only; walk to an order paid from credit and open it with Enter.
  await rows(page).first().focus();
  await page.keyboard.press('2');
  await expect(rows(page).first()).toHaveAttribute('data-payment', '1');
  await expect.poll(() => paymentsShown(page)).toEqual(['1']);
  await expect(page.getByTestId('order-table')).not.toHaveAttribute('aria-busy', 'true');
  const channels = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-channel')));
  const index = channels.indexOf('credit');
  expect(index).toBeGreaterThanOrEqual(0);
  await expect(rows(page).first()).toBeFocused();
  for (let i = 0; i < index; i++) await page.keyboard.press('j');
  await expect(rows(page).nth(index)).toBeFocused();
  const id = Number(await rows(page).nth(index).getAttribute('data-order-id'));
  const order = await apiAs<{ amountFen: number; requestNo: string }>('chief', 'GET', `orders/${id}`);
  expect(order.status).toBe(200);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/orders/${id}$`));
  await expect(page.getByTestId('order-detail')).toContainText(order.body.requestNo);
  await expect(page.getByTestId('order-payment')).toContainText('Credit');
  await expect(page.getByTestId('order-targets')).toBeVisible();

  // r asks the reason; an empty one is refused in the dialog; Ctrl+Enter sends it.
  await page.keyboard.press('r');
  const dialog = page.getByTestId('refund-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('refund-reason')).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(dialog.getByRole('alert')).toBeVisible();
  await page.keyboard.type('患者转院，申请退款');
  await page.keyboard.press('Control+Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('order-refund-reason')).toHaveText('患者转院，申请退款');
  await expect(page.locator('[data-testid=order-detail] [data-payment]').first()).toHaveAttribute('data-payment', 'refunded');
  await expect(page.getByTestId('order-refund')).toHaveCount(0);

  // Esc back to the list; the credit balance rose by exactly the order's amount.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/orders$/);
  expect(await creditBalance(page)).toBe(before + order.body.amountFen);
  await expect(page.locator('[data-testid=ledger-table] tbody tr').first()).toHaveAttribute('data-kind', 'refund');
});

test('the credit page recharges through the sandbox channel; the balance rises by the package', async ({ page, browser }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'chief');
  const before = await creditBalance(page);

  await page.keyboard.press('c');
  const packages = page.getByTestId('recharge-packages');
  await expect(packages).toBeVisible();
  const first = packages.getByRole('radio').first();
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(packages.getByRole('radio').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  const code = page.getByTestId('recharge-code');
  await expect(code).toHaveAttribute('data-status', 'created');
  await expect(page.getByTestId('qr-code').locator('img')).toBeVisible();
  const url = await page.getByTestId('recharge-code-url').getAttribute('href');
  expect(url).toMatch(/\/sandbox-pay\/C\d{16}\?s=/);

  // The payer's phone: the sandbox's confirmation page in a context of its own (no session).
  const phone = await browser.newContext();
  const payPage = await phone.newPage();
  await prefer(payPage, { language: 'en' });
  await payPage.goto(url!);
  await payPage.getByRole('button', { name: 'Pay ¥500.00' }).click();
  await expect(payPage.getByRole('status')).toContainText('Paid');
  await phone.close();

  // The dialog's poll sees it paid; the balance and the ledger follow.
  await expect(page.getByTestId('recharge-paid')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('recharge-close').click();
  await expect(page.getByTestId('credit-balance')).toHaveAttribute('data-fen', String(before + 50_000));
  await expect(page.locator('[data-testid=ledger-table] tbody tr').first()).toHaveAttribute('data-kind', 'recharge');
  // 1 = recharges only.
  await page.locator('[data-testid=ledger-table]').focus();
  await page.keyboard.press('1');
  await expect(page.locator('[data-kind-chip=recharge]')).toHaveAttribute('aria-pressed', 'true');
  // The seeded recharge and this one (the list is read again under the new filter).
  await expect(page.getByTestId('ledger-range')).toContainText('of 2');
  const kinds = await page.locator('[data-testid=ledger-table] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind')));
  expect(kinds).toEqual(['recharge', 'recharge']);
});

for (const [language, theme] of looks()) {
  test(`order list, order and credit page in ${language}, ${theme}`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await prefer(page, { language, theme });
    await signIn(page, 'chief');
    await page.goto('/orders');
    await expect(rows(page).first()).toBeFocused();
    await page.keyboard.press('j');
    await page.screenshot({ path: `${OUT}/payments-orders-${language}-${theme}.png` });
    await expect(page.locator('body')).not.toContainText(RAW_KEY);

    // An order whose expert report is written (reported): the detail shows it.
    const list = await apiAs<{ items: { id: number; progress: string }[] }>('chief', 'POST', 'payments/page-query', { filters: [], skip: 0, limit: 100 });
    const reported = list.body.items.find((o) => o.progress === 'reported');
    expect(reported).toBeDefined();
    await page.goto(`/orders/${reported!.id}`);
    await expect(page.getByTestId('order-expert-report').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/payments-order-${language}-${theme}.png`, fullPage: true });
    await expect(page.locator('body')).not.toContainText(RAW_KEY);

    await page.goto('/credit');
    await expect(page.locator('[data-testid=ledger-table] tbody tr').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/payments-credit-${language}-${theme}.png` });
    await page.keyboard.press('c');
    await expect(page.getByTestId('recharge-packages').getByRole('radio').first()).toBeFocused();
    await page.screenshot({ path: `${OUT}/payments-recharge-${language}-${theme}.png` });
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
}
