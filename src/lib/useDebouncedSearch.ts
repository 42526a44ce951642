import { useEffect, useRef, useState } from 'react';

/** How long typing rests before a search box asks the server. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * The answer of a search box: asks `search` with the trimmed text once typing rests, aborts the question a newer
 * text replaced, and keeps the last answer and error. `found` is null while the box is empty. `search` may change
 * on every render; the latest is used (what the results depend on besides the text goes into `deps`).
 */
export function useDebouncedSearch<T>(text: string, search: (q: string, signal: AbortSignal) => Promise<T[]>, deps: readonly unknown[] = []) {
  const [found, setFound] = useState<T[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(search);
  // Before the search effect below (effects run in order), so a rest of typing asks with the latest function.
  useEffect(() => {
    latest.current = search;
  });
  useEffect(() => {
    const q = text.trim();
    if (!q) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      latest.current(q, controller.signal).then((items) => {
        setError(null);
        setFound(items);
      }, (err: unknown) => !controller.signal.aborted && setError(err));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` is the caller's list of what the answer depends on
  }, [text, ...deps]);
  return { found: text.trim() ? found : null, error };
}
