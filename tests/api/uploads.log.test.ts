import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CT_SERIES, asNewInstance, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { CT_SERIES_STUDY, initUpload, putFile } from '../support/uploads';

/**
 * A study's files are not logged one by one (server/uploads/routes.ts `perFile`, issue 18): two info lines per file
 * were a tenth of the ingest path's CPU. The request log of a server started with an info-level logger is read here: the
 * file routes write nothing at info (a refused file neither), and every other route still does.
 */
interface Line { level: number; reqId?: string; msg?: string; req?: { url?: string } }

let s: TestServer;
const lines: Line[] = [];

beforeAll(async () => {
  s = await startServer({ exams: 5, logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line); } } } });
});
afterAll(async () => {
  await s?.close();
});

/** The log lines of the requests to `url`: Fastify's "incoming request" names the URL, the rest share its reqId. */
function linesOf(url: string): Line[] {
  const ids = new Set(lines.filter((l) => l.req?.url?.startsWith(url)).map((l) => l.reqId));
  return lines.filter((l) => l.reqId !== undefined && ids.has(l.reqId));
}

describe('the request log of a study upload', () => {
  it('has no line per file at info level, and keeps the session and the other routes', async () => {
    const token = await s.login('tech');
    const session = await initUpload(s, token, s.ids.hospitalId);
    for (let i = 0; i < 3; i++) {
      const file = asNewInstance(sample(CT_SERIES[i]!), 9000 + i, { study: CT_SERIES_STUDY.studyInstanceUid });
      expect((await putFile(s, session.credentials.token, file)).body).toMatchObject({ status: 'stored' });
    }
    // A refused file (bad credentials) is a 403: not logged either.
    expect((await putFile(s, 'x'.repeat(40), Buffer.from('DICM'))).status).toBe(403);

    expect(linesOf('/api/v1/uploads/files')).toEqual([]);
    // The session and the login are logged as before: the log is on, and only the file routes are quiet.
    expect(linesOf(`/api/v1/buckets/${s.ids.hospitalId}/studies/upload`).map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(linesOf('/api/v1/accounts/login').map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });
});
