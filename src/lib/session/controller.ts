import { createActor, type ActorRefFrom } from 'xstate';
import type { LoginInput, LoginResult, Permissions, User } from '../../../contract/accounts';
import type { Group } from '../../../contract/domain';
import { sessionMachine, type SessionError } from '../../../machines/session';
import { isHttpError, type HttpClient, type SessionEndingCode } from '../http';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

export interface SessionEnv {
  http: HttpClient;
  /** Subscribes to the HTTP client's "token ended" notice; returns the unsubscribe. */
  onSessionEnded: (listener: (code: SessionEndingCode) => void) => () => void;
  /** Bottom toasts of the re-login modal (core §8); `key` is an i18n key. */
  notify: (key: 'session.reloginFailed' | 'session.passwordRequired') => void;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /** The path and query the user is on, for /login?redirect=… */
  currentPath: () => string;
  nowSeconds: () => number;
  resetModules: () => void;
  /**
   * Work to finish before the logout call ends the account's tokens (moduleState's logout tasks: the report
   * drafts the server already holds are removed). Its failure never keeps anyone signed in.
   */
  beforeLogout?: (accountId: number | null) => Promise<void>;
}

function toSessionError(error: unknown): SessionError {
  if (isHttpError(error)) return { code: error.code, details: error.details };
  return { code: 'UnknownError' };
}

/**
 * The session machine wired to the real calls: accounts/login, accounts/me, accounts/me/permissions,
 * groups/mine and accounts/logout. Only the newest request of each kind may answer: a late answer to
 * a request made before the user moved on is dropped.
 */
export function createSession(env: SessionEnv): SessionActor {
  const latest = { login: 0, session: 0, logout: 0 };
  let actor: SessionActor | null = null;
  const send = (event: Parameters<SessionActor['send']>[0]) => actor?.send(event);

  function track<T>(kind: keyof typeof latest, call: () => Promise<T>, done: (value: T) => void, failed: (error: unknown) => void) {
    const id = ++latest[kind];
    call().then(
      (value) => id === latest[kind] && done(value),
      (error: unknown) => id === latest[kind] && failed(error),
    );
  }

  const machine = sessionMachine.provide({
    actions: {
      requestLogin: (_, credentials: LoginInput) =>
        track('login', () => env.http.post<LoginResult>('accounts/login', credentials),
          (result) => send({ type: 'LOGIN_SUCCEEDED', result }),
          (error) => send({ type: 'LOGIN_FAILED', error: toSessionError(error) })),
      requestSession: () =>
        track('session', () => Promise.all([
          env.http.get<User>('accounts/me'),
          env.http.get<Permissions>('accounts/me/permissions'),
          env.http.get<Group[]>('groups/mine'),
        ]),
        ([user, permissions, groups]) => send({ type: 'SESSION_LOADED', data: { user, permissions, groups } }),
        (error) => send({ type: 'SESSION_LOAD_FAILED', error: toSessionError(error) })),
      // Ends every token of the account on the server; a dead token or no network must not keep anyone signed in here.
      // The logout tasks run first, while the token still works.
      requestLogout: ({ context }) => {
        const before = env.beforeLogout?.(context.user?.id ?? null).catch(() => undefined);
        const logout = () => env.http.post<void>('accounts/logout');
        track('logout', () => (before ? before.then(logout) : logout()), () => send({ type: 'LOGGED_OUT' }), () => send({ type: 'LOGGED_OUT' }));
      },
      storeToken: ({ context }) => {
        if (context.token) env.http.tokens.write(context.token);
      },
      forgetToken: () => env.http.tokens.clear(),
      resetModules: () => env.resetModules(),
      toastReloginFailed: () => env.notify('session.reloginFailed'),
      toastPasswordRequired: () => env.notify('session.passwordRequired'),
      goToLogin: () => env.navigate(loginUrl(env.currentPath()), { replace: true }),
    },
  });
  actor = createActor(machine, { input: { token: env.http.tokens.read(), nowSeconds: env.nowSeconds() } });
  env.onSessionEnded((code) => send({ type: 'EXPIRED', code }));
  return actor;
}

/** /login with the full target (path and query) to come back to (core §2 guard). */
export function loginUrl(target: string): string {
  const clean = target.startsWith('/login') ? '' : target;
  return clean && clean !== '/' ? `/login?redirect=${encodeURIComponent(clean)}` : '/login';
}
