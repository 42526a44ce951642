import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { QueueBoard } from '../../contract/calling';
import type { Device } from '../../contract/organizations';
import { dimse } from '../../server/dicom/dimse';
import { axeFindings } from './support/axe';
import { apiAs } from './support/reportApi';
import { prefer, signIn } from './support/session';

/**
 * The modality's progress on the desks (issue 33 "the desk and the call queue show it"): a patient checked in at the
 * registry waits in the CT queue; the scanner (this test, over DICOM to the e2e server's listener, HTTP port + 30000)
 * says N-CREATE IN PROGRESS, then N-SET COMPLETED with the images it made. The registry desk and the call queue's
 * operator desk, left open, show "Scanning on CT1 since …" and then "Done · 3 images" without a reload.
 */
const HOSPITAL = 1;
const MPPS = '1.2.840.10008.3.1.2.3.3';
const stamp = String(Date.now()).slice(-6);
const AE = `E2E_MPPS${stamp}`;
const NAME = `扫描进度${stamp}`;

function dicomPort(): number {
  return Number(new URL(String(test.info().project.use.baseURL)).port) + 30000;
}

/** One N-CREATE or N-SET on its own association, as the scanner; the DIMSE status. */
function send(op: 'create' | 'set', uid: string, attrs: Record<string, unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = new dimse.Client();
    const request = op === 'create' ? new dimse.requests.NCreateRequest(MPPS, uid) : new dimse.requests.NSetRequest(MPPS, uid);
    request.setDataset(new dimse.Dataset(attrs));
    let status = -1;
    request.on('response', (response: { getStatus(): number }) => { status = response.getStatus(); });
    client.addRequest(request);
    client.on('networkError', (e: Error) => reject(e));
    client.on('closed', () => resolve(status));
    client.send('127.0.0.1', dicomPort(), AE, 'RADWS');
  });
}

test('the registry desk and the call queue show the scanner at work, then done with its images', async ({ browser }) => {
  // The scanner is one of the hospital's devices (its AE title decides the organisation); CT has a queue.
  const device = await apiAs<Device>('admin', 'POST', `buckets/${HOSPITAL}/devices`, { name: `E2E CT ${stamp}`, modality: 'CT', aeTitle: AE });
  expect(device.status).toBe(200);
  const types = await apiAs<{ id: number; modality: string | null }[]>('registrar', 'GET', `buckets/${HOSPITAL}/queue-types`);
  if (!types.body.some((q) => q.modality === 'CT')) {
    expect((await apiAs('registrar', 'POST', `buckets/${HOSPITAL}/queue-types`, { prefix: 'E', name: 'CT e2e', modality: 'CT', room: 'CT室1' })).status).toBe(200);
  }
  const made = await apiAs<{ version: number; lines: { examId: number; accessionNumber: string }[] }>('registrar', 'POST', 'registry', {
    bucketId: HOSPITAL, patient: { patientName: NAME, patientGender: 'F', patientSource: 'E' },
    exams: [{ modality: 'CT', scheduledTime: new Date().toISOString() }],
  });
  expect(made.status).toBe(200);
  const { examId, accessionNumber } = made.body.lines[0]!;
  expect((await apiAs('registrar', 'POST', 'exam/status', { examId, status: 'Arrived', version: made.body.version })).status).toBe(200);
  const board = await apiAs<QueueBoard>('registrar', 'GET', `buckets/${HOSPITAL}/queue-exams`);
  const entryId = board.body.entries.find((e) => e.examId === examId)!.id;

  // Both desks open, as they stand in a department.
  const registryContext = await browser.newContext();
  const desk = await registryContext.newPage();
  await prefer(desk, { language: 'en' });
  await signIn(desk, 'registrar');
  await expect(desk).toHaveURL(/\/registry/);
  const row = desk.locator(`[data-testid=registry-table] tr[data-exam-id="${examId}"]`);
  await expect(row).toBeVisible();
  await expect(row.locator('[data-mpps]')).toHaveCount(0);

  const queueContext = await browser.newContext();
  const queue = await queueContext.newPage();
  await prefer(queue, { language: 'en' });
  await signIn(queue, 'registrar');
  await queue.goto('/calling');
  const entry = queue.locator(`[data-testid=calling-entry][data-entry-id="${entryId}"]`);
  await expect(entry).toBeVisible();

  const uid = `2.25.33${stamp}${Math.floor(Math.random() * 1000)}`;
  expect(await send('create', uid, { PerformedProcedureStepStatus: 'IN PROGRESS', PerformedStationAETitle: 'CT1', ScheduledStepAttributesSequence: [{ AccessionNumber: accessionNumber }] })).toBe(0);
  const scanning = /^Modality: Scanning on CT1 since \d\d:\d\d$/;
  await expect(row.locator('[data-mpps="IN PROGRESS"]')).toHaveText(scanning, { timeout: 20_000 });
  await expect(entry.locator('[data-mpps="IN PROGRESS"]')).toHaveText(scanning, { timeout: 20_000 });
  mkdirSync('.tmp/looks', { recursive: true });
  await queue.screenshot({ path: '.tmp/looks/mpps-calling-en.png' });
  expect(await axeFindings(desk, 'registry with MPPS')).toEqual([]);

  const series = [{ SeriesInstanceUID: `${uid}.1`, ReferencedImageSequence: [1, 2, 3].map((n) => ({ ReferencedSOPClassUID: '1.2.840.10008.5.1.4.1.1.2', ReferencedSOPInstanceUID: `${uid}.1.${n}` })) }];
  expect(await send('set', uid, { PerformedProcedureStepStatus: 'COMPLETED', PerformedSeriesSequence: series })).toBe(0);
  await expect(row.locator('[data-mpps="COMPLETED"]')).toHaveText('Modality: Done · 3 images', { timeout: 20_000 });
  await expect(row).toHaveAttribute('data-status', 'Performed');
  await desk.screenshot({ path: '.tmp/looks/mpps-registry-en.png' });

  await registryContext.close();
  await queueContext.close();
});
