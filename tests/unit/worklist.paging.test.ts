import { describe, expect, it } from 'vitest';
import type { Page } from '../../contract/common';
import type { ReportView } from '../../contract/reports';
import { resetModuleState } from '@/lib/session/moduleState';
import { primeReport, takePrimedReport } from '@/lib/cases/primed';
import { casePath, neighbourCase, noteCurrentCase, publishCaseOrder, readCaseOrder, worklistReturnPath, type CaseEntry, type PageFetcher } from '@/lib/cases/caseOrder';
import { PageCache } from '@/features/worklist/pageCache';

function memory() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
}

/** A view of `total` exams whose ids are 1000 + position, served in pages; it records what was asked. */
function serverOf(total: number) {
  const asked: { skip: number; limit: number }[] = [];
  const pending: (() => void)[] = [];
  const fetchPage = (skip: number, limit: number, signal: AbortSignal) =>
    new Promise<Page<{ id: number }>>((resolve, reject) => {
      asked.push({ skip, limit });
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      pending.push(() => resolve({ total, items: Array.from({ length: Math.max(0, Math.min(limit, total - skip)) }, (_, i) => ({ id: 1000 + skip + i })) }));
    });
  const answerAll = async () => {
    while (pending.length) pending.shift()!();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { fetchPage, asked, answerAll };
}

describe('worklist page cache', () => {
  it('asks for the first page alone until it knows the total, then for the pages of the range, nearest first', async () => {
    const server = serverOf(500);
    const cache = new PageCache(server.fetchPage, { pageSize: 20, concurrency: 3 });
    cache.ensure(0, 79);
    expect(server.asked).toEqual([{ skip: 0, limit: 20 }]);
    await server.answerAll();
    expect(cache.total).toBe(500);
    expect(cache.rowAt(19)).toEqual({ id: 1019 });
    expect(cache.rowAt(20)).toBeUndefined();

    cache.ensure(0, 79);
    expect(server.asked.slice(1).map((a) => a.skip).sort((a, b) => a - b)).toEqual([20, 40, 60]);
    await server.answerAll();
    expect(cache.loadedRun(45)).toMatchObject({ offset: 0 });
    expect(cache.loadedRun(45).rows).toHaveLength(80);
  });

  it('never asks twice for a page it holds or is fetching, and forgets requests a newer range does not need', async () => {
    const server = serverOf(10_000);
    const cache = new PageCache(server.fetchPage, { pageSize: 20, concurrency: 2 });
    cache.ensure(0, 0);
    await server.answerAll();
    cache.ensure(0, 59);
    cache.ensure(0, 59);
    expect(server.asked.filter((a) => a.skip === 20)).toHaveLength(1);
    // The user jumped to the end: the pages near the top are no longer wanted.
    cache.ensure(9_960, 9_999);
    await server.answerAll();
    expect(cache.rowAt(9_999)).toEqual({ id: 10_999 });
    expect(cache.rowAt(45)).toBeUndefined();
  });

  it('finds a loaded exam nearest to where it was, so a returning user lands on the same case', async () => {
    const server = serverOf(100);
    const cache = new PageCache(server.fetchPage, { pageSize: 20 });
    cache.ensure(0, 0);
    await server.answerAll();
    cache.ensure(0, 99);
    await server.answerAll();
    expect(cache.findIndex((row) => row.id === 1057, 50)).toBe(57);
    expect(cache.findIndex((row) => row.id === 5, 50)).toBe(-1);
  });

  it('reports a failure and stops asking until the screen retries', async () => {
    const cache = new PageCache(() => Promise.reject(new Error('503')), { pageSize: 20 });
    cache.ensure(0, 100);
    await Promise.resolve();
    await Promise.resolve();
    expect(cache.status).toBe('error');
    expect(cache.total).toBeNull();
  });

  it('does not ask again when the screen re-renders after a failure (the 401 storm), only when it retries', async () => {
    let fail = true;
    let calls = 0;
    const cache = new PageCache<{ id: number }>(async (skip, limit) => {
      calls += 1;
      if (fail) throw new Error('401');
      return { total: 100, items: Array.from({ length: limit }, (_, i) => ({ id: skip + i })) };
    }, { pageSize: 20 });
    // The grid asks for its range on every change of the cache, as Grid.tsx's effect does.
    cache.subscribe(() => cache.ensure(0, 39));
    cache.ensure(0, 39);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(cache.status).toBe('error');
    expect(calls).toBe(1);
    cache.ensure(40, 79); // the user scrolled or pressed PageDown
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(calls).toBe(1);

    fail = false;
    cache.retry();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(cache.status).toBe('ready');
    expect(cache.rowAt(0)).toEqual({ id: 0 });
    expect(cache.rowAt(39)).toEqual({ id: 39 });
  });
});

describe('worklist case order', () => {
  const entries = (from: number, to: number): CaseEntry[] => Array.from({ length: to - from }, (_, i) => ({ examId: 1000 + from + i, reportId: (from + i) % 2 ? 50 + from + i : null }));
  const order = { returnPath: '/studies?today=1&mod=ct', filters: [{ field: 'modality', operator: 'in' as const, values: ['CT'] }], sorts: [{ field: 'created', direction: 'desc' as const }] };

  it('walks the loaded rows of the view in order and stops at its ends', async () => {
    const storage = memory();
    publishCaseOrder({ ...order, total: 3, offset: 0, entries: entries(0, 3), current: 1000 }, storage);
    const noFetch: PageFetcher = () => Promise.reject(new Error('not needed'));
    expect(await neighbourCase(1000, 1, noFetch, storage)).toEqual({ examId: 1001, reportId: 51 });
    expect(await neighbourCase(1002, 1, noFetch, storage)).toBeNull();
    expect(await neighbourCase(1000, -1, noFetch, storage)).toBeNull();
    expect(await neighbourCase(4242, 1, noFetch, storage)).toBeNull();
  });

  it('fetches the next page of the same query past the loaded rows, and extends the window with it', async () => {
    const storage = memory();
    publishCaseOrder({ ...order, total: 100, offset: 20, entries: entries(20, 40), current: 1039 }, storage);
    const asked: unknown[] = [];
    const fetchPage: PageFetcher = async (q) => {
      asked.push(q);
      return { total: 100, items: entries(q.skip, q.skip + q.limit) };
    };
    expect(await neighbourCase(1039, 1, fetchPage, storage)).toEqual({ examId: 1040, reportId: null });
    expect(asked).toEqual([{ filters: order.filters, sorts: order.sorts, skip: 40, limit: 20 }]);
    expect(await neighbourCase(1040, 1, fetchPage, storage)).toEqual({ examId: 1041, reportId: 91 });
    expect(asked).toHaveLength(1);
    expect(await neighbourCase(1020, -1, fetchPage, storage)).toEqual({ examId: 1019, reportId: 69 });
    expect(readCaseOrder(storage)).toMatchObject({ offset: 0 });
    expect(readCaseOrder(storage)!.entries).toHaveLength(60);
  });

  it('remembers the case the workspace moved to, and the way back to the same view', () => {
    const storage = memory();
    expect(worklistReturnPath(storage)).toBe('/studies');
    publishCaseOrder({ ...order, total: 3, offset: 0, entries: entries(0, 3), current: 1000 }, storage);
    noteCurrentCase(1002, storage);
    expect(readCaseOrder(storage)?.current).toBe(1002);
    expect(worklistReturnPath(storage)).toBe('/studies?today=1&mod=ct');
  });

  it('opens an exam with a report at its report, and creates the draft first for one without', async () => {
    const posted: string[] = [];
    const post = (async (path: string) => {
      posted.push(path);
      return { id: 77 };
    }) as never;
    expect(await casePath({ examId: 5, reportId: 9 }, post)).toBe('/studies/5/reports/9');
    expect(posted).toEqual([]);
    expect(await casePath({ examId: 6, reportId: null }, post)).toBe('/studies/6/reports/77');
    expect(posted).toEqual(['exams/6/reports']);
    // The draft's answer is handed to the workspace once, so it does not ask for the same view again.
    expect(takePrimedReport(77)).toEqual({ id: 77 });
    expect(takePrimedReport(77)).toBeNull();
  });

  it('hands a primed view only to its own report, only while fresh, and forgets it at logout', () => {
    const view = { id: 5 } as ReportView;
    primeReport(view, 1_000);
    expect(takePrimedReport(6, 1_000)).toBeNull();
    expect(takePrimedReport(5, 1_000)).toBeNull();
    primeReport(view, 1_000);
    expect(takePrimedReport(5, 6_001)).toBeNull();
    primeReport(view, 1_000);
    expect(takePrimedReport(5, 6_000)).toBe(view);
    primeReport(view);
    resetModuleState();
    expect(takePrimedReport(5)).toBeNull();
  });
});
