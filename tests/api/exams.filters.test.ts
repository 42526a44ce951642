import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS, type Filter, type Operator, type Sort } from '../../contract/common';
import { EXAM_FILTER_FIELDS, EXAM_SORT_FIELDS, type ExamFilterField, type ExamSortField } from '../../contract/exams';
import * as t from '../../server/db/schema';
import { createAccount, createGroup, unique } from '../support/accounts';
import { pageQuery, type ExamRow } from '../support/exams';
import { startServer, type TestServer } from '../support/server';

/**
 * POST exams/page-query and exams/query/count against a small hand-made worklist whose every value is known: each
 * (field, operator) pair of the whitelist and each sort, with rows on both sides of every boundary, so that a filter
 * that kept too much or too little, or an order that was off, fails. Then the refusals (400 ParamsError naming the
 * filter) and the scope: a filter narrows the caller's organisations, never widens them.
 *
 * The caller ("me") administers organisations A and D, is a member without any right of C, and is no member of B.
 */
let s: TestServer;
let token: string;
let me: number;
let other: number;
const org = { A: 0, B: 0, C: 0, D: 0 };
/** Fixture key → the stored exam. */
const rows = new Map<string, ExamRow>();

const H = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.parse('2026-01-10T00:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * H);
/** The same instant written in UTC+08:00, with and without the colon (both are ISO 8601). */
const east8 = (hours: number, colon = true) => {
  const local = new Date(T0 + hours * H + 8 * H).toISOString().slice(0, 19);
  return `${local}${colon ? '+08:00' : '+0800'}`;
};

type Fixture = Partial<typeof t.exams.$inferInsert> & { org: keyof typeof org; deletedDaysAgo?: number };
const ME = -1;
const OTHER = -2;

/**
 * The worklist. Live in A: a b c d e f g k; live in D: m n; deleted in A: h i l (within 30 days) and j (40 days ago,
 * gone for good); B and C hold copies of `a` the caller must never see. Inserted in this order, so ids follow it.
 */
const FIXTURES: [string, Fixture][] = [
  ['a', { org: 'A', patientName: '王小明', patientId: 'PID-001', accessionNumber: 'ACC-1001', serviceRequestId: 'SR-501', bodyPart: '胸部', applyDept: '急诊科', modality: 'CT',
    created: at(1), examTime: at(10), uploadTime: at(2), patientSource: 'I', patientGender: 'M', urgentFlag: true, hasImage: true,
    isRemoteReportRequested: false, teleMedFlag: false, reportStatus: 'final', reportCreatorId: ME, assigneeId: null }],
  ['b', { org: 'A', patientName: '王小红', patientId: 'PID-002', accessionNumber: 'acc-1002', serviceRequestId: 'SR-502', bodyPart: '头颅', applyDept: '内科', modality: 'MR',
    created: at(2), examTime: at(9), uploadTime: at(3), patientSource: 'O', patientGender: 'F', urgentFlag: false, hasImage: true,
    isRemoteReportRequested: true, teleMedFlag: false, reportStatus: 'partial', reportCreatorId: OTHER, assigneeId: ME }],
  ['c', { org: 'A', patientName: 'Li Lei', patientId: 'PID-003', accessionNumber: null, serviceRequestId: null, bodyPart: null, applyDept: null, modality: 'US',
    created: at(3), examTime: at(8), uploadTime: null, patientSource: null, patientGender: 'U', urgentFlag: false, hasImage: false,
    isRemoteReportRequested: true, teleMedFlag: true, reportStatus: null, reportCreatorId: null, assigneeId: OTHER, examStatus: 'Performed' }],
  ['d', { org: 'A', patientName: 'LI LEI', patientId: 'pid-004', accessionNumber: 'ACC-2001', serviceRequestId: 'SR-601', bodyPart: '胸部', applyDept: '急诊科', modality: 'DX',
    created: at(4), examTime: at(7), uploadTime: at(4), patientSource: 'E', patientGender: 'O', urgentFlag: true, hasImage: true,
    isRemoteReportRequested: false, teleMedFlag: true, reportStatus: 'corrected', reportCreatorId: ME, assigneeId: null }],
  ['e', { org: 'A', patientName: '赵六', patientId: 'PID-005', accessionNumber: 'ACC-2002', serviceRequestId: 'SR-602', bodyPart: '腹部', applyDept: '外科', modality: 'CR',
    created: at(5), examTime: at(6), uploadTime: at(6), patientSource: 'P', patientGender: 'F', urgentFlag: false, hasImage: true,
    isRemoteReportRequested: false, teleMedFlag: false, reportStatus: 'none', reportCreatorId: null, assigneeId: ME }],
  ['f', { org: 'A', patientName: '钱七', patientId: 'PID-006', accessionNumber: 'ACC-3001', serviceRequestId: 'SR-701', bodyPart: '胸部', applyDept: '内科', modality: 'CT',
    created: at(6), examTime: at(5), uploadTime: null, patientSource: 'NO', patientGender: 'MS', urgentFlag: false, hasImage: false,
    isRemoteReportRequested: false, teleMedFlag: false, reportStatus: 'printed', reportCreatorId: ME, assigneeId: null, examStatus: 'Scheduled' }],
  ['g', { org: 'A', patientName: '孙八', patientId: 'PID-007', accessionNumber: 'ACC-3002', serviceRequestId: 'SR-702', bodyPart: '头颅', applyDept: null, modality: 'CT',
    created: at(7), examTime: at(4), uploadTime: at(1), patientSource: 'O', patientGender: 'FS', urgentFlag: true, hasImage: true,
    isRemoteReportRequested: true, teleMedFlag: false, reportStatus: 'hold', reportCreatorId: OTHER, assigneeId: OTHER, examStatus: 'Arrived' }],
  ['k', { org: 'A', patientName: '周九', patientId: 'PID-008', accessionNumber: 'ACC-3003', serviceRequestId: 'SR-703', bodyPart: '腹部', applyDept: '外科', modality: 'MR',
    created: at(8), examTime: at(3), uploadTime: at(5), patientSource: 'I', patientGender: 'M', urgentFlag: false, hasImage: true,
    isRemoteReportRequested: false, teleMedFlag: false, reportStatus: 'locked', reportCreatorId: ME, assigneeId: null }],
  ['m', { org: 'D', patientName: '吴十', patientId: 'PID-009', accessionNumber: 'ACC-4001', serviceRequestId: 'SR-801', bodyPart: '胸部', applyDept: '急诊科', modality: 'CT',
    created: at(1.5), examTime: at(2), uploadTime: at(7), patientSource: 'O', patientGender: 'M', urgentFlag: false, hasImage: true,
    isRemoteReportRequested: false, teleMedFlag: false, reportStatus: null, reportCreatorId: null, assigneeId: null }],
  // Created at the same instant as k: the id decides.
  ['n', { org: 'D', patientName: '郑十一', patientId: 'PID-010', accessionNumber: 'ACC-4002', serviceRequestId: 'SR-802', bodyPart: '四肢', applyDept: '骨科', modality: 'US',
    created: at(8), examTime: at(1), uploadTime: null, patientSource: 'E', patientGender: 'F', urgentFlag: false, hasImage: true,
    isRemoteReportRequested: false, teleMedFlag: false, reportStatus: 'advised', reportCreatorId: OTHER, assigneeId: null }],
  ['h', { org: 'A', patientName: '冯十二', patientId: 'PID-011', modality: 'CT', created: at(0.5), examTime: at(0.5), reportStatus: 'final', deletedDaysAgo: 5 }],
  ['i', { org: 'A', patientName: '陈十三', patientId: 'PID-012', modality: 'MR', created: at(0.7), examTime: at(0.7), deletedDaysAgo: 10 }],
  ['l', { org: 'A', patientName: '卫十五', patientId: 'PID-014', modality: 'CT', created: at(0.2), examTime: at(0.2), deletedDaysAgo: 20 }],
  ['j', { org: 'A', patientName: '褚十四', patientId: 'PID-013', modality: 'CT', created: at(0.3), examTime: at(0.3), deletedDaysAgo: 40 }],
  ['x', { org: 'B', patientName: '王小明', patientId: 'PID-001', accessionNumber: 'ACC-1001', modality: 'CT', created: at(1), examTime: at(10), urgentFlag: true, reportCreatorId: ME, assigneeId: ME }],
  ['y', { org: 'C', patientName: '王小明', patientId: 'PID-001', accessionNumber: 'ACC-1001', modality: 'CT', created: at(1), examTime: at(10), urgentFlag: true, reportCreatorId: ME, assigneeId: ME }],
];
const LIVE = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'k', 'm', 'n'];
const DELETED = ['h', 'i', 'l'];
/** The report search: a's and x's current reports say it, c has a report that says it but is not its current one. */
const PHRASE = '磨玻璃结节';

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  const db = s.db.db;
  const a = await createGroup(s);
  const b = await createGroup(s);
  org.A = a.bucketId;
  org.B = b.bucketId;
  for (const name of ['C', 'D'] as const) {
    const [bucket] = await db.insert(t.buckets).values({ groupId: a.groupId, name: `Org ${name}`, code: unique(`org${name}`) }).returning();
    org[name] = bucket!.id;
  }
  const account = await createAccount(s, {
    groupId: a.groupId,
    buckets: [{ bucketId: org.A, accessLevel: 'admin' }, { bucketId: org.D, accessLevel: 'admin' }, { bucketId: org.C, accessLevel: 'member' }],
  });
  me = account.id;
  other = s.ids.accounts.rad2;
  token = await s.login(account.username);

  const person = (v: number | null | undefined) => (v === ME ? me : v === OTHER ? other : v);
  for (const [key, { org: o, deletedDaysAgo, ...values }] of FIXTURES) {
    const [row] = await db.insert(t.exams).values({
      ...values,
      bucketId: org[o],
      patientName: values.patientName!,
      patientId: values.patientId!,
      modality: values.modality!,
      examTime: values.examTime!,
      reportCreatorId: person(values.reportCreatorId),
      assigneeId: person(values.assigneeId),
      deletedTime: deletedDaysAgo === undefined ? null : new Date(s.clock.now().getTime() - deletedDaysAgo * DAY),
    }).returning();
    rows.set(key, row!);
  }
  const report = async (key: string, finding: string, current: boolean) => {
    const exam = rows.get(key)!;
    const [r] = await db.insert(t.reports).values({ examId: exam.id, bucketId: exam.bucketId, sourceBucketId: exam.bucketId, status: 'final', finding: `<p>${finding}</p>`, diagnosis: '' }).returning();
    if (current) await db.update(t.exams).set({ reportId: r!.id }).where(eq(t.exams.id, exam.id));
  };
  await report('a', `右肺上叶${PHRASE}，建议随访`, true);
  await report('b', '肝内多发囊肿', true);
  await report('c', `旧报告：${PHRASE}`, false);
  await report('x', PHRASE, true);
  const stored = await db.select().from(t.exams).where(inArray(t.exams.id, [...rows.values()].map((r) => r.id)));
  for (const r of stored) rows.set([...rows].find(([, v]) => v.id === r.id)![0], r);
});
afterAll(async () => { await s.close(); });

