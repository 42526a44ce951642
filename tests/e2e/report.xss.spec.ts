import { expect, test, type Locator, type Page } from '@playwright/test';
import { prefer, signIn } from './support/session';
import { apiAs, freshCase, openWorkspace, reportAs } from './support/reportApi';

/**
 * Report HTML with attack payloads never runs in the workspace, the trace and diff views or the print view.
 * The server cleans what it stores, so a stored payload can only come from an older row or another system:
 * the test puts it into the server's answers (as such a row would arrive) and also saves it through the API.
 */
test.beforeEach(async ({ page }) => {
  await prefer(page, { language: 'en' });
});

const PAYLOADS = [
  '<script>window.__xss = "script"</script>',
  '<img src=x onerror="window.__xss = \'img\'">',
  '<p onclick="window.__xss = \'click\'" onmouseover="window.__xss = \'hover\'">悬停</p>',
  '<a href="javascript:window.__xss=\'link\'">链接</a>',
  '<a href="jav&#x09;ascript:window.__xss=\'tab\'">链接2</a>',
  '<svg onload="window.__xss = \'svg\'"><circle r="5"/></svg>',
  '<iframe srcdoc="<script>parent.__xss = \'iframe\'</script>"></iframe>',
  '<details open ontoggle="window.__xss = \'toggle\'"><summary>x</summary></details>',
  '<p style="background:url(javascript:window.__xss=1)">背景</p>',
  '<object data="data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg=="></object>',
  '<form action="javascript:window.__xss=\'form\'"><button>提交</button></form>',
].join('');
/** Left unclosed on purpose, so it comes last: whatever follows it ends up inside it. */
const MUTATION = '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'math\'">';
const MARKED = `<p>所见开始</p>${PAYLOADS}<p>所见结束</p>${MUTATION}`;

/** Listens for anything a payload could do: a dialog, a page error, the marker variable. */
function watch(page: Page) {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => events.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The content security policy reports the inline handlers the sanitiser parses into an inert copy ("… The action
    // has been blocked."): refused by the policy, run by nothing. Anything else naming xss or javascript: counts.
    const text = message.text();
    if (message.type() === 'error' && /xss|Refused to|javascript:/i.test(text) && !/The action has been blocked\.?$/.test(text)) events.push(`console: ${text}`);
  });
  return events;
}

/** Nothing that can run inside `selector`: no script, frame, object or svg; no on* attribute; no javascript: link. */
async function expectInert(page: Page, selector: string) {
  const found = await page.locator(selector).evaluateAll((roots) => roots.flatMap((root) => [...root.querySelectorAll('*')].flatMap((el) => {
    const bad: string[] = [];
    if (/^(script|iframe|object|embed|svg|math|form|style|img)$/i.test(el.tagName)) bad.push(el.tagName);
    for (const attr of [...el.attributes]) {
      if (/^on/i.test(attr.name)) bad.push(`${el.tagName}[${attr.name}]`);
      if (/^(href|src|action|formaction|data)$/i.test(attr.name) && /script:/i.test(attr.value.replace(/\s/g, ''))) bad.push(`${el.tagName}[${attr.name}=${attr.value}]`);
    }
    return bad;
  })));
  expect(found).toEqual([]);
}

/** Hovers the payload that reacts to the mouse, inside `scope`. */
async function hover(scope: Locator) {
  const target = scope.getByText('悬停', { exact: true }).first();
  await expect(target).toBeVisible();
  await target.hover();
}

