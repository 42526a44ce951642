import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter } from '../../contract/common';
import { EXAM_SORT_FIELDS } from '../../contract/exams';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { bulkExams, bulkReports, examRows, pageQuery, type ExamRow } from '../support/exams';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * POST exams/page-query and exams/query/count: every filter of the whitelist with each of its operators and every
 * sort, checked against the stored rows; the scope; the refusals.
 */
let s: TestServer;
let live: ExamRow[];
let rad1: string;
const MINUTE = 60_000;

beforeAll(async () => {
  s = await startServer({ exams: 120 });
  const db = s.db.db;
  const hospital = await examRows(s, [s.ids.hospitalId]);
  // Variety the demo seed lacks: remote requests, expert sends, assignments, an exam without accession, a missing source.
  const ids = hospital.map((e) => e.id);
  await db.update(t.exams).set({ isRemoteReportRequested: true }).where(inArray(t.exams.id, ids.slice(0, 10)));
  await db.update(t.exams).set({ teleMedFlag: true, isRemoteReportRequested: true }).where(inArray(t.exams.id, ids.slice(10, 15)));
  await db.update(t.exams).set({ teleMedFlag: true }).where(inArray(t.exams.id, ids.slice(15, 18)));
  await db.update(t.exams).set({ assigneeId: s.ids.accounts.rad1 }).where(inArray(t.exams.id, ids.slice(20, 26)));
  await db.update(t.exams).set({ assigneeId: s.ids.accounts.rad2 }).where(inArray(t.exams.id, ids.slice(26, 30)));
  await db.update(t.exams).set({ accessionNumber: null, patientSource: null, bodyPart: null }).where(inArray(t.exams.id, ids.slice(30, 33)));
  await db.update(t.exams).set({ patientName: '张100%_\\测' }).where(eq(t.exams.id, ids[40]!));
  await db.update(t.exams).set({ deletedTime: s.clock.now() }).where(inArray(t.exams.id, ids.slice(50, 53)));
  live = (await examRows(s, [s.ids.hospitalId])).filter((e) => e.deletedTime === null);
  rad1 = await tokenOf(s, 'rad1');
});
afterAll(async () => { await s.close(); });

const byNewest = (a: ExamRow, b: ExamRow) => b.created.getTime() - a.created.getTime() || b.id - a.id;
const idsOf = (rows: ExamRow[]) => [...rows].sort(byNewest).map((e) => e.id);
const status = (e: ExamRow) => e.reportStatus ?? 'none';

async function idsFor(filters: Filter[], token = rad1): Promise<number[]> {
  const page = await pageQuery(s, token, { filters, limit: 500 });
  expect(page.total).toBe(page.items.length);
  return page.items.map((e) => e.id);
}

