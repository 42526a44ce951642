import { useCallback, useEffect, useState } from 'react';

/**
 * A call run whenever its key changes (null: not yet) or `reload()` is asked. While a new answer is on its way
 * the last one stays (`data`), so a table does not blink on refresh or paging; `loading` says a call is out.
 */
export function useLoad<T>(key: string | null, call: (signal: AbortSignal) => Promise<T>) {
  const [round, setRound] = useState(0);
  const [result, setResult] = useState<{ key: string; round: number; data: T | null; error: unknown } | null>(null);
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    call(controller.signal).then(
      (data) => setResult({ key, round, data, error: null }),
      (error: unknown) => !controller.signal.aborted && setResult({ key, round, data: null, error }),
    );
    return () => controller.abort();
    // `call` is rebuilt every render; the key and the round say when to ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  /** Shows what a write already answered before the next load confirms it (the registry's saved row under Enter). */
  const put = useCallback((update: (data: T | null) => T | null) => setResult((r) => (r ? { ...r, data: update(r.data) } : r)), []);
  const fresh = result !== null && result.key === key && result.round === round;
  return {
    data: result?.data ?? null,
    /** The answer belongs to another key (another organisation or page): shown dimmed until the new one is in. */
    stale: !fresh,
    error: fresh ? result.error : null,
    loading: key !== null && !fresh,
    reload,
    put,
  };
}

