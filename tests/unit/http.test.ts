import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttp, HttpError, type HttpEnv, type SessionEndingCode } from '../../src/lib/http';
import { STORAGE_KEYS } from '../../contract/constants';

interface Sent { url: string; method: string; headers: Headers; body: unknown; signal: AbortSignal | null }

/** A fetch that records what it was asked and answers from a script; `hang` never answers. */
function fakeServer(answer: (req: Sent) => Response | 'hang' = () => json(200, { ok: true })) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req: Sent = { url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body, signal: init?.signal ?? null };
    sent.push(req);
    const res = answer(req);
    if (res !== 'hang') return res;
    return new Promise<Response>((_, reject) => {
      req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
}

function client(overrides: Partial<HttpEnv> & { answer?: (req: Sent) => Response | 'hang'; token?: string | null } = {}) {
  const server = fakeServer(overrides.answer);
  const storage = memoryStorage(overrides.token === null ? {} : { [STORAGE_KEYS.accessToken]: overrides.token ?? 'tok-1' });
  const ended: SessionEndingCode[] = [];
  const http = createHttp({
    fetch: server.fetch,
    storage,
    prefix: overrides.prefix ?? '',
    onSessionEnded: (code) => ended.push(code),
    isQuietPage: overrides.isQuietPage ?? (() => false),
  });
  return { http, sent: server.sent, storage, ended };
}

describe('HTTP client base and prefix', () => {
  it('sends to the fixed prefix followed by /api/v1/', async () => {
    const { http, sent } = client({ prefix: 'https://ris.example.org/yy' });
    await http.get('exams/1');
    expect(sent[0]!.url).toBe('https://ris.example.org/yy/api/v1/exams/1');
  });

  it('uses /api/v1/ on the same origin when the prefix is empty, and tolerates a leading slash', async () => {
    const { http, sent } = client();
    await http.get('/domain');
    expect(sent[0]!.url).toBe('/api/v1/domain');
  });

  it('appends query values and drops the absent ones', async () => {
    const { http, sent } = client();
    await http.get('accounts/suggestions', { query: { q: 'li ming', page: 2, empty: undefined, none: null } });
    expect(sent[0]!.url).toBe('/api/v1/accounts/suggestions?q=li+ming&page=2');
  });

  it('sends an object body as JSON', async () => {
    const { http, sent } = client();
    await http.post('exams/page-query', { skip: 0, limit: 20 });
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.headers.get('content-type')).toMatch(/application\/json/);
    expect(JSON.parse(String(sent[0]!.body))).toEqual({ skip: 0, limit: 20 });
  });
});

