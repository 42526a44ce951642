import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatQuery, StatResult } from '../../contract/statistics';
import * as t from '../../server/db/schema';
import { createAccount, unique } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/**
 * The activity statistics of issue 16 (registrar, remote-report, group-payment, consul) against numbers worked out
 * by hand on a small fixed dataset inserted straight into the database. The group has two organisations in
 * different zones — Stat Hospital A (Asia/Shanghai, UTC+8) and Stat Clinic B (Europe/London, UTC+0 in March before
 * the 29th) — and two expert organisations (Expert Centre E, Second Expert F, both Asia/Shanghai). Several rows sit
 * on a day boundary that differs between the zones, so counting on the wrong organisation's clock changes a number.
 * The day questions ask for 2026-03-10 … 2026-03-12; the month questions for 2026-02-01 … 2026-04-30.
 */
let s: TestServer;
let token: string;
let groupId: number;
let A: number; let B: number; let E: number; let F: number;

const DAY = { from: '2026-03-10', to: '2026-03-12', unit: 'day' } as const;
const MONTH = { from: '2026-02-01', to: '2026-04-30', unit: 'month' } as const;
const at = (iso: string) => new Date(iso);
const minutesAfter = (iso: string, m: number) => new Date(at(iso).getTime() + m * 60_000);

