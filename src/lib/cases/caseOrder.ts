/**
 * The worklist's current view as an ordered list of cases, for other screens to walk: the report workspace's
 * next/previous case (Alt+↓ / Alt+↑) and its way back to the same worklist row (Esc there, or Back).
 *
 * The worklist publishes the view when it opens a case; the workspace reads it:
 *   const next = await neighbourCase(examId, +1);          // { examId, reportId } or null at the end
 *   if (next) navigate(await casePath(next));               // creates the report when the exam has none
 *   noteCurrentCase(next.examId);                           // the worklist focuses this row on return
 *   navigate(worklistReturnPath());                         // '/studies?…' of the same view
 *
 * The list is a window of the loaded rows (the worklist loads pages of 20 as it scrolls). Walking past its ends
 * fetches the neighbouring page with the view's own query, so the order is the view's order to its last row.
 * Kept in sessionStorage: it survives a reload of the workspace, dies with the tab, and is cleared at logout.
 */
import { EXAM_PAGE_SIZE } from '../../../contract/constants';
import type { Filter, Page, Sort } from '../../../contract/common';
import type { ReportView } from '../../../contract/reports';
import { primeReport } from '@/lib/cases/primed';
import { registerModuleReset } from '@/lib/session/moduleState';
import { http } from '@/lib/http';

export interface CaseEntry {
  examId: number;
  /** The exam's current report, or null when none has been written yet. */
  reportId: number | null;
}

export interface CaseOrder {
  /** The worklist URL of the view (path and query), to come back to it. */
  returnPath: string;
  /** The view's page query, to fetch cases beyond the loaded window in the same order. */
  filters: Filter[];
  sorts: Sort[];
  /** Rows in the view. */
  total: number;
  /** Position in the view of `entries[0]`. */
  offset: number;
  entries: CaseEntry[];
  /** The case last opened; the worklist focuses its row when it is shown again. */
  current: number | null;
}

const KEY = 'worklist.caseOrder';

interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function store(): KeyValue | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function isOrder(value: unknown): value is CaseOrder {
  const o = value as CaseOrder | null;
  return !!o && typeof o.returnPath === 'string' && Array.isArray(o.entries) && Array.isArray(o.filters) && typeof o.offset === 'number';
}

export function readCaseOrder(storage: KeyValue | null = store()): CaseOrder | null {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? 'null');
    return isOrder(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function write(order: CaseOrder, storage: KeyValue | null) {
  try {
    storage?.setItem(KEY, JSON.stringify(order));
  } catch {
    // A full storage loses next/previous across reloads only.
  }
}

/** The worklist publishes its view (called when it opens a case). */
export function publishCaseOrder(order: CaseOrder, storage: KeyValue | null = store()): void {
  write(order, storage);
}

/** Records the case now open, so the worklist comes back to its row. */
export function noteCurrentCase(examId: number, storage: KeyValue | null = store()): void {
  const order = readCaseOrder(storage);
  if (order) write({ ...order, current: examId }, storage);
}

/** Where the worklist was: its URL with the same filters, or the plain worklist. */
export function worklistReturnPath(storage: KeyValue | null = store()): string {
  return readCaseOrder(storage)?.returnPath ?? '/studies';
}

export type PageFetcher = (query: { filters: Filter[]; sorts: Sort[]; skip: number; limit: number }) => Promise<Page<CaseEntry>>;

/** POST exams/page-query, reduced to the two ids a case needs. */
export const fetchCasePage: PageFetcher = async (query) => {
  const page = await http.post<Page<{ id: number; reportId: number | null }>>('exams/page-query', query);
  return { total: page.total, items: page.items.map((exam) => ({ examId: exam.id, reportId: exam.reportId ?? null })) };
};

/**
 * The case `step` places after (`+1`) or before (`-1`) `examId` in the view, or null at either end of the view
 * (or when the exam is not in it). Fetches the next page of the view when the loaded window ends.
 */
export async function neighbourCase(
  examId: number,
  step: 1 | -1,
  fetchPage: PageFetcher = fetchCasePage,
  storage: KeyValue | null = store(),
): Promise<CaseEntry | null> {
  const order = readCaseOrder(storage);
  if (!order) return null;
  const index = order.entries.findIndex((e) => e.examId === examId);
  if (index < 0) return null;
  const target = index + step;
  if (target >= 0 && target < order.entries.length) return order.entries[target]!;
  const position = order.offset + target;
  if (position < 0 || position >= order.total) return null;

  // Past the loaded window: fetch the page of the view that holds the neighbour and extend the window with it.
  const skip = Math.floor(position / EXAM_PAGE_SIZE) * EXAM_PAGE_SIZE;
  const page = await fetchPage({ filters: order.filters, sorts: order.sorts, skip, limit: EXAM_PAGE_SIZE });
  const found = page.items[position - skip];
  if (!found) return null;
  const extended =
    step > 0
      ? { ...order, total: page.total, entries: [...order.entries, ...page.items.slice(position - skip)] }
      : { ...order, total: page.total, offset: skip, entries: [...page.items.slice(0, position - skip + 1), ...order.entries] };
  write(extended, storage);
  return found;
}

/**
 * The report workspace path of a case. An exam without a report gets its draft first (POST exams/{id}/reports,
 * which answers the existing report when another user created one meanwhile).
 */
export async function casePath(entry: CaseEntry, post: typeof http.post = http.post): Promise<string> {
  if (entry.reportId !== null) return `/studies/${entry.examId}/reports/${entry.reportId}`;
  const view = await post<ReportView>(`exams/${entry.examId}/reports`);
  primeReport(view);
  return `/studies/${entry.examId}/reports/${view.id}`;
}

registerModuleReset(() => store()?.removeItem(KEY));
