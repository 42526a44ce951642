import { useEffect, useState } from 'react';

/**
 * A searched, paged list's search box: the typed text becomes the query a moment after the last key, and only a
 * changed query goes back to the first page (a stray space, or the first render, keeps the page one is on).
 */
export function useTypedQuery(delayMs = 250) {
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  useEffect(() => {
    const next = typed.trim();
    if (next === query) return;
    const timer = setTimeout(() => { setQuery(next); setPage(0); }, delayMs);
    return () => clearTimeout(timer);
  }, [typed, query, delayMs]);
  return { typed, setTyped, query, setQuery, page, setPage };
}
