import { and, count, eq, isNull } from 'drizzle-orm';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../contract/errors';
import { buildApp } from '../../server/app';
import { createTokens } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { RATE_RULES } from '../../server/http/rateLimit';
import { CT_SERIES_STUDY, initUpload } from '../support/uploads';
import { startServer, type TestServer } from '../support/server';

/**
 * Hardening: bad input is never a 500 (architecture "Input"). Broken multipart, dates the columns cannot hold, ids
 * that are not decimal digits, over-long path parameters, a stalled body, registration floods.
 */
let s: TestServer;
let admin: string;
let tech: string;
let rad1: string;
let draft: number;
let examId: number;
let attachmentCode: string;
let uploadToken: string;
beforeAll(async () => {
  s = await startServer({ exams: 40, trustProxy: ['127.0.0.1'] });
  [admin, tech, rad1] = await Promise.all([s.login('admin'), s.login('tech'), s.login('rad1')]);
  const [report] = await s.db.db.select({ id: t.reports.id, examId: t.reports.examId }).from(t.reports)
    .where(and(eq(t.reports.bucketId, s.ids.hospitalId), eq(t.reports.status, 'partial'), eq(t.reports.creatorId, s.ids.accounts.rad1), isNull(t.reports.deletedTime), isNull(t.reports.lockedById))).orderBy(t.reports.id).limit(1);
  draft = report!.id;
  examId = report!.examId;
  const code = await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'attachment', bucketId: s.ids.hospitalId, reportId: draft, ttlHours: 24 } });
  expect(code.status).toBe(201);
  attachmentCode = code.body.code as string;
  uploadToken = (await initUpload(s, admin, s.ids.hospitalId)).credentials.token;
});
afterAll(async () => { await s.close(); });
afterEach(async () => { await s.db.db.delete(t.rateCounters); });

const CATALOGUE = new Set(Object.keys(ERROR_STATUS));

function expectParamsError(res: { status: number; body: { code?: string } }, what = '') {
  expect({ what, status: res.status, code: res.body?.code }).toEqual({ what, status: 400, code: 'ParamsError' });
}

/** Everything a failed upload could have left behind: stored objects and rows. */
async function written() {
  const keys: string[] = [];
  for await (const o of s.storage.list('')) keys.push(o.key);
  const db = s.db.db;
  const [[images], [attachments], [instances], [exam]] = await Promise.all([
    db.select({ n: count() }).from(t.keyImages),
    db.select({ n: count() }).from(t.reportAttachments),
    db.select({ n: count() }).from(t.dicomInstances),
    db.select({ forms: t.exams.formImgUrls }).from(t.exams).where(eq(t.exams.id, examId)),
  ]);
  return { keys: keys.sort(), images: images!.n, attachments: attachments!.n, instances: instances!.n, forms: exam!.forms };
}