describe('bearer header', () => {
  it('carries the stored access token on ordinary paths', async () => {
    const { http, sent } = client({ token: 'abc.def.ghi' });
    await http.get('accounts/me');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer abc.def.ghi');
  });

  it('is absent when no token is stored', async () => {
    const { http, sent } = client({ token: null });
    await http.get('accounts/me');
    expect(sent[0]!.headers.has('authorization')).toBe(false);
  });

  it.each(['accounts', 'accounts/login', 'domain', 'share/report', 'accounts/auth', 'anonymous/report'])('is omitted for the path %s', async (path) => {
    const { http, sent } = client();
    await http.get(path);
    expect(sent[0]!.headers.has('authorization')).toBe(false);
  });

  it.each([
    'integration/org-verify-configs',
    'integration/org-verify-configs/12/verify',
    'integration/exam-reports',
    'integration/exam-reports/ORG1?verifies=%5B%5D',
  ])('is omitted for %s (prefix rule)', async (path) => {
    const { http, sent } = client();
    await http.get(path);
    expect(sent[0]!.headers.has('authorization')).toBe(false);
  });

  it('is omitted for an omitted path that has a query string', async () => {
    const { http, sent } = client();
    await http.get('share/report', { query: { link: 'x1' } });
    expect(sent[0]!.headers.has('authorization')).toBe(false);
  });

  it('is kept for paths that merely resemble the omitted ones', async () => {
    const { http, sent } = client();
    await http.get('accounts/me/permissions');
    await http.post('accounts/logout');
    await http.get('integration/other');
    await http.get('domains');
    expect(sent.map((s) => s.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-1', 'Bearer tok-1']);
  });

  it('is omitted for form data that contains a token field', async () => {
    const { http, sent } = client();
    const form = new FormData();
    form.set('token', 'org-token');
    form.set('file', new Blob(['x']), 'a.dcm');
    await http.post('buckets/3/studies/upload', form);
    expect(sent[0]!.headers.has('authorization')).toBe(false);
    expect(sent[0]!.body).toBe(form);
  });

  it('is kept for form data without a token field', async () => {
    const { http, sent } = client();
    const form = new FormData();
    form.set('file', new Blob(['x']), 'a.png');
    await http.post('reports/9/upload-attachments', form);
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer tok-1');
  });
});

describe('timeouts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function settleAfter(path: string, ms: number): Promise<unknown> {
    const { http } = client({ answer: () => 'hang' });
    let outcome: unknown = 'pending';
    http.get(path).then((v) => (outcome = v), (e) => (outcome = e));
    await vi.advanceTimersByTimeAsync(ms);
    return outcome;
  }

  it('gives up after 15 s with RequestTimeout, not before', async () => {
    expect(await settleAfter('exams/1', 14_999)).toBe('pending');
    const outcome = await settleAfter('exams/1', 15_000);
    expect(outcome).toBeInstanceOf(HttpError);
    expect((outcome as HttpError).code).toBe('RequestTimeout');
  });

  it.each(['yyp/report-view', 'yyp/consult-view'])('waits 30 s for %s', async (path) => {
    expect(await settleAfter(path, 29_999)).toBe('pending');
    expect(((await settleAfter(path, 30_000)) as HttpError).code).toBe('RequestTimeout');
  });

  it('passes a caller cancel through as an AbortError, not a timeout', async () => {
    const { http } = client({ answer: () => 'hang' });
    const controller = new AbortController();
    const pending = http.get('exams/1', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const err = await pending;
    expect(err).not.toBeInstanceOf(HttpError);
    expect((err as Error).name).toBe('AbortError');
  });
});

describe('responses and errors', () => {
  it('resolves a 204 as success with no value', async () => {
    const { http } = client({ answer: () => new Response(null, { status: 204 }) });
    await expect(http.post('accounts/change-password', { oldPassword: 'a', newPassword: 'b' })).resolves.toBeUndefined();
    await expect(http.delete('reports/1/attachments/2')).resolves.toBeUndefined();
  });

  it('resolves JSON bodies', async () => {
    const { http } = client({ answer: () => json(200, { displayName: 'RIS' }) });
    await expect(http.get('domain')).resolves.toEqual({ displayName: 'RIS' });
  });

  it('turns an error body into an HttpError with the catalogue code, status and details', async () => {
    const { http } = client({ answer: () => json(403, { code: 'PasswordResetRequired', message: 'reset', details: { username: 'rad1' } }) });
    const err = (await http.post('accounts/login', { username: 'rad1', password: 'x' }).catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.code).toBe('PasswordResetRequired');
    expect(err.status).toBe(403);
    expect(err.details).toEqual({ username: 'rad1' });
  });

  it('gives UnknownError for a body without a known code', async () => {
    const { http } = client({ answer: () => new Response('<html>bad gateway</html>', { status: 502 }) });
    const err = (await http.get('exams/1').catch((e: unknown) => e)) as HttpError;
    expect(err.code).toBe('UnknownError');
    expect(err.status).toBe(502);
  });

  it('gives NetworkError when no response arrives', async () => {
    const { http } = createFailingClient();
    const err = (await http.get('exams/1').catch((e: unknown) => e)) as HttpError;
    expect(err.code).toBe('NetworkError');
    expect(err.status).toBe(0);
  });

  function createFailingClient() {
    const http = createHttp({ fetch: (async () => { throw new TypeError('Failed to fetch'); }) as typeof fetch, storage: memoryStorage() });
    return { http };
  }
});

describe('401 with a session-ending code', () => {
  it.each(['TokenExpiredError', 'JsonWebTokenError'] as const)('%s clears the stored token and tells the session', async (code) => {
    const { http, storage, ended } = client({ answer: () => json(401, { code, message: 'x' }) });
    storage.setItem(STORAGE_KEYS.loginType, 'normal');
    await expect(http.get('accounts/me')).rejects.toMatchObject({ code, status: 401 });
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(ended).toEqual([code]);
  });

  it('tells the session once, however many requests fail with the same token', async () => {
    const { http, ended } = client({ answer: () => json(401, { code: 'TokenExpiredError', message: 'x' }) });
    await Promise.allSettled([http.get('exams/1'), http.get('exams/2'), http.get('exams/3')]);
    await http.get('exams/4').catch(() => undefined);
    expect(ended).toEqual(['TokenExpiredError']);
  });

  it('tells the session again after a new token was stored and that one ends too', async () => {
    const { http, ended } = client({ answer: () => json(401, { code: 'TokenExpiredError', message: 'x' }) });
    await http.get('exams/1').catch(() => undefined);
    http.tokens.write({ accessToken: 'tok-2', expires: 0, loginType: 'normal' });
    await http.get('exams/1').catch(() => undefined);
    expect(ended).toEqual(['TokenExpiredError', 'TokenExpiredError']);
  });

  it('ignores a late 401 of the old token once a new login stored another token', async () => {
    let release: (r: Response) => void = () => undefined;
    const storage = memoryStorage({ [STORAGE_KEYS.accessToken]: 'old' });
    const ended: string[] = [];
    const http = createHttp({
      fetch: (() => new Promise<Response>((resolve) => { release = resolve; })) as typeof fetch,
      storage, onSessionEnded: (c) => ended.push(c),
    });
    const pending = http.get('exams/1').catch(() => undefined);
    http.tokens.write({ accessToken: 'new', expires: 0, loginType: 'normal' });
    release(json(401, { code: 'TokenExpiredError', message: 'x' }));
    await pending;
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('new');
    expect(ended).toEqual([]);
  });

  it('clears the token silently on the login, register and forget-password pages', async () => {
    const { http, storage, ended } = client({ answer: () => json(401, { code: 'JsonWebTokenError', message: 'x' }), isQuietPage: () => true });
    await http.get('groups/mine').catch(() => undefined);
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(ended).toEqual([]);
  });

  it('leaves the session alone for other 401s such as wrong credentials', async () => {
    const { http, storage, ended } = client({ answer: () => json(401, { code: 'InvalidCredentials', message: 'x' }) });
    await expect(http.post('accounts/login', { username: 'a', password: 'b' })).rejects.toMatchObject({ code: 'InvalidCredentials' });
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('tok-1');
    expect(ended).toEqual([]);
  });
});

describe('a session that ended while requests were under way (the worklist storm)', () => {
  it('never lets a 401 of a request sent without a token clear the token a re-login stored since', async () => {
    let release: (r: Response) => void = () => undefined;
    const storage = memoryStorage({});
    const http = createHttp({
      fetch: (() => new Promise<Response>((resolve) => { release = resolve; })) as typeof fetch,
      storage, onSessionEnded: () => undefined,
    });
    const pending = http.get('exams/1').catch(() => undefined); // sent with no token at all
    http.tokens.write({ accessToken: 'after-relogin', expires: 0, loginType: 'normal' });
    release(json(401, { code: 'JsonWebTokenError', message: 'No token' }));
    await pending;
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('after-relogin');
  });

  it('answers requests that need a token itself once the session ended, until a new token is stored', async () => {
    let status = 401;
    const resumed: number[] = [];
    const { http, sent } = client({ answer: () => (status === 401 ? json(401, { code: 'JsonWebTokenError', message: 'x' }) : json(200, { ok: true })) });
    const resumedClient = createHttp({ fetch: (async () => json(200, {})) as typeof fetch, storage: memoryStorage(), onSessionResumed: () => resumed.push(1) });
    await http.post('exams/page-query', { skip: 0 }).catch(() => undefined);
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 50; i++) {
      await expect(http.post('exams/page-query', { skip: 0 })).rejects.toMatchObject({ code: 'JsonWebTokenError', status: 401 });
    }
    expect(sent).toHaveLength(1);
    // The login call itself goes out (it carries no token).
    await http.post('accounts/login', { username: 'a', password: 'b' }).catch(() => undefined);
    expect(sent).toHaveLength(2);
    status = 200;
    http.tokens.write({ accessToken: 'tok-2', expires: 0, loginType: 'normal' });
    await expect(http.post('exams/page-query', { skip: 0 })).resolves.toEqual({ ok: true });
    expect(sent.at(-1)!.headers.get('authorization')).toBe('Bearer tok-2');
    resumedClient.tokens.write({ accessToken: 'first', expires: 0, loginType: 'normal' });
    expect(resumed).toEqual([]); // a first login is no resumption
  });

  it('tells the screens once when a re-login stores a token after the old one ended', async () => {
    const resumed: number[] = [];
    const http = createHttp({
      fetch: (async () => json(401, { code: 'TokenExpiredError', message: 'x' })) as typeof fetch,
      storage: memoryStorage({ [STORAGE_KEYS.accessToken]: 'old' }),
      onSessionResumed: () => resumed.push(1),
    });
    await http.get('accounts/me').catch(() => undefined);
    http.tokens.write({ accessToken: 'new', expires: 0, loginType: 'normal' });
    http.tokens.write({ accessToken: 'newer', expires: 0, loginType: 'normal' });
    expect(resumed).toEqual([1]);
  });
});