describe('exam list scope', () => {
  it('lists only the exams of organisations where the caller may read exams or reports, newest first, 50 by default', async () => {
    const page = await pageQuery(s, rad1, {});
    expect(page.items).toHaveLength(50);
    expect(page.total).toBe(live.length);
    expect(page.totalIsEstimate).toBe(false);
    expect(page.items.map((e) => e.id)).toEqual(idsOf(live).slice(0, 50));
  });

  it('holds demo exams done before they reached the system, none in the future', async () => {
    const all = [...await examRows(s, [s.ids.hospitalId]), ...await examRows(s, [s.ids.expertCentreId])];
    expect(all.length).toBeGreaterThan(100);
    for (const exam of all.filter((e) => e.registrationId === null)) {
      expect(exam.examTime!.getTime(), `exam ${exam.id}`).toBeLessThan(exam.created.getTime());
      expect(exam.examTime!.getTime(), `exam ${exam.id}`).toBeLessThanOrEqual(s.clock.now().getTime());
    }
    // Registry lines are booked at the desk first: their exam time is the appointment (later today or another day)
    // until the patient arrives; what happened — registration and arrival — is in the past.
    const booked = all.filter((e) => e.registrationId !== null);
    expect(booked.length).toBeGreaterThan(0);
    for (const exam of booked) {
      expect(exam.created.getTime(), `exam ${exam.id}`).toBeLessThanOrEqual(s.clock.now().getTime());
      if (exam.arrivedTime) expect(exam.arrivedTime.getTime(), `exam ${exam.id}`).toBeLessThanOrEqual(s.clock.now().getTime());
    }
  });

  it('gives the expert only the expert centre and the admin both organisations', async () => {
    const centre = (await examRows(s, [s.ids.expertCentreId])).filter((e) => e.deletedTime === null);
    expect(await idsFor([], await tokenOf(s, 'expert'))).toEqual(idsOf(centre));
    expect(await idsFor([], await tokenOf(s, 'admin'))).toEqual(idsOf([...live, ...centre]));
  });

  it('gives an account without exam or report rights an empty list', async () => {
    const page = await pageQuery(s, await tokenOf(s, 'registrar'), {});
    expect(page).toEqual({ items: [], total: 0, totalIsEstimate: false });
  });

  it('lets a bucketId filter narrow the scope but never widen it', async () => {
    expect(await idsFor([{ field: 'bucketId', operator: 'equal', values: [s.ids.expertCentreId] }])).toEqual([]);
    expect(await idsFor([{ field: 'bucketId', operator: 'in', values: [s.ids.hospitalId, s.ids.expertCentreId] }])).toEqual(idsOf(live));
    const admin = await tokenOf(s, 'admin');
    const centre = (await examRows(s, [s.ids.expertCentreId])).filter((e) => e.deletedTime === null);
    expect(await idsFor([{ field: 'bucketId', operator: 'equal', values: [s.ids.expertCentreId] }], admin)).toEqual(idsOf(centre));
  });

  it('pages with skip and limit, and query/count answers the same total', async () => {
    const all = idsOf(live);
    const second = await pageQuery(s, rad1, { skip: 20, limit: 20 });
    expect(second.items.map((e) => e.id)).toEqual(all.slice(20, 40));
    const filters = [{ field: 'modality', operator: 'equal', values: ['CT'] }];
    const count = await s.request('POST', 'exams/query/count', { token: rad1, body: { filters } });
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ total: live.filter((e) => e.modality === 'CT').length, totalIsEstimate: false });
  });
});

