import wretch, { type ConfiguredMiddleware, type WretchError } from 'wretch';
import type { TokenInfo } from '../../contract/accounts';
import { SESSION_ENDING_CODES, type ErrorCode } from '../../contract/errors';
import { HttpError, errorFromBody } from './http/errors';
import { createRetryGuard, requestKey, type RetryGuard } from './http/retryGuard';
import { apiBase, normalizePath, omitsBearer, timeoutFor } from './http/rules';
import { createTokenStore, type KeyValueStorage, type TokenStore } from './tokenStore';

export { HttpError, isHttpError, type HttpErrorCode } from './http/errors';

export type SessionEndingCode = 'TokenExpiredError' | 'JsonWebTokenError';
export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  /** The caller's own cancel (leaving a screen); the timeout still applies. */
  signal?: AbortSignal;
  /** Let the request outlive the page (a last write sent while the tab closes or reloads: fetch's `keepalive`). */
  keepalive?: boolean;
  /** Extra request headers (a paying call's Idempotency-Key, the credit charge's Charge-Authorization). */
  headers?: Record<string, string>;
}

export interface HttpEnv {
  fetch: typeof fetch;
  storage: KeyValueStorage;
  /** The fixed prefix before /api/v1/ (core §7): '' for same origin, or an origin or sub-path. */
  prefix?: string;
  /** Told once per token when the server says the token is expired or invalid. */
  onSessionEnded?: (code: SessionEndingCode) => void;
  /** Core §8: on login, register and forget-password a dead token is cleared silently. */
  isQuietPage?: () => boolean;
  /** Told when a new token is stored after the old one ended (a re-login): screens may fetch what failed. */
  onSessionResumed?: () => void;
  /** The brake on identical failing requests; tests pass one with their own clock. */
  retryGuard?: RetryGuard;
}

export interface HttpClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = void>(path: string, options?: RequestOptions): Promise<T>;
  /** For calls that answer a file (exports, packages). */
  blob(method: 'GET' | 'POST', path: string, body?: unknown, options?: RequestOptions): Promise<Blob>;
  /** The stored access token; writing a new one re-arms the once-per-token session-end notice. */
  tokens: TokenStore;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/**
 * The one HTTP client (core §7). A factory so tests hand it their own fetch, storage and callbacks;
 * the app uses the `http` instance below.
 */
