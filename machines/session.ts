import { assign, setup } from 'xstate';
import type { LoginInput, LoginResult, Permissions, TokenInfo, User } from '../contract/accounts';
import type { Group } from '../contract/domain';
import { SESSION_ENDING_CODES } from '../contract/errors';

/**
 * The session (core §4 "Session", §8 "Login expired"). Pure rules: the environment supplies the
 * effects by name through `machine.provide(...)`: the calls (requestLogin, requestSession,
 * requestLogout, each answered with an event), storing the token, toasts, navigation and clearing
 * module state. Calls are effects plus answer events rather than invoked actors so that
 * `createTestModel` can walk every path.
 */

/** Core §4: authenticated only if a token exists and its expiry is absent (0) or in the future. */
export function isTokenLive(token: TokenInfo | null, nowSeconds: number): boolean {
  if (!token || !token.accessToken) return false;
  return token.expires === 0 || token.expires > nowSeconds;
}

export interface SessionData {
  user: User;
  permissions: Permissions;
  groups: Group[];
}

export interface SessionContext {
  token: TokenInfo | null;
  user: User | null;
  permissions: Permissions | null;
  groups: Group[] | null;
  /** Unix seconds when the app started: the moment the stored token is judged. */
  bootedAt: number;
  /** The last failed sign-in, for the login screen: the catalogue code and its details. */
  loginError: { code: string; details?: Record<string, unknown> } | null;
  /** Loading the account after sign-in failed (network, server): the shell offers a retry. */
  loadError: string | null;
}

export interface SessionInput {
  token: TokenInfo | null;
  nowSeconds: number;
}

export type SessionEvent =
  | { type: 'LOGIN'; username: string; password: string }
  /** A token handed over by the mobile app (/auth/token): a scan login. */
  | { type: 'TOKEN_RECEIVED'; token: TokenInfo }
  /** The server said the token is expired or invalid (core §8). */
  | { type: 'EXPIRED'; code: string }
  /** The password typed into the "Login expired" modal. */
  | { type: 'RELOGIN'; password: string }
  /** The scan-login warning was acknowledged: go to the login page. */
  | { type: 'ACKNOWLEDGE' }
  | { type: 'RETRY' }
  | { type: 'LOGOUT' }
  | { type: 'PROFILE_UPDATED'; user: User }
  // Answers of the environment to the requests the machine made (requestLogin, requestSession, requestLogout).
  | { type: 'LOGIN_SUCCEEDED'; result: LoginResult }
  | { type: 'LOGIN_FAILED'; error: SessionError }
  | { type: 'REFRESH' }
  | { type: 'SESSION_LOADED'; data: SessionData }
  | { type: 'SESSION_LOAD_FAILED'; error: SessionError }
  | { type: 'LOGGED_OUT' };

/** A failed call as the machine sees it: the catalogue code and the details the screens may show. */
export interface SessionError {
  code: string;
  details?: Record<string, unknown>;
}