describe('exam list filters', () => {
  const at = (i: number) => live[i]!;
  const pivot = () => [...live].sort((a, b) => a.created.getTime() - b.created.getTime())[Math.floor(live.length / 2)]!;

  // [name, filters, the rows they must select]
  const cases: [string, () => Filter[], (e: ExamRow) => boolean][] = [
    ['id in', () => [{ field: 'id', operator: 'in', values: [at(0).id, at(5).id] }], (e) => e.id === at(0).id || e.id === at(5).id],
    ['id gt', () => [{ field: 'id', operator: 'gt', values: [at(60).id] }], (e) => e.id > at(60).id],
    ['patientName like (case-insensitive contains)', () => [{ field: 'patientName', operator: 'like', values: [at(3).patientName.slice(1)] }],
      (e) => e.patientName.includes(at(3).patientName.slice(1))],
    ['patientName like with % _ \\ taken literally', () => [{ field: 'patientName', operator: 'like', values: ['100%_\\'] }], (e) => e.patientName.includes('100%_\\')],
    ['patientName equal', () => [{ field: 'patientName', operator: 'equal', values: [at(7).patientName] }], (e) => e.patientName === at(7).patientName],
    ['patientId equal', () => [{ field: 'patientId', operator: 'equal', values: [at(8).patientId] }], (e) => e.patientId === at(8).patientId],
    ['patientId in', () => [{ field: 'patientId', operator: 'in', values: [at(8).patientId, at(9).patientId] }], (e) => [at(8).patientId, at(9).patientId].includes(e.patientId)],
    ['patientId like', () => [{ field: 'patientId', operator: 'like', values: [at(8).patientId.slice(2, 7).toLowerCase()] }],
      (e) => e.patientId.toLowerCase().includes(at(8).patientId.slice(2, 7).toLowerCase())],
    ['accessionNumber equal', () => [{ field: 'accessionNumber', operator: 'equal', values: [at(11).accessionNumber] }], (e) => e.accessionNumber === at(11).accessionNumber],
    ['accessionNumber equal null (absent)', () => [{ field: 'accessionNumber', operator: 'equal', values: [null] }], (e) => e.accessionNumber === null],
    ['accessionNumber like', () => [{ field: 'accessionNumber', operator: 'like', values: [at(11).accessionNumber!.slice(0, 9)] }],
      (e) => (e.accessionNumber ?? '').includes(at(11).accessionNumber!.slice(0, 9))],
    ['serviceRequestId equal', () => [{ field: 'serviceRequestId', operator: 'equal', values: [at(12).serviceRequestId] }], (e) => e.serviceRequestId === at(12).serviceRequestId],
    ['bodyPart like', () => [{ field: 'bodyPart', operator: 'like', values: ['胸'] }], (e) => (e.bodyPart ?? '').includes('胸')],
    ['bodyPart in with null', () => [{ field: 'bodyPart', operator: 'in', values: ['头颅', null] }], (e) => e.bodyPart === '头颅' || e.bodyPart === null],
    ['applyDept equal', () => [{ field: 'applyDept', operator: 'equal', values: ['急诊科'] }], (e) => e.applyDept === '急诊科'],
    ['modality in (X-ray quick filter)', () => [{ field: 'modality', operator: 'in', values: ['CR', 'DX'] }], (e) => ['CR', 'DX'].includes(e.modality)],
    ['modality equal, lower case accepted', () => [{ field: 'modality', operator: 'equal', values: ['mr'] }], (e) => e.modality === 'MR'],
    ['modality notEqual', () => [{ field: 'modality', operator: 'notEqual', values: ['US'] }], (e) => e.modality !== 'US'],
    ['created gte', () => [{ field: 'created', operator: 'gte', values: [pivot().created.toISOString()] }], (e) => e.created >= pivot().created],
    ['created gt', () => [{ field: 'created', operator: 'gt', values: [pivot().created.toISOString()] }], (e) => e.created > pivot().created],
    ['created lte', () => [{ field: 'created', operator: 'lte', values: [pivot().created.toISOString()] }], (e) => e.created <= pivot().created],
    ['created lt', () => [{ field: 'created', operator: 'lt', values: [pivot().created.toISOString()] }], (e) => e.created < pivot().created],
    ['examTime range (the today quick filter)', () => [
      { field: 'examTime', operator: 'gte', values: [new Date(s.clock.now().getTime() - 86_400_000).toISOString()] },
      { field: 'examTime', operator: 'lt', values: [s.clock.now().toISOString()] },
    ], (e) => e.examTime.getTime() >= s.clock.now().getTime() - 86_400_000 && e.examTime < s.clock.now()],
    ['reportStatus in', () => [{ field: 'reportStatus', operator: 'in', values: ['final', 'corrected'] }], (e) => ['final', 'corrected'].includes(status(e))],
    ['reportStatus equal none (no report)', () => [{ field: 'reportStatus', operator: 'equal', values: ['none'] }], (e) => status(e) === 'none'],
    ['reportStatus notEqual none', () => [{ field: 'reportStatus', operator: 'notEqual', values: ['none'] }], (e) => status(e) !== 'none'],
    ['patientSource in', () => [{ field: 'patientSource', operator: 'in', values: ['I', 'E'] }], (e) => ['I', 'E'].includes(e.patientSource ?? '')],
    ['patientSource equal null', () => [{ field: 'patientSource', operator: 'equal', values: [null] }], (e) => e.patientSource === null],
    ['patientSource notEqual', () => [{ field: 'patientSource', operator: 'notEqual', values: ['O'] }], (e) => e.patientSource !== 'O'],
    ['patientGender equal', () => [{ field: 'patientGender', operator: 'equal', values: ['F'] }], (e) => e.patientGender === 'F'],
    ['patientGender in', () => [{ field: 'patientGender', operator: 'in', values: ['M', 'U'] }], (e) => ['M', 'U'].includes(e.patientGender)],
    ['urgentFlag', () => [{ field: 'urgentFlag', operator: 'equal', values: [true] }], (e) => e.urgentFlag],
    ['hasImage false', () => [{ field: 'hasImage', operator: 'equal', values: [false] }], (e) => !e.hasImage],
    ['isRemoteReportRequested', () => [{ field: 'isRemoteReportRequested', operator: 'equal', values: [true] }], (e) => e.isRemoteReportRequested],
    ['teleMedFlag', () => [{ field: 'teleMedFlag', operator: 'equal', values: [true] }], (e) => e.teleMedFlag],
    ['reportSource expert (sent to an expert organisation)', () => [{ field: 'reportSource', operator: 'equal', values: ['expert'] }], (e) => e.teleMedFlag],
    ['reportSource remote (requested, not sent to an expert)', () => [{ field: 'reportSource', operator: 'equal', values: ['remote'] }], (e) => e.isRemoteReportRequested && !e.teleMedFlag],
    ['reportSource inhouse', () => [{ field: 'reportSource', operator: 'equal', values: ['inhouse'] }], (e) => !e.isRemoteReportRequested && !e.teleMedFlag],
    ['reportSource in', () => [{ field: 'reportSource', operator: 'in', values: ['expert', 'remote'] }], (e) => e.isRemoteReportRequested || e.teleMedFlag],
    ['reportCreatorId equal', () => [{ field: 'reportCreatorId', operator: 'equal', values: [s.ids.accounts.rad2] }], (e) => e.reportCreatorId === s.ids.accounts.rad2],
    ['reportCreatorId equal null', () => [{ field: 'reportCreatorId', operator: 'equal', values: [null] }], (e) => e.reportCreatorId === null],
    ['assigneeId in', () => [{ field: 'assigneeId', operator: 'in', values: [s.ids.accounts.rad1, s.ids.accounts.rad2] }], (e) => e.assigneeId !== null],
    ['assigneeId notEqual', () => [{ field: 'assigneeId', operator: 'notEqual', values: [s.ids.accounts.rad1] }], (e) => e.assigneeId !== s.ids.accounts.rad1],
    ['myTasks: assigned to me, or my report before approval', () => [{ field: 'myTasks', operator: 'equal', values: [true] }],
      (e) => e.assigneeId === s.ids.accounts.rad1 || (e.reportCreatorId === s.ids.accounts.rad1 && !['corrected', 'printed'].includes(status(e)))],
    ['myTasks false', () => [{ field: 'myTasks', operator: 'equal', values: [false] }],
      (e) => !(e.assigneeId === s.ids.accounts.rad1 || (e.reportCreatorId === s.ids.accounts.rad1 && !['corrected', 'printed'].includes(status(e))))],
    ['uploadTime gte (no exam uploaded yet)', () => [{ field: 'uploadTime', operator: 'gte', values: ['2000-01-01T00:00:00Z'] }], (e) => e.uploadTime !== null],
    ['several filters are all applied', () => [
      { field: 'modality', operator: 'in', values: ['CT', 'MR'] },
      { field: 'reportStatus', operator: 'in', values: ['none', 'partial'] },
    ], (e) => ['CT', 'MR'].includes(e.modality) && ['none', 'partial'].includes(status(e))],
  ];

  it.each(cases)('%s', async (_name, filters, expected) => {
    const want = idsOf(live.filter(expected));
    expect(await idsFor(filters())).toEqual(want);
  });

  it('has at least one match in most cases, so the cases test something', () => {
    const empty = cases.filter(([name, , expected]) => live.filter(expected).length === 0 && !name.startsWith('uploadTime')).map(([name]) => name);
    expect(empty).toEqual([]);
  });
});

