import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { runCommand, useCommands, useKeyBindings, type Command } from '@/lib/commands';
import { toasts } from '@/lib/toasts';
import { globalCommands, type GlobalCommandContext } from './commands';
import { LoadBoundary } from './LoadBoundary';

// Separate chunks: cmdk and the sheet load on first use (or when the browser is idle), never with the login page.
const loadPalette = () => import('./Palette');
const loadSheet = () => import('./ShortcutSheet');
const Palette = lazy(loadPalette);
const ShortcutSheet = lazy(loadSheet);

type Overlay = 'palette' | 'sheet' | null;

/** What the app supplies; the palette and the sheet are opened from here. */
export type AppCommandContext = Omit<GlobalCommandContext, 'togglePalette' | 'openShortcuts'>;

/**
 * Registers the global commands, puts the registry's shortcuts on the window, and shows the palette or the
 * shortcut sheet. A command chosen in the palette runs after the palette has closed and given focus back, so a
 * command that moves focus (or opens the sheet) is not undone by the closing.
 */
export function CommandCenter({ app }: { app: AppCommandContext }) {
  const { t } = useTranslation();
  const [overlay, setOverlay] = useState<Overlay>(null);
  const pending = useRef<Command | null>(null);

  const context = useMemo<GlobalCommandContext>(
    () => ({
      ...app,
      togglePalette: () => setOverlay((open) => (open === 'palette' ? null : 'palette')),
      openShortcuts: () => setOverlay('sheet'),
    }),
    [app],
  );
  useCommands(globalCommands, context);
  useKeyBindings();

  useEffect(() => {
    if (overlay !== null || !pending.current) return;
    const command = pending.current;
    pending.current = null;
    runCommand(command);
  }, [overlay]);

  useEffect(() => {
    const timer = setTimeout(() => {
      void loadPalette().catch(() => undefined);
      void loadSheet().catch(() => undefined);
    }, 1500);
    return () => clearTimeout(timer);
  }, []);

  const close = useCallback(() => setOverlay(null), []);
  const runFromPalette = useCallback((command: Command) => {
    pending.current = command;
    setOverlay(null);
  }, []);
  const loadFailed = useCallback(() => {
    setOverlay(null);
    toasts.show({ kind: 'error', message: t('palette.loadFailed') });
  }, [t]);

  if (overlay === null) return null;
  return (
    <LoadBoundary key={overlay} onError={loadFailed}>
      <Suspense fallback={null}>
        {overlay === 'palette' ? <Palette onRun={runFromPalette} onClose={close} /> : <ShortcutSheet onClose={close} />}
      </Suspense>
    </LoadBoundary>
  );
}
