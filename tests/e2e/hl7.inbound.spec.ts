import { expect, test } from '@playwright/test';
import { send } from '../support/hl7';
import { prefer, signIn } from './support/session';

/**
 * The organisation's HL7 tab (issue 36, orders in), by keyboard as the demo group admin: 7 opens it (from the
 * procedures tab: the home tab's first field would take the digit); it shows the MLLP
 * port; the admin maps a sending facility and turns orders in on (Shift+H); an ADT^A08 sent over MLLP to that port
 * is ACKed AA and found in the log by its control id (Shift+F), its raw text and ACK opened with Enter.
 */
const ORG_PAGE = '/groups/1/organizations/1';
const stamp = String(Date.now()).slice(-6);

test('the admin maps a facility, turns HL7 on and finds a received message with its raw text and ACK', async ({ page }) => {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(`${ORG_PAGE}/procedures`);
  await expect(page.getByTestId('dicom-panel')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('7');
  await expect(page).toHaveURL(/\/organizations\/1\/hl7$/);
  const panel = page.getByTestId('hl7-inbound');
  await expect(panel.getByTestId('hl7-listener')).toContainText('MLLP port');
  const port = Number((await panel.getByTestId('hl7-listener').locator('dd').first().innerText()).replace(/\D/g, ''));
  expect(port).toBeGreaterThan(0);

  const facility = `E2E_HIS_${stamp}`;
  await panel.getByTestId('hl7-facilities').fill(facility);
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('HL7 settings saved').first()).toBeVisible();
  // The focus is on the Save button, not in a field: the tab's keys work.
  if (!(await panel.getByTestId('hl7-enabled').isChecked())) await page.keyboard.press('Shift+H');
  await expect(panel.getByTestId('hl7-enabled')).toBeChecked();

  const controlId = `E2E${stamp}`;
  const ack = await send(port, [
    `MSH|^~\\&|HISAPP|${facility}|RADWS|RAD|20261129080000||ADT^A08^ADT_A01|${controlId}|P|2.5.1|||||CHN|UNICODE UTF-8`,
    'EVN|A08|20261129080000',
    'PID|1||E2E-NOBODY^^^HIS^MR||测试^患者||19900101|F',
  ].join('\r'));
  expect(ack.code).toBe('AA');

  await page.keyboard.press('Shift+F');
  await expect(panel.getByTestId('hl7-search')).toBeFocused();
  await page.keyboard.type(controlId);
  const row = panel.getByTestId('hl7-messages').locator('tbody tr').first();
  await expect(row).toContainText(controlId);
  await expect(row).toContainText('AA');
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('hl7-raw')).toContainText('测试^患者');
  await expect(panel).toContainText(`MSA|AA|${controlId}`);
});
