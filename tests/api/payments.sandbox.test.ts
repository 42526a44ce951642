import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_CODE_TTL_MS, type ChargeOrderView } from '../../contract/payments';
import * as t from '../../server/db/schema';
import { sandboxSecret } from '../../server/payments/providers/index';
import { createSandboxProvider, type SandboxProvider } from '../../server/payments/providers/sandbox';
import { expectCode } from '../support/expect';
import { applyFor, sandboxPay, waitForStatus } from '../support/money';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The sandbox channel (server/payments/providers/sandbox.ts) and the notify route, on the real server: its
 * confirmation page's calls (view, pay, fail) with the `s` proof, expiry, and its notifications through
 * POST payments/notify/sandbox — a forged one refused, a repeated one harmless.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

/** A fresh application of rad1 with its QR (the sandbox trade). */
async function code(): Promise<{ orderId: number; charge: ChargeOrderView; outTradeNo: string; sig: string }> {
  const o = await applyFor(s);
  const res = await s.request('GET', `charge/${o.id}/pre-paid-order`, { token: await tokenOf(s, 'rad1') });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const charge = res.body as ChargeOrderView;
  const url = new URL(charge.codeUrl!);
  return { orderId: o.id, charge, outTradeNo: charge.outTradeNo, sig: url.searchParams.get('s')! };
}
const view = (outTradeNo: string, sig: string) => s.request('GET', `payments/sandbox/${outTradeNo}?s=${encodeURIComponent(sig)}`);
const orderOf = async (id: number) => (await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.id, id)))[0]!;
const chargeOf = async (outTradeNo: string) => (await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.outTradeNo, outTradeNo)))[0]!;

/** The same sandbox as the server's (same database and secret) whose notifications are caught here instead of delivered. */
function catchingSandbox(): { sandbox: SandboxProvider; caught: { headers: Record<string, string>; body: string }[] } {
  const caught: { headers: Record<string, string>; body: string }[] = [];
  const sandbox = createSandboxProvider({ db: s.db.db, clock: s.clock, secret: sandboxSecret(s), deliver: async (headers, body) => { caught.push({ headers, body }); } });
  return { sandbox, caught };
}
const notify = (n: { headers: Record<string, string>; body: string }, provider = 'sandbox') =>
  s.request('POST', `payments/notify/${provider}`, { body: n.body, headers: { ...n.headers, 'content-type': 'application/json' } });