test('payloads in the report, its trace, its diff and its print data are shown as text and never run', async ({ page }) => {
  const events = watch(page);
  // A real report with payloads saved through the API (the server keeps only what is allowed)...
  const { path, reportId, examId } = await freshCase();
  let detail = await reportAs('rad1', reportId);
  for (const action of ['save', 'submit'] as const) {
    const res = await apiAs<{ version: number }>('rad1', 'POST', `reports/${reportId}/${action}`, { version: detail.version, finding: MARKED, diagnosis: `<p>结论</p>${PAYLOADS}` });
    if (res.status === 409) {
      // Joint exams of the same visit: confirm them all and submit again.
      const pending = res.body as unknown as { details: { exams: { id: number }[] } };
      const again = await apiAs<{ version: number }>('rad1', 'POST', `reports/${reportId}/submit`, {
        version: detail.version, finding: MARKED, diagnosis: `<p>结论</p>${PAYLOADS}`, jointExams: { confirm: pending.details.exams.map((e) => e.id), discard: [] },
      });
      expect(again.status).toBe(200);
    } else {
      expect(res.status).toBe(200);
    }
    detail = await reportAs('rad1', reportId);
  }
  const approved = await apiAs('chief', 'POST', `reports/${reportId}/approve`, { version: detail.version });
  expect(approved.status).toBe(200);

  // ...and the same payloads as an older row would bring them, in every answer the views render.
  await page.route(`**/api/v1/reports/${reportId}/detail`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: { ...body, finding: MARKED, diagnosis: `<p>结论</p>${PAYLOADS}`, note: PAYLOADS, criticalValue: PAYLOADS, rejectReason: PAYLOADS } });
  });
  await page.route(`**/api/v1/reports/${reportId}/traces/*`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: { ...body, snapshot: { ...body.snapshot, finding: MARKED, diagnosis: PAYLOADS, note: PAYLOADS } } });
  });
  await page.route(`**/api/v1/reports/${reportId}/diff-trace*`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.fields = body.fields.map((f: { kind: string; parts?: unknown[] }) => (f.kind === 'text' ? { ...f, changed: true, parts: [{ value: PAYLOADS, added: true, removed: false }, { value: MARKED, added: false, removed: true }] } : f));
    await route.fulfill({ response: res, json: body });
  });
  await page.route(`**/api/v1/reports/${reportId}/print-data`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({
      response: res,
      json: { ...body, report: { ...body.report, finding: MARKED, diagnosis: PAYLOADS, criticalValue: PAYLOADS }, template: { ...body.template, titles: [PAYLOADS], logo: 'javascript:window.__xss=1' } },
    });
  });

  await signIn(page, 'chief');
  await openWorkspace(page, path);
  const workspace = page.locator('[data-report-workspace]');
  await expect(page.locator('[data-section="finding"]')).toContainText('所见开始');
  await expect(page.locator('[data-section="finding"]')).toContainText('所见结束');
  await hover(page.locator('[data-section="finding"]'));
  await expectInert(page, '[data-section]');
  await expectInert(page, '[data-report-workspace] aside');

  // History: one version's text, and the diff of two versions.
  await page.getByRole('tab', { name: 'History' }).click();
  const traces = page.locator('[data-trace]');
  await expect(traces.first()).toBeVisible();
  await traces.first().getByRole('button').first().click();
  const version = page.locator('[data-snapshot]');
  await expect(version).toContainText('所见开始');
  await hover(version);
  await expectInert(page, '[data-snapshot]');
  await page.keyboard.press('Escape');
  await traces.first().getByRole('button', { name: /Compare with the version before/ }).click();
  const diff = page.locator('[data-diff]');
  await expect(diff).toContainText('<script>');
  await expectInert(page, '[data-diff]');
  await page.keyboard.press('Escape');

  // The print view of the approved report.
  await workspace.focus();
  await page.keyboard.press('Control+p');
  await expect(page).toHaveURL(new RegExp(`/studies/${examId}/reports/${reportId}/print$`));
  await expect(page.locator('.print-preview .print-sheet')).toContainText('所见结束');
  // The javascript: logo is refused as a template that cannot be downloaded, and printing is not offered.
  await expect(page.getByText('Template download failed')).toBeVisible();
  await expectInert(page, '.print-sheet .print-body');
  await expectInert(page, '.print-sheet .print-titles');
  await expect(page.locator('.print-sheet img[src^="javascript"]')).toHaveCount(0);

  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(events).toEqual([]);
});
