import { useEffect, useState } from 'react';
import { isSessionEndingError } from '@/lib/http';

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; error: unknown } | { state: 'off' };

/**
 * One request per key, cancelled when the key changes or the drawer closes; a late answer for an older key is
 * dropped. `key` null means "not asked" (a section the user may not see).
 */
export function useLoaded<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): [Loaded<T>, () => void] {
  const [result, setResult] = useState<{ key: string | null; value: Loaded<T> }>({ key: null, value: { state: 'off' } });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setResult({ key, value: { state: 'ready', data } }),
      (error: unknown) => {
        if (controller.signal.aborted || isSessionEndingError(error)) return;
        setResult({ key, value: { state: 'error', error } });
      },
    );
    return () => controller.abort();
    // `load` is read with its key: the caller builds it from the same ids.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const value: Loaded<T> = key === null ? { state: 'off' } : result.key === key ? result.value : { state: 'loading' };
  return [value, () => setRound((r) => r + 1)];
}
