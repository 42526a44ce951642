import { and, eq, ne, sql } from 'drizzle-orm';
import type { PaymentChannel } from '../../../contract/payments';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/client';
import { chargeOrders, chargePackages, paymentNotifications, planSubscriptions, reportOrders } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { ChannelEvent } from '../providers/provider';
import { notifyUrlOf, paymentProvider } from '../providers/index';
import { dispatchOrder, removeExpertWork } from '../requests/dispatch';
import { crashAt } from './fault';
import { moveCredit } from './ledger';
import { orderRow, type OrderRow } from './orders';

/**
 * Settling money: the one path every channel answer takes (a notification, paid-confirm, the reconciler after a
 * restart), and the one function that marks an application paid. Each runs in one transaction that locks the charge
 * order and the application (FOR UPDATE) and checks their state before changing them, so a notification delivered
 * twice, two tabs paying one application and the reconciler racing a notification never pay twice; the unique
 * indexes (notification id, transaction ids, ledger rows) are the last guard. Money that arrives for an application
 * already paid another way is returned to the payer (provider.refund), recorded on the charge order and traced.
 */

export type ChargeRow = typeof chargeOrders.$inferSelect;

/**
 * Marks the locked, unpaid application paid (machines/payment.ts unpaid → paid) and dispatches it to the experts
 * (R's dispatchOrder) in the caller's transaction, with its audit event.
 */
export async function payOrder(tx: Db, deps: Deps, orderId: number, pay: { channel: PaymentChannel; transactionId: string | null; paidAt: Date; actorId: number | null }): Promise<void> {
  void deps; // part of the shared signature (the design's); nothing here needs it today
  const [row] = await tx.update(reportOrders).set({
    paymentStatus: 1, channel: pay.channel, transactionId: pay.transactionId, paidAt: pay.paidAt, progress: 'queued',
    version: sql`${reportOrders.version} + 1`, updated: pay.paidAt,
  }).where(and(eq(reportOrders.id, orderId), eq(reportOrders.paymentStatus, 0), ne(reportOrders.progress, 'withdrawn')))
    .returning({ fromBucketId: reportOrders.fromBucketId, amountFen: reportOrders.amountFen });
  // The caller locked the row and checked it: reaching here paid means a caller broke the rule; refuse, never pay twice.
  if (!row) throw new ApiError('OrderAlreadyPaid');
  await recordAudit(tx, {
    at: pay.paidAt, actorId: pay.actorId, bucketId: row.fromBucketId, area: 'payments', action: 'pay', objectType: 'reportOrder', objectId: orderId,
    before: { paymentStatus: 0, progress: 'awaiting_payment' },
    after: { paymentStatus: 1, progress: 'queued', channel: pay.channel, transactionId: pay.transactionId, amountFen: row.amountFen },
  });
  await dispatchOrder(tx, orderId, pay.paidAt);
}

/**
 * The moment an application becomes refunded (machines/payment.ts → refunded), in the caller's transaction: the
 * refund fields, the experts' work removed (R's removeExpertWork: copies, their reports, the original's flags
 * restored) and the audit event. The channel-specific part (ledger row, plan quota, the channel's refund) is the
 * caller's.
 */
export async function completeRefund(tx: Db, row: OrderRow, r: { refundNo: string; at: Date; reason: string; operatorId: number | null }): Promise<void> {
  await tx.update(reportOrders).set({
    paymentStatus: 3, refundNo: r.refundNo, refundAt: r.at, refundReason: r.reason, refundOperatorId: r.operatorId,
    version: sql`${reportOrders.version} + 1`, updated: r.at,
  }).where(eq(reportOrders.id, row.id));
  await removeExpertWork(tx, row.id);
  await recordAudit(tx, {
    at: r.at, actorId: r.operatorId, bucketId: row.fromBucketId, area: 'payments', action: 'refund', objectType: 'reportOrder', objectId: row.id,
    before: { paymentStatus: row.paymentStatus }, after: { paymentStatus: 3, refundNo: r.refundNo, reason: r.reason, channel: row.channel, amountFen: row.amountFen },
  });
}

