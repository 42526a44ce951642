import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';
import { apiAs, freshCase, openWorkspace, reportAs } from './support/reportApi';

/**
 * The working screens — worklist, advanced search, exam drawer, report workspace, history diff, print view — in
 * both themes, in Chinese and English (Tibetan once), saved to .tmp/screens/ for a look. Each must show no
 * untranslated key and log no error on the console.
 */
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

const FINDING = '<p>双肺纹理清晰，未见明显实质性病变。纵隔居中，心影大小形态正常。</p><p>双侧胸膜未见增厚，肋膈角锐利。</p>';
const CONCLUSION = '<p>胸部CT平扫未见明显异常。</p>';

/** An approved report with two versions of text (for the history's diff and the print view). */
async function approvedCase() {
  const c = await freshCase();
  let detail = await reportAs('rad1', c.reportId);
  const steps: [string, string][] = [['save', FINDING.replace('未见明显', '可见少许')], ['submit', FINDING]];
  for (const [action, finding] of steps) {
    const body = { version: detail.version, finding, diagnosis: CONCLUSION };
    let res = await apiAs<{ details?: { exams: { id: number }[] } }>('rad1', 'POST', `reports/${c.reportId}/${action}`, body);
    if (res.status === 409 && res.body.details?.exams) {
      res = await apiAs('rad1', 'POST', `reports/${c.reportId}/${action}`, { ...body, jointExams: { confirm: res.body.details.exams.map((e) => e.id), discard: [] } });
    }
    expect(res.status).toBe(200);
    detail = await reportAs('rad1', c.reportId);
  }
  expect((await apiAs('chief', 'POST', `reports/${c.reportId}/approve`, { version: detail.version })).status).toBe(200);
  return c;
}

interface Screen {
  name: string;
  open: (page: Page, ctx: { approved: { path: string; examId: number }; draft: { path: string } }) => Promise<void>;
}

const grid = (p: Page) => p.locator('[data-testid="worklist-grid"]');

const SCREENS: Screen[] = [
  {
    name: 'worklist',
    open: async (p) => {
      await p.goto('/studies');
      await expect(grid(p).locator('[role="row"][data-focused]')).toBeVisible();
    },
  },
  {
    name: 'worklist-advanced',
    open: async (p) => {
      await p.goto('/studies');
      await expect(grid(p).locator('[role="row"][data-focused]')).toBeVisible();
      await p.keyboard.press('f');
      await expect(p.locator('form').filter({ has: p.locator('input') }).first()).toBeVisible();
    },
  },
  {
    name: 'exam-drawer',
    open: async (p, { approved }) => {
      await p.goto(`/studies?exam=${approved.examId}`);
      await expect(p.getByTestId('exam-drawer')).toBeVisible();
      await expect(p.getByTestId('exam-drawer').locator('[data-trace], [data-report-row], section').first()).toBeVisible();
    },
  },
  {
    name: 'report-workspace',
    open: async (p, { draft }) => {
      await openWorkspace(p, draft.path);
      await expect(p.locator('.report-editor[data-field="finding"]')).toBeFocused();
      await p.keyboard.type('肝脏形态大小正常，实质密度均匀。');
    },
  },
  {
    name: 'report-history-diff',
    open: async (p, { approved }) => {
      await openWorkspace(p, approved.path);
      await p.locator('[data-report-workspace] aside [role="tab"]').nth(1).click();
      const traces = p.locator('[data-trace]');
      await expect(traces.first()).toBeVisible();
      await traces.first().getByRole('button').last().click();
      await expect(p.locator('[data-diff]')).toBeVisible();
    },
  },
  {
    name: 'print-view',
    open: async (p, { approved }) => {
      await p.goto(`${approved.path}/print`);
      await expect(p.locator('.print-preview .print-sheet')).toContainText('胸部CT平扫');
    },
  },
];

const RUNS = looks();

for (const [language, theme] of RUNS) {
  test(`working screens in ${language}, ${theme} theme`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const approved = await approvedCase();
    const draft = await freshCase();
    await prefer(page, { language, theme });
    await signIn(page, 'rad1');
    for (const screen of SCREENS) {
      await screen.open(page, { approved, draft });
      await page.waitForTimeout(200); // let transitions settle before the picture
      await page.screenshot({ path: `${OUT}/${screen.name}-${language}-${theme}.png` });
      expect(await page.locator('body').innerText(), `${screen.name}: an untranslated key is on screen`).not.toMatch(RAW_KEY);
      // Leave the page as a user would, so the next screen starts from a quiet state.
      await page.goto('/404');
    }
    expect(errors).toEqual([]);
  });
}