describe('free-text report search', () => {
  it('finds exams whose current report contains the text in findings or conclusion, Chinese included', async () => {
    const reports = await s.db.db.select().from(t.reports).where(eq(t.reports.bucketId, s.ids.hospitalId));
    const current = new Map(reports.map((r) => [r.id, r]));
    const text = '椎间盘突出';
    const want = live.filter((e) => {
      const r = e.reportId === null ? undefined : current.get(e.reportId);
      return r !== undefined && (r.finding.includes(text) || r.diagnosis.includes(text));
    });
    expect(want.length).toBeGreaterThan(0);
    expect(await idsFor([{ field: 'reportText', operator: 'like', values: [text] }])).toEqual(idsOf(want));
  });

  it('refuses a search of 2 characters or fewer with SearchTooShort', async () => {
    for (const value of ['肺', '结节', 'ab', '  ab  ']) {
      const res = await s.request('POST', 'exams/page-query', { token: rad1, body: { filters: [{ field: 'reportText', operator: 'like', values: [value] }] } });
      expect(res.status, value).toBe(400);
      expect(res.body.code).toBe('SearchTooShort');
    }
  });

  it('takes % and _ literally', async () => {
    expect(await idsFor([{ field: 'reportText', operator: 'like', values: ['%%%'] }])).toEqual([]);
  });

  it('reads the text as the reader sees it: entities decoded, markup not searched', async () => {
    const exam = live.find((e) => e.reportId !== null)!;
    // As the sanitiser stores "<b>结节</b><5mm, A&B" typed into the editor.
    await s.db.db.update(t.reports).set({ finding: '<p><strong>结节</strong>&lt;5mm, A&amp;B 边缘&quot;毛糙&quot;</p>', diagnosis: '<p>随访</p>' })
      .where(eq(t.reports.id, exam.reportId!));
    for (const text of ['结节<5mm', 'A&B', '"毛糙"', '<5mm, A&B']) {
      expect(await idsFor([{ field: 'reportText', operator: 'like', values: [text] }]), text).toEqual([exam.id]);
    }
    for (const markup of ['strong', '<p>', '&lt;', 'amp;']) {
      expect(await idsFor([{ field: 'reportText', operator: 'like', values: [markup] }]), markup).not.toContain(exam.id);
    }
    // Findings and conclusion are two texts: a phrase across them is not in either.
    expect(await idsFor([{ field: 'reportText', operator: 'like', values: ['毛糙" 随访'] }])).not.toContain(exam.id);
  });
});

