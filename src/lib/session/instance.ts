import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { http, onSessionEnded } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { toasts } from '@/lib/toasts';
import { createSession, type SessionActor } from './controller';
import { resetModuleState, runLogoutTasks } from './moduleState';

/** Navigation outside components (history mode), for features and commands. */
export function navigate(to: string, options?: { replace?: boolean }): void {
  browserNavigate(to, options);
}

let actor: SessionActor | null = null;

/** The one session of the app, started on first use. */
export function sessionActor(): SessionActor {
  if (!actor) {
    actor = createSession({
      http,
      onSessionEnded,
      notify: (key) => toasts.show({ message: i18n.t(key), placement: 'bottom', kind: 'error' }),
      navigate,
      currentPath: () => location.pathname + location.search,
      nowSeconds: () => Math.floor(Date.now() / 1000),
      resetModules: () => {
        toasts.clear();
        resetModuleState();
      },
      beforeLogout: (accountId) => runLogoutTasks(accountId),
    });
    actor.start();
    startRefresher();
  }
  return actor;
}

const REFRESH_EVERY_MS = 60_000;
const REFRESH_AT_MOST_MS = 10_000;
let lastRefresh = 0;

/**
 * Asks the signed-in session again (permissions, groups and their flags) without leaving the page: after an admin's
 * change (`force`), and on its own when the window comes back into view or a minute passed. The machine ignores it
 * unless the session is ready.
 */
export function refreshSession({ force = false } = {}): void {
  const now = Date.now();
  if (!force && now - lastRefresh < REFRESH_AT_MOST_MS) return;
  lastRefresh = now;
  sessionActor().send({ type: 'REFRESH' });
}

function startRefresher() {
  if (typeof window === 'undefined') return;
  lastRefresh = Date.now();
  window.addEventListener('focus', () => refreshSession());
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && refreshSession());
  setInterval(() => document.visibilityState === 'visible' && refreshSession(), REFRESH_EVERY_MS);
}
