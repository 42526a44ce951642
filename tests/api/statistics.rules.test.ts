import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAT_NAMES, STAT_PATHS, type StatName, type StatResult } from '../../contract/statistics';
import * as t from '../../server/db/schema';
import { statWorkbook } from '../../server/statistics/export';
import { createAccount, createGroup, joinGroup, unique } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/**
 * The statistics rules over HTTP (statistics.md; contract/statistics.ts rangeProblem): the period every statistic
 * needs and how long it may be, quick ranges read in the organisation's zone, whose organisations an account may
 * count, bad input as 400 ParamsError, the two opening questions (groups, scope) and the .xlsx export.
 */
let s: TestServer;
let admin: string;
let chief: string;
let rad1: string;

beforeAll(async () => {
  s = await startServer({ exams: 30 });
  [admin, chief, rad1] = await Promise.all(['admin', 'chief', 'rad1'].map((u) => s.login(u)));
});
afterAll(async () => { await s?.close(); });

const post = (name: StatName, body: Record<string, unknown>, token = admin) =>
  s.request('POST', `/api/v1/${STAT_PATHS[name]}`, { token, body: { groupId: s.ids.groupId, ...body } });

describe('the period', () => {
  it.each(STAT_NAMES)('%s: is required, must not end before it begins', async (name) => {
    const none = await post(name, { unit: 'month' });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('StatisticsPeriodRequired');
    const half = await post(name, { from: '2026-01-01', unit: 'month' });
    expect(half.body.code).toBe('StatisticsPeriodRequired');
    const reversed = await post(name, { from: '2026-01-02', to: '2026-01-01', unit: 'month' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('StatisticsPeriodInvalid');
  });

  it.each(STAT_NAMES)('%s: by day at most a month', async (name) => {
    const long = await post(name, { from: '2026-01-01', to: '2026-02-01', unit: 'day' });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'StatisticsRangeTooLong', details: { limit: 'month', lastDay: '2026-01-31' } });
  });

  it.each(STAT_NAMES)('%s: its own limit by month and year', async (name) => {
    // Two months by month: only device workload (modality) is held to one month.
    const twoMonths = await post(name, { from: '2026-01-05', to: '2026-03-04', unit: 'month' });
    if (name === 'modality') expect(twoMonths.body).toMatchObject({ code: 'StatisticsRangeTooLong', details: { limit: 'month', lastDay: '2026-02-04' } });
    else expect(twoMonths.status, JSON.stringify(twoMonths.body)).toBe(200);
    // A year and a day: note-taker and remote-report stop at a year.
    const yearAndDay = await post(name, { from: '2026-01-01', to: '2027-01-01', unit: 'month' });
    const yearLimited = name === 'note-taker' || name === 'remote-report';
    if (yearLimited) expect(yearAndDay.body).toMatchObject({ code: 'StatisticsRangeTooLong', details: { limit: 'year', lastDay: '2026-12-31' } });
    else if (name !== 'modality') expect(yearAndDay.status, JSON.stringify(yearAndDay.body)).toBe(200);
    // Five years and a day: the rest stop there.
    const fiveYears = await post(name, { from: '2026-01-01', to: '2031-01-01', unit: 'year' });
    const expectedLimit = name === 'modality' ? 'month' : yearLimited ? 'year' : 'fiveYears';
    expect(fiveYears.status).toBe(400);
    expect(fiveYears.body.details.limit).toBe(expectedLimit);
    if (expectedLimit === 'fiveYears') {
      expect(fiveYears.body.details.lastDay).toBe('2030-12-31');
      const within = await post(name, { from: '2026-01-01', to: '2030-12-31', unit: 'year' });
      expect(within.status, JSON.stringify(within.body)).toBe(200);
    }
  });

  it('answers a statistic within its limits (the exam statistics of this helper)', async () => {
    for (const name of ['study', 'modality', 'report', 'report-positive', 'note-taker', 'overview-total', 'overview-user', 'overview-bucket'] as const) {
      const res = await post(name, { from: '2026-01-05', to: '2026-02-04', unit: 'day' });
      expect(res.status, `${name} ${JSON.stringify(res.body)}`).toBe(200);
      expect((res.body as StatResult).periods).toHaveLength(31);
    }
  });

  it('reads quick ranges in the organisation\'s zone', async () => {
    // 17:00 UTC on 10 January is already 01:00 on the 11th in Shanghai, the demo organisations' zone.
    const saved = s.clock.now();
    s.clock.set(new Date('2026-01-10T17:00:00Z'));
    try {
      const yesterday = await post('study', { quick: 'yesterday' });
      expect(yesterday.status).toBe(200);
      expect(yesterday.body.range).toEqual({ from: '2026-01-10', to: '2026-01-10', unit: 'day', timeZone: 'Asia/Shanghai' });
      const week = await post('study', { quick: '7d', unit: 'week' });
      expect(week.body.range).toMatchObject({ from: '2026-01-05', to: '2026-01-11', unit: 'week' });
      expect(week.body.periods).toEqual(['2026-01-05']);
      // quick wins over from/to when both come
      const month = await post('study', { quick: '30d', from: '2020-01-01', to: '2020-01-02' });
      expect(month.body.range).toMatchObject({ from: '2025-12-13', to: '2026-01-11' });
      const scope = await s.request('GET', `statistics/scope?groupId=${s.ids.groupId}`, { token: admin });
      expect(scope.body.today).toBe('2026-01-11');
    } finally {
      s.clock.set(saved);
    }
  });
});