export function createHttp(env: HttpEnv): HttpClient {
  const store = createTokenStore(env.storage);
  const base = apiBase(env.prefix ?? '');
  const guard = env.retryGuard ?? createRetryGuard();
  // "Once": after the first session-ending 401, later ones say nothing new until a new token is stored.
  let armed = true;
  // The code of the 401 that ended the session, until a new token is stored. Meanwhile requests that need a
  // token are answered here with that code, without going out: a screen cannot storm the server, and nothing
  // sent without a token can come back to clear the next one.
  let endedWith: SessionEndingCode | null = null;

  const tokens: TokenStore = {
    read: () => store.read(),
    write(token: TokenInfo) {
      armed = true;
      const resumed = endedWith !== null;
      endedWith = null;
      store.write(token);
      if (resumed) env.onSessionResumed?.();
    },
    clear: () => store.clear(),
  };

  /** Adds the bearer header where core §7 allows it and bounds the wait by the path's timeout. */
  const bearerAndTimeout: ConfiguredMiddleware = (next) => async (url, opts) => {
    const path = url.startsWith(base) ? url.slice(base.length) : url;
    const headers = new Headers(opts.headers as HeadersInit | undefined);
    const sentToken = tokens.read()?.accessToken ?? null;
    if (sentToken && !omitsBearer(path, opts.body)) headers.set('Authorization', `Bearer ${sentToken}`);
    const timer = new AbortController();
    const timeoutMs = timeoutFor(path);
    const handle = setTimeout(() => timer.abort(), timeoutMs);
    const caller = opts.signal as AbortSignal | undefined;
    const signal = caller ? AbortSignal.any([caller, timer.signal]) : timer.signal;
    try {
      return await next(url, { ...opts, headers, signal });
    } catch (err) {
      if (timer.signal.aborted && !caller?.aborted) throw new HttpError('RequestTimeout', 0, `Timed out after ${timeoutMs} ms`);
      throw err;
    } finally {
      clearTimeout(handle);
    }
  };

  const client = wretch(base)
    .fetchPolyfill((url: string, init: RequestInit) => env.fetch(url, init))
    .middlewares([bearerAndTimeout]);

  function sessionEnded(code: SessionEndingCode, sentToken: string | null) {
    const stored = tokens.read()?.accessToken ?? null;
    // Only the token a request carried can be ended by its 401: a request sent with an older token, or with none
    // while the session was over, must never clear the token a re-login has stored since.
    if (stored !== sentToken) return;
    endedWith = code;
    tokens.clear();
    if (!armed) return;
    armed = false;
    if (env.isQuietPage?.()) return;
    env.onSessionEnded?.(code);
  }

  async function toHttpError(err: unknown, sentToken: string | null): Promise<unknown> {
    if (err instanceof HttpError) return err;
    const wErr = err as Partial<WretchError>;
    if (wErr && typeof wErr.status === 'number' && wErr.response) {
      const error = errorFromBody(wErr.status, wErr.message ?? '');
      if (error.status === 401 && (SESSION_ENDING_CODES as readonly ErrorCode[]).includes(error.code as ErrorCode)) {
        sessionEnded(error.code as SessionEndingCode, sentToken);
      }
      return error;
    }
    if (err instanceof Error && err.name === 'AbortError') return err; // the caller cancelled: not a failure to show
    return new HttpError('NetworkError', 0, err instanceof Error ? err.message : String(err));
  }

  async function send(method: Method, path: string, body: unknown, options: RequestOptions | undefined): Promise<Response> {
    const target = withQuery(path.replace(/^\/+/, ''), options?.query);
    // Logging out is the user's own step (the token is dead either way): it still goes out, as it always did.
    if (endedWith && !tokens.read() && !omitsBearer(target, body) && normalizePath(target) !== 'accounts/logout') {
      throw new HttpError(endedWith, 401, 'The session has ended; sign in again');
    }
    const key = requestKey(method, target, body);
    // Awaited only when there is a wait: an ordinary request leaves in the same tick, as callers expect.
    if (key && guard.delayFor(key) > 0) await guard.before(key, options?.signal);
    const sentToken = tokens.read()?.accessToken ?? null;
    let request = client.url(target);
    if (options?.signal) request = request.options({ signal: options.signal });
    if (options?.keepalive) request = request.options({ keepalive: true });
    if (options?.headers) request = request.headers(options.headers);
    try {
      const res = await request.fetch(method, '', body === undefined ? null : body).res();
      if (key) guard.succeeded(key);
      return res;
    } catch (err) {
      const error = await toHttpError(err, sentToken);
      if (key && error instanceof HttpError) guard.failed(key);
      throw error;
    }
  }

  async function json<T>(method: Method, path: string, body: unknown, options?: RequestOptions): Promise<T> {
    const res = await send(method, path, body, options);
    // 204 counts as success (core §8): deletes and password resets answer no body.
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    get: (path, options) => json('GET', path, undefined, options),
    post: (path, body, options) => json('POST', path, body, options),
    put: (path, body, options) => json('PUT', path, body, options),
    patch: (path, body, options) => json('PATCH', path, body, options),
    delete: (path, options) => json('DELETE', path, undefined, options),
    blob: async (method, path, body, options) => (await send(method, path, body, options)).blob(),
    tokens,
  };
}

/** A failure the "Login expired" modal deals with: screens keep their edits and show nothing else. */
export function isSessionEndingError(error: unknown): boolean {
  return error instanceof HttpError && error.status === 401 && (SESSION_ENDING_CODES as readonly string[]).includes(error.code);
}

type SessionListener = (code: SessionEndingCode) => void;
const sessionListeners = new Set<SessionListener>();
const resumeListeners = new Set<() => void>();

/** The session subscribes here; the HTTP client itself knows nothing about React or the machine. */
export function onSessionEnded(listener: SessionListener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

/** Screens whose loading failed because the session ended subscribe here to carry on after the re-login. */
export function onSessionResumed(listener: () => void): () => void {
  resumeListeners.add(listener);
  return () => resumeListeners.delete(listener);
}

/** Core §8: the pages where a dead token is cleared without the "Login expired" modal. */
export const QUIET_PAGES: readonly string[] = ['/login', '/register', '/forget-password'];

function browserStorage(): KeyValueStorage {
  if (typeof localStorage !== 'undefined') return localStorage;
  const memory = new Map<string, string>();
  return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) };
}

export const http: HttpClient = createHttp({
  fetch: (...args) => globalThis.fetch(...args),
  storage: browserStorage(),
  prefix: import.meta.env?.VITE_API_PREFIX ?? '',
  onSessionEnded: (code) => sessionListeners.forEach((listener) => listener(code)),
  onSessionResumed: () => resumeListeners.forEach((listener) => listener()),
  isQuietPage: () => typeof location !== 'undefined' && QUIET_PAGES.includes(location.pathname),
});