const emptySession = { user: null, permissions: null, groups: null } as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  guards: {
    hasLiveToken: ({ context }) => isTokenLive(context.token, context.bootedAt),
    isScanLogin: ({ context }) => context.token?.loginType === 'scan',
    /** Expiry before the account ever loaded: there is no page with edits to keep, so sign in afresh. */
    hasNoUser: ({ context }) => context.user === null,
    hasPermissions: ({ context }) => context.permissions !== null,
    isPasswordEmpty: ({ event }) => event.type === 'RELOGIN' && event.password.length === 0,
    isSessionEndingError: ({ event }) =>
      event.type === 'SESSION_LOAD_FAILED' && (SESSION_ENDING_CODES as readonly string[]).includes(event.error.code),
  },
  actions: {
    rememberLogin: assign(({ event }) => {
      if (event.type !== 'LOGIN_SUCCEEDED') return {};
      const { user, ...token } = event.result;
      return { token, user, loginError: null, loadError: null };
    }),
    rememberScanToken: assign(({ event }) => {
      if (event.type !== 'TOKEN_RECEIVED') return {};
      return { ...emptySession, token: { ...event.token, loginType: 'scan' as const }, loginError: null, loadError: null };
    }),
    rememberSession: assign(({ event }) => {
      if (event.type !== 'SESSION_LOADED') return {};
      return { user: event.data.user, permissions: event.data.permissions, groups: event.data.groups, loadError: null };
    }),
    rememberLoginError: assign(({ event }) => (event.type === 'LOGIN_FAILED' ? { loginError: event.error } : {})),
    rememberLoadError: assign(({ event }) => (event.type === 'SESSION_LOAD_FAILED' ? { loadError: event.error.code } : {})),
    rememberProfile: assign(({ event }) => (event.type === 'PROFILE_UPDATED' ? { user: event.user } : {})),
    clearLoginError: assign({ loginError: null }),
    /** Core §4: logging out clears user, token and permissions (module state: `resetModules`). */
    clearSession: assign({ ...emptySession, token: null, loginError: null, loadError: null }),
    dropToken: assign({ token: null }),
    // Effects, implemented by the environment. The request* ones answer with the events above.
    requestLogin: (_, _params: LoginInput) => undefined,
    requestSession: () => undefined,
    requestLogout: () => undefined,
    storeToken: () => undefined,
    forgetToken: () => undefined,
    resetModules: () => undefined,
    toastReloginFailed: () => undefined,
    toastPasswordRequired: () => undefined,
    goToLogin: () => undefined,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    token: input.token,
    ...emptySession,
    bootedAt: input.nowSeconds,
    loginError: null,
    loadError: null,
  }),
  initial: 'restoring',
  on: {
    TOKEN_RECEIVED: { target: '.signedIn', reenter: true, actions: ['resetModules', 'rememberScanToken', 'storeToken'] },
  },
  states: {
    restoring: {
      always: [
        { guard: 'hasLiveToken', target: 'signedIn' },
        { target: 'signedOut', actions: ['dropToken', 'forgetToken'] },
      ],
    },
    signedOut: {
      on: { LOGIN: { target: 'signingIn', actions: 'clearLoginError' } },
    },
    signingIn: {
      // Core §5: the username is trimmed before login.
      entry: {
        type: 'requestLogin',
        params: ({ event }) => (event.type === 'LOGIN' ? { username: event.username.trim(), password: event.password } : { username: '', password: '' }),
      },
      on: {
        LOGIN_SUCCEEDED: { target: 'signedIn', actions: ['rememberLogin', 'storeToken'] },
        LOGIN_FAILED: { target: 'signedOut', actions: 'rememberLoginError' },
      },
    },
    signedIn: {
      initial: 'loading',
      on: {
        EXPIRED: [
          { guard: 'hasNoUser', target: 'signedOut', actions: ['clearSession', 'forgetToken'] },
          { guard: 'isScanLogin', target: 'expired.scan' },
          { target: 'expired.password' },
        ],
        LOGOUT: 'loggingOut',
      },
      states: {
        /** Core §6: the permission list is loaded before guarded pages render. */
        loading: {
          entry: 'requestSession',
          on: {
            SESSION_LOADED: { target: 'ready', actions: 'rememberSession' },
            SESSION_LOAD_FAILED: [
              { guard: 'isSessionEndingError', target: '#session.signedOut', actions: ['clearSession', 'forgetToken'] },
              { target: 'failed', actions: 'rememberLoadError' },
            ],
          },
        },
        ready: {
          on: {
            PROFILE_UPDATED: { actions: 'rememberProfile' },
            REFRESH: 'refreshing',
          },
        },
        /**
         * The session asked again while the page stays (the window came back into focus, a minute passed, an admin
         * changed rights): permissions and group flags follow a change made elsewhere (areas §6 "access that follows at
         * once"). Screens treat it as ready. A failed refresh keeps what is known; a 401 ends the session.
         */
        refreshing: {
          entry: 'requestSession',
          on: {
            PROFILE_UPDATED: { actions: 'rememberProfile' },
            SESSION_LOADED: { target: 'ready', actions: 'rememberSession' },
            SESSION_LOAD_FAILED: [
              { guard: 'isSessionEndingError', target: '#session.signedOut', actions: ['clearSession', 'forgetToken'] },
              { target: 'ready' },
            ],
          },
        },
        failed: {
          on: { RETRY: 'loading' },
        },
      },
    },
    /** The "Login expired" modal (core §8). The page under it stays mounted with its edits. */
    expired: {
      initial: 'password',
      entry: ['dropToken', 'forgetToken'],
      on: { LOGOUT: 'loggingOut' },
      states: {
        password: {
          on: {
            RELOGIN: [
              { guard: 'isPasswordEmpty', actions: 'toastPasswordRequired' },
              { target: '#session.reLogin' },
            ],
          },
        },
        /** A scan login cannot be renewed here: warn that unsaved edits will be lost, then go to /login. */
        scan: {
          on: { ACKNOWLEDGE: { target: '#session.loggedOut', actions: 'goToLogin' } },
        },
      },
    },
    /** The modal's password is checked for the same account; the page under it keeps its state. */
    reLogin: {
      entry: {
        type: 'requestLogin',
        params: ({ context, event }) => ({ username: context.user?.username ?? '', password: event.type === 'RELOGIN' ? event.password : '' }),
      },
      on: {
        LOGIN_SUCCEEDED: [
          { guard: 'hasPermissions', target: 'signedIn.ready', actions: ['rememberLogin', 'storeToken'] },
          { target: 'signedIn.loading', actions: ['rememberLogin', 'storeToken'] },
        ],
        LOGIN_FAILED: { target: 'expired.password', actions: 'toastReloginFailed' },
      },
    },
    loggingOut: {
      entry: 'requestLogout',
      on: { LOGGED_OUT: 'loggedOut' },
    },
    loggedOut: {
      entry: ['clearSession', 'forgetToken', 'resetModules'],
      on: { LOGIN: { target: 'signingIn', actions: 'clearLoginError' } },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
