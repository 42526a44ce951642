import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { PAYMENT_CODE_TTL_MS, type ChargeOrderView, type ChargePackage, type ExpertProducts, type PaymentStatusView, type ReportOrderDetail } from '../../contract/payments';
import { chargeMachine, secondsLeft, type ChargeEvent, type ChargeSnapshot } from '../../machines/charge';
import { insertExam, tokenOf } from '../support/reports';
import { startServer } from '../support/server';

/**
 * machines/charge.ts, the charge page's flow. First every shortest path of the whole machine (createTestModel) with
 * what must hold in each state; then the paths a payer can walk for real (choose, get the code, let it expire, ask a
 * new one, pay at the sandbox) replayed against the server: each step's event is made from the API's answer, and the
 * machine fed with those must walk the model's path state by state.
 */

const T0 = 1_800_000_000_000;
const CODE = { id: 1, outTradeNo: 'C2026112600000001', expiresAt: T0 + PAYMENT_CODE_TTL_MS };
const EVENTS: ChargeEvent[] = [
  { type: 'CHOOSE', packageId: 1 },
  { type: 'CHOOSE', packageId: 2 },
  { type: 'CREATED', code: CODE, now: T0 },
  { type: 'CREATE_FAILED', code: 'PaymentChannelUnavailable' },
  { type: 'CREATE_FAILED', code: 'OrderAlreadyPaid' },
  { type: 'CREATE_FAILED', code: 'InvalidTransition' },
  { type: 'STATUS', paymentStatus: 0, progress: 'awaiting_payment', chargeStatus: 'created', now: T0 + 2000 },
  { type: 'STATUS', paymentStatus: 0, progress: 'awaiting_payment', chargeStatus: 'closed', now: T0 + 4000 },
  { type: 'STATUS', paymentStatus: 1, progress: 'queued', chargeStatus: 'paid', now: T0 + 6000 },
  { type: 'STATUS', paymentStatus: 0, progress: 'withdrawn', chargeStatus: 'closed', now: T0 + 6000 },
  { type: 'TICK', now: T0 + 1000 },
  { type: 'TICK', now: T0 + PAYMENT_CODE_TTL_MS + 1000 },
  { type: 'REFRESH' },
  { type: 'RETRY' },
];

const keyOf = (e: ChargeEvent) => JSON.stringify(e);
const serializeState = (snap: ChargeSnapshot) =>
  JSON.stringify({ v: snap.value, p: snap.context.packageId, r: snap.context.replace, c: snap.context.code !== null, e: snap.context.error });

/** What every state promises the page. */
function checkState(snap: ChargeSnapshot) {
  const c = snap.context;
  switch (snap.value) {
    case 'choosing': expect(c.packageId).toBeNull(); break;
    case 'creating': expect(c.packageId).not.toBeNull(); break;
    case 'waiting': expect(c.code).not.toBeNull(); expect(c.replace).toBe(false); expect(c.error).toBeNull(); break;
    case 'expired': expect(c.code).not.toBeNull(); break;
    case 'failed': expect(c.error).not.toBeNull(); break;
    default: break;
  }
}

