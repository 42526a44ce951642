import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';

/**
 * Saves a list's new order without ever refusing a move: the screen shows each move at once, and the orders go to the
 * server one after another (each the whole list, so the last one wins). A move made while the previous one is being
 * saved is kept, not dropped — a user pressing Alt+↓ twice quickly moves the row twice. On a refusal the list is read
 * again from the server and the catalogue message shows.
 */
export function useResort(save: (ids: number[]) => Promise<unknown>, reload: () => void) {
  const { t } = useTranslation();
  const queue = useRef<Promise<void>>(Promise.resolve());
  return (ids: number[]) => {
    queue.current = queue.current.then(() => save(ids)).then(() => undefined, (error: unknown) => {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
      reload();
    });
  };
}
