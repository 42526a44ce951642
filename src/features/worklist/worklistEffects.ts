import { useEffect, useRef } from 'react';
import { warmRoute } from '@/lib/session/routeRegistry';

/**
 * With the drawer open, j/k move the drawer too: it follows the focused row once the keys rest (150 ms), so a
 * held j does not fetch every exam it passes.
 */
export function useDrawerFollow(focusedExam: { id: number } | undefined, detailId: number | null, setDetail: (examId: number | null) => void) {
  const followed = useRef<number | null>(null);
  useEffect(() => {
    const id = focusedExam?.id ?? null;
    const previous = followed.current;
    followed.current = id;
    if (detailId === null || id === null || previous === null || id === previous || id === detailId) return;
    const timer = setTimeout(() => setDetail(id), 150);
    return () => clearTimeout(timer);
  }, [focusedExam, detailId, setDetail]);
}

/**
 * Once rows are in and the browser is idle, the report workspace's code (the editor is the app's largest chunk) is
 * fetched ahead, so the first Enter does not wait for it (issue 37: Enter → editable editor).
 */
export function useWarmWorkspace(rowsIn: boolean) {
  useEffect(() => {
    if (!rowsIn) return;
    const warm = () => warmRoute('/studies/0/reports/0');
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(warm, { timeout: 2000 });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(warm, 500);
    return () => clearTimeout(timer);
  }, [rowsIn]);
}