/** A refund number for money returned because it arrived for an application already paid (one per charge order). */
export const returnRefundNo = (outTradeNo: string) => `RT${outTradeNo}`;

type Outcome = 'applied' | 'duplicate' | 'ignored';

interface Effect {
  outcome: Outcome;
  /** Why, for the notification row and the logs. */
  result: string;
  /** Money to hand back once the transaction committed. */
  giveBack?: { charge: ChargeRow; outRefundNo: string };
}

/**
 * Applies what a channel said (a verified notification, the channel's answer to paid-confirm or the reconciler) in one
 * transaction. With `notification`, its row is inserted ON CONFLICT DO NOTHING in that same transaction: a repeat of
 * a notification already applied changes nothing ('duplicate').
 */
export async function applyChannelEvent(
  deps: Deps, event: ChannelEvent,
  notification?: { provider: string; id: string; eventType: string; resource: Record<string, unknown> },
): Promise<'applied' | 'duplicate' | 'ignored'> {
  const now = deps.clock.now();
  if (event.kind === 'paid') crashAt('before-settle');
  const effect = await deps.db.transaction(async (tx): Promise<Effect> => {
    let notificationRow: number | null = null;
    if (notification) {
      const [row] = await tx.insert(paymentNotifications).values({
        provider: notification.provider, notificationId: notification.id, eventType: notification.eventType,
        outTradeNo: event.outTradeNo, resource: notification.resource, result: 'received', received: now,
      }).onConflictDoNothing().returning({ id: paymentNotifications.id });
      if (!row) return { outcome: 'duplicate', result: 'duplicate' };
      notificationRow = row.id;
    }
    const out = await applyInTx(tx, deps, event, now);
    if (notificationRow !== null) await tx.update(paymentNotifications).set({ result: out.result.slice(0, 32) }).where(eq(paymentNotifications.id, notificationRow));
    return out;
  });
  if (effect.giveBack) await giveMoneyBack(deps, effect.giveBack.charge, effect.giveBack.outRefundNo);
  return effect.outcome;
}

async function lockCharge(tx: Db, outTradeNo: string): Promise<ChargeRow | undefined> {
  const [row] = await tx.select().from(chargeOrders).where(eq(chargeOrders.outTradeNo, outTradeNo)).for('update');
  return row;
}

async function applyInTx(tx: Db, deps: Deps, event: ChannelEvent, now: Date): Promise<Effect> {
  const charge = await lockCharge(tx, event.outTradeNo);
  if (!charge) return { outcome: 'ignored', result: 'unknown_trade' };
  switch (event.kind) {
    case 'paid': return chargePaid(tx, deps, charge, event);
    case 'closed':
    case 'failed': {
      if (charge.status !== 'created') return { outcome: 'ignored', result: `already_${charge.status}` };
      const status = event.kind === 'closed' ? 'closed' : 'failed';
      await tx.update(chargeOrders).set({ status }).where(eq(chargeOrders.id, charge.id));
      await recordAudit(tx, {
        at: now, actorId: null, area: 'payments', action: `charge-${status}`, objectType: 'reportOrder', objectId: charge.orderId ?? `charge:${charge.id}`,
        after: { outTradeNo: charge.outTradeNo, status, ...(event.kind === 'failed' ? { reason: event.reason } : {}) },
      });
      return { outcome: 'applied', result: status };
    }
    case 'refunded':
    case 'refund_failed': return refundAnswer(tx, charge, event, now);
  }
}