describe('the charge machine (model paths)', () => {
  const model = createTestModel(chargeMachine, {
    events: EVENTS,
    serializeState: (snap) => serializeState(snap as ChargeSnapshot),
    serializeEvent: (e) => keyOf(e as ChargeEvent),
  });
  const paths = model.getShortestPaths({ input: { orderId: 7, now: T0 } });

  it('reaches every state', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((step) => String((step.state as ChargeSnapshot).value))));
    expect([...reached].sort()).toEqual(['choosing', 'closed', 'creating', 'expired', 'failed', 'paid', 'waiting']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      await path.test({ states: { '*': (snap) => checkState(snap as ChargeSnapshot) } });
    });
  }

  it('paid only by a paid status or OrderAlreadyPaid, never by time or a refresh', () => {
    for (const path of paths) {
      const steps = path.steps;
      steps.forEach((step, i) => {
        if ((step.state as ChargeSnapshot).value !== 'paid' || i === 0) return;
        const by = step.event as ChargeEvent;
        const previous = (steps[i - 1]!.state as ChargeSnapshot).value;
        if (previous === 'paid') return;
        expect(by.type === 'STATUS' ? by.paymentStatus : by.type === 'CREATE_FAILED' ? by.code : by.type).toSatisfy((v) => v === 1 || v === 'OrderAlreadyPaid');
      });
    }
  });

  it('a refresh or a change of package asks the server for a new code; the first code is the live one', () => {
    const actor = createActor(chargeMachine, { input: { orderId: 7, now: T0 } }).start();
    actor.send({ type: 'CHOOSE', packageId: 1 });
    expect(actor.getSnapshot().context.replace).toBe(false);
    actor.send({ type: 'CREATED', code: CODE, now: T0 });
    expect(secondsLeft(actor.getSnapshot().context)).toBe(PAYMENT_CODE_TTL_MS / 1000);
    actor.send({ type: 'CHOOSE', packageId: 1 });
    expect(actor.getSnapshot().value).toBe('waiting');
    actor.send({ type: 'CHOOSE', packageId: 2 });
    expect(actor.getSnapshot().value).toBe('creating');
    expect(actor.getSnapshot().context.replace).toBe(true);
    actor.send({ type: 'CREATED', code: CODE, now: T0 });
    actor.send({ type: 'TICK', now: CODE.expiresAt });
    expect(actor.getSnapshot().value).toBe('expired');
    expect(secondsLeft(actor.getSnapshot().context)).toBe(0);
    actor.send({ type: 'REFRESH' });
    expect(actor.getSnapshot().context.replace).toBe(true);
    actor.stop();
  });
});

// ── Against the server ──────────────────────────────────────────────────────────────────────────────────────────

const s = await startServer({ exams: 5 });
afterAll(async () => s.close());

/** The events a payer can cause for real; each is realised through the API below. */
const REAL: ChargeEvent[] = [
  { type: 'CHOOSE', packageId: 1 },
  { type: 'CREATED', code: CODE, now: T0 },
  { type: 'TICK', now: T0 + PAYMENT_CODE_TTL_MS + 1000 },
  { type: 'STATUS', paymentStatus: 1, progress: 'queued', chargeStatus: 'paid', now: T0 + 6000 },
  { type: 'REFRESH' },
];
const realModel = createTestModel(chargeMachine, {
  events: REAL,
  serializeState: (snap) => serializeState(snap as ChargeSnapshot),
  serializeEvent: (e) => keyOf(e as ChargeEvent),
});
const [CHOOSE, CREATED, LATE, PAY, REFRESH] = REAL;
/**
 * A payer's walks: pay at once; let the code expire, ask a new one and pay; twice over; let it expire and leave. The
 * sandbox pays a live code only (an expired one is refused with PaymentCodeExpired), so "paid after expiry" is the WeChat
 * channel's late notification, covered by the model paths above.
 */
const WALKS: ChargeEvent[][] = [
  [CHOOSE!, CREATED!, PAY!],
  [CHOOSE!, CREATED!, LATE!, REFRESH!, CREATED!, PAY!],
  [CHOOSE!, CREATED!, LATE!, REFRESH!, CREATED!, LATE!, REFRESH!, CREATED!, PAY!],
  [CHOOSE!, CREATED!, LATE!],
];
const realPaths = WALKS.flatMap((walk) => realModel.getPathsFromEvents(walk, { input: { orderId: 7, now: T0 } }));

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await s.request(method, path, { token: await tokenOf(s, 'rad1'), body });
  return { status: res.status, body: res.body as T };
}

/** A new application of a fresh exam to a paid expert organisation, as rad1. */
async function freshApplication(): Promise<ReportOrderDetail> {
  const examId = await insertExam(s);
  const products = await call<ExpertProducts>('GET', `report-requests/products?examId=${examId}&type=expert`);
  expect(products.status, JSON.stringify(products.body)).toBe(200);
  const paid = products.body.products.find((p) => !p.free);
  expect(paid, 'the demo group sells a paid expert report').toBeDefined();
  const applied = await call<ReportOrderDetail>('POST', 'report-requests/apply', { examId, type: 'expert', bucketIds: [paid!.bucketId], agreeTerms: true });
  expect(applied.status, JSON.stringify(applied.body)).toBe(201);
  return applied.body;
}

