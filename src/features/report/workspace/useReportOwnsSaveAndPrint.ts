import { useEffect } from 'react';
import type { useCommandRegistry } from '@/lib/commands';

/**
 * Ctrl+S and Ctrl+P belong to the report here: when the report does not allow them now, the browser's own
 * "save page" and "print page" must not open instead. When a command can run, the key is left to the binding
 * (listeners on the window run in the order they were added, so this one may come first).
 */
export function useReportOwnsSaveAndPrint(registry: ReturnType<typeof useCommandRegistry>) {
  useEffect(() => {
    const swallow = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const key = event.key.toLowerCase();
      if (key !== 's' && key !== 'p') return;
      const live = registry.keyed().some((command) => command.shortcut === `$mod+${key}` && command.when());
      if (!live) event.preventDefault();
    };
    window.addEventListener('keydown', swallow);
    return () => window.removeEventListener('keydown', swallow);
  }, [registry]);
}
