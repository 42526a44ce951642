import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { createTokens } from '../../server/auth/tokens';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { CT_SERIES, asNewInstance, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { CT_SERIES_STUDY } from '../support/uploads';

/**
 * A study's files are not logged one by one (server/uploads/routes.ts `perFile`, issue 18): two info lines per file
 * were a tenth of the ingest path's CPU. The request log of an app built with an info-level logger is read here: the
 * file routes write nothing at info (a refused file neither), and every other route still does.
 */
interface Line { level: number; reqId?: string; msg?: string; req?: { url?: string } }

let s: TestServer;
let app: FastifyInstance;
const lines: Line[] = [];

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  app = await buildApp({
    db: s.db.db, dbKind: s.db.kind, clock: s.clock, storage: s.storage, tokens: createTokens('log-secret', 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: '/tmp', clientDir: '/nonexistent' },
  }, { logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line); } } } });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await s?.close();
});

/** The log lines of the requests to `url`: Fastify's "incoming request" names the URL, the rest share its reqId. */
function linesOf(url: string): Line[] {
  const ids = new Set(lines.filter((l) => l.req?.url?.startsWith(url)).map((l) => l.reqId));
  return lines.filter((l) => l.reqId !== undefined && ids.has(l.reqId));
}

describe('the request log of a study upload', () => {
  it('has no line per file at info level, and keeps the session and the other routes', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/v1/accounts/login', payload: { username: 'tech', password: DEMO_PASSWORD } });
    const token = (JSON.parse(login.body) as { accessToken: string }).accessToken;
    const init = await app.inject({
      method: 'POST', url: `/api/v1/buckets/${s.ids.hospitalId}/studies/upload`, headers: { authorization: `Bearer ${token}` }, payload: CT_SERIES_STUDY,
    });
    expect(init.statusCode).toBe(200);
    const credentials = (JSON.parse(init.body) as { credentials: { token: string } }).credentials.token;
    for (let i = 0; i < 3; i++) {
      const file = asNewInstance(sample(CT_SERIES[i]!), 9000 + i, { study: CT_SERIES_STUDY.studyInstanceUid });
      const put = await app.inject({
        method: 'PUT', url: '/api/v1/uploads/files', headers: { 'content-type': 'application/dicom', 'x-upload-token': credentials }, payload: Buffer.from(file),
      });
      expect(JSON.parse(put.body)).toMatchObject({ status: 'stored' });
    }
    // A refused file (bad credentials) is a 403: not logged either.
    const refused = await app.inject({ method: 'PUT', url: '/api/v1/uploads/files', headers: { 'content-type': 'application/dicom', 'x-upload-token': 'x'.repeat(40) }, payload: Buffer.from('DICM') });
    expect(refused.statusCode).toBe(403);

    expect(linesOf('/api/v1/uploads/files')).toEqual([]);
    // The session and the login are logged as before: the log is on, and only the file routes are quiet.
    expect(linesOf(`/api/v1/buckets/${s.ids.hospitalId}/studies/upload`).map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(linesOf('/api/v1/accounts/login').map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });
});
