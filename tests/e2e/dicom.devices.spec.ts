import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '../../contract/organizations';
import { axeFindings } from './support/axe';
import { apiAs } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';
import { freePort, listening } from '../support/ports';

/**
 * The organisation's devices as DICOM peers (issue 33 "Screens"), by keyboard as the demo group admin: the Devices tab
 * (4) shows this server's AE title; on a device's focused row H edits its host and port, E echoes it: OK with the
 * round trip against a dcmtk storescp the test starts, the refusal when nothing listens at the port.
 */
const ORG_PAGE = '/groups/1/organizations/1';
const stamp = String(Date.now()).slice(-6);


let scp: ChildProcess | null = null;
let scpPort = 0;
test.beforeAll(async () => {
  scpPort = await freePort();
  scp = spawn('storescp', ['-aet', 'E2E_SCP', '--output-directory', '/tmp', String(scpPort)], { stdio: 'ignore' });
  await listening(scpPort);
});
test.afterAll(() => { scp?.kill(); });

async function openDevices(page: Page, language: 'en' | 'chs') {
  await prefer(page, { language });
  await signIn(page, 'admin');
  await page.goto(ORG_PAGE);
  await expect(page.getByTestId('admin-title')).toBeVisible();
  // Esc hands the keys back to the page (its first field has the focus once the members are drawn); 4: the
  // procedures and devices tab.
  await expect(page.locator('[data-main-control]').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('4');
  await expect(page).toHaveURL(/\/organizations\/1\/procedures$/);
  await expect(page.getByTestId('dicom-panel')).toBeVisible();
}

test('the admin sees the AE title, sets a device\'s host and port and echoes it (ok, then refused)', async ({ page }) => {
  const name = `E2E PACS ${stamp}`;
  const created = await apiAs<Device>('admin', 'POST', 'buckets/1/devices', { name, modality: 'OT', aeTitle: 'E2E_SCP' });
  expect(created.status).toBe(200);
  await openDevices(page, 'en');
  const panel = page.getByTestId('dicom-panel');
  await expect(panel.getByTestId('dicom-node-ae')).toHaveText('RADWS');
  await expect(panel.getByTestId('dicom-node')).toContainText('Listening');

  const row = panel.locator(`[data-dicom-device="${created.body.id}"]`);
  await row.focus();
  await page.keyboard.press('h');
  await expect(panel.getByLabel('Host')).toBeFocused();
  await page.keyboard.type('127.0.0.1');
  await page.keyboard.press('Tab');
  await page.keyboard.type(String(scpPort));
  await page.keyboard.press('Enter');
  await expect(row).toBeFocused();
  await expect(row).toContainText('127.0.0.1');
  await expect(row).toContainText(String(scpPort));
  // The devices list above shows the same address (both lists load again after a change in either).
  await expect(page.getByTestId('ordered-list-devices')).toContainText(`127.0.0.1:${scpPort}`);

  await page.keyboard.press('e');
  await expect(row.getByTestId('dicom-echo-result')).toHaveText(/^OK, \d+ ms$/);
  mkdirSync('.tmp/looks', { recursive: true });
  await page.screenshot({ path: '.tmp/looks/dicom-devices-en.png', fullPage: true });

  // A port where nothing listens: the refusal, in words.
  const closed = await freePort();
  await page.keyboard.press('h');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(closed));
  await page.keyboard.press('Enter');
  await expect(row).toContainText(String(closed));
  await page.keyboard.press('e');
  await expect(row.getByTestId('dicom-echo-result')).toContainText('Refused: nothing listens at that port');
  await expect(panel).not.toContainText(RAW_KEY);
});

test('in Chinese: the panel, the switch by Shift+U and an echo', async ({ page }) => {
  const created = await apiAs<Device>('admin', 'POST', 'buckets/1/devices', { name: `回显设备 ${stamp}`, modality: 'OT', aeTitle: 'E2E_SCP', host: '127.0.0.1', port: scpPort });
  await openDevices(page, 'chs');
  const panel = page.getByTestId('dicom-panel');
  await expect(panel).toContainText('接收未知发送方');
  const row = panel.locator(`[data-dicom-device="${created.body.id}"]`);
  await row.focus();
  await page.keyboard.press('e');
  await expect(row.getByTestId('dicom-echo-result')).toHaveText(/^成功，\d+ 毫秒$/);
  await page.keyboard.press('Shift+U');
  await expect(panel.getByTestId('dicom-accept-unknown')).toBeChecked();
  await page.keyboard.press('Shift+U');
  await expect(panel.getByTestId('dicom-accept-unknown')).not.toBeChecked();
  await expect(panel).not.toContainText(RAW_KEY);
  // The panel (rows with the focus, the echo results, the switch) passes axe as the other screens do.
  expect(await axeFindings(page, 'org-procedures with the DICOM panel')).toEqual([]);
  mkdirSync('.tmp/looks', { recursive: true });
  await page.screenshot({ path: '.tmp/looks/dicom-devices-chs.png', fullPage: true });
});
