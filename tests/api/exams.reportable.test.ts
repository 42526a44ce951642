import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter, Sort } from '../../contract/common';
import type { ExamListItem } from '../../contract/exams';
import { isReportable } from '../../contract/reportable';
import * as t from '../../server/db/schema';
import { tokenOf } from '../support/reports';
import { pageQuery } from '../support/exams';
import { startServer, type TestServer } from '../support/server';

/**
 * "Which exams can a radiologist report" is one rule (contract/reportable.ts `isReportable`), asked by the worklist's
 * `n` on rows and by the exam list's `reportable` filter in SQL (the worklist's default view). Over the demo data —
 * whose registry desk has lines in every status, booked for today and later days — the filter keeps exactly the rows
 * the function accepts, its `false` exactly the others, and the prepared statement of the default view answers as the
 * general builder does.
 */
let s: TestServer;
let rad: string;

const snapshot = (): Filter => ({ field: 'created', operator: 'lte', values: [new Date(s.clock.now().getTime() + 3_600_000).toISOString()] });
const reportable = (value: boolean): Filter => ({ field: 'reportable', operator: 'equal', values: [value] });
const byExamTime: Sort[] = [{ field: 'examTime', direction: 'desc' }];

async function all(filters: Filter[], sorts: Sort[] = byExamTime): Promise<{ items: ExamListItem[]; total: number }> {
  const page = await pageQuery(s, rad, { filters, sorts, skip: 0, limit: 500 });
  expect(page.totalIsEstimate).toBe(false);
  expect(page.items.length).toBe(page.total);
  return { items: page.items as unknown as ExamListItem[], total: page.total };
}

beforeAll(async () => {
  s = await startServer({ exams: 60 });
  rad = await tokenOf(s, 'rad1');
  // A line booked for later whose images came before its check-in: reportable, by its images.
  const [line] = await s.db.db.select({ id: t.exams.id }).from(t.exams)
    .where(and(eq(t.exams.examStatus, 'Scheduled'), isNull(t.exams.deletedTime), eq(t.exams.bucketId, s.ids.hospitalId))).limit(1);
  await s.db.db.update(t.exams).set({ hasImage: true }).where(eq(t.exams.id, line!.id));
});
afterAll(async () => s?.close());

describe('the reportable rule', () => {
  it('reads performed (or never booked) exams and exams with images as reportable, booked lines without images not', () => {
    expect(isReportable({ examStatus: null, hasImage: false })).toBe(true);
    expect(isReportable({ examStatus: 'Performed', hasImage: false })).toBe(true);
    expect(isReportable({ examStatus: 'Scheduled', hasImage: true })).toBe(true);
    for (const status of ['Registered', 'Scheduled', 'Arrived', 'Cancelled']) expect(isReportable({ examStatus: status, hasImage: false }), status).toBe(false);
  });

  it('is what the list filter keeps in SQL: true the rows the function accepts, false the others, together the whole list', async () => {
    const whole = await all([snapshot()]);
    const yes = await all([snapshot(), reportable(true)]);
    const no = await all([snapshot(), reportable(false)]);
    expect(whole.items.every((e) => e.examStatus === null || typeof e.examStatus === 'string')).toBe(true);
    expect(yes.items.filter((e) => !isReportable(e))).toEqual([]);
    expect(no.items.filter((e) => isReportable(e))).toEqual([]);
    expect(yes.total + no.total).toBe(whole.total);
    // The demo's desk has lines in every status: the filter has something to leave out, and keeps some booked lines.
    const statuses = new Set(no.items.map((e) => e.examStatus));
    expect(statuses).toEqual(new Set(['Registered', 'Scheduled', 'Arrived', 'Cancelled']));
    expect(yes.items.some((e) => e.examStatus === 'Performed')).toBe(true);
    expect(yes.items.some((e) => e.examStatus === 'Scheduled' && e.hasImage)).toBe(true);
    expect(yes.items.some((e) => e.examStatus === null)).toBe(true);
  });

  it('answers the default view (a prepared statement) as the general builder does', async () => {
    const prepared = await all([snapshot(), reportable(true)]);
    // One more filter that holds for every row takes the request off the prepared shapes.
    const built = await all([snapshot(), reportable(true), { field: 'id', operator: 'gte', values: [1] }]);
    expect(prepared.items.map((e) => e.id)).toEqual(built.items.map((e) => e.id));
    const ct = { field: 'modality', operator: 'in', values: ['CT'] } satisfies Filter;
    const preparedCt = await all([snapshot(), reportable(true), ct], []);
    const builtCt = await all([snapshot(), reportable(true), ct, { field: 'id', operator: 'gte', values: [1] }], []);
    expect(preparedCt.items.map((e) => e.id)).toEqual(builtCt.items.map((e) => e.id));
    expect(preparedCt.items.length).toBeGreaterThan(0);
  });

  it('answers "unreported, by exam time" (a prepared statement planned with its values) as the general builder does', async () => {
    const none = { field: 'reportStatus', operator: 'in', values: ['none'] } satisfies Filter;
    const prepared = await all([snapshot(), none]);
    const built = await all([snapshot(), none, { field: 'id', operator: 'gte', values: [1] }]);
    expect(prepared.items.map((e) => e.id)).toEqual(built.items.map((e) => e.id));
    expect(prepared.items.length).toBeGreaterThan(0);
    expect(prepared.items.every((e) => e.reportStatus === 'none')).toBe(true);
  });

  it('refuses a value that is not a boolean, and operators other than equal', async () => {
    for (const filter of [{ ...reportable(true), values: ['yes'] }, { ...reportable(true), operator: 'notEqual' }]) {
      const res = await s.request('POST', 'exams/page-query', { token: rad, body: { filters: [filter] } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });
});
