import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { applyChannelEvent } from '../../server/payments/money/settle';
import { applyFor, chargeTokenOf, depsOf, ledgerProof, payByCredit, sandboxPay } from '../support/money';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Never twice (issue 13 "Money that cannot go wrong"): 20 parallel attempts to pay one application — 10 credit
 * charges and 10 paid-confirms racing the QR payment's own notification — and 10 copies of one notification
 * delivered at once end in exactly one payment, the group's balance exact to the fen, and money that arrived twice
 * returned to the payer.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const orderOf = async (id: number) => (await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.id, id)))[0]!;
const balance = async () => (await s.db.db.select().from(t.groupCredits).where(eq(t.groupCredits.groupId, s.ids.groupId)))[0]!.balanceFen;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`never settled: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('20 parallel pays of one application (credit and QR mixed)', () => {
  for (const round of [1, 2, 3]) {
    it(`round ${round}: one payment, the balance exact, the second money returned`, async () => {
      const o = await applyFor(s);
      const token = await tokenOf(s, 'rad1');
      const chargeToken = await chargeTokenOf(s);
      const code = await s.request('GET', `charge/${o.id}/pre-paid-order`, { token });
      expect(code.status).toBe(200);
      const before = await balance();
      // Round 1: the QR is paid (and settled) first; round 2: all at once; round 3: the credit calls first.
      if (round === 1) {
        expect((await sandboxPay(s, code.body.codeUrl)).status).toBe(200);
        await until(async () => (await orderOf(o.id)).paymentStatus, (v) => v === 1);
      }
      const calls: Promise<{ status: number; body: { code?: string } }>[] = [];
      for (let i = 0; i < 10; i++) {
        calls.push(payByCredit(s, o.id, { chargeToken }));
        calls.push(s.request('POST', `charge/${o.id}/paid-confirm`, { token }));
      }
      if (round === 2) calls.push(sandboxPay(s, code.body.codeUrl));
      const answers = await Promise.all(calls);
      if (round === 3) expect((await sandboxPay(s, code.body.codeUrl)).status).toBe(200);
      // Every answer is a success or the catalogue's "already paid": never a 500, never a second payment.
      for (const a of answers) expect([200, 409], JSON.stringify(a.body)).toContain(a.status);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('OrderAlreadyPaid');

      const charge = await until(async () => (await s.db.db.select().from(t.chargeOrders).where(eq(t.chargeOrders.id, code.body.id)))[0]!, (c) => c.status === 'paid');
      const row = await orderOf(o.id);
      expect(row.paymentStatus).toBe(1);
      const charges = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.orderId, o.id));
      if (row.channel === 'credit') {
        expect(charges.map((c) => c.amountFen)).toEqual([-o.amountFen]);
        expect(await balance()).toBe(before - o.amountFen);
        // The QR's money arrived for an application already paid: returned in full at the channel.
        expect(charge.returnedRefundNo).toBe(`RT${charge.outTradeNo}`);
        const trade = await until(async () => (await s.db.db.select().from(t.sandboxTrades).where(eq(t.sandboxTrades.outTradeNo, charge.outTradeNo)))[0]!, (x) => x.refundedFen > 0);
        expect([trade.state, trade.refundedFen]).toEqual(['REFUND', o.amountFen]);
      } else {
        expect(row.channel).toBe('weixin');
        expect(row.transactionId).toBe(charge.transactionId);
        expect(charges).toEqual([]);
        expect(await balance()).toBe(before);
        expect(charge.returnedRefundNo).toBeNull();
      }
      if (round === 1) expect(row.channel).toBe('weixin');
      if (round === 3) expect(row.channel).toBe('credit');
      // Dispatched once: one copy per target.
      const targets = await s.db.db.select().from(t.reportOrderTargets).where(eq(t.reportOrderTargets.orderId, o.id));
      const copies = await s.db.db.select().from(t.exams).where(eq(t.exams.orderId, row.requestNo));
      expect(copies).toHaveLength(targets.length);
      const proof = await ledgerProof(s);
      expect(proof.sumFen).toBe(proof.balanceFen);
    });
  }
});

describe('10 duplicate notifications', () => {
  it('one notification delivered 10 times at once: applied once, 9 duplicates, one payment', async () => {
    const o = await applyFor(s);
    const token = await tokenOf(s, 'rad1');
    const code = (await s.request('GET', `charge/${o.id}/pre-paid-order`, { token })).body;
    const deps = depsOf(s);
    const event = { kind: 'paid' as const, outTradeNo: code.outTradeNo, transactionId: `DUP${o.id}`, amountFen: o.amountFen, paidAt: s.clock.now() };
    const note = { provider: 'sandbox', id: `NOTE-${o.id}`, eventType: 'TRANSACTION.SUCCESS', resource: { out_trade_no: code.outTradeNo } };
    const results = await Promise.all(Array.from({ length: 10 }, () => applyChannelEvent(deps, event, note)));
    expect(results.filter((r) => r === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r === 'duplicate')).toHaveLength(9);
    const rows = await s.db.db.select().from(t.paymentNotifications).where(eq(t.paymentNotifications.notificationId, note.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.result).toBe('paid');
    const row = await orderOf(o.id);
    expect([row.paymentStatus, row.channel, row.transactionId]).toEqual([1, 'weixin', `DUP${o.id}`]);
  });

  it('10 different deliveries of the same payment (new ids): one applied, the rest change nothing', async () => {
    const o = await applyFor(s);
    const token = await tokenOf(s, 'rad1');
    const code = (await s.request('GET', `charge/${o.id}/pre-paid-order`, { token })).body;
    const deps = depsOf(s);
    const event = { kind: 'paid' as const, outTradeNo: code.outTradeNo, transactionId: `MANY${o.id}`, amountFen: o.amountFen, paidAt: s.clock.now() };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => applyChannelEvent(deps, event, { provider: 'sandbox', id: `N${o.id}-${i}`, eventType: 'TRANSACTION.SUCCESS', resource: {} })));
    expect(results.filter((r) => r === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r === 'ignored')).toHaveLength(9);
    const audits = await s.db.db.select().from(t.auditEvents).where(eq(t.auditEvents.objectId, String(o.id)));
    expect(audits.filter((a) => a.action === 'pay')).toHaveLength(1);
  });
});
