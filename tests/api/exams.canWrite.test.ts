import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExamListItem, ExamPage } from '../../contract/exams';
import { detail, insertExam, reportIn, tokenOf, type Fixture } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * `canWrite` on every worklist row: the report machine's answer for the asking account ("save" allowed), or with no
 * report, whether it may start one. The worklist's `n` walks it, so it must say no to another's draft or lock and
 * to reports that are out of the writer's hands.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5, tokenTtlSeconds: 30 * 86_400 }); });
afterAll(async () => { await s.close(); });

async function rowAs(username: string, examId: number): Promise<ExamListItem> {
  const res = await s.request('POST', 'exams/page-query', {
    token: await tokenOf(s, username),
    body: { filters: [{ field: 'id', operator: 'equal', values: [examId] }], limit: 5 },
  });
  expect(res.status).toBe(200);
  const page = res.body as ExamPage;
  expect(page.items).toHaveLength(1);
  return page.items[0]!;
}

describe('canWrite on worklist rows', () => {
  it('says yes to a radiologist for an exam without a report, and no to a technician who may not write reports', async () => {
    const examId = await insertExam(s);
    expect((await rowAs('rad1', examId)).canWrite).toBe(true);
    expect((await rowAs('tech', examId)).canWrite).toBe(false);
  });

  it.each<[Fixture, boolean, boolean]>([
    // status, rad1 (the writer) can write, rad2 (another radiologist) can write
    ['partial', true, false],
    ['locked', true, false],
    ['final', false, false],
    ['advised', true, false], // the writer revises after the advice; the advisor does not write it
    ['hold', true, false],
    ['corrected', false, false],
    ['cancelled', true, false],
  ])("a %s report written by rad1: rad1 %s, rad2 %s", async (fixture, writer, other) => {
    const report = await reportIn(s, fixture);
    expect((await rowAs('rad1', report.examId)).canWrite).toBe(writer);
    expect((await rowAs('rad2', report.examId)).canWrite).toBe(other);
  });

  it.each<Fixture>(['partial', 'locked', 'advised', 'hold', 'final'])('agrees with the transitions of a %s report for each account', async (fixture) => {
    const report = await reportIn(s, fixture);
    for (const username of ['rad1', 'rad2', 'chief', 'expert']) {
      const view = await detail(s, username, report.id);
      const saves = view.status === 200 && (view.body.transitions as string[]).includes('save');
      const row = await s.request('POST', 'exams/page-query', {
        token: await tokenOf(s, username), body: { filters: [{ field: 'id', operator: 'equal', values: [report.examId] }], limit: 5 },
      });
      const items = (row.body as ExamPage).items;
      expect(items.length === 0 ? false : items[0]!.canWrite).toBe(saves);
    }
  });
});