const id = (key: string) => rows.get(key)!.id;
const keyOf = (examId: number) => [...rows].find(([, r]) => r.id === examId)?.[0] ?? `#${examId}`;
/** The default order: created descending, then id descending. */
const newestFirst = (keys: string[]) => keys.map((k) => rows.get(k)!).sort((x, y) => y.created.getTime() - x.created.getTime() || y.id - x.id).map((r) => keyOf(r.id));

/** The page (limit 500) as fixture keys; its total, and query/count for the same filters, must agree with it. */
async function listed(filters: Filter[], sorts: Sort[] = []): Promise<string[]> {
  const [page, count] = await Promise.all([
    pageQuery(s, token, { filters, sorts, limit: 500 }),
    // The count reads no order: asked only where the filters are the point.
    sorts.length === 0 ? s.request('POST', 'exams/query/count', { token, body: { filters } }) : null,
  ]);
  expect(page).toMatchObject({ total: page.items.length, totalIsEstimate: false });
  if (count) expect(count).toMatchObject({ status: 200, body: { total: page.items.length, totalIsEstimate: false } });
  return page.items.map((e) => keyOf(e.id));
}

type Case = [name: string, filters: () => Filter[], expected: string[]];
const f = (field: ExamFilterField, operator: Operator, ...values: Filter['values']): Filter => ({ field, operator, values });
const since = (days: number) => new Date(s.clock.now().getTime() - days * DAY).toISOString();

