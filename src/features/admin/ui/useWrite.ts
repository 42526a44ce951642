import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';

/**
 * One write at a time on an administration screen: `busy` while it runs (buttons wait, a second Enter sends nothing),
 * a success toast when given one, the server's catalogue message otherwise. Resolves true when it succeeded.
 */
export function useWrite() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<unknown>, success?: string): Promise<boolean> => {
    if (busy) return false;
    setBusy(true);
    try {
      await call();
      if (success) toasts.show({ message: success, kind: 'success', duration: 2500 });
      return true;
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** Esc in a field of a screen's toolbar hands the keys back to the screen (its 1–4 and other shortcuts). */
export function blurOnEscape(event: { key: string; currentTarget: HTMLElement }): void {
  if (event.key === 'Escape') event.currentTarget.blur();
}
