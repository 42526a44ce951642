import { expect, test, type Page } from '@playwright/test';
import { accountId, expiredTokenFor, prefer, RAW_KEY, signIn, DEMO_PASSWORD } from './support/session';
import { apiAs, freshCase, openWorkspace, reportAs, submitByKeyboard } from './support/reportApi';

/**
 * The report workspace by keyboard, as a radiologist works it: write from a template, save, submit; the chief
 * approves; the approved report prints; a locked report refuses another writer; an expired token loses nothing.
 * English texts keep the assertions readable.
 */
test.beforeEach(async ({ page }) => {
  await prefer(page, { language: 'en' });
});

const findings = (page: Page) => page.locator('[data-section="finding"]');
const editorOf = (page: Page, field: 'finding' | 'diagnosis') => page.locator(`.report-editor[data-field="${field}"]`);
const saveState = (page: Page) => page.locator('[data-save-state]');

test('rad1 writes a report from a template by keyboard, saves and submits; chief approves; the print view shows it and records the print', async ({ page, browser }) => {
  const { reportId, path } = await freshCase();
  await signIn(page, 'rad1');
  await openWorkspace(page, path);

  // The findings editor has the focus on opening; '/' at the start of a line opens the template picker.
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type('/');
  const picker = page.getByRole('dialog', { name: 'Report templates' });
  await expect(picker).toBeVisible();
  // Esc closes it and keeps the typed '/'; typing it again at the line start opens it again.
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(editorOf(page, 'finding')).toBeFocused();
  await expect(editorOf(page, 'finding')).toHaveText('/');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('/');
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('combobox')).toBeFocused();
  const chosen = (await picker.locator('[aria-selected="true"]').innerText()).trim();
  expect(chosen).not.toBe('');
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();

  // The template filled both editors; the '/' it was called with is gone.
  await expect(editorOf(page, 'finding')).not.toHaveText('');
  await expect(editorOf(page, 'finding')).not.toContainText('/');
  await expect(editorOf(page, 'diagnosis')).not.toHaveText('');
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.type('右肺上叶见一约5mm结节。');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'unsaved');
  // The first keystroke took the editing lock.
  await expect(page.getByTestId('exam-header').locator('[data-status="locked"]')).toBeVisible();

  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');
  await expect(saveState(page)).toContainText(/Saved \d\d:\d\d/);
  const saved = await reportAs('rad1', reportId);
  expect(saved.finding).toContain('右肺上叶见一约5mm结节。');
  expect(saved.diagnosis).not.toBe('');

  await submitByKeyboard(page);
  await expect(page.getByText('Report submitted')).toBeVisible();
  // Submitted: rad1 may withdraw it but not edit it, and no editor is left.
  await expect(editorOf(page, 'finding')).toHaveCount(0);
  await expect(findings(page)).toContainText('右肺上叶见一约5mm结节。');
  await expect(page.locator('[data-action]')).toHaveText([/Withdraw submission/]);

  // The chief, in a browser of their own, approves with Ctrl+Shift+A.
  const chiefContext = await browser.newContext();
  const chief = await chiefContext.newPage();
  await prefer(chief, { language: 'en' });
  await chief.addInitScript(() => {
    // Counted instead of opening the system dialog.
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => { (window as unknown as { printed: number }).printed += 1; };
  });
  await signIn(chief, 'chief');
  await openWorkspace(chief, path);
  await expect(chief.locator('[data-action="approve"]')).toBeVisible();
  await expect(chief.locator('[data-action="reject"]')).toBeVisible();
  await chief.locator('[data-report-workspace]').focus();
  await chief.keyboard.press('Control+Shift+A');
  await expect(chief.getByTestId('exam-header').locator('[data-status="corrected"]')).toBeVisible();
  await expect(chief.getByText('Report approved')).toBeVisible();
  expect((await reportAs('chief', reportId)).status).toBe('corrected');

  // Ctrl+P opens the print view of the approved report: the A4 sheet with the text and the QR code.
  await chief.keyboard.press('Control+p');
  await expect(chief).toHaveURL(new RegExp(`${path}/print$`));
  const sheet = chief.locator('.print-preview .print-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('右肺上叶见一约5mm结节。');
  await expect(sheet.locator('.print-qr-img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(sheet).toContainText('张建国');

  // Ctrl+P there records the print (POST print), then opens the browser's print dialog.
  await chief.keyboard.press('Control+p');
  await expect(chief.locator('[data-status="printed"]')).toBeVisible();
  // The dialog opens once the sheet's images are decoded, a moment after the status shows.
  await expect.poll(() => chief.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  expect((await reportAs('chief', reportId)).status).toBe('printed');

  // The PDF the print dialog would save renders the Chinese text with an embedded CJK font.
  await chief.emulateMedia({ media: 'print' });
  const pdf = (await chief.pdf({ format: 'A4' })).toString('latin1');
  expect(pdf.startsWith('%PDF')).toBe(true);
  expect(pdf).toMatch(/FontName\s*\/[A-Z]{6}\+Noto\w*CJK/);
  await chief.emulateMedia({ media: 'screen' });

  // Esc goes back to the workspace.
  await chief.keyboard.press('Escape');
  await expect(chief).toHaveURL(new RegExp(`${path}$`));
  await chiefContext.close();
});

test("rad2 is refused rad1's locked report with the locker's name, and cannot type into it", async ({ page, browser }) => {
  const { path, reportId } = await freshCase();
  await signIn(page, 'rad1');
  await openWorkspace(page, path);
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type('胸廓对称。');
  await expect(page.getByTestId('exam-header').locator('[data-status="locked"]')).toBeVisible();

  const other = await browser.newContext();
  const rad2 = await other.newPage();
  await prefer(rad2, { language: 'en' });
  await signIn(rad2, 'rad2');
  await openWorkspace(rad2, path);
  await expect(rad2.locator('[data-banner="locked"]')).toHaveText(/The report has been locked by 李明, your edit is invalid/);
  await expect(rad2.locator('[contenteditable="true"]')).toHaveCount(0);
  await expect(rad2.locator('[data-action]')).toHaveCount(0);
  await expect(rad2.locator('[data-save-state]')).toHaveAttribute('data-save-state', 'readOnly');

  // The server says the same to a save rad2 might send anyway.
  const detail = await reportAs('rad2', reportId);
  const refused = await apiAs<{ code: string; details: { lockerName: string } }>('rad2', 'POST', `reports/${reportId}/save`, { version: detail.version, finding: '<p>x</p>' });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('ReportLocked');
  expect(refused.body.details.lockerName).toBe('李明');
  await other.close();

  // rad1 leaving the workspace gives the lock back.
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/studies(\?.*)?$/);
  await expect.poll(async () => (await reportAs('rad1', reportId)).status).toBe('partial');
});

test('an expired token in the middle of writing: "Login expired", the password, and the same text saves', async ({ page }) => {
  const { path, reportId } = await freshCase();
  await signIn(page, 'rad1');
  await openWorkspace(page, path);
  // Type once the caret is there, as a person does (under load the focus lands a moment after the page).
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type('双肺纹理清晰。');
  await expect(page.getByTestId('exam-header').locator('[data-status="locked"]')).toBeVisible();
  await page.locator('[data-report-workspace]').evaluate((el) => el.setAttribute('data-mounted-before-expiry', 'yes'));

  // The words are typed before the token expires: a request of the workspace's own (the lock's) met with the expired
  // token would open the dialog while they are typed and take the rest into its password field.
  await page.keyboard.type('纵隔居中。');
  await expect(editorOf(page, 'finding')).toHaveText('双肺纹理清晰。纵隔居中。');
  await page.evaluate((token) => localStorage.setItem('user-access-token', token), await expiredTokenFor(await accountId(page)));
  await page.keyboard.press('Control+s');

  const dialog = page.getByRole('dialog', { name: 'Login expired' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // Same page, same editor, same words; and they save now.
  await expect(page.locator('[data-report-workspace]')).toHaveAttribute('data-mounted-before-expiry', 'yes');
  await expect(editorOf(page, 'finding')).toHaveText('双肺纹理清晰。纵隔居中。');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'unsaved');
  await editorOf(page, 'finding').focus();
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');
  expect((await reportAs('rad1', reportId)).finding).toBe('<p>双肺纹理清晰。纵隔居中。</p>');
});

test('a closed tab loses no words: reopening offers the newer local draft, Enter restores it, and it saves', async ({ page }) => {
  const { path, reportId } = await freshCase();
  await signIn(page, 'rad1');
  await openWorkspace(page, path);
  // Type once the caret is there, as a person does (under load the focus lands a moment after the page).
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.type('肝脏形态大小正常。');
  await page.keyboard.press('Tab');
  await page.keyboard.type('肝脏未见异常。');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'unsaved');

  // Gone without saving (a crash, a closed tab): the next visit finds the draft.
  await page.goto('/settings/profile');
  await openWorkspace(page, path);
  const banner = page.locator('[data-banner="draft"]');
  await expect(banner).toContainText('newer than the saved report');
  await expect(page.locator('[data-action]')).toHaveCount(0);
  await expect(banner.getByRole('button', { name: 'Restore draft' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(banner).toBeHidden();
  await expect(editorOf(page, 'finding')).toHaveText('肝脏形态大小正常。');
  await expect(editorOf(page, 'diagnosis')).toHaveText('肝脏未见异常。');
  await editorOf(page, 'finding').focus();
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');
  const saved = await reportAs('rad1', reportId);
  expect([saved.finding, saved.diagnosis]).toEqual(['<p>肝脏形态大小正常。</p>', '<p>肝脏未见异常。</p>']);

  // Saved: the draft is gone, nothing is offered any more.
  await page.reload();
  await expect(page.locator('[data-report-workspace]')).toBeVisible();
  await expect(editorOf(page, 'finding')).toHaveText('肝脏形态大小正常。');
  await expect(page.locator('[data-banner="draft"]')).toHaveCount(0);
});

test('submit refuses empty findings and conclusion before asking the server; reject asks a reason; Esc leaves the editor, then the page', async ({ page, browser }) => {
  const { path, reportId } = await freshCase();
  await signIn(page, 'rad1');
  await openWorkspace(page, path);
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[data-notice="error"]')).toHaveText(/Findings or conclusion must not be empty/);
  expect((await reportAs('rad1', reportId)).status).toBe('none');

  await page.keyboard.type('心影不大。');
  await submitByKeyboard(page);

  const chiefContext = await browser.newContext();
  const chief = await chiefContext.newPage();
  await prefer(chief, { language: 'en' });
  await signIn(chief, 'chief');
  await openWorkspace(chief, path);
  await chief.locator('[data-report-workspace]').focus();
  await chief.keyboard.press('Control+Shift+R');
  const reason = chief.getByRole('dialog', { name: 'Reject the report' });
  await expect(reason).toBeVisible();
  await chief.keyboard.press('Enter');
  await expect(reason).toContainText('Give a reason');
  await chief.keyboard.type('结论不完整');
  await chief.keyboard.press('Enter');
  await expect(chief.getByTestId('exam-header').locator('[data-status="hold"]')).toBeVisible();
  await chiefContext.close();

  // rad1 sees why it came back, and Esc leaves the editor first, then the workspace.
  await page.reload();
  await expect(page.getByRole('note')).toContainText('结论不完整');
  await expect(editorOf(page, 'finding')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(editorOf(page, 'finding')).not.toBeFocused();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/studies(\?.*)?$/);
});

test('Alt+↓ and Alt+↑ walk the worklist order; every action is in the palette and nothing shows a raw key', async ({ page }) => {
  const first = await freshCase();
  const second = await freshCase();
  await page.addInitScript((order) => sessionStorage.setItem('worklist.caseOrder', JSON.stringify(order)), {
    returnPath: '/studies', filters: [], sorts: [], total: 2, offset: 0, current: null,
    entries: [{ examId: first.examId, reportId: first.reportId }, { examId: second.examId, reportId: second.reportId }],
  });
  await signIn(page, 'rad1');
  await openWorkspace(page, first.path);
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page).toHaveURL(new RegExp(`${second.path}$`));
  await expect(page.locator(`[data-report-workspace="${second.reportId}"]`)).toBeVisible();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByText('This is the last case of the worklist')).toBeVisible();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page).toHaveURL(new RegExp(`${first.path}$`));

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  for (const name of ['Save', 'Submit', 'Insert a report template…', 'Next case', 'Back to the worklist']) {
    await expect(palette.getByRole('option', { name: new RegExp(`^${name}`) }).first()).toBeVisible();
  }
  await expect(palette.getByRole('option', { name: /^Approve/ })).toHaveCount(0);
  await page.keyboard.type('insert a report');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Report templates' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
  expect(await page.locator('body').innerText()).not.toMatch(/\b(report|print)\.[a-z]+\.[a-zA-Z.]+/);
});
