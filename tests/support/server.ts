import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { createTokens } from '../../server/auth/tokens';
import type { Database } from '../../server/db/client';
import { freshDatabase } from './freshDatabase';
import type { TrustProxy } from '../../server/config';
import type { Clock, Deps } from '../../server/deps';
import { DEMO_PASSWORD, seedDemo, type DemoIds, type DemoUsername } from '../../server/seed/demo';
import { createLocalStorage } from '../../server/storage/local';
import { createSigner } from '../../server/storage/signer';
import type { Storage } from '../../server/storage/types';
import type { SmsSender } from '../../server/accounts/sms';
import { startDicomListener, type DicomListener } from '../../server/dicom/listener';
import { startHl7Listener, type Hl7Listener } from '../../server/hl7/listener';

/** A clock tests can move: token expiry, rate-limit windows, 30-day recovery, repack-once-an-hour. */
export class TestClock implements Clock {
  constructor(private t = Date.now()) {}
  now = () => new Date(this.t);
  advance(ms: number) { this.t += ms; }
  set(date: Date) { this.t = date.getTime(); }
}

export interface TestServer {
  app: FastifyInstance;
  url: string;
  db: Database;
  clock: TestClock;
  ids: DemoIds;
  storage: Storage;
  /** What the app was built with: for tests that call a server function directly (server/dicom/receive.ts). */
  deps: Deps;
  /** The DICOM listener, when asked for (`dicom`): on loopback, a free port, AE title RADWS unless given. */
  dicom: DicomListener | null;
  /** The HL7 MLLP listener, when asked for (`hl7`): on loopback, a free port; `maxBytes` for the oversize test. */
  hl7: Hl7Listener | null;
  close(): Promise<void>;
  /** Signs in a demo account and returns its bearer token. */
  login(username: DemoUsername | string, password?: string): Promise<string>;
  /** fetch against the running server; `token` adds the bearer header; a body object is sent as JSON. */
  request(method: string, path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
}

/**
 * Starts the real server on a random port with a fresh database (./freshDatabase): in-memory PGlite, or a new
 * PostgreSQL database when DATABASE_URL is set (dropped again on close). Demo data is seeded
 * with a cheap password hash so each test file starts in about a second.
 */
export async function startServer(opts: { exams?: number; tokenTtlSeconds?: number; storage?: (clock: TestClock) => Storage; trustProxy?: TrustProxy; sms?: SmsSender; config?: Partial<Deps['config']>; logger?: FastifyServerOptions['logger']; dicom?: boolean | { aeTitle: string }; hl7?: boolean | { maxBytes: number } } = {}): Promise<TestServer> {
  const clock = new TestClock();
  const { database: db, databaseUrl, dispose } = await freshDatabase();
  const scryptCost = 1024;
  const ids = await seedDemo(db.db, { scryptCost, clock, exams: opts.exams ?? 120 });
  // Files go to a fresh temporary folder (removed on close) unless the test brings its own storage.
  const filesDir = mkdtempSync(path.join(tmpdir(), 'rad-files-'));
  const storage = opts.storage?.(clock) ?? createLocalStorage({ root: filesDir, signer: createSigner(randomBytes(16).toString('hex')), clock });
  const deps: Deps = {
    db: db.db, dbKind: db.kind, clock, storage, tokens: createTokens('test-secret-' + randomBytes(8).toString('hex'), opts.tokenTtlSeconds ?? 3600),
    config: { tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600, scryptCost, dataDir: '/tmp', clientDir: '/nonexistent', databaseUrl, ...opts.config }, sms: opts.sms,
  };
  const app = await buildApp(deps, { trustProxy: opts.trustProxy, logger: opts.logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const dicom = opts.dicom
    ? await startDicomListener(deps, { port: 0, host: '127.0.0.1', aeTitle: typeof opts.dicom === 'object' ? opts.dicom.aeTitle : 'RADWS' })
    : null;
  if (dicom) deps.dicomNode = { aeTitle: dicom.aeTitle, port: dicom.port, host: '127.0.0.1' };
  const hl7 = opts.hl7
    ? await startHl7Listener(deps, { port: 0, host: '127.0.0.1', maxBytes: typeof opts.hl7 === 'object' ? opts.hl7.maxBytes : undefined })
    : null;
  if (hl7) deps.hl7Node = { port: hl7.port, tls: hl7.tls };

  const request: TestServer['request'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: BodyInit | undefined;
    if (o.body !== undefined) {
      if (typeof o.body === 'string' || o.body instanceof FormData) body = o.body as BodyInit;
      // fetch names no type for bytes: they go as application/octet-stream unless the caller says otherwise.
      else if (o.body instanceof Uint8Array) { body = o.body as BodyInit; headers['content-type'] ??= 'application/octet-stream'; }
      else { body = JSON.stringify(o.body); headers['content-type'] ??= 'application/json'; }
    }
    const res = await fetch(url + (path.startsWith('/') ? path : `/api/v1/${path}`), { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : null; } catch { /* a file or plain text */ }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  return {
    app, url, db, clock, ids, storage, deps, dicom, hl7, request,
    async login(username, password = DEMO_PASSWORD) {
      const res = await request('POST', 'accounts/login', { body: { username, password } });
      if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.accessToken as string;
    },
    async close() {
      await dicom?.close();
      await hl7?.close();
      await app.close();
      await dispose();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * A file's server and the accounts it signs in as, one after the other:
 * `beforeAll(async () => { ({ s, tokens: [admin, rad1] } = await startWithLogins({ exams: 5 }, 'admin', 'rad1')); });`
 */
export async function startWithLogins<const U extends readonly string[]>(
  opts: Parameters<typeof startServer>[0], ...usernames: U
): Promise<{ s: TestServer; tokens: { [K in keyof U]: string } }> {
  const s = await startServer(opts);
  const tokens: string[] = [];
  for (const username of usernames) tokens.push(await s.login(username));
  return { s, tokens: tokens as { [K in keyof U]: string } };
}
