import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { ERROR_STATUS } from '../../contract/errors';
import type { ReportOrderDetail } from '../../contract/payments';
import { paymentMachine, type PaymentActor, type PaymentEvent } from '../../machines/payment';
import {
  paymentRefusalFor, paymentStatusNumber, paymentTransitionsFor, type PaymentSnapshot, type PaymentState,
} from '../../machines/paymentTransitions';
import * as t from '../../server/db/schema';
import { applyChannelEvent } from '../../server/payments/money/settle';
import { refundOrder } from '../../server/payments/money/refund';
import { paymentProvider } from '../../server/payments/providers/index';
import type { PaymentProvider } from '../../server/payments/providers/provider';
import { applyFor, chargeTokenOf, depsOf, payByCredit, payByQr } from '../support/money';
import { tokenOf } from '../support/reports';
import { startServer } from '../support/server';

/**
 * Paths of machines/payment.ts (createTestModel), each replayed against the real server on a fresh application rad1
 * (the hospital) asks of the expert centre. Actors: rad1 pays (apply_expert_report, no payment_refund), chief pays
 * and refunds at the hospital, the expert refunds at the target. Payments go through the API (credit: create-token +
 * credits/charge; weixin: the sandbox QR); refunds of credit through the API; a weixin refund is asked through
 * refundOrder over a channel that answers PROCESSING (the sandbox would answer at once), and the channel's answer
 * (refundSucceeded, refundFailed) is applied as its notification would be. After every step each role's detail shows
 * the machine's status and pay/refund transitions; the first time a state is reached every pay and refund the
 * machine refuses is refused by the API with the machine's reason and changes nothing.
 */
const s = await startServer({ exams: 5 });
afterAll(async () => s.close());

type Role = 'rad1' | 'chief' | 'expert';
const ROLES: Role[] = ['rad1', 'chief', 'expert'];

async function actorOf(role: Role): Promise<PaymentActor> {
  const res = await s.request('GET', 'accounts/me/permissions', { token: await tokenOf(s, role) });
  const at = (bucketId: number): string[] => res.body[String(bucketId)]?.actions ?? [];
  return { id: s.ids.accounts[role], applicant: at(s.ids.hospitalId), target: at(s.ids.expertCentreId) };
}
const actors = {} as Record<Role, PaymentActor>;
for (const role of ROLES) actors[role] = await actorOf(role);
const roleOf = (id: number): Role => ROLES.find((r) => actors[r].id === id)!;

const EVENTS: PaymentEvent[] = [
  { type: 'pay', actor: actors.rad1, channel: 'credit' },
  { type: 'pay', actor: actors.rad1, channel: 'weixin' },
  ...ROLES.map((role): PaymentEvent => ({ type: 'refund', actor: actors[role], reason: '模型测试' })),
  { type: 'refundSucceeded' },
  { type: 'refundFailed', reason: 'ABNORMAL' },
];
const serializeState = (snap: PaymentSnapshot) => JSON.stringify({ v: snap.value, channel: snap.context.channel });
const serializeEvent = (e: PaymentEvent) => ('actor' in e ? `${e.type}:${roleOf(e.actor.id)}${e.type === 'pay' ? `:${e.channel}` : ''}` : e.type);

const model = createTestModel(paymentMachine, {
  events: EVENTS,
  filterEvents: (snap, e) => snap.can(e as PaymentEvent),
  serializeState: (snap) => serializeState(snap as PaymentSnapshot),
  serializeEvent: (e) => serializeEvent(e as PaymentEvent),
});
const paths = model.getSimplePaths();

const stateOf = (snap: PaymentSnapshot): PaymentState => ({ ...snap.context, status: snap.value as PaymentState['status'] });
const orderOf = async (id: number) => (await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.id, id)))[0]!;

/** A channel that takes a refund and answers later (as WeChat Pay may), over the sandbox's books. */
function slowRefunds(): PaymentProvider {
  const sandbox = paymentProvider(depsOf(s));
  return { ...sandbox, name: sandbox.name, refund: async () => ({ state: 'PROCESSING', refundId: 'R-model' }) };
}