/** Every (field, operator) pair of the whitelist, each with the exact rows it must select. */
const CASES: Case[] = [
  ['id equal', () => [f('id', 'equal', id('d'))], ['d']],
  ['id in (also a full list of 200 values)', () => [f('id', 'in', id('b'), id('m'), ...Array.from({ length: 198 }, (_, i) => 2_000_000_000 + i))], ['b', 'm']],
  ['id gt', () => [f('id', 'gt', id('d'))], ['e', 'f', 'g', 'k', 'm', 'n']],
  ['id gte', () => [f('id', 'gte', id('d'))], ['d', 'e', 'f', 'g', 'k', 'm', 'n']],
  ['id lt', () => [f('id', 'lt', id('d'))], ['a', 'b', 'c']],
  ['id lte', () => [f('id', 'lte', id('d'))], ['a', 'b', 'c', 'd']],

  ['patientName equal (exact, case-sensitive)', () => [f('patientName', 'equal', 'Li Lei')], ['c']],
  ['patientName in', () => [f('patientName', 'in', '王小明', 'LI LEI')], ['a', 'd']],
  ['patientName like (contains, any case)', () => [f('patientName', 'like', 'li l')], ['c', 'd']],
  ['patientName like (Chinese)', () => [f('patientName', 'like', '王小')], ['a', 'b']],

  ['patientId equal', () => [f('patientId', 'equal', 'PID-003')], ['c']],
  ['patientId in', () => [f('patientId', 'in', 'PID-009', 'pid-004', 'PID-404')], ['m', 'd']],
  ['patientId like', () => [f('patientId', 'like', 'pid-01')], ['n']],

  ['accessionNumber equal', () => [f('accessionNumber', 'equal', 'ACC-2001')], ['d']],
  ['accessionNumber equal null (absent)', () => [f('accessionNumber', 'equal', null)], ['c']],
  ['accessionNumber in', () => [f('accessionNumber', 'in', 'ACC-2001', 'acc-1002')], ['d', 'b']],
  ['accessionNumber in with null', () => [f('accessionNumber', 'in', 'ACC-3001', null)], ['f', 'c']],
  ['accessionNumber like (any case)', () => [f('accessionNumber', 'like', 'acc-100')], ['a', 'b']],

  ['serviceRequestId equal', () => [f('serviceRequestId', 'equal', 'SR-601')], ['d']],
  ['serviceRequestId equal null', () => [f('serviceRequestId', 'equal', null)], ['c']],
  ['serviceRequestId in', () => [f('serviceRequestId', 'in', 'SR-501', 'SR-802')], ['a', 'n']],
  ['serviceRequestId like', () => [f('serviceRequestId', 'like', 'sr-7')], ['f', 'g', 'k']],

  ['bodyPart equal', () => [f('bodyPart', 'equal', '胸部')], ['a', 'd', 'f', 'm']],
  ['bodyPart equal null', () => [f('bodyPart', 'equal', null)], ['c']],
  ['bodyPart in', () => [f('bodyPart', 'in', '头颅', '四肢')], ['b', 'g', 'n']],
  ['bodyPart like', () => [f('bodyPart', 'like', '部')], ['a', 'd', 'e', 'f', 'k', 'm']],

  ['applyDept equal', () => [f('applyDept', 'equal', '内科')], ['b', 'f']],
  ['applyDept equal null', () => [f('applyDept', 'equal', null)], ['c', 'g']],
  ['applyDept in with null', () => [f('applyDept', 'in', '外科', null)], ['e', 'k', 'c', 'g']],
  ['applyDept like', () => [f('applyDept', 'like', '科')], ['a', 'b', 'd', 'e', 'f', 'k', 'm', 'n']],

  ['modality equal (any case)', () => [f('modality', 'equal', 'ct')], ['a', 'f', 'g', 'm']],
  ['modality notEqual', () => [f('modality', 'notEqual', 'CT')], ['b', 'c', 'd', 'e', 'k', 'n']],
  ['modality in', () => [f('modality', 'in', 'CR', 'dx')], ['d', 'e']],

  ['created gt', () => [f('created', 'gt', at(4).toISOString())], ['e', 'f', 'g', 'k', 'n']],
  ['created gte', () => [f('created', 'gte', at(4).toISOString())], ['d', 'e', 'f', 'g', 'k', 'n']],
  ['created lt', () => [f('created', 'lt', at(4).toISOString())], ['a', 'b', 'c', 'm']],
  ['created lte', () => [f('created', 'lte', at(4).toISOString())], ['a', 'b', 'c', 'd', 'm']],
  ['created between (a range of two filters)', () => [f('created', 'gt', at(1).toISOString()), f('created', 'lt', at(4).toISOString())], ['b', 'c', 'm']],

  ['examTime gt (a +08:00 offset)', () => [f('examTime', 'gt', east8(5))], ['a', 'b', 'c', 'd', 'e']],
  ['examTime gte (a +0800 offset)', () => [f('examTime', 'gte', east8(5, false))], ['a', 'b', 'c', 'd', 'e', 'f']],
  ['examTime lt', () => [f('examTime', 'lt', at(5).toISOString())], ['g', 'k', 'm', 'n']],
  ['examTime lte', () => [f('examTime', 'lte', at(5).toISOString())], ['f', 'g', 'k', 'm', 'n']],

  ['uploadTime gt (never uploaded: no upload time to compare)', () => [f('uploadTime', 'gt', at(4).toISOString())], ['e', 'k', 'm']],
  ['uploadTime gte', () => [f('uploadTime', 'gte', at(4).toISOString())], ['d', 'e', 'k', 'm']],
  ['uploadTime lt', () => [f('uploadTime', 'lt', at(4).toISOString())], ['a', 'b', 'g']],
  ['uploadTime lte', () => [f('uploadTime', 'lte', at(4).toISOString())], ['a', 'b', 'd', 'g']],

  ['bucketId equal', () => [f('bucketId', 'equal', org.D)], ['m', 'n']],
  ['bucketId in', () => [f('bucketId', 'in', org.D, org.A)], LIVE],

  ['reportStatus equal', () => [f('reportStatus', 'equal', 'final')], ['a']],
  ['reportStatus equal none (stored none or no report)', () => [f('reportStatus', 'equal', 'none')], ['c', 'e', 'm']],
  ['reportStatus notEqual (no report counts as another status)', () => [f('reportStatus', 'notEqual', 'final')], ['b', 'c', 'd', 'e', 'f', 'g', 'k', 'm', 'n']],
  ['reportStatus notEqual none', () => [f('reportStatus', 'notEqual', 'none')], ['a', 'b', 'd', 'f', 'g', 'k', 'n']],
  ['reportStatus in', () => [f('reportStatus', 'in', 'locked', 'advised')], ['k', 'n']],
  ['reportStatus in with none', () => [f('reportStatus', 'in', 'none', 'hold')], ['c', 'e', 'g', 'm']],

  ['patientSource equal', () => [f('patientSource', 'equal', 'O')], ['b', 'g', 'm']],
  ['patientSource equal null', () => [f('patientSource', 'equal', null)], ['c']],
  ['patientSource notEqual (no source counts as another)', () => [f('patientSource', 'notEqual', 'O')], ['a', 'c', 'd', 'e', 'f', 'k', 'n']],
  ['patientSource notEqual null', () => [f('patientSource', 'notEqual', null)], ['a', 'b', 'd', 'e', 'f', 'g', 'k', 'm', 'n']],
  ['patientSource in', () => [f('patientSource', 'in', 'E', 'NO')], ['d', 'f', 'n']],
  ['patientSource in with null', () => [f('patientSource', 'in', 'I', null)], ['a', 'c', 'k']],

  ['patientGender equal', () => [f('patientGender', 'equal', 'F')], ['b', 'e', 'n']],
  ['patientGender notEqual', () => [f('patientGender', 'notEqual', 'M')], ['b', 'c', 'd', 'e', 'f', 'g', 'n']],
  ['patientGender in (pet genders too)', () => [f('patientGender', 'in', 'MS', 'FS', 'O')], ['d', 'f', 'g']],

  ['urgentFlag equal true', () => [f('urgentFlag', 'equal', true)], ['a', 'd', 'g']],
  ['urgentFlag equal false', () => [f('urgentFlag', 'equal', false)], ['b', 'c', 'e', 'f', 'k', 'm', 'n']],
  ['hasImage equal true', () => [f('hasImage', 'equal', true)], ['a', 'b', 'd', 'e', 'g', 'k', 'm', 'n']],
  ['hasImage equal false', () => [f('hasImage', 'equal', false)], ['c', 'f']],
  ['isRemoteReportRequested equal true', () => [f('isRemoteReportRequested', 'equal', true)], ['b', 'c', 'g']],
  ['isRemoteReportRequested equal false', () => [f('isRemoteReportRequested', 'equal', false)], ['a', 'd', 'e', 'f', 'k', 'm', 'n']],
  ['teleMedFlag equal true', () => [f('teleMedFlag', 'equal', true)], ['c', 'd']],
  ['teleMedFlag equal false', () => [f('teleMedFlag', 'equal', false)], ['a', 'b', 'e', 'f', 'g', 'k', 'm', 'n']],

  ['reportSource equal expert (teleMedFlag, requested or not)', () => [f('reportSource', 'equal', 'expert')], ['c', 'd']],
  ['reportSource equal remote (requested, not sent to an expert)', () => [f('reportSource', 'equal', 'remote')], ['b', 'g']],
  ['reportSource equal inhouse (neither)', () => [f('reportSource', 'equal', 'inhouse')], ['a', 'e', 'f', 'k', 'm', 'n']],
  ['reportSource in', () => [f('reportSource', 'in', 'expert', 'inhouse')], ['a', 'c', 'd', 'e', 'f', 'k', 'm', 'n']],
  ['reportSource in with a value twice', () => [f('reportSource', 'in', 'remote', 'remote')], ['b', 'g']],

  ['reportCreatorId equal', () => [f('reportCreatorId', 'equal', me)], ['a', 'd', 'f', 'k']],
  ['reportCreatorId equal null', () => [f('reportCreatorId', 'equal', null)], ['c', 'e', 'm']],
  ['reportCreatorId notEqual (no reporter counts as another)', () => [f('reportCreatorId', 'notEqual', me)], ['b', 'c', 'e', 'g', 'm', 'n']],
  ['reportCreatorId notEqual null', () => [f('reportCreatorId', 'notEqual', null)], ['a', 'b', 'd', 'f', 'g', 'k', 'n']],
  ['reportCreatorId in', () => [f('reportCreatorId', 'in', me, other)], ['a', 'b', 'd', 'f', 'g', 'k', 'n']],
  ['reportCreatorId in with null', () => [f('reportCreatorId', 'in', other, null)], ['b', 'c', 'e', 'g', 'm', 'n']],

  ['assigneeId equal', () => [f('assigneeId', 'equal', me)], ['b', 'e']],
  ['assigneeId equal null', () => [f('assigneeId', 'equal', null)], ['a', 'd', 'f', 'k', 'm', 'n']],
  ['assigneeId notEqual', () => [f('assigneeId', 'notEqual', other)], ['a', 'b', 'd', 'e', 'f', 'k', 'm', 'n']],
  ['assigneeId notEqual null', () => [f('assigneeId', 'notEqual', null)], ['b', 'c', 'e', 'g']],
  ['assigneeId in', () => [f('assigneeId', 'in', other)], ['c', 'g']],
  ['assigneeId in with null', () => [f('assigneeId', 'in', me, null)], ['a', 'b', 'd', 'e', 'f', 'k', 'm', 'n']],

  // Mine: assigned to me (b, e), or my report not yet approved (a final, k locked; not d corrected, f printed).
  ['myTasks equal true', () => [f('myTasks', 'equal', true)], ['a', 'b', 'e', 'k']],
  // Reportable (contract/reportable.ts): c performed without images, g arrived with images, the rest never booked;
  // f is booked for later (Scheduled) without images.
  ['reportable equal true', () => [f('reportable', 'equal', true)], ['a', 'b', 'c', 'd', 'e', 'g', 'k', 'm', 'n']],
  ['reportable equal false', () => [f('reportable', 'equal', false)], ['f']],
  ['myTasks equal false', () => [f('myTasks', 'equal', false)], ['c', 'd', 'f', 'g', 'm', 'n']],

  // The deleted view: h 5, i 10, l 20 days ago; j (40 days) is gone whatever the filter says.
  ['deletedTime gt', () => [f('deletedTime', 'gt', since(10))], ['h']],
  ['deletedTime gte', () => [f('deletedTime', 'gte', since(10))], ['h', 'i']],
  ['deletedTime lt', () => [f('deletedTime', 'lt', since(5))], ['i', 'l']],
  ['deletedTime lte', () => [f('deletedTime', 'lte', since(5))], ['h', 'i', 'l']],
  ['deletedTime gte older than 30 days (still only the recoverable ones)', () => [f('deletedTime', 'gte', since(60))], DELETED],
  ['deletedTime with another filter', () => [f('deletedTime', 'lte', s.clock.now().toISOString()), f('modality', 'equal', 'CT')], ['h', 'l']],

  ['reportText like (the current report only, this organisation only)', () => [f('reportText', 'like', PHRASE)], ['a']],

  ['several filters all hold', () => [f('modality', 'in', 'CT', 'MR'), f('reportStatus', 'notEqual', 'final'), f('urgentFlag', 'equal', false)], ['b', 'f', 'k', 'm']],
];