describe('exam list order', () => {
  const key: Record<string, (e: ExamRow) => string | number | boolean | null> = {
    created: (e) => e.created.getTime(), examTime: (e) => e.examTime.getTime(), id: (e) => e.id, patientName: (e) => e.patientName,
    patientId: (e) => e.patientId, accessionNumber: (e) => e.accessionNumber, modality: (e) => e.modality, bodyPart: (e) => e.bodyPart,
    reportStatus: (e) => status(e), urgentFlag: (e) => e.urgentFlag, bucketId: (e) => e.bucketId, uploadTime: (e) => e.uploadTime?.getTime() ?? null,
    deletedTime: (e) => e.created.getTime(),
  };
  /** PostgreSQL's order: nulls last ascending, first descending; text by code point (C collation); then the id. */
  function sorted(field: string, direction: 'asc' | 'desc'): number[] {
    const sign = direction === 'asc' ? 1 : -1;
    return [...live].sort((a, b) => {
      const x = key[field]!(a);
      const y = key[field]!(b);
      if (x !== y) {
        if (x === null) return sign;
        if (y === null) return -sign;
        return (x < y ? -1 : 1) * sign;
      }
      return (a.id - b.id) * sign;
    }).map((e) => e.id);
  }

  it.each(EXAM_SORT_FIELDS.flatMap((f) => [[f, 'asc'], [f, 'desc']] as const))('sorts by %s %s, then by id', async (field, direction) => {
    const page = await pageQuery(s, rad1, { sorts: [{ field, direction }], limit: 500 });
    expect(page.items.map((e) => e.id)).toEqual(sorted(field, direction));
  });

  it('applies several sorts in order', async () => {
    const page = await pageQuery(s, rad1, { sorts: [{ field: 'modality', direction: 'asc' }, { field: 'created', direction: 'desc' }], limit: 500 });
    const want = [...live].sort((a, b) => (a.modality < b.modality ? -1 : a.modality > b.modality ? 1 : 0) || b.created.getTime() - a.created.getTime() || a.id - b.id);
    expect(page.items.map((e) => e.id)).toEqual(want.map((e) => e.id));
  });
});