async function step(id: number, event: PaymentEvent, outTradeNo: { value: string | null }) {
  switch (event.type) {
    case 'pay': {
      if (event.channel === 'credit') {
        const res = await payByCredit(s, id, { role: roleOf(event.actor.id) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      } else {
        outTradeNo.value = (await payByQr(s, id, roleOf(event.actor.id))).outTradeNo;
      }
      return;
    }
    case 'refund': {
      const row = await orderOf(id);
      if (row.channel === 'weixin') {
        await refundOrder(depsOf(s, slowRefunds()), id, { reason: event.reason, operatorId: event.actor.id, version: row.version });
      } else {
        const res = await s.request('POST', `payments/${id}/refund`, { token: await tokenOf(s, roleOf(event.actor.id)), body: { reason: event.reason, version: row.version } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      return;
    }
    case 'refundSucceeded':
    case 'refundFailed': {
      const row = await orderOf(id);
      const outRefundNo = row.refundNo!;
      const result = await applyChannelEvent(depsOf(s), event.type === 'refundSucceeded'
        ? { kind: 'refunded', outTradeNo: outTradeNo.value!, outRefundNo, refundId: 'R-model', amountFen: row.amountFen, at: s.clock.now() }
        : { kind: 'refund_failed', outTradeNo: outTradeNo.value!, outRefundNo, reason: event.reason });
      expect(result).toBe('applied');
      return;
    }
  }
}

/** Each role's detail shows the machine's status and pay/refund transitions. */
async function agrees(id: number, expected: PaymentState) {
  for (const role of ROLES) {
    const res = await s.request('GET', `report-requests/${id}`, { token: await tokenOf(s, role) });
    expect(res.status).toBe(200);
    const d = res.body as ReportOrderDetail;
    expect({ role, status: d.paymentStatus, transitions: d.transitions.filter((x) => x !== 'withdraw') }).toEqual({
      role, status: paymentStatusNumber(expected.status), transitions: paymentTransitionsFor(expected, actors[role]),
    });
  }
}

const refusalsChecked = new Set<string>();

async function refusesTheRest(id: number, expected: PaymentState) {
  const before = await orderOf(id);
  for (const role of ROLES) {
    const allowed = paymentTransitionsFor(expected, actors[role]);
    if (!allowed.includes('refund')) {
      const res = await s.request('POST', `payments/${id}/refund`, { token: await tokenOf(s, role), body: { reason: '模型测试', version: before.version } });
      const reason = paymentRefusalFor(expected, actors[role], 'refund');
      expect({ role, action: 'refund', status: res.status, code: res.body.code }).toEqual({ role, action: 'refund', status: ERROR_STATUS[reason], code: reason });
      refusalsChecked.add(`${expected.status}:${role}:refund`);
    }
    if (!allowed.includes('pay')) {
      const res = await payByCredit(s, id, { role, chargeToken: await chargeTokenOf(s, role) });
      const reason = paymentRefusalFor(expected, actors[role], 'pay');
      expect({ role, action: 'pay', status: res.status, code: res.body.code }).toEqual({ role, action: 'pay', status: ERROR_STATUS[reason], code: reason });
      refusalsChecked.add(`${expected.status}:${role}:pay`);
    }
  }
  const after = await orderOf(id);
  expect([after.paymentStatus, after.version]).toEqual([before.paymentStatus, before.version]);
}

describe('the payment machine against the API', () => {
  it('has paths through every state and both channels', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => serializeState(st.state as PaymentSnapshot))));
    const statuses = new Set([...reached].map((k) => (JSON.parse(k) as { v: string }).v));
    expect([...statuses].sort()).toEqual(['paid', 'refunded', 'refunding', 'unpaid']);
    expect(reached).toContain(JSON.stringify({ v: 'refunded', channel: 'credit' }));
    expect(reached).toContain(JSON.stringify({ v: 'refunded', channel: 'weixin' }));
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.length).toBeLessThan(100);
  });

  const seen = new Set<string>();
  async function replay(events: PaymentEvent[], states: PaymentSnapshot[]) {
    const o = await applyFor(s);
    const outTradeNo = { value: null as string | null };
    for (const [i, event] of events.entries()) {
      if (event) await step(o.id, event, outTradeNo);
      const expected = stateOf(states[i]!);
      await agrees(o.id, expected);
      const key = serializeState(states[i]!);
      if (!seen.has(key)) {
        seen.add(key);
        await refusesTheRest(o.id, expected);
      }
    }
  }

  for (const path of paths) {
    const events = path.steps.map((st) => st.event as PaymentEvent);
    const label = events.filter((e) => e.type !== 'xstate.init' as string).map(serializeEvent).join(' → ');
    it(label || '(start)', async () => {
      await replay(events.map((e) => ((e.type as string) === 'xstate.init' ? (null as unknown as PaymentEvent) : e)), path.steps.map((st) => st.state as PaymentSnapshot));
    });
  }

  it('a refused weixin refund leaves it paid, and a second refund then succeeds', async () => {
    const o = await applyFor(s);
    const code = await payByQr(s, o.id);
    for (const ending of ['refund_failed', 'refunded'] as const) {
      const row = await orderOf(o.id);
      await refundOrder(depsOf(s, slowRefunds()), o.id, { reason: '模型测试', operatorId: actors.chief.id, version: row.version });
      expect((await orderOf(o.id)).paymentStatus).toBe(2);
      const refundNo = (await orderOf(o.id)).refundNo!;
      await applyChannelEvent(depsOf(s), ending === 'refunded'
        ? { kind: 'refunded', outTradeNo: code.outTradeNo, outRefundNo: refundNo, refundId: 'R', amountFen: o.amountFen, at: s.clock.now() }
        : { kind: 'refund_failed', outTradeNo: code.outTradeNo, outRefundNo: refundNo, reason: 'ABNORMAL' });
      expect((await orderOf(o.id)).paymentStatus).toBe(ending === 'refunded' ? 3 : 1);
    }
  });

  it('checked refusals in every status', () => {
    const statuses = new Set([...refusalsChecked].map((k) => k.split(':')[0]));
    expect([...statuses].sort()).toEqual(['paid', 'refunded', 'refunding', 'unpaid']);
  });
});