async function ask(path: string, q: Omit<StatQuery, 'groupId'>): Promise<StatResult> {
  const res = await s.request('POST', `statistics/${path}`, { token, body: { groupId, ...q } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as StatResult;
}
const seriesMap = (r: StatResult) => Object.fromEntries(r.series.map((x) => [x.key, x.values]));

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  const db = s.db.db;
  const [group] = await db.insert(t.groups).values({ name: unique('stat'), displayName: 'Stat Group', enableStat: true }).returning();
  groupId = group!.id;
  const bucket = async (name: string, timeZone: string) => {
    const [b] = await db.insert(t.buckets).values({ groupId, name, code: unique('ST'), timeZone }).returning();
    return b!.id;
  };
  A = await bucket('Stat Hospital A', 'Asia/Shanghai');
  B = await bucket('Stat Clinic B', 'Europe/London');
  E = await bucket('Expert Centre E', 'Asia/Shanghai');
  F = await bucket('Second Expert F', 'Asia/Shanghai');
  const admin = await createAccount(s, { groupId, groupAdmin: true, name: 'Stat Admin' });
  token = await s.login(admin.username, admin.password);
  const ann = (await createAccount(s, { name: 'Registrar Ann', buckets: [{ bucketId: A }, { bucketId: B }] })).id;
  const bob = (await createAccount(s, { name: 'Registrar Bob', buckets: [{ bucketId: A }, { bucketId: B }] })).id;

  let examNo = 0;
  const exam = async (bucketId: number, o: Partial<typeof t.exams.$inferInsert> = {}) => {
    examNo += 1;
    const [row] = await db.insert(t.exams).values({
      bucketId, patientName: `Stat ${examNo}`, patientId: `ST${examNo}`, modality: 'CT', examTime: at('2026-03-01T00:00:00Z'), ...o,
    }).returning();
    return row!.id;
  };

  // ── Registrations: (organisation, registrar, created, lines as [arrived, status, deleted]) ──
  type Line = 'arrived' | 'cancelled' | 'waiting' | 'deleted';
  const registration = async (bucketId: number, createdBy: number | null, created: string, lines: Line[]) => {
    const [r] = await db.insert(t.registrations).values({ bucketId, createdBy, created: at(created) }).returning();
    for (const line of lines) {
      await exam(bucketId, {
        registrationId: r!.id, examTime: at(created),
        examStatus: line === 'arrived' ? 'Arrived' : line === 'cancelled' ? 'Cancelled' : 'Registered',
        arrivedTime: line === 'arrived' ? at(created) : null,
        deletedTime: line === 'deleted' ? at(created) : null,
      });
    }
  };
  await registration(A, ann, '2026-03-10T15:59:00Z', ['arrived', 'cancelled']); // reg1: A 03-10 23:59
  await registration(A, ann, '2026-03-10T16:00:00Z', ['arrived', 'deleted']); // reg2: A 03-11 00:00 (the deleted line not counted)
  await registration(A, bob, '2026-03-11T02:00:00Z', ['waiting', 'waiting', 'waiting']); // reg3: A 03-11
  await registration(A, bob, '2026-03-09T15:30:00Z', ['waiting']); // reg4: A 03-09 23:30 (before the day window)
  await registration(A, null, '2026-03-12T01:00:00Z', ['cancelled']); // reg5: A 03-12, nobody recorded
  await registration(B, ann, '2026-03-10T23:30:00Z', ['arrived']); // reg6: B 03-10 23:30 (Shanghai's 03-11)
  await registration(B, bob, '2026-03-12T20:00:00Z', ['arrived', 'waiting']); // reg7: B 03-12 (Shanghai's 03-13)
  await registration(B, bob, '2026-03-09T20:00:00Z', ['waiting']); // reg8: B 03-09 (Shanghai's 03-10)
  await registration(A, ann, '2026-04-02T04:00:00Z', ['arrived']); // reg9: A April
  await registration(B, ann, '2026-02-28T23:30:00Z', ['waiting']); // reg10: B 02-28 (Shanghai's 03-01)
  // Another group's registration in the window: never counted.
  await registration(s.ids.hospitalId, ann, '2026-03-11T02:00:00Z', ['arrived']);

  // ── Report orders: (no, type, from, targets [bucket, price], created, paid, refund, progress) ──
  let orderNo = 0;
  const order = async (o: {
    type: 'expert' | 'remote'; from: number; targets: [number, number][]; created: string; group?: number;
    channel?: 'weixin' | 'credit' | 'plan' | 'free'; paidAt?: string; refundAt?: string; withdrawn?: boolean;
  }) => {
    orderNo += 1;
    const amountFen = o.targets.reduce((sum, [, price]) => sum + price, 0);
    const [row] = await db.insert(t.reportOrders).values({
      requestNo: unique(`RSTAT${orderNo}-`), type: o.type, examId: await exam(o.from), fromBucketId: o.from, groupId: o.group ?? groupId,
      applicantId: admin.id, patientName: `Order ${orderNo}`, amountFen,
      paymentStatus: o.refundAt ? 3 : o.paidAt ? 1 : 0,
      progress: o.withdrawn ? 'withdrawn' : o.paidAt ? 'queued' : 'awaiting_payment',
      channel: o.channel ?? null, paidAt: o.paidAt ? at(o.paidAt) : null, refundAt: o.refundAt ? at(o.refundAt) : null,
      withdrawnAt: o.withdrawn ? at(o.created) : null, created: at(o.created),
    }).returning();
    await db.insert(t.reportOrderTargets).values(o.targets.map(([bucketId, priceFen]) => ({ orderId: row!.id, bucketId, priceFen, free: priceFen === 0 })));
    return row!.id;
  };
  // o1: A 03-10, E 5000 + F 3000, paid by weixin A 03-10
  const o1 = await order({ type: 'expert', from: A, targets: [[E, 5000], [F, 3000]], created: '2026-03-10T02:00:00Z', channel: 'weixin', paidAt: '2026-03-10T03:00:00Z' });
  // o2: A 03-11, E 5000, paid by credit A 03-11, refunded A 03-12
  await order({ type: 'expert', from: A, targets: [[E, 5000]], created: '2026-03-11T01:00:00Z', channel: 'credit', paidAt: '2026-03-11T02:00:00Z', refundAt: '2026-03-12T03:00:00Z' });
  // o3: A 03-12 00:30, F 3000, never paid, withdrawn
  await order({ type: 'expert', from: A, targets: [[F, 3000]], created: '2026-03-11T16:30:00Z', withdrawn: true });
  // o4: remote, A 03-10 23:59, E 4000, paid from a plan A 03-11 00:10
  await order({ type: 'remote', from: A, targets: [[E, 4000]], created: '2026-03-10T15:59:00Z', channel: 'plan', paidAt: '2026-03-10T16:10:00Z' });
  // o5: remote, B 03-12 22:00 (Shanghai's 03-13), E 4000, paid by weixin B 03-12 23:00
  await order({ type: 'remote', from: B, targets: [[E, 4000]], created: '2026-03-12T22:00:00Z', channel: 'weixin', paidAt: '2026-03-12T23:00:00Z' });
  // o6: B 03-09 23:00 (Shanghai's 03-10), E free, paid at once (channel free) B 03-09
  await order({ type: 'expert', from: B, targets: [[E, 0]], created: '2026-03-09T23:00:00Z', channel: 'free', paidAt: '2026-03-09T23:00:00Z' });
  // o7: A 03-09, F 3000, paid by weixin A 03-10 09:00, refunded A 03-11
  await order({ type: 'expert', from: A, targets: [[F, 3000]], created: '2026-03-09T10:00:00Z', channel: 'weixin', paidAt: '2026-03-10T01:00:00Z', refundAt: '2026-03-11T05:00:00Z' });
  // o9: A April, E 5000, unpaid
  await order({ type: 'expert', from: A, targets: [[E, 5000]], created: '2026-04-05T04:00:00Z' });
  // Another group's paid application in the window: never counted.
  await order({ type: 'expert', from: s.ids.hospitalId, group: s.ids.groupId, targets: [[s.ids.expertCentreId, 7000]], created: '2026-03-11T01:00:00Z', channel: 'weixin', paidAt: '2026-03-11T01:00:00Z' });

  // ── Charge orders: credit recharges (no application), one paying an application, one never paid ──
  const [pkg] = await db.insert(t.chargePackages).values({ groupId, kind: 'credit', name: 'Credit 1000', priceFen: 100000 }).returning();
  let tradeNo = 0;
  const charge = async (o: { amountFen: number; paidAt?: string; orderId?: number; group?: number }) => {
    tradeNo += 1;
    await db.insert(t.chargeOrders).values({
      outTradeNo: unique(`CST${tradeNo}-`), provider: 'sandbox', groupId: o.group ?? groupId, orderId: o.orderId ?? null, packageId: pkg!.id,
      accountId: admin.id, amountFen: o.amountFen, description: 'stat', status: o.paidAt ? 'paid' : 'created',
      expiresAt: at('2027-01-01T00:00:00Z'), paidAt: o.paidAt ? at(o.paidAt) : null, transactionId: o.paidAt ? unique('TX') : null,
    });
  };
  await charge({ amountFen: 100000, paidAt: '2026-03-11T15:00:00Z' }); // ch1: Shanghai 03-11 23:00, London 03-11
  await charge({ amountFen: 50000, paidAt: '2026-03-11T16:30:00Z' }); // ch2: Shanghai 03-12 00:30, London 03-11
  await charge({ amountFen: 8000, paidAt: '2026-03-10T03:00:00Z', orderId: o1 }); // o1's QR: counted as o1's weixin payment only
  await charge({ amountFen: 30000 }); // a code never paid
  await charge({ amountFen: 20000, paidAt: '2026-03-09T12:00:00Z' }); // ch5: March, before the day window
  await charge({ amountFen: 30000, paidAt: '2026-04-01T00:00:00Z' }); // ch6: April
  await charge({ amountFen: 99000, paidAt: '2026-03-11T15:00:00Z', group: s.ids.groupId }); // another group's

  // ── Consultations: (applied → target, status, created, minutes to approval, rating) ──
  const consultation = async (applied: number, target: number, status: number, created: string, approvedAfter?: number, rating?: number) => {
    await db.insert(t.consultations).values({
      appliedBucketId: applied, targetBucketId: target, patientName: 'Consulted', reason: 'stat', status, createdBy: admin.id, created: at(created),
      approvedAt: approvedAfter === undefined ? null : minutesAfter(created, approvedAfter), rating: rating ?? null,
    });
  };
  await consultation(A, E, 3, '2026-03-10T01:00:00Z', 90, 5); // c1: A 03-10
  await consultation(A, E, 3, '2026-03-11T00:00:00Z', 30, 4); // c2: A 03-11
  await consultation(A, E, 4, '2026-03-11T10:00:00Z'); // c3: A 03-11, canceled
  await consultation(B, E, 0, '2026-03-10T23:30:00Z'); // c4: B 03-10 (E's 03-11)
  await consultation(B, A, 1, '2026-03-12T20:00:00Z'); // c5: B 03-12
  await consultation(A, B, 2, '2026-03-11T17:00:00Z'); // c6: A 03-12 01:00 (B's 03-11)
  await consultation(B, E, 3, '2026-03-09T23:00:00Z', 60, 3); // c7: B 03-09 (E's 03-10)
  await consultation(s.ids.hospitalId, E, 3, '2026-03-11T04:00:00Z', 120); // c8: applied elsewhere, asked of E: E's 03-11
  await consultation(A, E, 0, '2026-04-03T02:00:00Z'); // c10: April
  await consultation(s.ids.hospitalId, s.ids.expertCentreId, 0, '2026-03-11T04:00:00Z'); // another group's: never counted
});
afterAll(async () => { await s.close(); });

