import { expect, test, type Page } from '@playwright/test';
import { startMllpPeer, type MllpPeer, type PeerAnswer } from '../support/mllpPeer';
import { apiAs, freshCase } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * Results out (issue 36) on the organisation's HL7 tab, as the demo group admin: 7 opens the tab, the destination is
 * saved with Ctrl+S, an approval shows in the outbox as sent (Enter shows the ORU); a peer that refuses makes a dead
 * letter, Shift+D lists the dead letters and R resends the focused one. The test peer is a plain MLLP server.
 */
const ORG_PAGE = '/groups/1/organizations/1';
let peer: MllpPeer;
let answer: PeerAnswer = 'AA';

test.beforeAll(async () => { peer = await startMllpPeer({ answer: () => answer }); });
test.afterAll(async () => {
  // The lane's server is shared: the hospital stops sending once this file is done.
  await apiAs('admin', 'PUT', 'buckets/1/hl7/destination', {
    enabled: false, host: '', port: 2575, sendingApplication: 'RADWS', sendingFacility: '', receivingApplication: '', receivingFacility: '',
    charset: 'UNICODE UTF-8', tls: false, tlsCa: null, maxAttempts: 10, ackTimeoutMs: 10000,
  });
  await peer?.close();
});

/** A report of a fresh exam written by rad1 and approved by chief, through the API. */
async function approve(): Promise<number> {
  const c = await freshCase('rad1');
  let r = await apiAs<{ version: number }>('rad1', 'POST', `reports/${c.reportId}/save`, { version: 1, finding: '<p>E2E 所见</p>', diagnosis: '<p>E2E 结论</p>', positive: true });
  if (r.status !== 200) {
    const now = await apiAs<{ version: number }>('rad1', 'GET', `reports/${c.reportId}/detail`);
    r = await apiAs<{ version: number }>('rad1', 'POST', `reports/${c.reportId}/save`, { version: now.body.version, finding: '<p>E2E 所见</p>', diagnosis: '<p>E2E 结论</p>', positive: true });
  }
  expect(r.status).toBe(200);
  const submitted = await apiAs<{ version: number }>('rad1', 'POST', `reports/${c.reportId}/submit`, { version: r.body.version });
  expect(submitted.status).toBe(200);
  const approved = await apiAs<{ version: number }>('chief', 'POST', `reports/${c.reportId}/approve`, { version: submitted.body.version });
  expect(approved.status).toBe(200);
  return c.examId;
}

async function openTab(page: Page) {
  await prefer(page, { language: 'en' });
  await signIn(page, 'admin');
  await page.goto(ORG_PAGE);
  await expect(page.getByTestId('admin-title')).toBeVisible();
  // The home tab's main control takes the focus when it is drawn; Esc leaves it so the digit switches tabs.
  await expect(page.locator('[data-main-control]').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('7');
  await expect(page).toHaveURL(/\/organizations\/1\/hl7$/);
  await expect(page.getByTestId('hl7-outbound')).toBeVisible();
}

test('the admin sets the destination, sees an approval sent, and resends a dead letter by keyboard', async ({ page }) => {
  await openTab(page);
  const panel = page.getByTestId('hl7-outbound');
  await panel.getByTestId('hl7-out-host').fill('127.0.0.1');
  await panel.getByTestId('hl7-out-port').fill(String(peer.port));
  await panel.getByTestId('hl7-out-maxAttempts').fill('1');
  await panel.getByTestId('hl7-out-ackTimeoutMs').fill('2000');
  await panel.getByTestId('hl7-out-enabled').check();
  await panel.getByTestId('hl7-out-ackTimeoutMs').focus();
  await page.keyboard.press('Control+s');
  await expect(page.getByText('HL7 destination saved')).toBeVisible();

  const before = peer.received.length;
  await approve();
  await peer.waitFor(before + 1);
  const rows = panel.getByTestId('hl7-out-rows');
  const first = rows.locator('[data-hl7-row]').first();
  await expect(first).toContainText('Sent');
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('hl7-out-message')).toContainText('ORU^R01');

  answer = 'AR';
  await approve();
  await expect(rows.locator('[data-hl7-status="dead"]').first()).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await page.locator('body').focus();
  await page.keyboard.press('Shift+D');
  await expect(panel.getByTestId('hl7-out-status')).toHaveValue('dead');
  const dead = rows.locator('[data-hl7-row]').first();
  await expect(dead).toContainText('Dead letter');
  const deadId = await dead.getAttribute('data-hl7-row');
  answer = 'AA';
  await dead.focus();
  await page.keyboard.press('r');
  await expect(page.getByText('Queued to send again')).toBeVisible();
  await page.keyboard.press('Shift+D');
  await expect(panel.getByTestId('hl7-out-status')).toHaveValue('all');
  await expect(rows.locator(`[data-hl7-row="${deadId}"]`)).toContainText('Sent', { timeout: 20_000 });
  await expect(panel).not.toContainText(RAW_KEY);
});