async function chargePaid(tx: Db, deps: Deps, charge: ChargeRow, event: Extract<ChannelEvent, { kind: 'paid' }>): Promise<Effect> {
  if (charge.status === 'paid') return { outcome: 'ignored', result: 'already_paid' };
  if (event.amountFen !== charge.amountFen) {
    // Never settle on an amount the product did not ask for; the trade stays open for a person to look at.
    await recordAudit(tx, {
      at: event.paidAt, actorId: null, area: 'payments', action: 'amount-mismatch', objectType: 'reportOrder', objectId: charge.orderId ?? `charge:${charge.id}`,
      after: { outTradeNo: charge.outTradeNo, expectedFen: charge.amountFen, paidFen: event.amountFen, transactionId: event.transactionId },
    });
    return { outcome: 'ignored', result: 'amount_mismatch' };
  }
  const [pkg] = await tx.select().from(chargePackages).where(eq(chargePackages.id, charge.packageId));
  const order = charge.orderId === null ? null : await orderRow(tx, charge.orderId, { lock: true });
  const payable = order !== null && order.paymentStatus === 0 && order.progress !== 'withdrawn';
  // A single payment for an application already paid (another tab, another channel) or withdrawn: the money goes back.
  const giveBack = pkg?.kind === 'single' && !payable;
  await tx.update(chargeOrders).set({
    status: 'paid', transactionId: event.transactionId, paidAt: event.paidAt, ...(giveBack ? { returnedRefundNo: returnRefundNo(charge.outTradeNo) } : {}),
  }).where(eq(chargeOrders.id, charge.id));
  await recordAudit(tx, {
    at: event.paidAt, actorId: charge.accountId, area: 'payments', action: giveBack ? 'charge-paid-returned' : 'charge-paid', objectType: 'reportOrder',
    objectId: charge.orderId ?? `charge:${charge.id}`,
    after: { outTradeNo: charge.outTradeNo, transactionId: event.transactionId, amountFen: event.amountFen, ...(giveBack ? { returnedRefundNo: returnRefundNo(charge.outTradeNo), paymentStatus: order?.paymentStatus ?? null } : {}) },
  });
  if (giveBack) return { outcome: 'applied', result: 'returned', giveBack: { charge, outRefundNo: returnRefundNo(charge.outTradeNo) } };
  if (pkg?.kind === 'credit') {
    await moveCredit(tx, {
      groupId: charge.groupId, kind: 'recharge', amountFen: pkg.priceFen + pkg.bonusFen, chargeOrderId: charge.id, accountId: charge.accountId,
      note: pkg.name, at: event.paidAt,
    });
    return { outcome: 'applied', result: 'recharged' };
  }
  if (pkg?.kind === 'plan') {
    const [sub] = await tx.insert(planSubscriptions).values({
      groupId: charge.groupId, packageId: pkg.id, chargeOrderId: charge.id, reportsTotal: pkg.reports, reportsUsed: 0,
      startsAt: event.paidAt, expiresAt: new Date(event.paidAt.getTime() + pkg.days * 86_400_000), created: event.paidAt,
    }).returning({ id: planSubscriptions.id });
    // A plan bought for an application pays it at once with the plan's first report; the rest stays the group's.
    if (payable && order && pkg.reports > 0) await payFromPlan(tx, deps, order.id, sub!.id, charge.accountId, event.paidAt);
    return { outcome: 'applied', result: 'plan' };
  }
  await payOrder(tx, deps, order!.id, { channel: 'weixin', transactionId: event.transactionId, paidAt: event.paidAt, actorId: charge.accountId });
  crashAt('in-settle');
  return { outcome: 'applied', result: 'paid' };
}

/** The transaction id recorded for an application paid from a plan: names the subscription (a refund gives the report back). */
export const planTransactionId = (subscriptionId: number, orderId: number) => `P${subscriptionId}-${orderId}`;