describe('registrar', () => {
  const columns = ['registrar', 'registrations', 'examLines', 'arrived', 'canceled'];

  it('counts registrations by day on each organisation\'s clock, with their live lines', async () => {
    const r = await ask('registrar', DAY);
    expect(r.periods).toEqual(['2026-03-10', '2026-03-11', '2026-03-12']);
    expect(r.columns.map((c) => c.key)).toEqual(columns);
    // Ann: reg1 (A 03-10: 2 lines, 1 arrived, 1 cancelled), reg2 (A 03-11: 1 live line arrived), reg6 (B 03-10: 1 arrived)
    //      → 3 registrations, 2+1+1 = 4 lines, 1+1+1 = 3 arrived, 1 cancelled; by day [reg1+reg6, reg2, 0] = [2, 1, 0].
    // Bob: reg3 (A 03-11: 3 lines), reg7 (B 03-12: 2 lines, 1 arrived) → 2, 5, 1, 0; by day [0, 1, 1].
    //      (reg4 is A's 03-09; reg8 is B's 03-09 though Shanghai's 03-10: both outside.)
    // Nobody: reg5 (A 03-12: 1 line cancelled) → 1, 1, 0, 1; [0, 0, 1].
    expect(r.rows).toEqual([
      { registrar: 'Registrar Ann', registrations: 3, examLines: 4, arrived: 3, canceled: 1 },
      { registrar: 'Registrar Bob', registrations: 2, examLines: 5, arrived: 1, canceled: 0 },
      { registrar: null, registrations: 1, examLines: 1, arrived: 0, canceled: 1 },
    ]);
    expect(r.series.map((x) => [x.label, x.values])).toEqual([['Registrar Ann', [2, 1, 0]], ['Registrar Bob', [0, 1, 1]], [null, [0, 0, 1]]]);
    expect(r.series[2]!.key).toBe('unknown');
    expect(r.series[0]!.key).toMatch(/^account-\d+$/);
    // 3+2+1 = 6 registrations, 4+5+1 = 10 lines, 3+1+0 = 4 arrived, 1+0+1 = 2 cancelled
    expect(r.totals).toEqual({ registrations: 6, examLines: 10, arrived: 4, canceled: 2 });
  });

  it('counts by month', async () => {
    const r = await ask('registrar', MONTH);
    expect(r.periods).toEqual(['2026-02-01', '2026-03-01', '2026-04-01']);
    // Ann: reg10 (B 02-28: 1 line), reg1, reg2, reg6 (March: 2+1+1 lines, 3 arrived, 1 cancelled), reg9 (April: 1 arrived)
    //      → 5 registrations, 1+4+1 = 6 lines, 3+1 = 4 arrived, 1 cancelled; [1, 3, 1].
    // Bob: reg3, reg4, reg7, reg8 (all March) → 4, 3+1+2+1 = 7 lines, 1 arrived; [0, 4, 0]. Nobody: reg5 → [0, 1, 0].
    expect(r.rows).toEqual([
      { registrar: 'Registrar Ann', registrations: 5, examLines: 6, arrived: 4, canceled: 1 },
      { registrar: 'Registrar Bob', registrations: 4, examLines: 7, arrived: 1, canceled: 0 },
      { registrar: null, registrations: 1, examLines: 1, arrived: 0, canceled: 1 },
    ]);
    expect(r.series.map((x) => x.values)).toEqual([[1, 3, 1], [0, 4, 0], [0, 1, 0]]);
    expect(r.totals).toEqual({ registrations: 10, examLines: 14, arrived: 5, canceled: 2 });
  });

  it('narrows to one organisation (B, on London\'s clock)', async () => {
    const r = await ask('registrar', { ...DAY, bucketIds: [B] });
    // reg6 (Ann, 03-10) and reg7 (Bob, 03-12): one each, so by name.
    expect(r.rows).toEqual([
      { registrar: 'Registrar Ann', registrations: 1, examLines: 1, arrived: 1, canceled: 0 },
      { registrar: 'Registrar Bob', registrations: 1, examLines: 2, arrived: 1, canceled: 0 },
    ]);
    expect(r.series.map((x) => x.values)).toEqual([[1, 0, 0], [0, 0, 1]]);
    expect(r.range.timeZone).toBe('Europe/London');
  });

  it('draws the 8 busiest registrars and the rest as `others`; the table keeps them all', async () => {
    // In May (after every other row): Desk 01 … Desk 10 at A, Desk n with n registrations of no lines.
    for (let n = 1; n <= 10; n += 1) {
      const desk = await createAccount(s, { name: `Desk ${String(n).padStart(2, '0')}` });
      await s.db.db.insert(t.registrations).values(Array.from({ length: n }, () => ({ bucketId: A, createdBy: desk.id, created: at('2026-05-01T02:00:00Z') })));
    }
    const r = await ask('registrar', { from: '2026-05-01', to: '2026-05-02', unit: 'day' });
    // Desk 10 … Desk 03 by name; others = Desk 02 + Desk 01 = 3.
    expect(r.series.map((x) => [x.label, x.values])).toEqual([
      ...[10, 9, 8, 7, 6, 5, 4, 3].map((n) => [`Desk ${String(n).padStart(2, '0')}`, [n, 0]]),
      [null, [3, 0]],
    ]);
    expect(r.series.at(-1)!.key).toBe('others');
    expect(r.rows.map((row) => row.registrations)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    // 1 + 2 + … + 10 = 55
    expect(r.totals).toEqual({ registrations: 55, examLines: 0, arrived: 0, canceled: 0 });
  });

  it('puts a row into the week and day of its organisation\'s clock across a summer-time change (London, October)', async () => {
    // London leaves summer time at 2026-10-25 01:00 UTC; weeks start on Monday (10-19, 10-26). Nothing else is in October.
    const ada = await createAccount(s, { name: 'Desk DST' });
    const row = (bucketId: number, iso: string) => ({ bucketId, createdBy: ada.id, created: at(iso) });
    await s.db.db.insert(t.registrations).values([
      row(B, '2026-10-18T23:30:00Z'), // London 00:30 BST Mon 10-19 (UTC: Sunday, the week before)
      row(B, '2026-10-25T00:30:00Z'), // London 01:30 BST Sun 10-25, before the change
      row(B, '2026-10-25T23:30:00Z'), // London 23:30 GMT Sun 10-25, after it
      row(A, '2026-10-25T16:30:00Z'), // Shanghai 00:30 Mon 10-26 (UTC: Sunday)
      row(B, '2026-10-26T00:30:00Z'), // London 00:30 GMT Mon 10-26
    ]);
    const weeks = await ask('registrar', { from: '2026-10-19', to: '2026-11-01', unit: 'week' });
    expect(weeks.periods).toEqual(['2026-10-19', '2026-10-26']);
    expect(weeks.series.map((x) => [x.label, x.values])).toEqual([['Desk DST', [3, 2]]]);
    const days = await ask('registrar', { from: '2026-10-25', to: '2026-10-26', unit: 'day' });
    expect(days.series.map((x) => [x.label, x.values])).toEqual([['Desk DST', [2, 2]]]);
    const london = await ask('registrar', { from: '2026-10-18', to: '2026-10-19', unit: 'day', bucketIds: [B] });
    expect(london.series.map((x) => x.values)).toEqual([[0, 1]]);
  });

  it('needs a period', async () => {
    const res = await s.request('POST', 'statistics/registrar', { token, body: { groupId, unit: 'day' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('StatisticsPeriodRequired');
    const half = await s.request('POST', 'statistics/registrar', { token, body: { groupId, from: '2026-03-10' } });
    expect(half.status).toBe(400);
    expect(half.body.code).toBe('StatisticsPeriodRequired');
  });
});

describe('remote-report', () => {
  it('counts applications by type and target, by day', async () => {
    const r = await ask('remote-report', DAY);
    expect(r.columns.map((c) => [c.key, c.kind])).toEqual([
      ['type', 'code'], ['target', 'text'], ['applications', 'count'], ['paid', 'count'], ['refunded', 'count'], ['withdrawn', 'count'], ['amountFen', 'fen'],
    ]);
    // In the window: o1 (A 03-10), o2 (A 03-11), o3 (A 03-12 00:30), o4 remote (A 03-10 23:59), o5 remote (B 03-12).
    // (o6 is B's 03-09, o7 A's 03-09.) expert [o1, o2, o3] = [1, 1, 1]; remote [o4, 0, o5] = [1, 0, 1].
    expect(seriesMap(r)).toEqual({ 'type-expert': [1, 1, 1], 'type-remote': [1, 0, 1] });
    expect(r.series.every((x) => x.label === null)).toBe(true);
    // expert × E: o1 (paid, kept 5000), o2 (paid, refunded) → 2, 2, 1, 0, 5000
    // expert × F: o1 (paid, kept 3000), o3 (withdrawn) → 2, 1, 0, 1, 3000
    // remote × E: o4, o5 (paid, kept 4000 each) → 2, 2, 0, 0, 8000. All 2 applications: by name.
    expect(r.rows).toEqual([
      { type: 'type-expert', target: 'Expert Centre E', applications: 2, paid: 2, refunded: 1, withdrawn: 0, amountFen: 5000 },
      { type: 'type-remote', target: 'Expert Centre E', applications: 2, paid: 2, refunded: 0, withdrawn: 0, amountFen: 8000 },
      { type: 'type-expert', target: 'Second Expert F', applications: 2, paid: 1, refunded: 0, withdrawn: 1, amountFen: 3000 },
    ]);
    // Applications, not targets: 5; paid o1 o2 o4 o5 = 4; refunded o2; withdrawn o3; kept 8000 (o1) + 4000 + 4000 = 16000.
    expect(r.totals).toEqual({ applications: 5, paid: 4, refunded: 1, withdrawn: 1, amountFen: 16000 });
  });

  it('counts by month', async () => {
    const r = await ask('remote-report', MONTH);
    // March: expert o1 o2 o3 o6 o7 = 5, remote o4 o5 = 2; April: expert o9.
    expect(seriesMap(r)).toEqual({ 'type-expert': [0, 5, 1], 'type-remote': [0, 2, 0] });
    // 8 applications; paid o1 o2 o4 o5 o6 o7 = 6; refunded o2 o7; withdrawn o3; kept 8000 + 4000 + 4000 + 0 (o6 free) = 16000.
    expect(r.totals).toEqual({ applications: 8, paid: 6, refunded: 2, withdrawn: 1, amountFen: 16000 });
    // expert × E: o1 o2 o6 o9 → 4, paid 3, refunded 1, kept 5000 (o1) + 0 (o6); expert × F: o1 o3 o7 → 3, paid 2, refunded 1 (o7),
    // withdrawn 1, kept 3000 (o1); remote × E: 2 as by day.
    expect(r.rows).toEqual([
      { type: 'type-expert', target: 'Expert Centre E', applications: 4, paid: 3, refunded: 1, withdrawn: 0, amountFen: 5000 },
      { type: 'type-expert', target: 'Second Expert F', applications: 3, paid: 2, refunded: 1, withdrawn: 1, amountFen: 3000 },
      { type: 'type-remote', target: 'Expert Centre E', applications: 2, paid: 2, refunded: 0, withdrawn: 0, amountFen: 8000 },
    ]);
  });

  it('narrows to B through a GET with a query string', async () => {
    const res = await s.request('GET', `statistics/remote-report?groupId=${groupId}&from=2026-03-10&to=2026-03-12&unit=day&bucketIds=${B}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body as StatResult;
    // Only o5 (B 03-12 22:00; on Shanghai's clock it would be 03-13 and fall outside).
    expect(seriesMap(r)).toEqual({ 'type-expert': [0, 0, 0], 'type-remote': [0, 0, 1] });
    expect(r.rows).toEqual([{ type: 'type-remote', target: 'Expert Centre E', applications: 1, paid: 1, refunded: 0, withdrawn: 0, amountFen: 4000 }]);
  });

  it('allows at most a year', async () => {
    const res = await s.request('POST', 'statistics/remote-report', { token, body: { groupId, from: '2026-01-01', to: '2027-01-01', unit: 'month' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('StatisticsRangeTooLong');
    expect(res.body.details).toEqual({ limit: 'year', lastDay: '2026-12-31' });
    expect((await s.request('POST', 'statistics/remote-report', { token, body: { groupId, from: '2026-01-01', to: '2026-12-31', unit: 'month' } })).status).toBe(200);
  });
});

describe('group-payment', () => {
  it('sums the group\'s payments, refunds and recharges by day', async () => {
    const r = await ask('group-payment', DAY);
    expect(r.columns.map((c) => [c.key, c.kind])).toEqual([['channel', 'code'], ['payments', 'count'], ['paidFen', 'fen'], ['refunds', 'count'], ['refundedFen', 'fen']]);
    // Paid in the window: o7 weixin 3000 (A 03-10), o1 weixin 8000 (A 03-10), o4 plan 4000 (A 03-11 00:10), o2 credit 5000 (A 03-11),
    // o5 weixin 4000 (B 03-12 23:00). (o6 is B's 03-09.) → paid [8000 + 3000, 4000 + 5000, 4000] = [11000, 9000, 4000].
    // Refunded: o7 3000 (A 03-11), o2 5000 (A 03-12) → [0, 3000, 5000].
    // Recharged on the scope's clock (A's, Shanghai): ch1 100000 (03-11 23:00), ch2 50000 (03-12 00:30) → [0, 100000, 50000].
    expect(seriesMap(r)).toEqual({ paid: [11000, 9000, 4000], refunded: [0, 3000, 5000], recharged: [0, 100000, 50000] });
    expect(r.series.every((x) => x.kind === 'fen' && x.label === null)).toBe(true);
    // weixin: o1 o5 o7 = 3 payments, 8000 + 4000 + 3000 = 15000, 1 refund (o7) 3000; recharge: 2, 150000;
    // credit: 1, 5000, 1 refund 5000; plan: 1, 4000. Ordered by payments, then by code.
    expect(r.rows).toEqual([
      { channel: 'channel-weixin', payments: 3, paidFen: 15000, refunds: 1, refundedFen: 3000 },
      { channel: 'channel-recharge', payments: 2, paidFen: 150000, refunds: 0, refundedFen: 0 },
      { channel: 'channel-credit', payments: 1, paidFen: 5000, refunds: 1, refundedFen: 5000 },
      { channel: 'channel-plan', payments: 1, paidFen: 4000, refunds: 0, refundedFen: 0 },
    ]);
    // 3 + 2 + 1 + 1 = 7 payments; 15000 + 150000 + 5000 + 4000 = 174000; 2 refunds, 3000 + 5000 = 8000
    expect(r.totals).toEqual({ payments: 7, paidFen: 174000, refunds: 2, refundedFen: 8000 });
  });

  it('sums by month', async () => {
    const r = await ask('group-payment', MONTH);
    // March paid: 11000 + 9000 + 4000 + o6 0 = 24000; refunded 8000; recharged ch1 + ch2 + ch5 = 170000; April ch6 30000.
    expect(seriesMap(r)).toEqual({ paid: [0, 24000, 0], refunded: [0, 8000, 0], recharged: [0, 170000, 30000] });
    expect(r.rows).toEqual([
      { channel: 'channel-recharge', payments: 4, paidFen: 200000, refunds: 0, refundedFen: 0 },
      { channel: 'channel-weixin', payments: 3, paidFen: 15000, refunds: 1, refundedFen: 3000 },
      { channel: 'channel-credit', payments: 1, paidFen: 5000, refunds: 1, refundedFen: 5000 },
      { channel: 'channel-free', payments: 1, paidFen: 0, refunds: 0, refundedFen: 0 },
      { channel: 'channel-plan', payments: 1, paidFen: 4000, refunds: 0, refundedFen: 0 },
    ]);
    // 4 + 3 + 1 + 1 + 1 = 10 payments; 200000 + 15000 + 5000 + 0 + 4000 = 224000
    expect(r.totals).toEqual({ payments: 10, paidFen: 224000, refunds: 2, refundedFen: 8000 });
  });

  it('narrowed to B: B\'s applications, and the group\'s recharges on B\'s clock', async () => {
    const r = await ask('group-payment', { ...DAY, bucketIds: [B] });
    // o5 weixin 4000 (B 03-12); ch1 and ch2 are both London's 03-11.
    expect(seriesMap(r)).toEqual({ paid: [0, 0, 4000], refunded: [0, 0, 0], recharged: [0, 150000, 0] });
    expect(r.rows).toEqual([
      { channel: 'channel-recharge', payments: 2, paidFen: 150000, refunds: 0, refundedFen: 0 },
      { channel: 'channel-weixin', payments: 1, paidFen: 4000, refunds: 0, refundedFen: 0 },
    ]);
  });
});

describe('consul', () => {
  it('counts consultations applied by or asked of the counted organisations, by day', async () => {
    const r = await ask('consul', DAY);
    expect(r.columns.map((c) => [c.key, c.kind])).toEqual([
      ['target', 'text'], ['requested', 'count'], ['completed', 'count'], ['canceled', 'count'], ['open', 'count'],
      ['completionMean', 'minutes'], ['ratingMean', 'count'],
    ]);
    // On the applying organisation's clock when it is counted: c1 (03-10, 3), c4 (B 03-10, 0), c2 (03-11, 3), c3 (03-11, 4),
    // c6 (A 03-12, 2), c5 (B 03-12, 1); c8 was applied elsewhere, so on E's clock: 03-11, 3. (c7 is B's 03-09.)
    expect(seriesMap(r)).toEqual({
      'status-0': [1, 0, 0], 'status-1': [0, 0, 1], 'status-2': [0, 0, 1], 'status-3': [1, 2, 0], 'status-4': [0, 1, 0],
    });
    // E: c1 c2 c3 c4 c8 → 5 requested, 3 completed, 1 canceled, 1 open; completion (90 + 30 + 120) / 3 = 80 min;
    // rating (5 + 4) / 2 = 4.5. A: c5 (open); B: c6 (open): one each, by name.
    expect(r.rows).toEqual([
      { target: 'Expert Centre E', requested: 5, completed: 3, canceled: 1, open: 1, completionMean: 80, ratingMean: 4.5 },
      { target: 'Stat Clinic B', requested: 1, completed: 0, canceled: 0, open: 1, completionMean: null, ratingMean: null },
      { target: 'Stat Hospital A', requested: 1, completed: 0, canceled: 0, open: 1, completionMean: null, ratingMean: null },
    ]);
    expect(r.totals).toEqual({ requested: 7, completed: 3, canceled: 1, open: 3, completionMean: 80, ratingMean: 4.5 });
  });

  it('counts by month', async () => {
    const r = await ask('consul', MONTH);
    // March: c1..c8; April: c10 (pending).
    expect(seriesMap(r)).toEqual({
      'status-0': [0, 1, 1], 'status-1': [0, 1, 0], 'status-2': [0, 1, 0], 'status-3': [0, 4, 0], 'status-4': [0, 1, 0],
    });
    // E: c1 c2 c3 c4 c7 c8 c10 → 7, 4 completed, 1 canceled, 2 open; (90 + 30 + 60 + 120) / 4 = 75 min; (5 + 4 + 3) / 3 = 4.
    expect(r.rows[0]).toEqual({ target: 'Expert Centre E', requested: 7, completed: 4, canceled: 1, open: 2, completionMean: 75, ratingMean: 4 });
    expect(r.totals).toEqual({ requested: 9, completed: 4, canceled: 1, open: 4, completionMean: 75, ratingMean: 4 });
  });

  it('narrowed to the target E (GET): every consultation asked of it, on its own clock', async () => {
    const res = await s.request('GET', `statistics/consul?groupId=${groupId}&from=2026-03-10&to=2026-03-12&bucketIds=${E}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body as StatResult;
    // On Shanghai's clock: c1 (03-10, 3), c7 (B's 03-09 23:00 = 03-10 07:00, 3); c2 (3), c3 (4), c4 (B's 03-10 23:30 = 03-11, 0), c8 (3).
    expect(seriesMap(r)).toEqual({
      'status-0': [0, 1, 0], 'status-1': [0, 0, 0], 'status-2': [0, 0, 0], 'status-3': [2, 2, 0], 'status-4': [0, 1, 0],
    });
    // 6 requested, 4 completed (90 + 60 + 30 + 120) / 4 = 75 min, 1 canceled, 1 open; rating (5 + 3 + 4) / 3 = 4.
    expect(r.rows).toEqual([{ target: 'Expert Centre E', requested: 6, completed: 4, canceled: 1, open: 1, completionMean: 75, ratingMean: 4 }]);
  });
});