describe('whose figures', () => {
  it('refuses a group the account is not in (404) and one with statistics off (403)', async () => {
    const other = await createGroup(s);
    expect((await post('study', { groupId: other.groupId, quick: '7d' })).status).toBe(404);
    const owner = await createAccount(s, { groupId: other.groupId, groupAdmin: true, buckets: [{ bucketId: other.bucketId, actions: ['statistics_report'] }] });
    const ownerToken = await s.login(owner.username, owner.password);
    const off = await post('study', { groupId: other.groupId, quick: '7d' }, ownerToken);
    expect(off.status).toBe(403);
    expect(off.body.code).toBe('Forbidden');
  });

  it('refuses an account without statistics_report (403), and lets the chief count the hospital', async () => {
    expect((await post('study', { quick: '7d' }, rad1)).status).toBe(403);
    const chiefs = await post('overview-bucket', { quick: '7d' }, chief);
    expect(chiefs.status).toBe(200);
    expect((chiefs.body as StatResult).rows.map((r) => r.organization)).toHaveLength(1);
  });

  it('refuses the overview of a group without allowOverview, and nothing else', async () => {
    const db = s.db.db;
    const [group] = await db.insert(t.groups).values({ name: unique('nov'), displayName: 'No overview', enableStat: true, allowOverview: false }).returning();
    await db.insert(t.buckets).values({ groupId: group!.id, name: 'No overview org', code: unique('nov') });
    const owner = await createAccount(s, { groupId: group!.id, groupAdmin: true });
    const token = await s.login(owner.username, owner.password);
    for (const name of ['overview-total', 'overview-user', 'overview-bucket'] as const) {
      expect((await post(name, { groupId: group!.id, quick: '7d' }, token)).status).toBe(403);
    }
    expect((await post('study', { groupId: group!.id, quick: '7d' }, token)).status).toBe(200);
    const scope = await s.request('GET', `statistics/scope?groupId=${group!.id}`, { token });
    expect(scope.body.allowOverview).toBe(false);
  });

  it('narrows to allowed organisations only: one the account is not in is 404, one without the action 403', async () => {
    // The chief is in the hospital only.
    expect((await post('study', { quick: '7d', bucketIds: [s.ids.expertCentreId] }, chief)).status).toBe(404);
    // In both, statistics_report at the hospital only.
    const both = await createAccount(s, {
      groupId: s.ids.groupId,
      buckets: [{ bucketId: s.ids.hospitalId, actions: ['statistics_report'] }, { bucketId: s.ids.expertCentreId, actions: ['exam_get'] }],
    });
    const token = await s.login(both.username, both.password);
    expect((await post('study', { quick: '7d', bucketIds: [s.ids.expertCentreId] }, token)).status).toBe(403);
    expect((await post('study', { quick: '7d', bucketIds: [s.ids.hospitalId] }, token)).status).toBe(200);
    // An organisation of another group: 404 even for the group's administrator.
    const other = await createGroup(s);
    expect((await post('study', { quick: '7d', bucketIds: [other.bucketId] })).status).toBe(404);
  });
});

