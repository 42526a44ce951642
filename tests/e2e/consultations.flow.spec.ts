import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { looks } from './support/looks';
import { apiAs, apiBase, freshCase } from './support/reportApi';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * A consultation from request to print, by two people at once (areas §3–§5, §7): rad1 (the hospital) asks through
 * the API, opens it, adds a case and uploads a file (its progress, then completed); the expert (the expert centre,
 * a second browser) gets the pending-consultation toast on the next 60-second poll (the page clock moves, no wait),
 * opens it, schedules it and writes the conclusion (Ctrl+S); rad1 sees the conclusion, approves, rates it (with the
 * confirm step) and prints it: the print view shows the patient, the conclusion and the template's title.
 */
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const reason = `E2E flow ${stamp}`;
const conclusion = `Benign nodule, follow up in 6 months ${stamp}`;

interface Detail { id: number; version: number; status: number; patientName: string; transitions: string[] }

async function newestVisibleTo(username: string): Promise<number> {
  const res = await apiAs<{ items: { id: number }[] }>(username, 'POST', 'consultations/query-page', { limit: 1, sorts: [{ field: 'id', direction: 'desc' }] });
  expect(res.status).toBe(200);
  return res.body.items[0]?.id ?? 0;
}

async function requestConsultation(): Promise<Detail> {
  const { examId, reportId } = await freshCase('rad1');
  const targets = await apiAs<{ targets: { id: number }[]; defaultTargetId: number | null }>('rad1', 'GET', `consultations/targets?examId=${examId}`);
  expect(targets.status, JSON.stringify(targets.body)).toBe(200);
  const targetBucketId = targets.body.defaultTargetId ?? targets.body.targets[0]!.id;
  const created = await apiAs<Detail>('rad1', 'POST', 'consultations', { examId, reportId, targetBucketId, reason });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const status = (page: Page) => page.getByTestId('consultation-detail').getByTestId('consultation-status');

test('rad1 asks, the expert is told and concludes, rad1 approves, rates and prints', async ({ browser }) => {
  test.setTimeout(180_000);
  const before = await newestVisibleTo('expert');

  // The expert is signed in before the request: only what comes after is news for the poll.
  const expertContext = await browser.newContext();
  const expert = await expertContext.newPage();
  await prefer(expert, { language: 'en' });
  await expert.addInitScript((id) => localStorage.setItem('notify-last-consultation-id', String(id)), before);
  await expert.clock.install();
  // Its first poll runs as the session starts: the request must come after it, so only the next poll can tell.
  const firstPoll = expert.waitForResponse((r) => r.url().endsWith('/api/v1/consultations/query-page'), { timeout: 60_000 });
  await signIn(expert, 'expert');
  await firstPoll;
  const toast = expert.locator('[data-toast-key="notify-consultations"]');

  const consultation = await requestConsultation();
  expect(consultation.id).toBeGreaterThan(before);

  // rad1 opens it, adds a case with the keyboard and uploads a file to it.
  const rad1Context = await browser.newContext();
  const rad1 = await rad1Context.newPage();
  await prefer(rad1, { language: 'en' });
  await signIn(rad1, 'rad1');
  await rad1.goto(`/consultations/${consultation.id}`);
  await expect(rad1.getByTestId('consultation-title')).toContainText(`#${consultation.id}`, { timeout: 30_000 });
  await expect(status(rad1)).toHaveAttribute('data-status', '0');
  await expect(rad1.getByTestId('consultation-log')).toContainText('Requested');
  await rad1.getByTestId('consultation-title').click();
  await rad1.keyboard.press('n');
  const form = rad1.getByTestId('case-form');
  await expect(form).toBeVisible();
  await form.getByLabel('Name').fill(`Pathology slides ${stamp}`);
  await form.getByLabel('Type').selectOption('pathology');
  await form.getByRole('button', { name: 'Add' }).click();
  const card = rad1.getByTestId('consultation-case').filter({ hasText: `Pathology slides ${stamp}` });
  await expect(card).toBeVisible();

  // Hold the upload's answer until its progress bar has been seen, then let it through: it ends completed.
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  await rad1.route(/\/api\/v1\/consultations\/\d+\/cases\/\d+\/attachments$/, async (route) => {
    await held;
    await route.continue();
  });
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n%e2e\n'), Buffer.alloc(1_500_000, 0x20), Buffer.from('\n%%EOF\n')]);
  await card.getByTestId('case-file-input').setInputFiles({ name: `slides-${stamp}.pdf`, mimeType: 'application/pdf', buffer: pdf });
  await expect(card.locator('[data-testid="case-upload"][data-phase="sending"] progress')).toBeVisible();
  release();
  const attachment = card.getByTestId('case-attachment').filter({ hasText: `slides-${stamp}.pdf` });
  await expect(attachment).toHaveAttribute('data-status', 'completed');
  await expect(attachment.getByRole('link', { name: `slides-${stamp}.pdf` })).toHaveAttribute('href', /.+/);
  await expect(card.getByTestId('case-upload')).toHaveCount(0);
  await rad1.unroute(/\/api\/v1\/consultations\/\d+\/cases\/\d+\/attachments$/);

  // rad1 links an earlier consultation by its number and opens it read-only, then comes back with Esc.
  await rad1.keyboard.press('l');
  await rad1.getByTestId('link-search').fill(String(before));
  await rad1.getByRole('dialog').getByRole('button', { name: new RegExp(`^#${before}\\b`) }).click();
  const linked = rad1.getByTestId('consultation-links').getByRole('link', { name: new RegExp(`^#${before}\\b`) });
  await expect(linked).toBeVisible();
  await linked.click();
  await expect(rad1).toHaveURL(new RegExp(`/consultations/${consultation.id}/related/${before}$`));
  await expect(rad1.getByTestId('consultation-related').getByTestId('consultation-title')).toContainText(`#${before}`, { timeout: 30_000 });
  await expect(rad1.getByTestId('consultation-related').getByTestId('consultation-actions').getByRole('button')).toHaveCount(0);
  await rad1.keyboard.press('Escape');
  await expect(rad1).toHaveURL(new RegExp(`/consultations/${consultation.id}$`));
  await expect(rad1.getByTestId('consultation-title')).toContainText(`#${consultation.id}`, { timeout: 30_000 });

  // The expert's next poll (60 s later on the page's clock) names the new consultation.
  await expert.clock.fastForward('01:05');
  await expect(toast).toBeVisible({ timeout: 15_000 });
  await expect(toast).toContainText(reason);

  // The expert opens it, schedules it (a start time is required) and writes the conclusion.
  await expert.goto(`/consultations/${consultation.id}`);
  await expect(expert.getByTestId('consultation-title')).toContainText(`#${consultation.id}`, { timeout: 30_000 });
  await expect(expert.getByTestId('consultation-case').filter({ hasText: `Pathology slides ${stamp}` })).toBeVisible();
  await expect(expert.getByTestId('consultation-actions').locator('[data-action="approve"]')).toHaveCount(0);

  // No video service on the test server: the panel says so plainly.
  await expert.getByTestId('consultation-title').click();
  await expert.keyboard.press('v');
  await expect(expert.getByTestId('video-unconfigured')).toHaveText('Video is not configured on this server.');

  // The expert puts themself on the list as the expert (the whole list is saved at once).
  await expert.keyboard.press('m');
  const members = expert.getByRole('dialog', { name: 'Edit members and experts' });
  await members.getByLabel('Person').selectOption({ label: '刘志远 · 教授' });
  await members.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(members.getByTestId('members-edit-list')).toContainText('刘志远');
  await members.getByRole('button', { name: 'Save' }).click();
  await expect(members).toBeHidden();
  await expect(expert.getByTestId('member-list-expert')).toContainText('刘志远');
  await expect(expert.getByTestId('member-list-member')).toContainText('李明');
  await expert.getByTestId('consultation-title').click();
  await expert.keyboard.press('s');
  const time = expert.getByTestId('schedule-time');
  await expect(time).toBeFocused();
  // It proposes the next whole half hour, ahead of the page's clock (never today's 00:00).
  const proposed = await time.inputValue();
  expect(proposed).toMatch(/T\d\d:(00|30)$/);
  expect(await expert.evaluate((v) => new Date(v).getTime() > Date.now(), proposed)).toBe(true);
  await time.fill('');
  await expert.keyboard.press('Control+Enter');
  await expect(expert.getByRole('alert').filter({ hasText: 'Enter the start time' })).toBeVisible();
  // A time already past is refused in the dialog (the server refuses it too: ConsultationTimePast).
  await time.fill('2020-03-04T09:30');
  await expert.keyboard.press('Control+Enter');
  await expect(expert.getByRole('alert').filter({ hasText: 'already passed' })).toBeVisible();
  await time.fill('2030-03-04T09:30');
  await expert.keyboard.press('Control+Enter');
  await expect(status(expert)).toHaveAttribute('data-status', '1');
  await expect(expert.getByTestId('consultation-scheduled')).toHaveText('2030-03-04 09:30');

  // rad1's page still holds the version from before the schedule: its edit is refused, said, and the page reloads.
  await rad1.getByTestId('consultation-title').click();
  await rad1.keyboard.press('u');
  const edit = rad1.getByRole('dialog', { name: 'Edit the request' });
  await edit.getByLabel('Reason').fill(`${reason} (edited)`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(rad1.locator('[data-toast-key]').filter({ hasText: 'Someone else changed this consultation' })).toBeVisible();
  await expect(status(rad1)).toHaveAttribute('data-status', '1');
  await expect(rad1.getByTestId('consultation-scheduled')).toHaveText('2030-03-04 09:30');
  await rad1.keyboard.press('Escape');

  await expert.getByTestId('consultation-title').click();
  await expert.keyboard.press('e');
  const editor = expert.getByTestId('result-conclusion').locator('[contenteditable="true"]');
  await expect(editor).toBeFocused();
  await expect(expert.getByTestId('consultation-completes')).toContainText('the requesting side');
  await expert.keyboard.type(conclusion);
  await expert.keyboard.press('Control+s');
  await expect(status(expert)).toHaveAttribute('data-status', '2');
  await expect(expert.getByTestId('result-state')).toHaveText('Saved');
  // Saved, the editor lets go: the action bar has the focus and the next letter is a command, not text.
  await expect(expert.getByTestId('consultation-actions')).toBeFocused();
  await expect(expert.getByTestId('consultation-completes')).toContainText('waiting for the requesting side');
  await expert.keyboard.press('e');
  await expect(editor).toBeFocused();
  await expect(editor).toHaveText(conclusion);
  await expect(expert.getByTestId('consultation-log')).toContainText('Result written');

  // rad1 reads the conclusion, approves, then rates with the confirm step.
  await rad1.reload();
  await expect(rad1.locator('#consultation-conclusion')).toContainText(conclusion);
  await expect(status(rad1)).toHaveAttribute('data-status', '2');
  await rad1.getByTestId('consultation-title').click();
  await rad1.keyboard.press('a');
  await rad1.getByTestId('approve-confirm').click();
  await expect(status(rad1)).toHaveAttribute('data-status', '3');

  await rad1.keyboard.press('r');
  const stars = rad1.getByTestId('rating-stars');
  await expect(stars).toBeFocused();
  await rad1.keyboard.press('4');
  await expect(stars.getByRole('radio', { checked: true })).toHaveAccessibleName('4 of 5 stars');
  await rad1.getByTestId('rating-comment').fill(`Clear and quick ${stamp}`);
  await rad1.getByRole('button', { name: 'Continue' }).click();
  const confirm = rad1.getByTestId('rating-confirm');
  await expect(confirm).toContainText('cannot be changed');
  await expect(rad1.getByTestId('rating-readonly')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Submit rating' }).click();
  await expect(rad1.getByTestId('rating-readonly')).toHaveAttribute('data-rating', '4');
  await expect(rad1.getByTestId('consultation-actions').locator('[data-action="rate"]')).toHaveCount(0);

  // Ctrl+P opens the print view: the patient, the conclusion and the layout-3 template's title.
  await rad1.keyboard.press('Control+p');
  await expect(rad1).toHaveURL(new RegExp(`/consultations/${consultation.id}/print$`));
  const sheet = rad1.getByTestId('consultation-print-preview');
  await expect(sheet).toContainText(conclusion);
  await expect(sheet).toContainText('远程会诊报告单');
  await expect(sheet).toContainText(consultation.patientName.split('=')[0]!.replace(/\^/g, ' ').trim());
  await expect(rad1.locator('body')).not.toContainText(RAW_KEY);

  await expertContext.close();
  await rad1Context.close();
});

test('the applicant cancels with a reason (Shift+C); a canceled consultation offers nothing but printing', async ({ page }) => {
  test.setTimeout(90_000);
  const c = await requestConsultation();
  await prefer(page, { language: 'en' });
  await signIn(page, 'rad1');
  await page.goto(`/consultations/${c.id}`);
  await expect(page.getByTestId('consultation-title')).toContainText(`#${c.id}`, { timeout: 30_000 });
  const actions = page.getByTestId('consultation-actions');
  await expect(actions.locator('[data-action="cancel"]')).toBeVisible();
  await page.getByTestId('consultation-title').click();
  await page.keyboard.press('Shift+C');
  const dialog = page.getByRole('dialog', { name: 'Cancel the consultation' });
  await expect(page.getByTestId('cancel-reason')).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel consultation' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter a reason');
  await page.getByTestId('cancel-reason').fill('The patient was transferred to another hospital.');
  await dialog.getByRole('button', { name: 'Cancel consultation' }).click();
  await expect(status(page)).toHaveAttribute('data-status', '4');
  await expect(page.getByTestId('consultation-patient')).toContainText('The patient was transferred to another hospital.');
  await expect(actions.getByRole('button')).toHaveText([/^Print/]);
  await expect(page.getByTestId('consultation-cases').getByRole('button')).toHaveCount(0);
  // The keys of refused actions do nothing either.
  await page.keyboard.press('n');
  await expect(page.getByTestId('case-form')).toHaveCount(0);
});

/** A discussed consultation with a case, a file, a suggestion and a result: what the screenshots show. */
async function discussedConsultation(): Promise<Detail> {
  const c = await requestConsultation();
  const made = await apiAs<{ id: number }>('rad1', 'POST', `consultations/${c.id}/cases`, { name: 'Outpatient history', type: 'history', note: 'Cough for 3 weeks, smoker (20 pack-years).' });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const login = await fetch(`${apiBase()}accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'rad1', password: 'Demo1234' }) });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n%looks\n%%EOF\n')], { type: 'application/pdf' }), 'blood-tests.pdf');
  const uploaded = await fetch(`${apiBase()}consultations/${c.id}/cases/${made.body.id}/attachments`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: form });
  expect(uploaded.status).toBe(201);
  let detail = (await apiAs<Detail>('expert', 'GET', `consultations/${c.id}`)).body;
  const scheduled = await apiAs<Detail>('expert', 'POST', `consultations/${c.id}/update-status`, { version: detail.version, status: 1, scheduledTime: '2030-03-04T09:30:00+08:00' });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  expect((await apiAs('expert', 'POST', `consultations/${c.id}/suggestion`, { content: '<p>Please add the latest CT with contrast.</p>' })).status).toBe(201);
  detail = (await apiAs<Detail>('expert', 'GET', `consultations/${c.id}`)).body;
  const result = await apiAs<Detail>('expert', 'PUT', `consultations/${c.id}/results`, {
    version: detail.version,
    conclusion: '<p>Solitary nodule of the right upper lobe, 8 mm, smooth margins: most likely benign.</p>',
    treatmentPlan: '<p>Low-dose CT in 6 months; earlier if symptoms change.</p>',
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
}

test.describe('looks', () => {
  for (const [language, theme] of looks()) {
    test(`consultation detail and print in ${language}, ${theme}`, async ({ page, browser }) => {
      const dir = '.tmp/shots-d';
      mkdirSync(dir, { recursive: true });
      const c = await discussedConsultation();
      await prefer(page, { language, theme });
      await page.setViewportSize({ width: 1440, height: 1000 });
      await signIn(page, 'rad1');
      await page.goto(`/consultations/${c.id}`);
      await expect(page.getByTestId('consultation-case')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('case-attachment')).toHaveAttribute('data-status', 'completed');
      await expect(page.locator('#consultation-conclusion')).toContainText('8 mm');
      await expect(page.getByTestId('consultation-log').locator('li').first()).toBeVisible();
      await expect(page.locator('body')).not.toContainText(RAW_KEY);
      await page.screenshot({ path: `${dir}/detail-${language}-${theme}.png`, fullPage: true });
      await page.goto(`/consultations/${c.id}/print`);
      await expect(page.getByTestId('consultation-print-preview')).toContainText('8 mm');
      await expect(page.locator('body')).not.toContainText(RAW_KEY);
      await page.screenshot({ path: `${dir}/print-${language}-${theme}.png`, fullPage: true });

      // The expert's side: the result in the editor (writeResult), the payment select (setPayment).
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      const expert = await context.newPage();
      await prefer(expert, { language, theme });
      await signIn(expert, 'expert');
      await expert.goto(`/consultations/${c.id}`);
      await expect(expert.getByTestId('result-conclusion').locator('[contenteditable="true"]')).toContainText('8 mm', { timeout: 30_000 });
      await expect(expert.getByTestId('payment-select')).toBeVisible();
      await expect(expert.locator('body')).not.toContainText(RAW_KEY);
      await expert.screenshot({ path: `${dir}/detail-expert-${language}-${theme}.png`, fullPage: true });
      await context.close();
    });
  }
});