describe('every whitelisted filter field and operator', () => {
  it.each(CASES)('%s', async (_name, filters, expected) => {
    expect(await listed(filters())).toEqual(newestFirst(expected));
  });

  it('leaves out at least one row in every case, and keeps at least one', () => {
    const trivial = CASES.filter(([name, filters, expected]) => {
      // The deleted view always leaves out the live exams and j, deleted too long ago.
      const universe = filters().some((x) => x.field === 'deletedTime') ? [...DELETED, 'j'] : LIVE;
      return expected.length === 0 || (expected.length === universe.length && !name.startsWith('bucketId in'));
    }).map(([name]) => name);
    expect(trivial).toEqual([]);
  });

  it('covers every (field, operator) pair the whitelist accepts', () => {
    const covered = new Set(CASES.flatMap(([, filters]) => filters().map((x) => `${x.field} ${x.operator}`)));
    const accepted = Object.entries(EXAM_FILTER_FIELDS).flatMap(([field, spec]) => spec.operators.map((op) => `${field} ${op}`));
    expect(accepted.filter((pair) => !covered.has(pair))).toEqual([]);
  });

  it('counts what it pages: total ignores skip and limit, query/count agrees', async () => {
    const filters = [f('modality', 'in', 'CT', 'MR')];
    const all = newestFirst(['a', 'b', 'f', 'g', 'k', 'm']);
    const page = await pageQuery(s, token, { filters, skip: 2, limit: 3 });
    expect(page.items.map((e) => keyOf(e.id))).toEqual(all.slice(2, 5));
    expect(page).toMatchObject({ total: 6, totalIsEstimate: false });
    const past = await pageQuery(s, token, { filters, skip: 10, limit: 3 });
    expect(past).toEqual({ items: [], total: 6, totalIsEstimate: false });
    const count = await s.request('POST', 'exams/query/count', { token, body: { filters, skip: 4, limit: 1 } });
    expect(count.body).toEqual({ total: 6, totalIsEstimate: false });
  });
});