describe('which groups\' statistics an account sees in groups/mine (the navbar\'s entry)', () => {
  const mine = async (token: string) => Object.fromEntries(((await s.request('GET', 'groups/mine', { token })).body as { id: number; readsStatistics: boolean }[])
    .map((g) => [g.id, g.readsStatistics]));
  const listed = async (token: string) => ((await s.request('GET', 'statistics/groups', { token })).body as { groups: { id: number }[] }).groups.map((g) => g.id);

  it('says so for exactly the groups statistics/groups lists, group by group', async () => {
    const db = s.db.db;
    // Statistics off in one group, where the account holds statistics_report; on in the other, where it holds nothing.
    const off = await createGroup(s);
    const [on] = await db.insert(t.groups).values({ name: unique('on'), displayName: 'Stats on', enableStat: true }).returning();
    const [onOrg] = await db.insert(t.buckets).values({ groupId: on!.id, name: 'Stats on org', code: unique('on') }).returning();
    const split = await createAccount(s, { groupId: off.groupId, buckets: [{ bucketId: off.bucketId, actions: ['statistics_report'] }] });
    await joinGroup(s, split.id, on!.id);
    const splitToken = await s.login(split.username, split.password);
    expect(await mine(splitToken)).toEqual({ [off.groupId]: false, [on!.id]: false });
    expect(await listed(splitToken)).toEqual([]);

    // The right in an organisation of the group whose statistics are on: now that group.
    await db.insert(t.bucketMembers).values({ bucketId: onOrg!.id, accountId: split.id, accessLevel: 'member' });
    const [role] = await db.insert(t.roles).values({ bucketId: onOrg!.id, name: unique('role'), actions: ['statistics_report'] }).returning();
    await db.insert(t.roleUsers).values({ roleId: role!.id, accountId: split.id });
    const again = await s.login(split.username, split.password);
    expect(await mine(again)).toEqual({ [off.groupId]: false, [on!.id]: true });
    expect(await listed(again)).toEqual([on!.id]);

    // The demo group: its administrator and the chief (statistics_report) may, rad1 may not.
    expect((await mine(admin))[s.ids.groupId]).toBe(true);
    expect((await mine(chief))[s.ids.groupId]).toBe(true);
    expect((await mine(rad1))[s.ids.groupId]).toBe(false);
    for (const token of [admin, chief, rad1]) {
      const reads = Object.entries(await mine(token)).filter(([, yes]) => yes).map(([id]) => Number(id));
      expect(reads).toEqual(await listed(token));
    }
    // GET groups/{id} says the same as groups/mine.
    expect((await s.request('GET', `groups/${s.ids.groupId}`, { token: rad1 })).body.readsStatistics).toBe(false);
    expect((await s.request('GET', `groups/${s.ids.groupId}`, { token: chief })).body.readsStatistics).toBe(true);
  });
});