describe('the sandbox page', () => {
  it('the QR opens the page on this server; it shows the trade; Pay settles the application', async () => {
    const { orderId, charge, outTradeNo, sig } = await code();
    expect(charge.provider).toBe('sandbox');
    expect(charge.codeUrl).toBe(`${s.url}/sandbox-pay/${outTradeNo}?s=${sig}`);
    const before = await view(outTradeNo, sig);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ outTradeNo, amountFen: charge.amountFen, description: charge.description, state: 'NOTPAY', expired: false, transactionId: null });
    const paid = await sandboxPay(s, charge.codeUrl!);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.state).toBe('SUCCESS');
    expect(paid.body.transactionId).toMatch(/^SBX[0-9A-F]{24}$/);
    await waitForStatus(s, await tokenOf(s, 'rad1'), orderId, (b) => b.paymentStatus === 1);
    const order = await orderOf(orderId);
    expect([order.paymentStatus, order.channel, order.transactionId]).toEqual([1, 'weixin', paid.body.transactionId]);
    expect((await chargeOf(outTradeNo)).status).toBe('paid');
    const notes = await s.db.db.select().from(t.paymentNotifications).where(eq(t.paymentNotifications.outTradeNo, outTradeNo));
    expect(notes.map((n) => [n.provider, n.eventType])).toEqual([['sandbox', 'TRANSACTION.SUCCESS']]);
    // Paid once: the page now says so, and paying again is refused.
    expect((await view(outTradeNo, sig)).body.state).toBe('SUCCESS');
    expectCode(await sandboxPay(s, charge.codeUrl!), 409, 'OrderAlreadyPaid');
    expectCode(await sandboxPay(s, charge.codeUrl!, 'fail'), 409, 'OrderAlreadyPaid');
  });

  it('Fail marks the payment failed: the application stays unpaid and the code can no longer be paid', async () => {
    const { orderId, charge, outTradeNo } = await code();
    const failed = await sandboxPay(s, charge.codeUrl!, 'fail');
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.state).toBe('PAYERROR');
    for (let i = 0; i < 200 && (await chargeOf(outTradeNo)).status === 'created'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await chargeOf(outTradeNo)).status).toBe('failed');
    expectCode(await sandboxPay(s, charge.codeUrl!), 409, 'PaymentCodeExpired');
    expect((await orderOf(orderId)).paymentStatus).toBe(0);
  });

  it('an expired code is shown as expired and cannot be paid or failed', async () => {
    const { orderId, charge, outTradeNo, sig } = await code();
    s.clock.advance(PAYMENT_CODE_TTL_MS + 1000);
    try {
      const res = await view(outTradeNo, sig);
      expect(res.body).toMatchObject({ state: 'NOTPAY', expired: true });
      expectCode(await sandboxPay(s, charge.codeUrl!), 409, 'PaymentCodeExpired');
      expectCode(await sandboxPay(s, charge.codeUrl!, 'fail'), 409, 'PaymentCodeExpired');
      expect((await orderOf(orderId)).paymentStatus).toBe(0);
    } finally {
      s.clock.advance(-(PAYMENT_CODE_TTL_MS + 1000));
    }
  });

  it('without the right `s` nothing is shown or done: 403; a bad trade number is 400, an unknown one 404', async () => {
    const { charge, outTradeNo, sig } = await code();
    const other = await code();
    expectCode(await s.request('GET', `payments/sandbox/${outTradeNo}`), 403, 'Forbidden');
    expectCode(await view(outTradeNo, 'x'.repeat(32)), 403, 'Forbidden');
    expectCode(await view(outTradeNo, other.sig), 403, 'Forbidden');
    expectCode(await view(outTradeNo, sig.slice(1)), 403, 'Forbidden');
    for (const action of ['pay', 'fail']) {
      expectCode(await s.request('POST', `payments/sandbox/${outTradeNo}/${action}?s=${other.sig}`), 403, 'Forbidden');
    }
    expect((await view(outTradeNo, sig)).body.state).toBe('NOTPAY');
    expectCode(await s.request('GET', `payments/sandbox/${encodeURIComponent('C1;drop')}?s=${sig}`), 400, 'ParamsError');
    const { sandbox } = catchingSandbox();
    expectCode(await view('C20990101000000001', sandbox.signatureOf('C20990101000000001')), 404, 'NotFound');
    expect(charge.status).toBe('created');
  });
});

describe('the notify route', () => {
  it('refuses a forged, stale or mis-addressed notification (401 PaymentNotificationInvalid / 404 NotFound) and changes nothing', async () => {
    const { orderId, outTradeNo } = await code();
    const { sandbox, caught } = catchingSandbox();
    await sandbox.pay(outTradeNo);
    const genuine = caught[0]!;
    const forged = { headers: genuine.headers, body: genuine.body.replace(/"total":\d+/, '"total":1') };
    const res = await notify(forged);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'PaymentNotificationInvalid' });
    expect(typeof res.body.message).toBe('string');
    expect((await notify({ headers: { ...genuine.headers, 'wechatpay-signature': 'AAAA' }, body: genuine.body })).status).toBe(401);
    expect((await notify({ headers: {}, body: genuine.body })).status).toBe(401);
    expect((await notify({ headers: genuine.headers, body: '' })).status).toBe(401);
    s.clock.advance(6 * 60_000);
    try { expect((await notify(genuine)).status).toBe(401); } finally { s.clock.advance(-6 * 60_000); }
    const elsewhere = await notify(genuine, 'wechat');
    expect([elsewhere.status, elsewhere.body.code]).toEqual([404, 'NotFound']);
    expect((await orderOf(orderId)).paymentStatus).toBe(0);
    expect(await s.db.db.select().from(t.paymentNotifications).where(eq(t.paymentNotifications.outTradeNo, outTradeNo))).toEqual([]);
  });

  it('a notification delivered ten times at once and again later pays once', async () => {
    const { orderId, outTradeNo, charge } = await code();
    const { sandbox, caught } = catchingSandbox();
    const paid = await sandbox.pay(outTradeNo);
    const genuine = caught[0]!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => notify(genuine)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(204));
    expect((await notify(genuine)).status).toBe(204);
    const order = await orderOf(orderId);
    expect([order.paymentStatus, order.transactionId, order.version]).toEqual([1, paid.transactionId, 2]);
    expect((await chargeOf(outTradeNo)).status).toBe('paid');
    const notes = await s.db.db.select().from(t.paymentNotifications).where(eq(t.paymentNotifications.outTradeNo, outTradeNo));
    expect(notes).toHaveLength(1);
    const targets = await s.db.db.select().from(t.reportOrderTargets).where(eq(t.reportOrderTargets.orderId, orderId));
    expect(targets.every((x) => x.expertExamId !== null)).toBe(true);
    expect(charge.amountFen).toBe(order.amountFen);
  });
});