describe('the scope: filters narrow the caller\'s organisations, never widen them', () => {
  const empty = { items: [], total: 0, totalIsEstimate: false };
  const nothing: [string, () => Filter[]][] = [
    ['a bucketId of an organisation the caller is not in', () => [f('bucketId', 'equal', org.B)]],
    ['a bucketId of an organisation where the caller has no exam or report right', () => [f('bucketId', 'equal', org.C)]],
    ['bucketId in of such organisations only', () => [f('bucketId', 'in', org.B, org.C)]],
    ['two bucketId filters (both must hold)', () => [f('bucketId', 'equal', org.A), f('bucketId', 'equal', org.D)]],
    ['the ids of their exams', () => [f('id', 'in', id('x'), id('y'))]],
    ['the deleted view of another organisation', () => [f('deletedTime', 'gte', since(30)), f('bucketId', 'equal', org.B)]],
  ];
  it.each(nothing)('lists nothing for %s (200, not an error)', async (_name, filters) => {
    expect(await pageQuery(s, token, { filters: filters() })).toEqual(empty);
    const count = await s.request('POST', 'exams/query/count', { token, body: { filters: filters() } });
    expect(count).toMatchObject({ status: 200, body: { total: 0, totalIsEstimate: false } });
  });

  it('keeps only the readable part of a bucketId list', async () => {
    expect(await listed([f('bucketId', 'in', org.B, org.A, org.C)])).toEqual(newestFirst(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'k']));
    expect(await listed([f('bucketId', 'in', org.A, org.D), f('bucketId', 'in', org.D, org.B)])).toEqual(newestFirst(['m', 'n']));
  });

  it('never shows the copies held elsewhere, whatever the filter matches', async () => {
    expect(await listed([])).toEqual(newestFirst(LIVE));
    expect(await listed([f('patientName', 'equal', '王小明')])).toEqual(['a']);
    expect(await listed([f('assigneeId', 'equal', me), f('urgentFlag', 'equal', true)])).toEqual([]);
    expect(await listed([f('myTasks', 'equal', true), f('accessionNumber', 'equal', 'ACC-1001')])).toEqual(['a']);
  });
});