/** Takes one report of the (locked or fresh) subscription and pays the locked, unpaid application with it. */
export async function payFromPlan(tx: Db, deps: Deps, orderId: number, subscriptionId: number, actorId: number | null, at: Date): Promise<void> {
  const [used] = await tx.update(planSubscriptions).set({ reportsUsed: sql`${planSubscriptions.reportsUsed} + 1` })
    .where(and(eq(planSubscriptions.id, subscriptionId), sql`${planSubscriptions.reportsUsed} < ${planSubscriptions.reportsTotal}`))
    .returning({ reportsUsed: planSubscriptions.reportsUsed });
  if (!used) throw new ApiError('OrderInvalid', 'The plan has no report left', { reason: 'planUsedUp' });
  await payOrder(tx, deps, orderId, { channel: 'plan', transactionId: planTransactionId(subscriptionId, orderId), paidAt: at, actorId });
}

async function refundAnswer(tx: Db, charge: ChargeRow, event: Extract<ChannelEvent, { kind: 'refunded' | 'refund_failed' }>, now: Date): Promise<Effect> {
  if (charge.returnedRefundNo !== null && charge.returnedRefundNo === event.outRefundNo) {
    await recordAudit(tx, {
      at: now, actorId: null, area: 'payments', action: event.kind === 'refunded' ? 'returned-confirmed' : 'returned-failed', objectType: 'reportOrder',
      objectId: charge.orderId ?? `charge:${charge.id}`, after: { outTradeNo: charge.outTradeNo, outRefundNo: event.outRefundNo, ...(event.kind === 'refund_failed' ? { reason: event.reason } : {}) },
    });
    return { outcome: 'applied', result: event.kind === 'refunded' ? 'returned_confirmed' : 'returned_failed' };
  }
  if (charge.orderId === null) return { outcome: 'ignored', result: 'no_order' };
  const order = await orderRow(tx, charge.orderId, { lock: true });
  if (order.paymentStatus !== 2 || order.refundNo !== event.outRefundNo) return { outcome: 'ignored', result: 'not_refunding' };
  if (event.kind === 'refunded') {
    await completeRefund(tx, order, { refundNo: event.outRefundNo, at: event.at, reason: order.refundReason ?? '', operatorId: order.refundOperatorId });
    return { outcome: 'applied', result: 'refunded' };
  }
  // refunding → paid (machines/payment.ts refundFailed): the application stays paid, the channel's reason traced.
  await tx.update(reportOrders).set({ paymentStatus: 1, refundNo: null, version: sql`${reportOrders.version} + 1`, updated: now }).where(eq(reportOrders.id, order.id));
  await recordAudit(tx, {
    at: now, actorId: null, bucketId: order.fromBucketId, area: 'payments', action: 'refund-failed', objectType: 'reportOrder', objectId: order.id,
    before: { paymentStatus: 2, refundNo: order.refundNo }, after: { paymentStatus: 1, reason: event.reason },
  });
  return { outcome: 'applied', result: 'refund_failed' };
}

/** The origin used for the channel's refund notifications when no request is at hand. */
function originOf(deps: Deps): string {
  return deps.config.publicOrigin ?? 'http://127.0.0.1';
}

/**
 * Returns money that arrived for an application already paid: a full refund of that trade at the channel. The
 * charge order already carries returnedRefundNo (committed), and the refund number is fixed per trade, so asking
 * again (a retry) is the same refund at the channel, never a second one.
 */
async function giveMoneyBack(deps: Deps, charge: ChargeRow, outRefundNo: string): Promise<void> {
  const provider = paymentProvider(deps);
  try {
    await provider.refund({
      outTradeNo: charge.outTradeNo, outRefundNo, amountFen: charge.amountFen, totalFen: charge.amountFen,
      reason: 'Paid twice: returned', notifyUrl: notifyUrlOf(deps, originOf(deps), provider.name),
    });
  } catch (err) {
    // Traced for a person; the refund number stays on the charge order, so it can be asked again.
    await recordAudit(deps.db, {
      at: deps.clock.now(), actorId: null, area: 'payments', action: 'returned-failed', objectType: 'reportOrder', objectId: charge.orderId ?? `charge:${charge.id}`,
      after: { outTradeNo: charge.outTradeNo, outRefundNo, error: err instanceof Error ? err.message : String(err) },
    });
  }
}