describe('broken multipart on every form endpoint', () => {
  const endpoints = () => [
    ['uploads/avatars', admin],
    ['uploads/files', admin],
    [`exams/${examId}/forms`, admin],
    [`reports/${draft}/images`, rad1],
    [`reports/${draft}/upload-attachments`, admin],
    [`upload-codes/${attachmentCode}/attachments`, undefined],
  ] as const;

  it('answers 400 ParamsError to form data without a boundary, and writes nothing', async () => {
    const before = await written();
    for (const [path, token] of endpoints()) {
      const res = await s.request('POST', path, { token, body: 'abc', headers: { 'content-type': 'multipart/form-data' } });
      expectParamsError(res, path);
    }
    expect(await written()).toEqual(before);
  });

  it('answers 400 ParamsError to a part cut off mid-way (fields and file), and writes nothing', async () => {
    const before = await written();
    const boundary = 'XyZzy0123456789';
    const cutInField = `--${boundary}\r\ncontent-disposition: form-data; name="token"\r\n\r\nabc`;
    // The file part comes after the permit, as the client sends it: only uploads/files needs one beside the bearer.
    const permit = (path: string) => (path === 'uploads/files' ? `--${boundary}\r\ncontent-disposition: form-data; name="token"\r\n\r\n${uploadToken}\r\n` : '');
    const filePart = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n\u0089PNG\r\n\u001a\n${'abcdef'.repeat(100)}`;
    const cutInHeader = `--${boundary}\r\ncontent-disposition: form-da`;
    for (const [path, token] of endpoints()) {
      for (const [what, body] of [['field', cutInField], ['file', permit(path) + filePart], ['header', cutInHeader]] as const) {
        const res = await s.request('POST', path, { token, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
        expectParamsError(res, `${path} cut in ${what}`);
      }
    }
    expect(await written()).toEqual(before);
  });
});

describe('dates outside what the product stores', () => {
  const filter = (value: string) => ({ filters: [{ field: 'created', operator: 'gte', values: [value] }] });
  const lists = () => [
    ['exams/page-query', filter],
    ['exams/query/count', filter],
    ['exams/newly', filter],
    ['exports/exams', filter],
    ['consultations/query-page', filter],
  ] as const;

  it.each(['0000-01-01T00:00:00Z', '1899-12-31T23:59:59Z', '2201-01-01T00:00:00Z', '9999-12-31T23:59:59Z'])('refuses the filter created gte %s with 400 ParamsError', async (value) => {
    for (const [path, body] of lists()) expectParamsError(await s.request('POST', path, { token: admin, body: body(value) }), path);
  });

  it('still takes a date inside the range on every list', async () => {
    for (const [path, body] of lists()) {
      const res = await s.request('POST', path, { token: admin, body: body('1900-01-01T00:00:00Z') });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it.each(['0000-01-01T00:00:00Z', '0000-06-15T08:00:00+08:00', '2201-01-01T00:00:00Z'])('refuses examTime %s on exam edit and study upload, changing nothing', async (examTime) => {
    const [before] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, examId));
    expectParamsError(await s.request('POST', `exams/${examId}`, { token: admin, body: { examTime } }), 'exams/{id}');
    const [after] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, examId));
    expect(after).toEqual(before);
    const [{ n: examsBefore }] = (await s.db.db.select({ n: count() }).from(t.exams)) as [{ n: number }];
    const upload = await s.request('POST', `buckets/${s.ids.hospitalId}/studies/upload`, { token: admin, body: { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.4.5.0000', examTime } });
    expectParamsError(upload, 'studies/upload');
    const [{ n: examsAfter }] = (await s.db.db.select({ n: count() }).from(t.exams)) as [{ n: number }];
    expect(examsAfter).toBe(examsBefore);
  });

  it('refuses a birth date in year 0000 or on a day that does not exist', async () => {
    for (const patientDob of ['0000-01-01', '2026-02-30']) {
      expectParamsError(await s.request('POST', `exams/${examId}`, { token: admin, body: { patientDob } }), `exams/{id} ${patientDob}`);
      expectParamsError(await s.request('POST', `buckets/${s.ids.hospitalId}/studies/upload`, { token: admin, body: { ...CT_SERIES_STUDY, studyInstanceUid: '1.2.3.4.5.0001', patientDob } }), `upload ${patientDob}`);
    }
  });
});

describe('path parameters', () => {
  it('answers 400 ParamsError to a parameter over 100 characters', async () => {
    for (const path of [`exams/${'1'.repeat(101)}`, `reports/${'9'.repeat(500)}/attachments`, `upload-codes/${'A'.repeat(300)}`]) {
      const res = await s.request('GET', path, { token: admin });
      expectParamsError(res, path);
    }
    expectParamsError(await s.request('POST', `exams/${'1'.repeat(200)}`, { token: admin, body: {} }), 'POST exams');
  });

  it.each(['0x1F', '1e3', '%201', '1.0', '+1', '1%20', '0b1', '0o7', '１'])('refuses the id %j with 400 ParamsError on every kind of id route', async (id) => {
    const paths = [
      ['GET', `exams/${id}`], ['GET', `reports/${id}/attachments`], [`GET`, `groups/${id}`], ['GET', `buckets/${id}/queue-exams`],
      ['GET', `reports/${draft}/attachments/${id}/presign-url`], ['GET', `avatars/${id}/abcdefgh12.png`],
    ] as const;
    for (const [method, path] of paths) expectParamsError(await s.request(method, path, { token: admin }), `${method} ${path}`);
  });

  it('refuses ids in the query that are not decimal digits', async () => {
    expectParamsError(await s.request('GET', `exams/${examId}/detail?reportId=0x1F`, { token: admin }), 'exams/{id}/detail?reportId');
    expectParamsError(await s.request('GET', 'report-templates?bucketId=1e3', { token: admin }), 'templates?bucketId');
  });

  it('still takes plain decimal ids', async () => {
    expect((await s.request('GET', `exams/${examId}`, { token: admin })).status).toBe(200);
  });
});

describe('a stalled body', () => {
  it('is cut off after the request timeout', async () => {
    const app = await buildApp({
      db: s.db.db, dbKind: s.db.kind, clock: s.clock, storage: s.storage, tokens: createTokens('stall-secret', 3600),
      config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: '/tmp', clientDir: '/nonexistent' },
    }, { requestTimeoutMs: 400 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write('POST /api/v1/accounts/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"username": "ad');
        });
        let received = '';
        socket.on('data', (d) => { received += d.toString(); });
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        setTimeout(() => { socket.destroy(); reject(new Error(`still open after 5 s (received ${JSON.stringify(received)})`)); }, 5000);
      });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(350);
      expect(elapsed).toBeLessThan(3000);
      // Node answers 408 itself before closing; nothing reached a handler.
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('registration', () => {
  const register = (address: string, i: number) => s.request('POST', 'accounts', {
    body: { username: `flood_${address.replace(/\./g, '_')}_${i}`, password: 'Secret12', name: 'X' }, headers: { 'x-forwarded-for': address },
  });

  it('is limited per address like login, through the one rate limiter', async () => {
    const rule = RATE_RULES.registerAddress;
    for (let i = 0; i < rule.limit; i++) expect((await register('10.9.0.1', i)).status).toBe(201);
    const refused = await register('10.9.0.1', rule.limit);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TooManyAttempts');
    expect(refused.body.details.retryAfter).toBeGreaterThan(0);
    const [row] = await s.db.db.select().from(t.accounts).where(eq(t.accounts.username, `flood_10_9_0_1_${rule.limit}`));
    expect(row).toBeUndefined();
    // Another address is not concerned; the same one registers again once the window has passed.
    expect((await register('10.9.0.2', 0)).status).toBe(201);
    s.clock.advance(rule.windowMs);
    expect((await register('10.9.0.1', rule.limit + 1)).status).toBe(201);
  });

  it('refuses 30 registrations from one address in a burst past the limit', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => register('10.9.0.3', i)));
    const created = results.filter((r) => r.status === 201).length;
    expect(created).toBeLessThanOrEqual(RATE_RULES.registerAddress.limit);
    expect(results.every((r) => r.status === 201 || (r.status === 429 && CATALOGUE.has(r.body.code)))).toBe(true);
  });
});