describe('the charge machine against the API (sandbox channel)', () => {
  it('has real paths to replay', () => {
    expect(realPaths.map((p) => p.steps.length - 1)).toEqual(WALKS.map((w) => w.length));
  });

  for (const path of realPaths) {
    it(`replays ${path.description}`, async () => {
      const order = await freshApplication();
      const packages = await call<ChargePackage[]>('GET', `packages/query?orderId=${order.id}`);
      expect(packages.status).toBe(200);
      const single = packages.body.find((p) => p.kind === 'single');
      expect(single?.priceFen).toBe(order.amountFen);
      const actor = createActor(chargeMachine, { input: { orderId: order.id, now: s.clock.now().getTime() } }).start();
      let shown: ChargeOrderView | null = null;
      const codes = new Set<string>();

      for (const step of path.steps.slice(1)) {
        const modelEvent = step.event as ChargeEvent;
        let event: ChargeEvent;
        switch (modelEvent.type) {
          case 'CHOOSE':
            event = { type: 'CHOOSE', packageId: single!.id };
            break;
          case 'CREATED': {
            const { replace, packageId } = actor.getSnapshot().context;
            const res = await call<ChargeOrderView>('GET', `charge/${order.id}/pre-paid-order?packageId=${packageId}${replace ? '&refresh=1' : ''}`);
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            expect(res.body.amountFen).toBe(order.amountFen);
            expect(res.body.status).toBe('created');
            // A refresh makes a new code; asking without it gives the live one.
            if (replace) expect(codes.has(res.body.outTradeNo)).toBe(false);
            codes.add(res.body.outTradeNo);
            shown = res.body;
            event = { type: 'CREATED', code: { id: res.body.id, outTradeNo: res.body.outTradeNo, expiresAt: Date.parse(res.body.expiresAt) }, now: s.clock.now().getTime() };
            break;
          }
          case 'TICK': {
            s.clock.advance(PAYMENT_CODE_TTL_MS + 1000);
            const status = await call<PaymentStatusView>('GET', `charge/${order.id}/payment-status`);
            expect(status.body.paymentStatus).toBe(0);
            event = { type: 'TICK', now: s.clock.now().getTime() };
            break;
          }
          case 'STATUS': {
            // The payer's phone: the sandbox page the QR encodes, Pay.
            const url = new URL(shown!.codeUrl!);
            const sig = url.searchParams.get('s');
            const pay = await s.request('POST', `payments/sandbox/${encodeURIComponent(shown!.outTradeNo)}/pay?s=${encodeURIComponent(sig ?? '')}`);
            expect(pay.status, JSON.stringify(pay.body)).toBe(200);
            // As the page does: poll until the settle shows (the channel's news may land a moment after the payer's
            // answer); every answer heard meanwhile goes to the machine, which waits through the unpaid ones.
            let status = await call<PaymentStatusView>('GET', `charge/${order.id}/payment-status`);
            for (let round = 0; status.body.paymentStatus !== 1 && round < 50; round += 1) {
              expect(status.status).toBe(200);
              actor.send({ type: 'STATUS', paymentStatus: status.body.paymentStatus, progress: status.body.progress, chargeStatus: status.body.charge?.status ?? null, now: s.clock.now().getTime() });
              expect(actor.getSnapshot().value).toBe('waiting');
              await new Promise((resolve) => setTimeout(resolve, 100));
              status = await call<PaymentStatusView>('GET', `charge/${order.id}/payment-status`);
            }
            event = { type: 'STATUS', paymentStatus: status.body.paymentStatus, progress: status.body.progress, chargeStatus: status.body.charge?.status ?? null, now: s.clock.now().getTime() };
            break;
          }
          default:
            event = modelEvent;
        }
        actor.send(event);
        expect(actor.getSnapshot().value, `after ${modelEvent.type}`).toBe((step.state as ChargeSnapshot).value);
      }
      if (actor.getSnapshot().value === 'paid') {
        const detail = await call<ReportOrderDetail>('GET', `report-requests/${order.id}`);
        expect(detail.body.paymentStatus).toBe(1);
        expect(detail.body.channel).toBe('weixin');
        // Paid once: asking for a code now is refused as already paid (the machine's CREATE_FAILED → paid).
        const again = await call<{ code: string }>('GET', `charge/${order.id}/pre-paid-order?refresh=1`);
        expect(again.body.code).toBe('OrderAlreadyPaid');
      }
      actor.stop();
    });
  }
});
