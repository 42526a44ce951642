import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { http, onSessionEnded } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { toasts } from '@/lib/toasts';
import { createSession, type SessionActor } from './controller';
import { resetModuleState } from './moduleState';

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
    });
    actor.start();
  }
  return actor;
}
