import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './session';

/** Calls the e2e server's API directly (as the demo users), for setting up what a test starts from: the server of the
 * running test's lane (playwright.config.ts). */
export const apiBase = () => `${test.info().project.use.baseURL}/api/v1/`;
const base = apiBase;

const tokens = new Map<string, string>();

async function login(username: string): Promise<string> {
  const res = await fetch(`${base()}accounts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
  const token = ((await res.json()) as { accessToken: string }).accessToken;
  tokens.set(username, token);
  return token;
}

/**
 * One call as `username`. The token is kept for the next calls; a test that signs the same account out in the browser
 * ends it on the server (core §4), so a 401 signs in again once.
 */
export async function apiAs<T = unknown>(username: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const call = (token: string) => fetch(`${base()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let res = await call(tokens.get(username) ?? await login(username));
  if (res.status === 401) res = await call(await login(username));
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

interface ExamRow { id: number; reportId: number | null; patientId: string; modality: string; bucketId: number }

const used = new Set<number>();

/**
 * An exam of the demo hospital nobody has written a report for, with its (new, empty) draft report: the
 * worklist's "open" does the same POST. Each call gives another exam.
 */
export async function freshCase(username = 'rad1'): Promise<{ examId: number; reportId: number; path: string }> {
  const page = await apiAs<{ items: ExamRow[] }>(username, 'POST', 'exams/page-query', {
    // In-house: an exam sent to an expert is written there (the hospital's own report is read-only meanwhile).
    filters: [
      { field: 'reportStatus', values: ['none'], operator: 'equal' }, { field: 'bucketId', values: [1], operator: 'equal' },
      { field: 'reportSource', values: ['inhouse'], operator: 'equal' },
    ],
    skip: 0, limit: 100, sorts: [{ field: 'created', direction: 'asc' }],
  });
  expect(page.status).toBe(200);
  const exam = page.body.items.find((e) => e.reportId === null && !used.has(e.id));
  if (!exam) throw new Error('no exam without a report left in the demo data');
  used.add(exam.id);
  const created = await apiAs<{ id: number }>(username, 'POST', `exams/${exam.id}/reports`);
  expect([200, 201]).toContain(created.status);
  return { examId: exam.id, reportId: created.body.id, path: `/studies/${exam.id}/reports/${created.body.id}` };
}

export interface ReportAnswer { id: number; version: number; status: string; finding: string; diagnosis: string; transitions: string[] }

export async function reportAs(username: string, reportId: number): Promise<ReportAnswer> {
  const res = await apiAs<ReportAnswer>(username, 'GET', `reports/${reportId}/detail`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits until the workspace shows the report and its editors (or its read-only text) are ready. */
export async function openWorkspace(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('[data-report-workspace]')).toBeVisible();
  await expect(page.locator('[data-status]').first()).toBeVisible();
  // Keys pressed before the exam is drawn could meet a command not yet registered (its actions come with the exam).
  await expect(page.locator('[data-report-workspace]')).toHaveAttribute('aria-busy', 'false');
}

/** Submit with Ctrl+Enter, answering the joint-exam prompt (confirm all) if this visit has such exams. */
export async function submitByKeyboard(page: Page) {
  await page.keyboard.press('Control+Enter');
  const joint = page.getByRole('dialog', { name: 'Joint exams' });
  const submitted = page.locator('[data-status="final"]');
  await expect(joint.or(submitted).first()).toBeVisible();
  if (await joint.isVisible()) {
    await page.keyboard.press('Enter');
  }
  await expect(submitted).toBeVisible();
}
