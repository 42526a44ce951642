import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportOrderDetail } from '../../contract/payments';
import * as t from '../../server/db/schema';
import { auditTrail } from '../../server/audit/record';
import { applyChannelEvent } from '../../server/payments/money/settle';
import { refundOrder } from '../../server/payments/money/refund';
import { reconcileOnce } from '../../server/payments/money/reconcile';
import { createCharge } from '../../server/payments/money/charges';
import { ApiError } from '../../server/http/errors';
import { paymentProvider } from '../../server/payments/providers/index';
import type { PaymentProvider } from '../../server/payments/providers/provider';
import { expectCode } from '../support/expect';
import { applyFor, chargeTokenOf, depsOf, ledgerProof, payByCredit, payByQr, sandboxPay, waitForStatus } from '../support/money';
import { insertExam, tokenOf } from '../support/reports';
import { expertBucket } from '../support/requests';
import { startServer, type TestServer } from '../support/server';

/**
 * The money side of payments (/work/notes/payments.md "Money"): paying by credit, by QR through the sandbox channel
 * and by plan; refunds per channel removing the experts' work; the ledger proving the balance to the fen; and every
 * rule and error of areas §5/§8 that these calls own. Each test acts on fresh applications of the hospital (rad1)
 * to the expert centre.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const get = async (role: string, path: string) => s.request('GET', path, { token: await tokenOf(s, role) });
const post = async (role: string, path: string, body?: unknown, headers?: Record<string, string>) => s.request('POST', path, { token: await tokenOf(s, role), body, headers });
const balance = async () => (await get('chief', `credits/group-credit?groupId=${s.ids.groupId}`)).body.balanceFen as number;
const orderOf = async (id: number) => (await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.id, id)))[0]!;
const copiesOf = async (id: number) => (await s.db.db.select().from(t.reportOrderTargets).where(eq(t.reportOrderTargets.orderId, id))).map((r) => r.expertExamId);
async function adjust(amountFen: number) {
  const res = await post('admin', 'credits/adjust', { groupId: s.ids.groupId, amountFen, note: 'test top-up' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('credit', () => {
  it('pays an application from the balance: one ledger row, the balance down by the amount, dispatched at once', async () => {
    const o = await applyFor(s);
    expect(o.amountFen).toBeGreaterThan(0);
    const before = await balance();
    const res = await payByCredit(s, o.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body as ReportOrderDetail;
    expect([d.paymentStatus, d.channel, d.progress]).toEqual([1, 'credit', 'queued']);
    expect(await balance()).toBe(before - o.amountFen);
    expect((await copiesOf(o.id)).every((x) => x !== null)).toBe(true);
    const ledger = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.orderId, o.id));
    expect(ledger.map((l) => [l.kind, l.amountFen])).toEqual([['charge', -o.amountFen]]);
    const proof = await ledgerProof(s);
    expect(proof.sumFen).toBe(proof.balanceFen);
    // Traced: the application's pay event and the ledger row's own.
    expect((await auditTrail(s.db.db, 'reportOrder', o.id)).map((e) => e.action)).toContain('pay');
    expect((await auditTrail(s.db.db, 'creditLedger', ledger[0]!.id)).map((e) => e.action)).toEqual(['credit-charge']);
  });

  it('refuses a second payment: 409 OrderAlreadyPaid, nothing moves', async () => {
    const o = await applyFor(s);
    expect((await payByCredit(s, o.id)).status).toBe(200);
    const before = await balance();
    expectCode(await payByCredit(s, o.id), 409, 'OrderAlreadyPaid');
    expect(await balance()).toBe(before);
  });

  it('InsufficientBalance with the balance and the amount, nothing paid', async () => {
    const o = await applyFor(s);
    const have = await balance();
    await adjust(-have);
    const res = await payByCredit(s, o.id);
    expectCode(res, 409, 'InsufficientBalance');
    expect(res.body.details).toEqual({ balanceFen: 0, amountFen: o.amountFen });
    expect((await orderOf(o.id)).paymentStatus).toBe(0);
    await adjust(have);
  });

  it('the charge token: missing, forged, expired, another account\'s → 401 ChargeTokenInvalid', async () => {
    const o = await applyFor(s);
    const token = await tokenOf(s, 'rad1');
    expectCode(await s.request('POST', 'credits/charge', { token, body: { orderId: o.id } }), 401, 'ChargeTokenInvalid');
    expectCode(await payByCredit(s, o.id, { chargeToken: 'x.y' }), 401, 'ChargeTokenInvalid');
    expectCode(await payByCredit(s, o.id, { chargeToken: await chargeTokenOf(s, 'chief') }), 401, 'ChargeTokenInvalid');
    const old = await chargeTokenOf(s, 'rad1');
    s.clock.advance(11 * 60_000);
    expectCode(await payByCredit(s, o.id, { chargeToken: old }), 401, 'ChargeTokenInvalid');
    expect((await orderOf(o.id)).paymentStatus).toBe(0);
  });

  it('a wrong password → 400 ChargePasswordWrong, counted by the login throttle (429 after five)', async () => {
    const wrong = () => post('rad2', 'credits/create-token', { groupId: s.ids.groupId, password: 'not-it-1' });
    for (let i = 0; i < 5; i++) expectCode(await wrong(), 400, 'ChargePasswordWrong');
    expectCode(await wrong(), 429, 'TooManyAttempts');
    // The same counter as logins: rad2 cannot sign in either until the block ends.
    expectCode(await s.request('POST', 'accounts/login', { body: { username: 'rad2', password: 'Demo1234' } }), 429, 'TooManyAttempts');
    s.clock.advance(16 * 60_000);
    expect((await post('rad2', 'credits/create-token', { groupId: s.ids.groupId, password: 'Demo1234' })).status).toBe(200);
  });

  it('Forbidden without the applying action; NotFound outside the group; CreditDisabled when the group turns it off', async () => {
    const o = await applyFor(s);
    // registrar: a hospital member without apply_expert_report.
    const registrarToken = await chargeTokenOf(s, 'registrar');
    expectCode(await payByCredit(s, o.id, { role: 'registrar', chargeToken: registrarToken }), 403, 'Forbidden');
    await s.db.db.update(t.groups).set({ enableCredit: false }).where(eq(t.groups.id, s.ids.groupId));
    try {
      expectCode(await post('rad1', 'credits/create-token', { groupId: s.ids.groupId, password: 'Demo1234' }), 403, 'CreditDisabled');
      expectCode(await post('chief', 'credits/page-query', { groupId: s.ids.groupId }), 403, 'CreditDisabled');
      expect((await get('chief', `credits/group-credit?groupId=${s.ids.groupId}`)).body.enabled).toBe(false);
    } finally {
      await s.db.db.update(t.groups).set({ enableCredit: true }).where(eq(t.groups.id, s.ids.groupId));
    }
    expectCode(await get('chief', 'credits/group-credit?groupId=999999'), 404, 'NotFound');
  });

  it('adjust: the group admin only (chief 403); a negative adjust past the balance is InsufficientBalance', async () => {
    expectCode(await post('chief', 'credits/adjust', { groupId: s.ids.groupId, amountFen: 100, note: 'x' }), 403, 'Forbidden');
    const have = await balance();
    expectCode(await post('admin', 'credits/adjust', { groupId: s.ids.groupId, amountFen: -(have + 1), note: 'x' }), 409, 'InsufficientBalance');
    expectCode(await post('admin', 'credits/adjust', { groupId: s.ids.groupId, amountFen: 0, note: 'x' }), 400, 'ParamsError');
    expectCode(await post('admin', 'credits/adjust', { groupId: s.ids.groupId, amountFen: 1.5, note: 'x' }), 400, 'ParamsError');
  });

  it('page-query, sums and export agree with the ledger to the fen', async () => {
    const page = await post('chief', 'credits/page-query', { groupId: s.ids.groupId, limit: 100 });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const proof = await ledgerProof(s);
    expect(page.body.total).toBe(proof.rows);
    expect(page.body.items[0].balanceAfterFen).toBe(proof.balanceFen);
    const charges = await post('chief', 'credits/page-query', { groupId: s.ids.groupId, filters: [{ field: 'kind', operator: 'equal', values: ['charge'] }] });
    expect(charges.body.items.every((i: { kind: string }) => i.kind === 'charge')).toBe(true);
    expectCode(await post('chief', 'credits/page-query', { groupId: s.ids.groupId, filters: [{ field: 'nope', operator: 'equal', values: [1] }] }), 400, 'ParamsError');
    const sums = (await get('chief', `credits/sums?groupId=${s.ids.groupId}`)).body;
    expect(sums.rechargedFen - sums.chargedFen + sums.refundedFen + sums.adjustedFen).toBe(sums.balanceFen);
    expect(sums.balanceFen).toBe(proof.balanceFen);
    const file = await s.request('POST', 'credits/export', { token: await tokenOf(s, 'chief'), body: { groupId: s.ids.groupId, lang: 'en' } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const raw = await fetch(`${s.url}/api/v1/credits/export`, { method: 'POST', headers: { authorization: `Bearer ${await tokenOf(s, 'chief')}`, 'content-type': 'application/json' }, body: JSON.stringify({ groupId: s.ids.groupId, lang: 'en' }) });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await raw.arrayBuffer());
    expect(book.worksheets[0]!.rowCount).toBe(proof.rows + 1);
  });

  it('export refuses more than 1000 rows with ExportTooLarge', async () => {
    const [other] = await s.db.db.insert(t.groups).values({ name: 'g-big', displayName: 'big', enableCredit: true }).returning();
    await s.db.db.insert(t.groupMembers).values({ groupId: other!.id, accountId: s.ids.accounts.admin, accessLevel: 1 });
    const rows = Array.from({ length: 1001 }, (_, i) => ({ groupId: other!.id, kind: 'adjust', amountFen: 1, balanceAfterFen: i + 1 }));
    await s.db.db.insert(t.creditLedger).values(rows);
    expectCode(await post('admin', 'credits/export', { groupId: other!.id }), 400, 'ExportTooLarge');
  });
});

describe('QR through the sandbox channel', () => {
  it('pre-paid-order gives the live code again, refresh=1 closes it at the channel and makes a new one', async () => {
    const o = await applyFor(s);
    const a = await get('rad1', `charge/${o.id}/pre-paid-order`);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect([a.body.status, a.body.amountFen, a.body.outTradeNo]).toEqual(['created', o.amountFen, expect.stringMatching(/^C\d{8}\d{8}$/)]);
    expect((await get('rad1', `charge/${o.id}/pre-paid-order`)).body.id).toBe(a.body.id);
    const b = await get('rad1', `charge/${o.id}/pre-paid-order?refresh=1`);
    expect(b.body.id).not.toBe(a.body.id);
    const [old] = await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.id, a.body.id));
    expect(old!.status).toBe('closed');
    // The replaced code can no longer be paid at the channel.
    expect((await sandboxPay(s, a.body.codeUrl)).status).not.toBe(200);
  });

  it('an expired code is replaced on the next pre-paid-order; the reconciler closes the old one', async () => {
    const o = await applyFor(s);
    const a = await get('rad1', `charge/${o.id}/pre-paid-order`);
    s.clock.advance(11 * 60_000);
    expectCode(await sandboxPay(s, a.body.codeUrl), 409, 'PaymentCodeExpired');
    const b = await get('rad1', `charge/${o.id}/pre-paid-order`);
    expect(b.body.id).not.toBe(a.body.id);
    const [old] = await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.id, a.body.id));
    expect(old!.status).toBe('closed');
  });

  it('pays by QR: payment-status follows, detail and paid-confirm agree; one charge row paid', async () => {
    const o = await applyFor(s);
    const code = await payByQr(s, o.id);
    const detail = (await get('rad1', `charge/${o.id}/detail`)).body;
    expect([detail.order.paymentStatus, detail.order.channel, detail.charge.status]).toEqual([1, 'weixin', 'paid']);
    expect(detail.charge.id).toBe(code.id);
    const confirm = await post('rad1', `charge/${o.id}/paid-confirm`);
    expect([confirm.status, confirm.body.paymentStatus]).toEqual([200, 1]);
    expect((await post('rad1', `report-requests/${o.id}/paid-confirm`)).body.paymentStatus).toBe(1);
    const list = (await get('rad1', 'charge/request?limit=5')).body;
    expect(list.items[0].id).toBe(code.id);
    expect(list.total).toBeGreaterThan(0);
  });

  it('paid-confirm settles a payment whose notification was lost (asks the channel)', async () => {
    const o = await applyFor(s);
    const code = await get('rad1', `charge/${o.id}/pre-paid-order`);
    // Pay at the channel's books directly (no notification reaches the server).
    await s.db.db.update(t.sandboxTrades).set({ state: 'SUCCESS', transactionId: `LOST${o.id}`, paidAt: s.clock.now() }).where(eq(t.sandboxTrades.outTradeNo, code.body.outTradeNo));
    expect((await get('rad1', `charge/${o.id}/payment-status`)).body.paymentStatus).toBe(0);
    const confirm = await post('rad1', `charge/${o.id}/paid-confirm`);
    expect(confirm.body.paymentStatus).toBe(1);
    expect((await orderOf(o.id)).transactionId).toBe(`LOST${o.id}`);
  });

  it('the reconciler settles a paid trade left "created"', async () => {
    const o = await applyFor(s);
    const code = await get('rad1', `charge/${o.id}/pre-paid-order`);
    await s.db.db.update(t.sandboxTrades).set({ state: 'SUCCESS', transactionId: `REC${o.id}`, paidAt: s.clock.now() }).where(eq(t.sandboxTrades.outTradeNo, code.body.outTradeNo));
    s.clock.advance(10_000);
    expect(await reconcileOnce(depsOf(s))).toBeGreaterThan(0);
    expect((await orderOf(o.id)).paymentStatus).toBe(1);
  });

  it('DELETE charge/{id}/delete closes the open code; apply-charge with a plan package; packages/query', async () => {
    const o = await applyFor(s);
    const pk = await get('rad1', `packages/query?orderId=${o.id}`);
    expect(pk.status).toBe(200);
    const single = pk.body.find((p: { kind: string }) => p.kind === 'single');
    expect(single.priceFen).toBe(o.amountFen);
    const credit = await get('chief', 'packages/query?kind=credit');
    expect(credit.body.every((p: { kind: string }) => p.kind === 'credit')).toBe(true);
    const a = await post('rad1', 'charge/apply-charge', { orderId: o.id, packageId: single.id });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const del = await s.request('DELETE', `charge/${o.id}/delete`, { token: await tokenOf(s, 'rad1') });
    expect(del.status).toBe(204);
    expect((await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.id, a.body.id)))[0]!.status).toBe('closed');
    expectCode(await post('rad1', 'charge/apply-charge', { orderId: o.id, packageId: 999999 }), 400, 'OrderInvalid');
    const plan = pk.body.find((p: { kind: string }) => p.kind === 'plan');
    const p = await post('rad1', 'charge/apply-charge', { orderId: o.id, packageId: plan.id });
    expect([p.status, p.body.amountFen]).toEqual([201, plan.priceFen]);
    // Buying the plan pays the application with its first report, the rest stays the group's.
    expect((await sandboxPay(s, p.body.codeUrl)).status).toBe(200);
    await waitForStatus(s, await tokenOf(s, 'rad1'), o.id, (b) => b.paymentStatus === 1);
    const row = await orderOf(o.id);
    expect(row.channel).toBe('plan');
    const [sub] = await s.db.db.select().from(t.planSubscriptions).where(eq(t.planSubscriptions.chargeOrderId, p.body.id));
    expect([sub!.reportsUsed, sub!.reportsTotal]).toEqual([1, plan.reports]);
  });

  it('money arriving for an application already paid by credit is returned at once and traced', async () => {
    const o = await applyFor(s);
    const code = await get('rad1', `charge/${o.id}/pre-paid-order`);
    expect((await payByCredit(s, o.id)).status).toBe(200);
    // The QR, still open in another tab, is paid too.
    expect((await sandboxPay(s, code.body.codeUrl)).status).toBe(200);
    const end = Date.now() + 10_000;
    let charge;
    do {
      [charge] = await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.id, code.body.id));
      if (charge!.returnedRefundNo) break;
      await new Promise((r) => setTimeout(r, 20));
    } while (Date.now() < end);
    expect(charge!.returnedRefundNo).toBe(`RT${code.body.outTradeNo}`);
    const [trade] = await s.db.db.select().from(t.sandboxTrades).where(eq(t.sandboxTrades.outTradeNo, code.body.outTradeNo));
    expect([trade!.state, trade!.refundedFen]).toEqual(['REFUND', o.amountFen]);
    const row = await orderOf(o.id);
    expect([row.channel, row.paymentStatus]).toEqual(['credit', 1]);
    expect((await auditTrail(s.db.db, 'reportOrder', o.id)).map((e) => e.action)).toContain('charge-paid-returned');
  });

  it('errors: paying what is paid (409), outside (404), without the action (403), bad input (400)', async () => {
    const o = await applyFor(s);
    await payByQr(s, o.id);
    expectCode(await get('rad1', `charge/${o.id}/pre-paid-order`), 409, 'OrderAlreadyPaid');
    expectCode(await get('registrar', `charge/${o.id + 100000}/pre-paid-order`), 404, 'NotFound');
    const p = await applyFor(s);
    expectCode(await get('registrar', `charge/${p.id}/pre-paid-order`), 403, 'Forbidden');
    expectCode(await get('rad1', `charge/${p.id}/pre-paid-order?refresh=2`), 400, 'ParamsError');
    expectCode(await get('rad1', 'charge/abc/payment-status'), 400, 'ParamsError');
  });
});

describe('recharge through the QR channel', () => {
  it('a credit package paid by QR adds price + bonus in one ledger row; confirm and the recharge view agree', async () => {
    const packages = (await get('chief', 'packages/query?kind=credit')).body as { id: number; priceFen: number; bonusFen: number }[];
    const pkg = packages.find((p) => p.bonusFen > 0) ?? packages[0]!;
    const before = await balance();
    const r = await post('chief', 'credits/recharge', { groupId: s.ids.groupId, packageId: pkg.id });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect([r.body.orderId, r.body.amountFen]).toEqual([null, pkg.priceFen]);
    expect((await sandboxPay(s, r.body.codeUrl)).status).toBe(200);
    const end = Date.now() + 10_000;
    let view;
    do {
      view = (await post('chief', `credits/recharge/${r.body.id}/confirm`)).body;
      if (view.status === 'paid') break;
      await new Promise((res) => setTimeout(res, 20));
    } while (Date.now() < end);
    expect(view.status).toBe('paid');
    expect(await balance()).toBe(before + pkg.priceFen + pkg.bonusFen);
    const rows = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.chargeOrderId, r.body.id));
    expect(rows.map((x) => [x.kind, x.amountFen])).toEqual([['recharge', pkg.priceFen + pkg.bonusFen]]);
    expect((await get('chief', `credits/recharge/${r.body.id}`)).body.status).toBe('paid');
    expectCode(await get('chief', `credits/recharge/${r.body.id + 100000}`), 404, 'NotFound');
    expectCode(await post('chief', 'credits/recharge', { groupId: s.ids.groupId, packageId: 999999 }), 400, 'OrderInvalid');
    const proof = await ledgerProof(s);
    expect(proof.sumFen).toBe(proof.balanceFen);
  });

  it('the sandbox Fail button: the charge order is failed, the application still unpaid and payable afresh', async () => {
    const o = await applyFor(s);
    const code = await get('rad1', `charge/${o.id}/pre-paid-order`);
    expect((await sandboxPay(s, code.body.codeUrl, 'fail')).status).toBe(200);
    const token = await tokenOf(s, 'rad1');
    const end = Date.now() + 10_000;
    let st;
    do {
      st = (await s.request('GET', `charge/${o.id}/payment-status`, { token })).body;
      if (st.charge?.status === 'failed') break;
      await new Promise((res) => setTimeout(res, 20));
    } while (Date.now() < end);
    expect([st.paymentStatus, st.charge.status]).toEqual([0, 'failed']);
    const next = await get('rad1', `charge/${o.id}/pre-paid-order`);
    expect(next.body.id).not.toBe(code.body.id);
  });
});

describe('the channel failing (areas §8 "server not responding", "return error")', () => {
  it('a code the channel will not make: 502 PaymentChannelUnavailable, the charge order failed, nothing paid', async () => {
    const o = await applyFor(s);
    const sandbox = paymentProvider(depsOf(s));
    const down: PaymentProvider = { ...sandbox, name: sandbox.name, createNative: async () => { throw new ApiError('PaymentChannelUnavailable'); } };
    const row = (await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.id, o.id)))[0]!;
    const [pkg] = await s.db.db.select().from(t.chargePackages).where(eq(t.chargePackages.kind, 'single')).limit(1);
    const req = { protocol: 'http', host: '127.0.0.1' } as FastifyRequest;
    await expect(createCharge(depsOf(s, down), req, { order: row, groupId: row.groupId, pkg: pkg!, accountId: s.ids.accounts.rad1 }))
      .rejects.toMatchObject({ code: 'PaymentChannelUnavailable' });
    const [charge] = await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.orderId, o.id));
    expect(charge!.status).toBe('failed');
    expect((await orderOf(o.id)).paymentStatus).toBe(0);
  });

  it('a refund the channel refuses: 502 to the caller, the application back to paid with the reason traced', async () => {
    const o = await applyFor(s);
    await payByQr(s, o.id);
    const sandbox = paymentProvider(depsOf(s));
    const refusing: PaymentProvider = { ...sandbox, name: sandbox.name, refund: async () => { throw new ApiError('PaymentChannelError', 'refused', { channelCode: 'NOT_ENOUGH' }); } };
    await expect(refundOrder(depsOf(s, refusing), o.id, { reason: '测试', operatorId: s.ids.accounts.chief })).rejects.toMatchObject({ code: 'PaymentChannelError' });
    const row = await orderOf(o.id);
    expect([row.paymentStatus, row.refundNo]).toEqual([1, null]);
    expect((await copiesOf(o.id)).every((x) => x !== null)).toBe(true);
    const trail = await auditTrail(s.db.db, 'reportOrder', o.id);
    expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(['refund-requested', 'refund-failed']));
  });
});

describe('plan', () => {
  it('plans/check covers an application, plans/use pays it with one report; available, group-available, dried', async () => {
    const o = await applyFor(s);
    const check = (await get('rad1', `plans/check?orderId=${o.id}`)).body;
    expect(check.covered).toBe(true);
    const used = check.subscription.reportsUsed;
    const res = await post('rad1', 'plans/use', { orderId: o.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.paymentStatus, res.body.channel]).toEqual([1, 'plan']);
    const [sub] = await s.db.db.select().from(t.planSubscriptions).where(eq(t.planSubscriptions.id, check.subscription.id));
    expect(sub!.reportsUsed).toBe(used + 1);
    expect((await get('rad1', `plans/check?orderId=${o.id}`)).body.covered).toBe(false);
    expectCode(await post('rad1', 'plans/use', { orderId: o.id }), 409, 'OrderAlreadyPaid');
    expect((await get('rad1', 'plans/available')).body.length).toBeGreaterThan(0);
    expect((await get('chief', `plans/group-available?groupId=${s.ids.groupId}`)).status).toBe(200);
    expect(Array.isArray((await get('chief', `plans/dried?groupId=${s.ids.groupId}`)).body)).toBe(true);
    expectCode(await get('registrar', `plans/dried?groupId=${s.ids.groupId}`), 403, 'Forbidden');
  });

  it('no plan left → 400 OrderInvalid', async () => {
    const o = await applyFor(s);
    const saved = await s.db.db.select().from(t.planSubscriptions).where(eq(t.planSubscriptions.groupId, s.ids.groupId));
    await s.db.db.update(t.planSubscriptions).set({ expiresAt: new Date(0), startsAt: new Date(0) }).where(eq(t.planSubscriptions.groupId, s.ids.groupId));
    try {
      expectCode(await post('rad1', 'plans/use', { orderId: o.id }), 400, 'OrderInvalid');
      expect((await get('rad1', `plans/check?orderId=${o.id}`)).body.covered).toBe(false);
    } finally {
      for (const r of saved) await s.db.db.update(t.planSubscriptions).set({ expiresAt: r.expiresAt, startsAt: r.startsAt }).where(eq(t.planSubscriptions.id, r.id));
    }
  });
});

describe('refund, per channel: the money back, the experts\' work gone, traced', () => {
  async function expectWorkGone(id: number) {
    const targets = await s.db.db.select().from(t.reportOrderTargets).where(eq(t.reportOrderTargets.orderId, id));
    expect(targets.every((x) => x.expertExamId === null)).toBe(true);
    const row = await orderOf(id);
    const copies = await s.db.db.select().from(t.exams).where(and(eq(t.exams.orderId, row.requestNo)));
    expect(copies).toEqual([]);
  }

  it('credit: the ledger refund row and refunded at once', async () => {
    const o = await applyFor(s);
    await payByCredit(s, o.id);
    const before = await balance();
    const v = (await orderOf(o.id)).version;
    const res = await post('chief', `payments/${o.id}/refund`, { reason: '患者要求', version: v });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.paymentStatus, res.body.refundReason, res.body.progress]).toEqual([3, '患者要求', 'refunded']);
    expect(await balance()).toBe(before + o.amountFen);
    await expectWorkGone(o.id);
    const proof = await ledgerProof(s);
    expect(proof.sumFen).toBe(proof.balanceFen);
    expectCode(await post('chief', `payments/${o.id}/refund`, { reason: 'again', version: v + 1 }), 409, 'InvalidTransition');
  });

  it('weixin: refunded through the sandbox, the trade shows the refund', async () => {
    const o = await applyFor(s);
    const code = await payByQr(s, o.id);
    const res = await post('expert', `payments/${o.id}/refund`, { reason: '专家无法出具', version: (await orderOf(o.id)).version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.paymentStatus).toBe(3);
    const [trade] = await s.db.db.select().from(t.sandboxTrades).where(eq(t.sandboxTrades.outTradeNo, code.outTradeNo));
    expect(trade!.refundedFen).toBe(o.amountFen);
    await expectWorkGone(o.id);
  });

  it('weixin: PROCESSING waits in refunding (RefundProcessing), the notification completes it; a failure goes back to paid', async () => {
    for (const ending of ['refunded', 'refund_failed'] as const) {
      const o = await applyFor(s);
      const code = await payByQr(s, o.id);
      const sandbox = paymentProvider(depsOf(s));
      const slow: PaymentProvider = { ...sandbox, name: sandbox.name, refund: async () => ({ state: 'PROCESSING', refundId: 'R-slow' }) };
      const deps = depsOf(s, slow);
      await refundOrder(deps, o.id, { reason: '慢退款', operatorId: s.ids.accounts.chief });
      expect((await orderOf(o.id)).paymentStatus).toBe(2);
      expectCode(await post('chief', `payments/${o.id}/refund`, { reason: 'x', version: (await orderOf(o.id)).version }), 409, 'RefundProcessing');
      const refundNo = (await orderOf(o.id)).refundNo!;
      const event = ending === 'refunded'
        ? { kind: 'refunded' as const, outTradeNo: code.outTradeNo, outRefundNo: refundNo, refundId: 'R-slow', amountFen: o.amountFen, at: s.clock.now() }
        : { kind: 'refund_failed' as const, outTradeNo: code.outTradeNo, outRefundNo: refundNo, reason: 'ABNORMAL' };
      const note = { provider: 'sandbox', id: `N-${o.id}`, eventType: 'REFUND.X', resource: {} };
      expect(await applyChannelEvent(deps, event, note)).toBe('applied');
      expect(await applyChannelEvent(deps, event, note)).toBe('duplicate');
      const row = await orderOf(o.id);
      if (ending === 'refunded') {
        expect(row.paymentStatus).toBe(3);
        await expectWorkGone(o.id);
      } else {
        expect([row.paymentStatus, row.refundNo]).toEqual([1, null]);
        expect((await auditTrail(s.db.db, 'reportOrder', o.id)).map((e) => e.action)).toContain('refund-failed');
        expect((await copiesOf(o.id)).every((x) => x !== null)).toBe(true);
      }
    }
  });

  it('free: refunded at once, nothing moves in the ledger, the experts\' work gone, traced', async () => {
    const free = await expertBucket(s, { free: true });
    const examId = await insertExam(s, { modality: 'CT' });
    const applied = await post('rad1', 'report-requests/apply', { examId, type: 'expert', bucketIds: [free], agreeTerms: true });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    expect(applied.body).toMatchObject({ amountFen: 0, paymentStatus: 1, channel: 'free' });
    const id = applied.body.id as number;
    expect((await copiesOf(id)).every((x) => x !== null)).toBe(true);
    const [balanceBefore, proofBefore] = [await balance(), await ledgerProof(s)];
    const res = await post('chief', `payments/${id}/refund`, { reason: '无需专家', version: (await orderOf(id)).version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.paymentStatus, res.body.refundReason, res.body.progress]).toEqual([3, '无需专家', 'refunded']);
    expect(await balance()).toBe(balanceBefore);
    expect(await ledgerProof(s)).toEqual(proofBefore);
    await expectWorkGone(id);
    expect((await auditTrail(s.db.db, 'reportOrder', id)).map((e) => e.action)).toEqual(expect.arrayContaining(['pay', 'refund']));
    expectCode(await post('chief', `payments/${id}/refund`, { reason: 'again', version: (await orderOf(id)).version }), 409, 'InvalidTransition');
  });

  it('plan: the report goes back to the plan', async () => {
    const o = await applyFor(s);
    const check = (await get('rad1', `plans/check?orderId=${o.id}`)).body;
    await post('rad1', 'plans/use', { orderId: o.id });
    const res = await post('chief', `payments/${o.id}/refund`, { reason: '重复申请', version: (await orderOf(o.id)).version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [sub] = await s.db.db.select().from(t.planSubscriptions).where(eq(t.planSubscriptions.id, check.subscription.id));
    expect(sub!.reportsUsed).toBe(check.subscription.reportsUsed);
    await expectWorkGone(o.id);
  });

  it('rules: rad1 has no payment_refund (403), unpaid (409 InvalidTransition), stale version (409), no reason (400), outside (404)', async () => {
    const o = await applyFor(s);
    expectCode(await post('chief', `payments/${o.id}/refund`, { reason: 'x', version: o.version }), 409, 'InvalidTransition');
    await payByCredit(s, o.id);
    const v = (await orderOf(o.id)).version;
    expectCode(await post('rad1', `payments/${o.id}/refund`, { reason: 'x', version: v }), 403, 'Forbidden');
    expectCode(await post('chief', `payments/${o.id}/refund`, { reason: 'x', version: v - 1 }), 409, 'VersionConflict');
    expectCode(await post('chief', `payments/${o.id}/refund`, { reason: '', version: v }), 400, 'ParamsError');
    expectCode(await post('chief', `payments/${o.id}/refund`, { reason: 'x' }), 400, 'ParamsError');
    expectCode(await post('chief', 'payments/99999999/refund', { reason: 'x', version: 1 }), 404, 'NotFound');
    expect((await orderOf(o.id)).paymentStatus).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  it('a repeat gets the first answer; another body with the same key is IdempotencyKeyReused', async () => {
    const o = await applyFor(s);
    const q = await applyFor(s);
    const token = await chargeTokenOf(s);
    const first = await payByCredit(s, o.id, { chargeToken: token, key: `k-${o.id}` });
    const again = await payByCredit(s, o.id, { chargeToken: token, key: `k-${o.id}` });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expectCode(await payByCredit(s, q.id, { chargeToken: token, key: `k-${o.id}` }), 409, 'IdempotencyKeyReused');
    const ledger = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.orderId, o.id));
    expect(ledger).toHaveLength(1);
  });

  it('a failed first call releases the key: the retry runs', async () => {
    const o = await applyFor(s);
    const have = await balance();
    await adjust(-have);
    const token = await chargeTokenOf(s);
    expectCode(await payByCredit(s, o.id, { chargeToken: token, key: `r-${o.id}` }), 409, 'InsufficientBalance');
    await adjust(have);
    expect((await payByCredit(s, o.id, { chargeToken: token, key: `r-${o.id}` })).status).toBe(200);
  });
});
