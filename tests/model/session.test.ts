import { afterAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import type { AnyMachineSnapshot } from 'xstate';
import type { LoginResult, Permissions, TokenInfo, User } from '../../contract/accounts';
import { STORAGE_KEYS } from '../../contract/constants';
import type { Group } from '../../contract/domain';
import { sessionMachine, type SessionInput } from '../../machines/session';
import { createSession } from '../../src/lib/session/controller';
import { createHttp, type SessionEndingCode } from '../../src/lib/http';

/**
 * Paths generated from machines/session.ts are driven against the real session controller and the
 * real HTTP client, with a fake server whose answers the path decides (the invoke done/error steps).
 */

const NOW = 1_900_000_000;
const user: User = {
  id: 2, username: 'rad1', name: '李明', fullName: '李明', avatar: null, signature: null, mobile: null,
  techTitle: '主治医师', registry: null, canCreateGroup: false, domainName: {},
};
const permissions: Permissions = { '1': { type: 1, actions: ['exam_get', 'report_upsert'] } };
const groups = [{ id: 1, displayName: '示范医疗集团', accessLevel: 0 }] as unknown as Group[];
const loginResult: LoginResult = { accessToken: 'tok-login', expires: NOW + 3600, loginType: 'normal', user };
const scanToken: TokenInfo = { accessToken: 'tok-scan', expires: NOW + 3600, loginType: 'scan' };

interface Pending { method: string; path: string; body: unknown; auth: string | null; answer: (res: Response | Error) => void }

function json(status: number, body: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The environment the session lives in: storage, a scripted server, toasts and navigation. */
function fakeEnvironment(stored: TokenInfo | null) {
  const storage = new Map<string, string>();
  if (stored) {
    storage.set(STORAGE_KEYS.accessToken, stored.accessToken);
    storage.set(STORAGE_KEYS.accessTokenExpires, String(stored.expires));
    storage.set(STORAGE_KEYS.loginType, stored.loginType);
  }
  const pending: Pending[] = [];
  const notices: string[] = [];
  const navigations: string[] = [];
  let moduleResets = 0;
  let quiet = false;
  const listeners = new Set<(code: SessionEndingCode) => void>();
  const http = createHttp({
    fetch: ((url: string, init: RequestInit) => new Promise<Response>((resolve, reject) => {
      pending.push({
        method: init.method ?? 'GET',
        path: url.replace('/api/v1/', ''),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        auth: new Headers(init.headers).get('authorization'),
        answer: (res) => (res instanceof Error ? reject(res) : resolve(res)),
      });
    })) as typeof fetch,
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
    onSessionEnded: (code) => listeners.forEach((l) => l(code)),
    isQuietPage: () => quiet,
  });
  const actor = createSession({
    http,
    onSessionEnded: (l) => { listeners.add(l); return () => listeners.delete(l); },
    notify: (key) => notices.push(key),
    navigate: (to) => navigations.push(to),
    currentPath: () => '/settings/profile?tab=1',
    nowSeconds: () => NOW,
    resetModules: () => { moduleResets += 1; },
  });
  const env = {
    actor, http, storage, pending, notices, navigations,
    get moduleResets() { return moduleResets; },
    set quiet(v: boolean) { quiet = v; },
    /** Answers every open request to `path` (they were sent by the machine's invoked call). */
    async answer(path: string, res: () => Response | Error) {
      const open = pending.filter((p) => p.path === path);
      for (const p of open) {
        pending.splice(pending.indexOf(p), 1);
        p.answer(res());
      }
      await settle();
      return open;
    },
  };
  return env;
}

const settle = () => new Promise((r) => setTimeout(r, 0));

type Env = ReturnType<typeof fakeEnvironment>;

const MODEL_EVENTS = [
  { type: 'LOGIN', username: '  rad1 ', password: 'Demo1234' },
  { type: 'TOKEN_RECEIVED', token: scanToken },
  { type: 'EXPIRED', code: 'TokenExpiredError' },
  { type: 'RELOGIN', password: '' },
  { type: 'RELOGIN', password: 'Demo1234' },
  { type: 'ACKNOWLEDGE' },
  { type: 'RETRY' },
  { type: 'LOGOUT' },
  { type: 'PROFILE_UPDATED', user: { ...user, name: '李明明' } },
  { type: 'LOGIN_SUCCEEDED', result: loginResult },
  { type: 'LOGIN_FAILED', error: { code: 'InvalidCredentials' } },
  { type: 'SESSION_LOADED', data: { user, permissions, groups } },
  { type: 'SESSION_LOAD_FAILED', error: { code: 'NetworkError' } },
  { type: 'SESSION_LOAD_FAILED', error: { code: 'TokenExpiredError' } },
  { type: 'LOGGED_OUT' },
] as const;

const STARTS: Record<string, SessionInput> = {
  'no stored token': { token: null, nowSeconds: NOW },
  'a stored live token': { token: { accessToken: 'tok-stored', expires: NOW + 600, loginType: 'normal' }, nowSeconds: NOW },
  'a stored expired token': { token: { accessToken: 'tok-old', expires: NOW - 1, loginType: 'normal' }, nowSeconds: NOW },
  'a stored scan token without expiry': { token: { accessToken: 'tok-scan-old', expires: 0, loginType: 'scan' }, nowSeconds: NOW },
};

type StepEvent = { type: string; [key: string]: unknown };

/** How each model event is produced in the real environment. */
function executors(env: Env): Record<string, (step: { event: StepEvent }) => Promise<void>> {
  return {
    LOGIN: async ({ event }) => { env.actor.send(event as never); await settle(); },
    TOKEN_RECEIVED: async ({ event }) => { env.actor.send(event as never); await settle(); },
    RELOGIN: async ({ event }) => { env.actor.send(event as never); await settle(); },
    ACKNOWLEDGE: async () => { env.actor.send({ type: 'ACKNOWLEDGE' }); await settle(); },
    RETRY: async () => { env.actor.send({ type: 'RETRY' }); await settle(); },
    LOGOUT: async () => { env.actor.send({ type: 'LOGOUT' }); await settle(); },
    PROFILE_UPDATED: async ({ event }) => { env.actor.send(event as never); await settle(); },
    // The window comes back into focus (lib/session/instance.ts refreshSession): the session asks again.
    REFRESH: async () => { env.actor.send({ type: 'REFRESH' }); await settle(); },
    // The server refuses a token: any call the page makes answers 401 and the HTTP client tells the session.
    EXPIRED: async () => {
      void env.http.get('exams/1').catch(() => undefined);
      await settle();
      await env.answer('exams/1', () => json(401, { code: 'TokenExpiredError', message: 'expired' }));
    },
    LOGIN_SUCCEEDED: async () => {
      const [req] = await env.answer('accounts/login', () => json(200, loginResult));
      expect(req, 'a login request was sent').toBeDefined();
      expect(req!.body).toEqual({ username: 'rad1', password: expect.any(String) });
    },
    LOGIN_FAILED: async () => {
      const [req] = await env.answer('accounts/login', () => json(401, { code: 'InvalidCredentials', message: 'no' }));
      expect(req, 'a login request was sent').toBeDefined();
    },
    SESSION_LOADED: async () => {
      await env.answer('accounts/me', () => json(200, user));
      await env.answer('accounts/me/permissions', () => json(200, permissions));
      const [req] = await env.answer('groups/mine', () => json(200, groups));
      expect(req?.auth).toMatch(/^Bearer tok-/);
    },
    SESSION_LOAD_FAILED: async ({ event }) => {
      const code = (event.error as { code: string }).code;
      if (code === 'NetworkError') {
        await env.answer('accounts/me', () => new TypeError('Failed to fetch'));
      } else {
        // Met on the login page, where a dead token is cleared silently (core §8).
        env.quiet = true;
        await env.answer('accounts/me', () => json(401, { code, message: 'expired' }));
        env.quiet = false;
      }
      await env.answer('accounts/me/permissions', () => json(200, permissions));
      await env.answer('groups/mine', () => json(200, groups));
    },
    LOGGED_OUT: async () => {
      const [req] = await env.answer('accounts/logout', () => new Response(null, { status: 204 }));
      expect(req, 'the server is told, so every token of the account ends').toBeDefined();
    },
  };
}

/** What must hold in the environment whenever the machine is in a state. */
function checkState(env: Env, model: AnyMachineSnapshot) {
  const real = env.actor.getSnapshot();
  expect(real.value).toEqual(model.value);
  const stored = env.storage.get(STORAGE_KEYS.accessToken) ?? null;
  if (real.matches('signedIn')) {
    expect(stored, 'signed in with the token kept in the browser').toBe(real.context.token?.accessToken);
  }
  if (real.matches({ signedIn: 'ready' }) || real.matches({ signedIn: 'refreshing' })) {
    expect(real.context.permissions, 'permissions are loaded before guarded pages render').toEqual(permissions);
    expect(real.context.user?.username).toBe('rad1');
  }
  if (real.matches('expired') || real.matches('signedOut') || real.matches('loggedOut')) {
    expect(stored, 'no token is kept once the session ended').toBeNull();
    expect(real.context.token).toBeNull();
  }
  if (real.matches({ expired: 'password' })) {
    expect(real.context.user, 'the modal asks only the password of the same user').not.toBeNull();
  }
  if (real.matches('loggedOut')) {
    expect({ user: real.context.user, permissions: real.context.permissions, groups: real.context.groups }).toEqual({ user: null, permissions: null, groups: null });
    expect(env.moduleResets, 'module state is cleared').toBeGreaterThan(0);
  }
}

/**
 * The graph's vertices: the state, what the session holds (not the values), and the edge that led
 * there, so every transition is walked once rather than every combination of context values.
 */
function serializeState(state: AnyMachineSnapshot, event?: { type: string }, prev?: AnyMachineSnapshot): string {
  const c = state.context as { token: TokenInfo | null; user: User | null; permissions: Permissions | null };
  const holds = [c.token ? `token:${c.token.loginType}` : 'no-token', c.user ? 'user' : 'no-user', c.permissions ? 'perms' : 'no-perms'].join(',');
  const via = event && prev ? ` via ${event.type}${'password' in event ? `(${(event as { password: string }).password ? 'pw' : 'empty'})` : ''} from ${JSON.stringify(prev.value)}` : '';
  return `${JSON.stringify(state.value)} [${holds}]${via}`;
}

const covered = { states: new Set<string>(), transitions: new Set<string>(), paths: 0 };
const stateId = (s: AnyMachineSnapshot) => JSON.stringify(s.value).replace(/[{}"]/g, '').replace(/:/g, '.');

describe('session machine paths against the real controller and HTTP client', () => {
  for (const [start, input] of Object.entries(STARTS)) {
    const model = createTestModel(sessionMachine, { events: MODEL_EVENTS as never, input, serializeState } as never);
    const paths = model.getShortestPaths({ allowDuplicatePaths: true, input } as never);

    describe(`starting with ${start}`, () => {
      it('has paths to test', () => expect(paths.length).toBeGreaterThan(0));
      for (const path of paths) {
        it(`${path.steps.slice(1).map((step) => step.event.type).join(' → ') || '(start)'} reaches ${stateId(path.state as AnyMachineSnapshot)}`, async () => {
          const env = fakeEnvironment(input.token);
          env.actor.start();
          await settle();
          await path.test({
            events: executors(env) as never,
            states: {
              '*': (state: AnyMachineSnapshot) => {
                checkState(env, state);
                covered.states.add(stateId(state));
              },
            },
          });
          let from = '(start)';
          for (const step of path.steps) {
            const to = stateId(step.state as AnyMachineSnapshot);
            covered.transitions.add(`${from} --${(step.event.type as string) === 'xstate.init' ? 'restore' : step.event.type}--> ${to}`);
            from = to;
          }
          covered.paths += 1;
          env.actor.stop();
        });
      }
    });
  }

  it('shows the re-login toasts: password required for an empty password, verification failed for a wrong one', async () => {
    const env = fakeEnvironment({ accessToken: 'tok-stored', expires: NOW + 60, loginType: 'normal' });
    env.actor.start();
    await executors(env).SESSION_LOADED!({ event: { type: 'x' } });
    await executors(env).EXPIRED!({ event: { type: 'EXPIRED' } });
    env.actor.send({ type: 'RELOGIN', password: '' });
    await executors(env).LOGIN_FAILED!({ event: { type: 'x' } }).catch(() => undefined);
    env.actor.send({ type: 'RELOGIN', password: 'wrong-1' });
    await executors(env).LOGIN_FAILED!({ event: { type: 'x' } });
    expect(env.notices).toEqual(['session.passwordRequired', 'session.reloginFailed']);
    expect(env.actor.getSnapshot().matches({ expired: 'password' })).toBe(true);
  });

  it('sends the re-login with the signed-in username and returns to the page with the same permissions', async () => {
    const env = fakeEnvironment({ accessToken: 'tok-stored', expires: NOW + 60, loginType: 'normal' });
    env.actor.start();
    await executors(env).SESSION_LOADED!({ event: { type: 'x' } });
    await executors(env).EXPIRED!({ event: { type: 'EXPIRED' } });
    env.actor.send({ type: 'RELOGIN', password: 'Demo1234' });
    await settle();
    expect(env.pending.find((p) => p.path === 'accounts/login')?.body).toEqual({ username: 'rad1', password: 'Demo1234' });
    await env.answer('accounts/login', () => json(200, loginResult));
    expect(env.actor.getSnapshot().value).toEqual({ signedIn: 'ready' });
    expect(env.pending.filter((p) => p.path === 'accounts/me'), 'no reload of the account: the page stays as it is').toHaveLength(0);
    expect(env.storage.get(STORAGE_KEYS.accessToken)).toBe('tok-login');
  });

  it('sends a scan login whose token expired to /login with the way back', async () => {
    const env = fakeEnvironment(null);
    env.actor.start();
    env.actor.send({ type: 'TOKEN_RECEIVED', token: { ...scanToken, loginType: 'normal' } });
    await executors(env).SESSION_LOADED!({ event: { type: 'x' } });
    expect(env.storage.get(STORAGE_KEYS.loginType)).toBe('scan');
    await executors(env).EXPIRED!({ event: { type: 'EXPIRED' } });
    expect(env.actor.getSnapshot().value).toEqual({ expired: 'scan' });
    env.actor.send({ type: 'ACKNOWLEDGE' });
    expect(env.navigations).toEqual(['/login?redirect=%2Fsettings%2Fprofile%3Ftab%3D1']);
  });

  afterAll(() => {
    const leaves = leafStates(sessionMachine.root);
    const missed = leaves.filter((s) => s !== 'restoring' && !covered.states.has(s));
    console.log(
      `session model: ${covered.paths} paths; states covered ${covered.states.size}/${leaves.length - 1} ` +
        `(${[...covered.states].sort().join(', ')})${missed.length ? `; NOT covered: ${missed.join(', ')}` : ''}\n` +
        `  ${covered.transitions.size} transitions covered:\n    ${[...covered.transitions].sort().join('\n    ')}`,
    );
  });
});

/** Leaf state names as 'signedIn.ready'; 'restoring' is transient and never observed. */
function leafStates(node: { key: string; states: Record<string, unknown> }, prefix = ''): string[] {
  const children = Object.values(node.states) as Array<{ key: string; states: Record<string, unknown> }>;
  if (children.length === 0) return [prefix];
  return children.flatMap((child) => leafStates(child, prefix ? `${prefix}.${child.key}` : child.key));
}