describe('the sandbox channel itself', () => {
  it('query, close and refund act on its books; a refund is SUCCESS at once, once, with its notification', async () => {
    const { sandbox, caught } = catchingSandbox();
    const first = await code();
    expect(await sandbox.query(first.outTradeNo)).toMatchObject({ state: 'NOTPAY', transactionId: null, amountFen: first.charge.amountFen });
    await sandbox.close(first.outTradeNo);
    await sandbox.close(first.outTradeNo); // again: harmless
    expect((await sandbox.query(first.outTradeNo)).state).toBe('CLOSED');
    expectCode(await sandboxPay(s, first.charge.codeUrl!), 409, 'PaymentCodeExpired');

    const second = await code();
    await sandbox.pay(second.outTradeNo);
    await expect(sandbox.close(second.outTradeNo)).rejects.toMatchObject({ code: 'PaymentChannelError', details: { channelCode: 'ORDERPAID' } });
    const refund = await sandbox.refund({ outTradeNo: second.outTradeNo, outRefundNo: 'F-test', amountFen: second.charge.amountFen, totalFen: second.charge.amountFen, reason: 'test', notifyUrl: `${s.url}/api/v1/payments/notify/sandbox` });
    expect(refund).toMatchObject({ state: 'SUCCESS' });
    expect(refund.refundId).toMatch(/^SBXR/);
    expect((await sandbox.query(second.outTradeNo)).state).toBe('REFUND');
    await expect(sandbox.refund({ outTradeNo: second.outTradeNo, outRefundNo: 'F-test-2', amountFen: 1, totalFen: second.charge.amountFen, reason: 'again', notifyUrl: 'http://x/' }))
      .rejects.toMatchObject({ code: 'PaymentChannelError', details: { channelCode: 'NOT_ENOUGH' } });
    await expect(sandbox.query('C20990101999999999')).rejects.toMatchObject({ code: 'PaymentChannelError', details: { channelCode: 'ORDER_NOT_EXIST' } });
    const refunded = caught.map((c) => JSON.parse(c.body) as { event_type: string; resource: Record<string, unknown> }).find((n) => n.event_type === 'REFUND.SUCCESS')!;
    expect(refunded.resource).toMatchObject({ out_trade_no: second.outTradeNo, out_refund_no: 'F-test', refund_id: refund.refundId, refund_status: 'SUCCESS' });
    expect((await sandbox.verifyNotification(caught.at(-1)!.headers, caught.at(-1)!.body)).event).toMatchObject({ kind: 'refunded', outRefundNo: 'F-test', amountFen: second.charge.amountFen });
  });
});

describe('with WeChat Pay configured', () => {
  it('the sandbox routes are 404 and its notifications are not taken', async () => {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const w = await startServer({
      exams: 1,
      config: {
        wechatPay: {
          mchid: '1900000001', appid: 'wx1', serialNo: 'S', apiV3Key: 'k'.repeat(32), platformKeyId: 'PUB', baseUrl: 'http://127.0.0.1:1',
          privateKeyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), platformPublicKeyPem: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
      },
    });
    try {
      expectCode(await w.request('GET', 'payments/sandbox/C1?s=abc'), 404, 'NotFound');
      expectCode(await w.request('POST', 'payments/sandbox/C1/pay?s=abc'), 404, 'NotFound');
      const res = await w.request('POST', 'payments/notify/sandbox', { body: '{}', headers: { 'content-type': 'application/json' } });
      expect([res.status, res.body.code]).toEqual([404, 'NotFound']);
      const unsigned = await w.request('POST', 'payments/notify/wechat', { body: '{"id":"x"}', headers: { 'content-type': 'application/json' } });
      expect([unsigned.status, unsigned.body.code]).toEqual([401, 'PaymentNotificationInvalid']);
    } finally {
      await w.close();
    }
  });
});