describe('bad input is a 400 ParamsError', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['an unknown unit', { quick: '7d', unit: 'hour' }],
    ['a day that does not exist', { from: '2026-02-30', to: '2026-03-01' }],
    ['a day in another format', { from: '2026/01/01', to: '2026-01-02' }],
    ['an unknown quick range', { quick: 'lastweek' }],
    ['bucketIds that are not ids', { quick: '7d', bucketIds: ['x'] }],
    ['bucketIds as garbage text', { quick: '7d', bucketIds: '1,,2' }],
    ['an unknown by', { quick: '7d', by: 'device' }],
    ['an extra field', { quick: '7d', extra: 1 }],
    ['no group', { groupId: undefined, quick: '7d' }],
    ['a group that is not an id', { groupId: 'abc', quick: '7d' }],
  ];
  it.each(cases)('POST with %s', async (_what, body) => {
    const res = await post('report', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('ParamsError');
  });

  it.each([
    `groupId=${1}&quick=7d&unit=hour`,
    'groupId=1&quick=7d&bucketIds=1,a',
    'groupId=1&quick=7d&bucketIds=0',
    'groupId=1&from=2026-01-01&to=2026-1-2',
    'groupId=1&quick=7d&foo=bar',
    'quick=7d',
  ])('GET with %s', async (query) => {
    const res = await s.request('GET', `statistics/study?${query}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('ParamsError');
  });

  it('GET scope without a group', async () => {
    const res = await s.request('GET', 'statistics/scope', { token: admin });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
  });
});

describe('the opening questions', () => {
  it('lists the groups an account may see statistics of', async () => {
    const demo = { id: s.ids.groupId, name: expect.any(String) };
    expect((await s.request('GET', 'statistics/groups', { token: admin })).body.groups).toEqual(expect.arrayContaining([demo]));
    expect((await s.request('GET', 'statistics/groups', { token: chief })).body.groups).toEqual([demo]);
    expect((await s.request('GET', 'statistics/groups', { token: rad1 })).body).toEqual({ groups: [] });
  });

  it('answers the organisations a page may count', async () => {
    const asAdmin = await s.request('GET', `statistics/scope?groupId=${s.ids.groupId}`, { token: admin });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ groupId: s.ids.groupId, timeZone: 'Asia/Shanghai', allowOverview: true });
    expect(asAdmin.body.buckets.map((b: { id: number }) => b.id)).toEqual([s.ids.hospitalId, s.ids.expertCentreId].sort((a, b) => a - b));
    const asChief = await s.request('GET', `statistics/scope?groupId=${s.ids.groupId}`, { token: chief });
    expect(asChief.body.buckets).toEqual([{ id: s.ids.hospitalId, name: expect.any(String), timeZone: 'Asia/Shanghai' }]);
    expect((await s.request('GET', `statistics/scope?groupId=${s.ids.groupId}`, { token: rad1 })).status).toBe(403);
  });
});

describe('the export', () => {
  const download = (body: Record<string, unknown>) => fetch(`${s.url}/api/v1/statistics/export`, {
    method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  async function sheets(body: Buffer | ArrayBuffer) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body as ArrayBuffer);
    const rowsOf = (i: number) => {
      const out: unknown[][] = [];
      book.worksheets[i]!.eachRow((row) => { out.push((row.values as unknown[]).slice(1)); });
      return out;
    };
    return { names: book.worksheets.map((w) => w.name), table: rowsOf(0), series: rowsOf(1) };
  }

  it('gives the table with a total row and the series by period, in English and Chinese', async () => {
    const question = { groupId: s.ids.groupId, quick: '30d', unit: 'month' };
    const answer = (await s.request('POST', 'statistics/study', { token: admin, body: question })).body as StatResult;
    expect(answer.totals.exams).toBeGreaterThan(0);

    const res = await download({ ...question, name: 'study', lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="statistics-study-\d{8}-\d{8}\.xlsx"$/);
    const en = await sheets(await res.arrayBuffer());
    expect(en.names).toEqual(['Table', 'Series']);
    expect(en.table[0]).toEqual(['Modality', 'Exams', 'Body parts', 'With images', 'Reported', 'Approved', 'Approval rate']);
    expect(en.table).toHaveLength(answer.rows.length + 2);
    const t = answer.totals;
    expect(en.table.at(-1)).toEqual(['Total', t.exams, t.bodyParts, t.withImages, t.reported, t.approved, t.approvedRate]);
    expect(en.table[1]).toEqual(answer.columns.map((c) => answer.rows[0]![c.key]));
    expect(en.series[0]).toEqual(['Period', ...answer.series.map((x) => x.key)]);
    expect(en.series.slice(1).map((r) => r[0])).toEqual(answer.periods);

    const chs = await download({ ...question, name: 'study' });
    expect(chs.status).toBe(200);
    const zh = await sheets(await chs.arrayBuffer());
    expect(zh.table[0]).toEqual(['设备类型', '检查数', '部位数', '有影像', '已报告', '已审核', '审核率']);
    expect(zh.table.at(-1)![0]).toBe('合计');
  });

  it('refuses what the statistic itself refuses', async () => {
    const long = await s.request('POST', 'statistics/export', { token: admin, body: { groupId: s.ids.groupId, from: '2026-01-01', to: '2026-03-01', name: 'modality', unit: 'month' } });
    expect(long.body.code).toBe('StatisticsRangeTooLong');
    expect((await s.request('POST', 'statistics/export', { token: rad1, body: { groupId: s.ids.groupId, quick: '7d', name: 'study' } })).status).toBe(403);
    expect((await s.request('POST', 'statistics/export', { token: admin, body: { groupId: s.ids.groupId, quick: '7d', name: 'nothing' } })).body.code).toBe('ParamsError');
  });

  it('writes money as yuan, codes in words and series names as they are', async () => {
    const result: StatResult = {
      name: 'group-payment', range: { from: '2026-01-01', to: '2026-01-31', unit: 'month', timeZone: 'Asia/Shanghai' }, periods: ['2026-01-01'],
      series: [{ key: 'paid', label: null, values: [12345], kind: 'fen' }, { key: 'account-3', label: '张三', values: [2], kind: 'count' }],
      columns: [{ key: 'channel', kind: 'code' }, { key: 'payments', kind: 'count' }, { key: 'paidFen', kind: 'fen' }, { key: 'positiveRate', kind: 'percent' }],
      rows: [{ channel: 'channel-weixin', payments: 3, paidFen: 12345, positiveRate: 33.3 }],
      totals: { payments: 3, paidFen: 12345, positiveRate: null },
    };
    const book = await sheets(await statWorkbook(result, 'chs'));
    expect(book.table[1]).toEqual(['微信支付', 3, 123.45, 33.3]);
    expect(book.table[2]).toEqual(['合计', 3, 123.45]);
    expect(book.series).toEqual([['周期', '收款', '张三'], ['2026-01-01', 123.45, 2]]);
  });

  it('names an exam without a recorded scanner as the page does', async () => {
    const result: StatResult = {
      name: 'modality', range: { from: '2026-01-01', to: '2026-01-31', unit: 'day', timeZone: 'Asia/Shanghai' }, periods: [],
      series: [],
      columns: [{ key: 'device', kind: 'text' }, { key: 'modality', kind: 'text' }, { key: 'exams', kind: 'count' }],
      rows: [{ device: 'CT-1', modality: 'CT', exams: 4 }, { device: null, modality: 'CR', exams: 2 }],
      totals: { exams: 6 },
    };
    const book = await sheets(await statWorkbook(result, 'en'));
    expect(book.table.slice(1)).toEqual([['CT-1', 'CT', 4], ['No device recorded', 'CR', 2], ['Total', undefined, 6]]);
  });
});
