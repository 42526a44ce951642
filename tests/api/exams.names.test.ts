import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExamPage } from '../../contract/exams';
import * as t from '../../server/db/schema';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * A patient name with DICOM component groups is found by either form, however it was stored: as read by the upload
 * ('Wang XiaoDong=王小东') or raw from elsewhere ('Wang^XiaoDong=王^小东').
 */
let s: TestServer;
let asRead: number;
let raw: number;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  asRead = await insertExam(s);
  raw = await insertExam(s);
  await s.db.db.update(t.exams).set({ patientName: 'Wang XiaoDong=王小东' }).where(eq(t.exams.id, asRead));
  await s.db.db.update(t.exams).set({ patientName: 'Wang^XiaoDong=王^小东' }).where(eq(t.exams.id, raw));
});
afterAll(async () => { await s.close(); });

async function found(name: string): Promise<number[]> {
  const res = await s.request('POST', 'exams/page-query', {
    token: await tokenOf(s, 'rad1'),
    body: { filters: [{ field: 'patientName', operator: 'like', values: [name] }], limit: 50 },
  });
  expect(res.status).toBe(200);
  return (res.body as ExamPage).items.map((e) => e.id).sort((a, b) => a - b);
}

describe('patient name search across DICOM name forms', () => {
  it.each(['王小东', 'Wang XiaoDong', 'wang xiaodong', 'xiaodong', '小东'])('finds both exams by %s', async (name) => {
    expect(await found(name)).toEqual([asRead, raw].sort((a, b) => a - b));
  });

  it('still treats % and _ literally and finds nothing for another name', async () => {
    expect(await found('王小%')).toEqual([]);
    expect(await found('李小东')).toEqual([]);
  });
});
