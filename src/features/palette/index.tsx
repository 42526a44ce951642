import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { landingPath } from '@/lib/session/landing';
import { isRegistered } from '@/lib/session/routeRegistry';
import { navigate, statusOf, useSession, useSessionSelector } from '@/lib/session';
import { visibleEntries } from '@/lib/session/navEntries';
import { useCommands } from '@/lib/commands';
import { currentLanguage, isLanguage, setLanguage } from '@/lib/i18n';
import { useTheme } from '@/lib/theme';
import { toasts } from '@/lib/toasts';
import { CommandCenter, type AppCommandContext } from './CommandCenter';
import { destinationCommands, type DestinationContext } from './destinations';

export { registerSearchProvider, type PaletteResult, type SearchContext, type SearchProvider } from './providers';

const destinationContext: DestinationContext = {
  navigate: (path) => navigate(path),
  openExternal: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
};

/**
 * The global commands, their keys, the palette and the shortcut sheet. The shell renders this once. Only a
 * ready session has commands: while it loads, or while "Login expired" asks for the password, no key acts.
 */
export function GlobalCommands() {
  const status = useSessionSelector(statusOf);
  return status === 'ready' ? <SignedInCommands /> : null;
}

function SignedInCommands() {
  const { permissions, groups, logout } = useSession();
  const { i18n } = useTranslation();
  const [theme, setTheme] = useTheme();
  const language = isLanguage(i18n.language) ? i18n.language : currentLanguage();

  // The navbar's rule (group flags, permitted actions, registered routes) decides where the user may go.
  const entries = useMemo(() => visibleEntries({ permissions, groups }, isRegistered), [permissions, groups]);
  const app = useMemo<AppCommandContext>(() => {
    const allowed = new Set(entries.filter((entry) => !entry.external).map((entry) => entry.href));
    return {
      canVisit: (path) => allowed.has(path),
      navigate: (path) => navigate(path),
      home: () => landingPath(permissions, isRegistered),
      toggleTheme: () => setTheme(theme === 'dark' ? 'light' : 'dark'),
      language,
      setLanguage: (next) => void setLanguage(next),
      logout,
      hasNotifications: () => toasts.list().some((toast) => toast.placement === 'corner'),
      dismissNotifications: () => toasts.dismissAll('corner'),
    };
  }, [entries, permissions, theme, setTheme, language, logout]);

  const destinations = useMemo(() => destinationCommands(entries), [entries]);
  useCommands(destinations, destinationContext);

  return <CommandCenter app={app} />;
}
