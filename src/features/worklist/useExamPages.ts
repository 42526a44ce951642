import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { EXAM_PAGE_SIZE } from '../../../contract/constants';
import type { Filter, Sort } from '../../../contract/common';
import type { ExamPage } from '../../../contract/exams';
import { http, isSessionEndingError, onSessionResumed } from '@/lib/http';
import { PageCache } from './pageCache';
import { viewFilters, viewSorts } from './query';
import type { ExamRow } from './types';
import type { WorklistView } from './view';

export interface ViewQuery {
  filters: Filter[];
  sorts: Sort[];
}

export interface ExamPages {
  cache: PageCache<ExamRow>;
  version: number;
  /** The query the rows were fetched with (the same for export and the case order), fixed at the first fetch. */
  query(): ViewQuery;
  totalIsEstimate: boolean;
  /** Takes a new snapshot of the view (new exams appear) and fetches the rows in view again. */
  refresh(): void;
}

/**
 * The rows of a view, as a page cache over POST exams/page-query. A new view or a refresh starts a new cache; its
 * query is made when its first page is asked for, so "today" and the snapshot that keeps later pages aligned
 * with the first are the moment the rows were asked for.
 */
export function useExamPages(view: WorklistView, viewKey: string): ExamPages {
  const [round, setRound] = useState(0);

  const pages = useMemo(() => {
    const answered: { query: ViewQuery | null; estimate: boolean } = { query: null, estimate: false };
    const query = (): ViewQuery => {
      if (!answered.query) {
        const now = new Date();
        answered.query = { filters: viewFilters(view, { now, snapshot: now }), sorts: viewSorts(view) };
      }
      return answered.query;
    };
    const cache = new PageCache<ExamRow>(async (skip, limit, signal) => {
      const page = await http.post<ExamPage>('exams/page-query', { ...query(), skip, limit }, { signal });
      answered.estimate = page.totalIsEstimate;
      return page;
    }, { pageSize: EXAM_PAGE_SIZE });
    return { cache, query, isEstimate: () => answered.estimate };
    // The view is read through its key (two equal views share a cache); `round` is a refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [viewKey, round]);

  useEffect(() => () => pages.cache.dispose(), [pages]);
  // Core §8: after the re-login the list carries on where it stopped, with the rows it already had.
  useEffect(() => onSessionResumed(() => {
    if (isSessionEndingError(pages.cache.error)) pages.cache.retry();
  }), [pages]);
  const version = useSyncExternalStore(pages.cache.subscribe, pages.cache.getVersion, pages.cache.getVersion);
  return {
    cache: pages.cache,
    version,
    query: pages.query,
    totalIsEstimate: version >= 0 && pages.isEstimate(),
    refresh: () => setRound((r) => r + 1),
  };
}