describe('refused page queries', () => {
  const bad: [string, unknown][] = [
    ['an unknown field', { filters: [{ field: 'passwordHash', operator: 'equal', values: ['x'] }] }],
    ['an operator the field does not take', { filters: [{ field: 'modality', operator: 'like', values: ['C'] }] }],
    ['like on a time', { filters: [{ field: 'created', operator: 'like', values: ['2026'] }] }],
    ['an unknown operator', { filters: [{ field: 'modality', operator: 'regex', values: ['C'] }] }],
    ['a number for text', { filters: [{ field: 'patientName', operator: 'equal', values: [5] }] }],
    ['a string for an id', { filters: [{ field: 'bucketId', operator: 'equal', values: ['1'] }] }],
    ['a fractional id', { filters: [{ field: 'reportCreatorId', operator: 'equal', values: [1.5] }] }],
    ['a date without a zone', { filters: [{ field: 'created', operator: 'gte', values: ['2026-01-01'] }] }],
    ['a date that is not one', { filters: [{ field: 'examTime', operator: 'gte', values: ['2026-13-45T99:00:00Z'] }] }],
    ['an unknown report status', { filters: [{ field: 'reportStatus', operator: 'in', values: ['done'] }] }],
    ['an unknown patient source', { filters: [{ field: 'patientSource', operator: 'equal', values: ['X'] }] }],
    ['an unknown report source', { filters: [{ field: 'reportSource', operator: 'equal', values: ['abroad'] }] }],
    ['a string for a flag', { filters: [{ field: 'urgentFlag', operator: 'equal', values: ['true'] }] }],
    ['null where no absence exists', { filters: [{ field: 'modality', operator: 'equal', values: [null] }] }],
    ['two values for equal', { filters: [{ field: 'modality', operator: 'equal', values: ['CT', 'MR'] }] }],
    ['no values', { filters: [{ field: 'modality', operator: 'in', values: [] }] }],
    ['an empty like', { filters: [{ field: 'patientName', operator: 'like', values: ['  '] }] }],
    ['a modality with punctuation', { filters: [{ field: 'modality', operator: 'equal', values: ["CT'--"] }] }],
    ['an unknown sort', { sorts: [{ field: 'patientDob', direction: 'asc' }] }],
    ['a bad direction', { sorts: [{ field: 'created', direction: 'up' }] }],
    ['a negative skip', { skip: -1 }],
    ['a limit over 500', { limit: 501 }],
    ['a zero limit', { limit: 0 }],
    ['filters that are not a list', { filters: { field: 'modality' } }],
  ];
  it.each(bad)('refuses %s with 400 ParamsError', async (_name, body) => {
    const res = await s.request('POST', 'exams/page-query', { token: rad1, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    const count = await s.request('POST', 'exams/query/count', { token: rad1, body });
    expect(count.status).toBe(400);
  });

  it('answers 401 without a token', async () => {
    expect((await s.request('POST', 'exams/page-query', { body: {} })).status).toBe(401);
  });
});

describe('the deleted view', () => {
  it('shows deleted exams only when a deletedTime filter is set, and a deletedTime sort falls back to created outside it', async () => {
    const deleted = (await examRows(s, [s.ids.hospitalId])).filter((e) => e.deletedTime !== null);
    expect(deleted).toHaveLength(3);
    const since = new Date(s.clock.now().getTime() - 30 * 86_400_000).toISOString();
    const view = await pageQuery(s, rad1, { filters: [{ field: 'deletedTime', operator: 'gte', values: [since] }], sorts: [{ field: 'deletedTime', direction: 'desc' }] });
    expect(view.items.map((e) => e.id).sort()).toEqual(deleted.map((e) => e.id).sort());
    expect(view.items.every((e) => e.deletedTime !== null)).toBe(true);
    const normal = await pageQuery(s, rad1, { sorts: [{ field: 'deletedTime', direction: 'desc' }], limit: 500 });
    expect(normal.items.map((e) => e.id)).toEqual(idsOf(live));
  });
});

describe('counts above the exact limit', () => {
  it('are estimated, never below the limit, and say so', async () => {
    const big = await createGroup(s);
    await bulkExams(s, big.bucketId, 10_050);
    await s.db.db.execute(sql`analyze exams`);
    const owner = await createAccount(s, { groupId: big.groupId, buckets: [{ bucketId: big.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(owner.username);
    const page = await pageQuery(s, token, { limit: 20 });
    expect(page.items).toHaveLength(20);
    expect(page.totalIsEstimate).toBe(true);
    expect(page.total).toBeGreaterThan(10_000);
    const small = await pageQuery(s, token, { filters: [{ field: 'patientId', operator: 'equal', values: ['BULK77'] }] });
    expect(small).toMatchObject({ total: 1, totalIsEstimate: false });
    const deep = await pageQuery(s, token, { skip: 10_000, limit: 20 });
    expect(deep.items.map((e) => e.id)).toHaveLength(20);
    const ids = (await examRows(s, [big.bucketId])).sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id).map((e) => e.id);
    expect(deep.items.map((e) => e.id)).toEqual(ids.slice(10_000, 10_020));

    // A phrase in thousands of reports: the list is walked newest first and the total is the planner's estimate.
    await bulkReports(s, big.bucketId, '<p>双肺纹理清晰，未见明显异常。</p>');
    await s.db.db.execute(sql`analyze reports`);
    const common = await pageQuery(s, token, { filters: [{ field: 'reportText', operator: 'like', values: ['未见明显异常'] }], limit: 20 });
    expect(common.items.map((e) => e.id)).toEqual(ids.slice(0, 20));
    expect(common.totalIsEstimate).toBe(true);
    // The same search elsewhere still answers only what the caller may see, exactly.
    const reports = await s.db.db.select().from(t.reports).where(eq(t.reports.bucketId, s.ids.hospitalId));
    const current = new Map(reports.map((r) => [r.id, r]));
    const want = live.filter((e) => e.reportId !== null && `${current.get(e.reportId)?.finding}${current.get(e.reportId)?.diagnosis}`.includes('未见明显异常'));
    expect(want.length).toBeGreaterThan(0);
    expect(await idsFor([{ field: 'reportText', operator: 'like', values: ['未见明显异常'] }])).toEqual(idsOf(want));
  });
});

describe('list rows', () => {
  it('carry the exam with its organisation name, current report and reporter name', async () => {
    const written = live.find((e) => e.reportId !== null && e.reportCreatorId !== null)!;
    const page = await pageQuery(s, rad1, { filters: [{ field: 'id', operator: 'equal', values: [written.id] }] });
    const [row] = page.items as unknown as Record<string, unknown>[];
    const [report] = await s.db.db.select().from(t.reports).where(eq(t.reports.id, written.reportId!));
    const [creator] = await s.db.db.select().from(t.accounts).where(eq(t.accounts.id, written.reportCreatorId!));
    expect(row).toMatchObject({
      id: written.id, bucketId: s.ids.hospitalId, bucketName: '市第一人民医院放射科', patientName: written.patientName,
      modality: written.modality, reportId: written.reportId, reportStatus: written.reportStatus, reportCreatorName: creator!.name,
      reportPositive: report!.positive, examTime: written.examTime.toISOString(), created: written.created.toISOString(), deletedTime: null,
    });
  });

  it('answers a stable page when two exams share a creation time', async () => {
    const [a, b] = live.slice(0, 2);
    const same = new Date(s.clock.now().getTime() + MINUTE);
    await s.db.db.update(t.exams).set({ created: same }).where(inArray(t.exams.id, [a!.id, b!.id]));
    const page = await pageQuery(s, rad1, { limit: 2 });
    expect(page.items.map((e) => e.id)).toEqual([Math.max(a!.id, b!.id), Math.min(a!.id, b!.id)]);
    await s.db.db.update(t.exams).set({ created: a!.created }).where(eq(t.exams.id, a!.id));
    await s.db.db.update(t.exams).set({ created: b!.created }).where(eq(t.exams.id, b!.id));
  });
});