describe('the brake on a request repeated while it fails', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends an identical failing request at most a handful of times in a tight loop, then waits longer each time', async () => {
    const { http, sent } = client({ answer: () => json(500, { code: 'UnknownError', message: 'x' }) });
    // A screen that asks again the moment the last answer failed, for one second of wall time.
    let stop = false;
    const loop = (async () => {
      while (!stop) await http.post('exams/page-query', { skip: 20 }).catch(() => undefined);
    })();
    await vi.advanceTimersByTimeAsync(1_000);
    stop = true;
    await vi.advanceTimersByTimeAsync(2_000);
    await loop;
    // Three at once, one after 0.5 s, the next not before 1.5 s (it was already waiting when the loop stopped).
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.length).toBeLessThanOrEqual(5);
  });

  it('lets other requests and a request that succeeded go at once', async () => {
    let fail = true;
    const { http, sent } = client({ answer: () => (fail ? json(503, { code: 'UnknownError', message: 'x' }) : json(200, { ok: true })) });
    for (let i = 0; i < 3; i++) await http.get('exams/1').catch(() => undefined);
    expect(sent).toHaveLength(3);
    await http.get('exams/2').catch(() => undefined); // another request: no wait
    expect(sent).toHaveLength(4);
    fail = false;
    const later = http.get('exams/1');
    await vi.advanceTimersByTimeAsync(499);
    expect(sent).toHaveLength(4); // still waiting
    await vi.advanceTimersByTimeAsync(1);
    await expect(later).resolves.toEqual({ ok: true });
    await expect(http.get('exams/1')).resolves.toEqual({ ok: true }); // the streak is forgotten
    expect(sent).toHaveLength(6);
  });

  it('gives up the wait when the caller cancels', async () => {
    const { http, sent } = client({ answer: () => json(500, { code: 'UnknownError', message: 'x' }) });
    for (let i = 0; i < 3; i++) await http.get('exams/1').catch(() => undefined);
    const controller = new AbortController();
    const waiting = http.get('exams/1', { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(3);
  });
});
