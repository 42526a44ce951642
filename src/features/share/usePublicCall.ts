import { useEffect, useState } from 'react';

/** A public lookup run when its key changes (null: not yet); answers the data or the failure. */
export function usePublicCall<T>(key: string | null, call: (signal: AbortSignal) => Promise<T>) {
  const [result, setResult] = useState<{ key: string; data: T | null; error: unknown } | null>(null);
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    call(controller.signal).then(
      (data) => setResult({ key, data, error: null }),
      (error: unknown) => !controller.signal.aborted && setResult({ key, data: null, error }),
    );
    return () => controller.abort();
    // `call` is rebuilt every render; the key says when to ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const current = result && result.key === key ? result : null;
  return { data: current?.data ?? null, error: current?.error ?? null, loading: key !== null && current === null };
}