describe('every sort field', () => {
  /** The stored value a sort reads (reportStatus as shown: no report is `none`). */
  const value: Record<ExamSortField, (e: ExamRow) => string | number | boolean | null> = {
    created: (e) => e.created.getTime(), examTime: (e) => e.examTime.getTime(), deletedTime: (e) => e.deletedTime?.getTime() ?? null,
    uploadTime: (e) => e.uploadTime?.getTime() ?? null, id: (e) => e.id, patientName: (e) => e.patientName, patientId: (e) => e.patientId,
    accessionNumber: (e) => e.accessionNumber, modality: (e) => e.modality, bodyPart: (e) => e.bodyPart, reportStatus: (e) => e.reportStatus ?? 'none',
    urgentFlag: (e) => e.urgentFlag, bucketId: (e) => e.bucketId,
  };
  /** PostgreSQL's order: nulls last ascending and first descending, text by code point, then the id the same way. */
  function sorted(keys: string[], field: ExamSortField, direction: 'asc' | 'desc'): string[] {
    const sign = direction === 'asc' ? 1 : -1;
    return keys.map((k) => rows.get(k)!).sort((a, b) => {
      const x = value[field](a);
      const y = value[field](b);
      if (x === y) return (a.id - b.id) * sign;
      if (x === null) return sign;
      if (y === null) return -sign;
      return (x < y ? -1 : 1) * sign;
    }).map((e) => keyOf(e.id));
  }

  const both = EXAM_SORT_FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((direction) => [field, direction] as const));
  it.each(both)('sorts the live list by %s %s, then by id', async (field, direction) => {
    // Outside the deleted view a deletedTime sort is the created sort (core §9).
    const want = sorted(LIVE, field === 'deletedTime' ? 'created' : field, direction);
    expect(await listed([], [{ field, direction }])).toEqual(want);
  });

  // The deleted view orders by the same expressions; what is its own is that deletedTime is kept there.
  it.each(both.filter(([field]) => field === 'deletedTime' || field === 'created' || field === 'reportStatus'))('sorts the deleted view by %s %s, then by id', async (field, direction) => {
    expect(await listed([f('deletedTime', 'gte', since(30))], [{ field, direction }])).toEqual(sorted(DELETED, field, direction));
  });

  it('orders as written out by hand: nulls, case, Chinese, ties', async () => {
    const by = (field: ExamSortField, direction: 'asc' | 'desc') => listed([], [{ field, direction }]);
    expect(await by('uploadTime', 'asc')).toEqual(['g', 'a', 'b', 'd', 'k', 'e', 'm', 'c', 'f', 'n']);
    expect(await by('uploadTime', 'desc')).toEqual(['n', 'f', 'c', 'm', 'e', 'k', 'd', 'b', 'a', 'g']);
    expect(await by('patientName', 'asc')).toEqual(['d', 'c', 'm', 'k', 'g', 'a', 'b', 'e', 'n', 'f']);
    expect(await by('accessionNumber', 'asc')).toEqual(['a', 'd', 'e', 'f', 'g', 'k', 'm', 'n', 'b', 'c']);
    expect(await by('bodyPart', 'desc')).toEqual(['c', 'k', 'e', 'm', 'f', 'd', 'a', 'g', 'b', 'n']);
    expect(await by('reportStatus', 'asc')).toEqual(['n', 'd', 'a', 'g', 'k', 'c', 'e', 'm', 'b', 'f']);
    expect(await by('created', 'desc')).toEqual(['n', 'k', 'g', 'f', 'e', 'd', 'c', 'b', 'm', 'a']);
    expect(await by('urgentFlag', 'desc')).toEqual(['g', 'd', 'a', 'n', 'm', 'k', 'f', 'e', 'c', 'b']);
    expect(await listed([f('deletedTime', 'gte', since(30))], [{ field: 'deletedTime', direction: 'asc' }])).toEqual(['l', 'i', 'h']);
    expect(await listed([f('deletedTime', 'gte', since(30))], [{ field: 'created', direction: 'asc' }])).toEqual(['l', 'h', 'i']);
  });

  it('applies several sorts in order, the first of a repeated field only, and the id last in the first direction', async () => {
    expect(await listed([], [{ field: 'bucketId', direction: 'desc' }, { field: 'examTime', direction: 'asc' }]))
      .toEqual(['n', 'm', 'k', 'g', 'f', 'e', 'd', 'c', 'b', 'a']);
    expect(await listed([], [{ field: 'modality', direction: 'asc' }, { field: 'modality', direction: 'desc' }, { field: 'created', direction: 'asc' }]))
      .toEqual(['e', 'a', 'm', 'f', 'g', 'd', 'b', 'k', 'c', 'n']);
    // Ties in every sort: the id decides, in the first sort's direction.
    expect(await listed([f('modality', 'equal', 'CT')], [{ field: 'modality', direction: 'desc' }, { field: 'urgentFlag', direction: 'asc' }]))
      .toEqual(['m', 'f', 'g', 'a']);
  });
});

