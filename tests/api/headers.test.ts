import type { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { createTokens } from '../../server/auth/tokens';
import { fileOriginsOf } from '../../server/http/headers';
import { createS3Storage } from '../../server/storage/s3';
import { createSigner } from '../../server/storage/signer';
import { fetchLink, form, pdf, png } from '../support/files';
import { startServer, TestClock, type TestServer } from '../support/server';

/**
 * Security headers (issue "Hardening"): the app shell, a deep link, a built file, API answers and stored user files.
 * The shell is served from a stand-in build (a temporary CLIENT_DIR) by a second app on the same database.
 */
let s: TestServer;
let shell: FastifyInstance;
let shellUrl: string;
let clientDir: string;
let rad1: string;

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  rad1 = await s.login('rad1');
  clientDir = mkdtempSync(path.join(tmpdir(), 'rad-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html><head><script src="/theme-boot.js"></script></head><body><div id="root"></div><script type="module" src="/assets/index-x.js"></script></body></html>');
  writeFileSync(path.join(clientDir, 'theme-boot.js'), '(function () {})();');
  writeFileSync(path.join(clientDir, 'assets', 'index-x.js'), 'export {};');
  shell = await buildApp({
    db: s.db.db, dbKind: s.db.kind, clock: s.clock, storage: s.storage, tokens: createTokens('headers-test-secret', 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: '/tmp', clientDir },
  }, { serveClient: true });
  await shell.listen({ port: 0, host: '127.0.0.1' });
  const address = shell.server.address();
  shellUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await shell?.close();
  await s?.close();
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

/** The policy as directive → sources. */
function csp(headers: Headers): Map<string, string[]> {
  const value = headers.get('content-security-policy');
  expect(value, 'a Content-Security-Policy is sent').toBeTruthy();
  return new Map(value!.split(';').map((part) => part.trim()).filter(Boolean).map((part) => {
    const [name, ...sources] = part.split(/\s+/);
    return [name!.toLowerCase(), sources] as const;
  }));
}

/** What every answer carries, whatever it is. */
function expectCommonHeaders(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
}

/** The app's policy: strict scripts, the viewer's workers and WebAssembly, no framing, nothing upgraded. */
function expectAppPolicy(headers: Headers) {
  expectCommonHeaders(headers);
  const policy = csp(headers);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  const scripts = policy.get('script-src')!;
  expect(scripts).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
  expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  // Served over plain HTTP on a LAN the app must still load: nothing is rewritten to https.
  expect(policy.has('upgrade-insecure-requests')).toBe(false);
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('the app shell', () => {
  it('sends the policy and the other headers with index.html at /', async () => {
    const res = await fetch(`${shellUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<div id="root">');
    expectAppPolicy(res.headers);
  });

  it('sends them on deep links too (history-mode routes), the waiting-room screen included', async () => {
    for (const url of ['/worklist', '/reports/12/write?examId=3', '/calling/1/screen-show?token=abc']) {
      const res = await fetch(shellUrl + url);
      expect(res.status, url).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expectAppPolicy(res.headers);
    }
  });

  it('sends them on the built files, the theme bootstrap among them', async () => {
    for (const url of ['/theme-boot.js', '/assets/index-x.js']) {
      const res = await fetch(shellUrl + url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expectAppPolicy(res.headers);
    }
  });

  it('has no inline script in the real index.html: the theme bootstrap is a file the policy allows', () => {
    const html = readFileSync(fileURLToPath(new URL('../../index.html', import.meta.url)), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs, 'every script names its file').toMatch(/\bsrc="\/[^"]+"/);
      expect(body!.trim(), 'and holds no code of its own').toBe('');
    }
    expect(html).toContain('<script src="/theme-boot.js"></script>');
    expect(readFileSync(fileURLToPath(new URL('../../public/theme-boot.js', import.meta.url)), 'utf8')).toContain("localStorage.getItem('theme')");
  });
});

describe('API answers', () => {
  it('carry the headers, signed in or not, refused or not', async () => {
    const domain = await s.request('GET', 'domain');
    expect(domain.status).toBe(200);
    expectAppPolicy(domain.headers);
    const me = await s.request('GET', 'accounts/me', { token: rad1 });
    expect(me.status).toBe(200);
    expectAppPolicy(me.headers);
    const refused = await s.request('GET', 'accounts/me');
    expect(refused.status).toBe(401);
    expectAppPolicy(refused.headers);
    const missing = await s.request('GET', 'no-such-area');
    expect(missing.status).toBe(404);
    expectAppPolicy(missing.headers);
  });
});

describe('stored user files', () => {
  /** The sandbox of a stored file: no script, no plugin, nothing of the site's origin. */
  function expectSandboxed(headers: Headers) {
    expectCommonHeaders(headers);
    const policy = csp(headers);
    expect(policy.has('sandbox'), 'sandboxed').toBe(true);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.has('script-src')).toBe(false);
  }

  it('serve a key image in place, sandboxed', async () => {
    await s.storage.put('images/1/1/headers-key.png', png(4, 4), { contentType: 'image/png' });
    const link = await fetchLink(s, await s.storage.readUrl('images/1/1/headers-key.png', { expiresInSeconds: 60, contentType: 'image/png' }));
    expect(link.status).toBe(200);
    expect(link.headers.get('content-type')).toBe('image/png');
    expect(link.headers.get('content-disposition')).toBeNull();
    expectSandboxed(link.headers);
  });

  it('download an attachment under its own name, sandboxed', async () => {
    await s.storage.put('attachments/1/1/headers-letter.pdf', pdf(), { contentType: 'application/pdf' });
    const named = await fetchLink(s, await s.storage.readUrl('attachments/1/1/headers-letter.pdf', { expiresInSeconds: 60, contentType: 'application/pdf', filename: '申请单.pdf' }));
    expect(named.status).toBe(200);
    expect(named.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expectSandboxed(named.headers);
    // A PDF without a name (an application form, a link made without one) is a download too, never a page of the site.
    const unnamed = await fetchLink(s, await s.storage.readUrl('attachments/1/1/headers-letter.pdf', { expiresInSeconds: 60, contentType: 'application/pdf' }));
    expect(unnamed.headers.get('content-disposition')).toBe('attachment');
    expectSandboxed(unnamed.headers);
    // A file whose type is not known goes as bytes to download.
    const untyped = await fetchLink(s, await s.storage.readUrl('attachments/1/1/headers-letter.pdf', { expiresInSeconds: 60 }));
    expect(untyped.headers.get('content-type')).toBe('application/octet-stream');
    expect(untyped.headers.get('content-disposition')).toBe('attachment');
    expectSandboxed(untyped.headers);
  });

  it('serve an uploaded avatar sandboxed', async () => {
    const upload = await s.request('POST', 'uploads/avatars', { token: rad1, body: form(png(8, 8), 'me.png', 'image/png') });
    expect(upload.status).toBe(201);
    const avatar = await fetchLink(s, upload.body.url);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/png');
    expectSandboxed(avatar.headers);
  });
});

describe('a bucket that serves the files itself', () => {
  it('is named in img-src and connect-src, because key images are links into it', async () => {
    const storage = createS3Storage({
      endpoint: 'http://10.1.2.3:9000', bucket: 'ris', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b', signer: createSigner('x'), clock: new TestClock(),
    });
    expect(await fileOriginsOf(storage)).toEqual(['http://10.1.2.3:9000']);
    expect(await fileOriginsOf(s.storage), 'local storage: links on the app itself').toEqual([]);
    const app = await buildApp({
      db: s.db.db, dbKind: s.db.kind, clock: s.clock, storage, tokens: createTokens('headers-test-secret', 3600),
      config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: '/tmp', clientDir: '/nonexistent' },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/domain' });
      const policy = csp(new Headers(res.headers as Record<string, string>));
      expect(policy.get('img-src')).toContain('http://10.1.2.3:9000');
      expect(policy.get('connect-src')).toEqual(["'self'", 'http://10.1.2.3:9000']);
      expect(policy.get('script-src'), 'never a script source').toEqual(["'self'", "'wasm-unsafe-eval'"]);
    } finally {
      await app.close();
    }
  });
});
