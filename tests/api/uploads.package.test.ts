import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { studyPackages } from '../../server/db/schema';
import { CT_SERIES, sample } from '../support/dicom';
import { fetchLink } from '../support/files';
import { startServer, type TestServer } from '../support/server';
import { initUpload, putFile } from '../support/uploads';

let s: TestServer;
let admin: string;
let examId: number;

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  admin = await s.login('admin');
  const session = await initUpload(s, admin, s.ids.hospitalId);
  examId = session.exam.id;
  for (const f of CT_SERIES) await putFile(s, session.credentials.token, sample(f));
});
afterAll(async () => { await s.close(); });

async function untilReady(): Promise<{ status: number; body: Record<string, unknown> & { url: string } }> {
  for (let i = 0; i < 200; i++) {
    const res = await s.request('GET', `exams/${examId}/study-package`, { token: admin });
    if (res.body.state !== 'processing') return res;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('not ready');
}

function entries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => { out.set(entry.fileName, Buffer.concat(chunks)); file.readEntry(); });
        });
      });
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}

describe('study package', () => {
  it('packs the exam in the background and answers processing first', async () => {
    const first = await s.request('GET', `exams/${examId}/study-package`, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ examId, state: 'processing', url: null });
  });

  it('gives a zip of every file of the exam, by series and instance number, through a short-lived link', async () => {
    const ready = await untilReady();
    expect(ready.body).toMatchObject({ state: 'ready', fileCount: 4 });
    const link = await fetchLink(s, ready.body.url);
    expect(link.status).toBe(200);
    expect(link.headers.get('content-type')).toBe('application/zip');
    const files = await entries(link.bytes);
    // Patient ID, name and exam date; series 2 of the CT; instances by number.
    expect([...files.keys()]).toEqual(['I00018', 'I00180', 'I00181', 'I00182'].map((n) => `77654033_Doe_Archibald_19950903/S002_CT/${n}.dcm`));
    for (const [i, f] of CT_SERIES.entries()) expect([...files.values()][i]!.equals(sample(f))).toBe(true);
    expect(ready.body.size).toBe(link.bytes.length);
    s.clock.advance(601_000);
    expect((await fetchLink(s, ready.body.url)).status).toBe(403);
  });

  it('refuses a repack within the hour with RepackTooSoon and when to retry', async () => {
    admin = await s.login('admin');
    const res = await s.request('GET', `exams/${examId}/study-package?repackage=true`, { token: admin });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('RepackTooSoon');
    expect(res.body.details.retryAfter).toBe(3600 - 601);
  });

  it('repacks after an hour and deletes the old zip', async () => {
    const [before] = await s.db.db.select().from(studyPackages).where(eq(studyPackages.examId, examId));
    s.clock.advance(3600_000);
    admin = await s.login('admin');
    expect((await s.request('GET', `exams/${examId}/study-package?repackage=true`, { token: admin })).body.state).toBe('processing');
    const ready = await untilReady();
    expect(ready.body.state).toBe('ready');
    expect(await s.storage.head(before!.storageKey!)).toBeNull();
  });

  it('needs study_package in the exam organisation', async () => {
    const rad1 = await s.login('rad1');
    expect((await s.request('GET', `exams/${examId}/study-package`, { token: rad1 })).status).toBe(403);
    const expert = await s.login('expert');
    expect((await s.request('GET', `exams/${examId}/study-package`, { token: expert })).status).toBe(404);
    expect((await s.request('GET', `exams/${examId}/study-package?repackage=maybe`, { token: admin })).status).toBe(400);
  });
});