describe('refused filters: 400 ParamsError naming the filter, from both endpoints', () => {
  /**
   * The offending filter goes second, behind a good one, so the path must name index 1. Page-query always; the count
   * endpoint (the same checks) too unless `pageOnly`.
   */
  async function refused(bad: Filter | Record<string, unknown>, part: 'field' | 'operator' | 'values', code = 'ParamsError', pageOnly = false) {
    const body = { filters: [f('modality', 'equal', 'CT'), bad] };
    const endpoints = pageOnly ? ['exams/page-query'] : ['exams/page-query', 'exams/query/count'];
    await Promise.all(endpoints.map(async (endpoint) => {
      const res = await s.request('POST', endpoint, { token, body });
      const what = `${endpoint} ${JSON.stringify(bad)}`;
      expect(res.status, what).toBe(400);
      expect(res.body.code, what).toBe(code);
      expect(res.body.details.fields.map((x: { path: string }) => x.path), what).toContain(`filters.1.${part}`);
    }));
  }

  it.each(['passwordHash', 'patientDob', 'bucketName', 'status', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'ID', 'created '])(
    'refuses the unknown field %j', async (field) => {
      await refused({ field, operator: 'equal', values: ['x'] }, 'field');
    });

  it.each(Object.keys(EXAM_FILTER_FIELDS) as ExamFilterField[])('refuses every operator %s does not take', async (field) => {
    const taken = EXAM_FILTER_FIELDS[field].operators as readonly Operator[];
    const others = OPERATORS.filter((op) => !taken.includes(op));
    expect(others.length).toBeGreaterThan(0);
    await Promise.all(others.map((operator, i) => refused({ field, operator, values: [operator === 'in' ? 'x' : 'xyz'] }, 'operator', 'ParamsError', i > 0)));
  });

  /** Values of the wrong kind, per kind of field. */
  const WRONG: Record<string, unknown[]> = {
    text: [5, true],
    code: [5, 'C T', "CT'--", 'ABCDEFGHIJKLMNOPQ', ''],
    int: ['1', -1, 1.5, 2_147_483_648, true],
    time: ['2026-01-01', '2026-01-01T00:00:00', 1_767_225_600_000, '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-04-31T08:00:00+08:00', '2026-01-00T00:00:00Z', 'yesterday'],
    bool: ['true', 1, 0],
    status: ['done', 'FINAL', 1],
    source: ['X', 'i', 1],
    gender: ['X', 'm', 1],
    reportSource: ['abroad', 'Expert', true],
    searchText: [123456],
  };
  it.each(Object.keys(EXAM_FILTER_FIELDS) as ExamFilterField[])('refuses a value of the wrong kind for %s', async (field) => {
    const { kind, operators } = EXAM_FILTER_FIELDS[field];
    // Each wrong value once, the field's operators taken in turn (the check is by kind, whatever the operator).
    await Promise.all(WRONG[kind]!.map((v, i) => refused({ field, operator: operators[i % operators.length]!, values: [v] }, 'values', 'ParamsError', i > 0)));
  });

  it('takes a real calendar day, a leap day included, and an offset with or without its colon', async () => {
    const taken: [Operator, string][] = [['gt', '2024-02-29T12:00:00Z'], ['lt', '2026-12-31T23:59:59.999999+14:00'], ['gt', '2026-01-01T00:00-0530']];
    for (const [operator, v] of taken) expect(await listed([f('examTime', operator, v), f('id', 'equal', id('n'))]), v).toEqual(['n']);
    await refused(f('examTime', 'lt', '2025-02-29T12:00:00Z'), 'values');
  });

  /** null means "absent" for equal, notEqual and in of the nullable fields only: every other pair refuses it. */
  const nullRefused = Object.entries(EXAM_FILTER_FIELDS).map(([field, spec]) => {
    const nullable = 'nullable' in spec && spec.nullable;
    return [field, (spec.operators as readonly Operator[]).filter((op) => !(nullable && ['equal', 'notEqual', 'in'].includes(op)))] as const;
  }).filter(([, operators]) => operators.length > 0);
  it.each(nullRefused)('refuses null for %s %j', async (field, operators) => {
    await Promise.all(operators.map((operator, i) => refused({ field, operator, values: [null] }, 'values', 'ParamsError', i > 0)));
  });

  const counts: [string, Filter][] = [
    ['equal with two values', f('modality', 'equal', 'CT', 'MR')],
    ['notEqual with two values', f('reportStatus', 'notEqual', 'final', 'hold')],
    ['gt with two values', f('created', 'gt', at(1).toISOString(), at(2).toISOString())],
    ['lte with two values', f('id', 'lte', 1, 2)],
    ['like with two values', f('patientName', 'like', '王', '李')],
    ['equal with none', f('urgentFlag', 'equal')],
    ['in with none', f('patientSource', 'in')],
    ['gte with none', f('examTime', 'gte')],
    ['like with none', f('reportText', 'like')],
    ['an empty like', f('accessionNumber', 'like', '   ')],
  ];
  it.each(counts)('refuses %s', async (_name, bad) => {
    await refused(bad, 'values');
  });

  it('refuses a second reportText filter, and a short one with SearchTooShort', async () => {
    const body = { filters: [f('reportText', 'like', PHRASE), f('reportText', 'like', '肝内多发')] };
    const res = await s.request('POST', 'exams/page-query', { token, body });
    expect(res).toMatchObject({ status: 400, body: { code: 'ParamsError', details: { fields: [{ path: 'filters.1.field' }] } } });
    await refused(f('reportText', 'like', '结节'), 'values', 'SearchTooShort');
  });

  const shapes: [string, unknown][] = [
    ['201 values', { filters: [f('id', 'in', ...Array.from({ length: 201 }, (_, i) => i + 1))] }],
    ['a value over 200 characters', { filters: [f('patientName', 'like', 'x'.repeat(201))] }],
    ['41 filters', { filters: Array.from({ length: 41 }, () => f('modality', 'equal', 'CT')) }],
    ['an object as a value', { filters: [{ field: 'patientName', operator: 'equal', values: [{ $ne: null }] }] }],
    ['values that are not a list', { filters: [{ field: 'patientName', operator: 'equal', values: 'x' }] }],
    ['a filter without an operator', { filters: [{ field: 'patientName', values: ['x'] }] }],
    ['an empty field name', { filters: [{ field: '', operator: 'equal', values: ['x'] }] }],
    ['an unknown sort field', { sorts: [{ field: 'patientGender', direction: 'asc' }] }],
    ['a sort by the report text', { sorts: [{ field: 'reportText', direction: 'asc' }] }],
    ['a direction in capitals', { sorts: [{ field: 'created', direction: 'DESC' }] }],
    ['6 sorts', { sorts: Array.from({ length: 6 }, () => ({ field: 'created', direction: 'asc' })) }],
  ];
  it.each(shapes)('refuses %s', async (_name, body) => {
    await Promise.all(['exams/page-query', 'exams/query/count'].map(async (endpoint) => {
      const res = await s.request('POST', endpoint, { token, body });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.code, endpoint).toBe('ParamsError');
    }));
  });

  it('names the sort that is refused', async () => {
    const res = await s.request('POST', 'exams/page-query', { token, body: { sorts: [{ field: 'created', direction: 'asc' }, { field: 'patientDob', direction: 'asc' }] } });
    expect(res).toMatchObject({ status: 400, body: { code: 'ParamsError', details: { fields: [{ path: 'sorts.1.field' }] } } });
  });
});
