import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';

/**
 * Where a refused write is said: in a passing toast (`toast`), or only in `error` for the screen to keep beside
 * what it is about (`inline`: a settings limit, a dialog's named fields — see ErrorNote).
 */
export type WriteErrors = 'toast' | 'inline';

/**
 * One write at a time on an administration screen: `busy` while it runs (buttons wait, a second Enter sends nothing),
 * a success toast when given one. The refusal is always in `error` (cleared when the next write starts, or by
 * `clear`); with `errors: 'toast'` it is also shown as the server's catalogue message. Resolves true when it
 * succeeded. A session that is ending is never an error here: the sign-in takes over.
 */
export function useWrite({ errors = 'toast' }: { errors?: WriteErrors } = {}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (call: () => Promise<unknown>, success?: string): Promise<boolean> => {
    if (busy) return false;
    setBusy(true);
    setError(null);
    try {
      await call();
      if (success) toasts.show({ message: success, kind: 'success', duration: 2500 });
      return true;
    } catch (err) {
      if (isSessionEndingError(err)) return false;
      setError(err);
      if (errors === 'toast') toasts.show({ message: errorText(t, err), kind: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(null) };
}

/** Esc in a field of a screen's toolbar hands the keys back to the screen (its 1–4 and other shortcuts). */
export function blurOnEscape(event: { key: string; currentTarget: HTMLElement }): void {
  if (event.key === 'Escape') event.currentTarget.blur();
}
