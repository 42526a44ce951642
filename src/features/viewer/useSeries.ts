import { useCallback, useEffect, useState } from 'react';
import type { SeriesList, ViewerPath } from '../../../contract/viewer';
import { http } from '@/lib/http';
import { apiBase } from '@/lib/http/rules';
import type { ViewerAccess } from './types';

export interface SeriesData {
  list: SeriesList;
  /** Absolute API base for the loader's own requests. */
  base: string;
}

/**
 * The exam's series and the view token the image loader puts on each file request (it cannot send the
 * bearer header). Signed in, the token comes from viewers/{id}/path; on a share page the link gave it.
 */
export function useSeries(examId: number | undefined, access?: ViewerAccess) {
  const [data, setData] = useState<SeriesData | null>(null);
  const [token, setToken] = useState<string | null>(access?.token ?? null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const seriesPath = access?.seriesPath;
  const accessToken = access?.token;

  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    const base = new URL(apiBase(import.meta.env.VITE_API_PREFIX ?? ''), window.location.origin).href;
    const load = seriesPath && accessToken
      ? http.get<SeriesList>(seriesPath, { query: { token: accessToken }, signal }).then((list) => ({ list, token: accessToken }))
      : examId === undefined ? Promise.reject(new Error('no exam'))
      : Promise.all([
        http.get<SeriesList>(`exams/${examId}/series`, { signal }),
        http.post<ViewerPath>(`viewers/${examId}/path`, undefined, { signal }),
      ]).then(([list, path]) => ({ list, token: path.token }));
    load.then(
      ({ list, token: next }) => {
        setToken(next);
        setError(null);
        setData({ list, base });
      },
      (err: unknown) => {
        if (!signal.aborted) setError(err);
      },
    );
    return () => controller.abort();
  }, [examId, seriesPath, accessToken, attempt]);

  const reload = useCallback(() => {
    setError(null);
    setAttempt((n) => n + 1);
  }, []);
  return { data, token, error, reload };
}
