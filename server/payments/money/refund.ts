import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../../contract/common';
import { refundInput } from '../../../contract/payments';
import { authOf } from '../../auth/plugin';
import { parse } from '../../http/validate';
import { orderDetail } from '../requests/load';
import { withIdempotency } from './idempotency';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/client';
import { chargeOrders, planSubscriptions, reportOrders } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { notifyUrlOf, paymentProvider } from '../providers/index';
import { moveCredit } from './ledger';
import { assertPaymentAction, orderRow, targetBucketIds, type OrderRow } from './orders';
import { applyChannelEvent, completeRefund } from './settle';

/**
 * A refund (areas §4: full, to the original channel, deleting the experts' reports; machines/payment.ts). The route
 * checks the account's right (assertPaymentAction 'refund'); this checks the state again under the row's lock.
 * credit → the ledger's 'refund' row and refunded at once; plan → the report goes back to the plan; free → refunded;
 * weixin → refunding and the channel's refund: SUCCESS (the sandbox) settles at once through applyChannelEvent,
 * PROCESSING waits for the channel's notification, a refusal puts it back to paid with the reason traced.
 */

/** The refund number given to the channel: 'F' + the application's number (one refund per application). */
export const refundNoOf = (row: Pick<OrderRow, 'requestNo'>) => `F${row.requestNo}`;

export async function refundOrder(deps: Deps, orderId: number, input: { reason: string; operatorId: number; version?: number }): Promise<void> {
  const reason = input.reason.trim();
  if (!reason) throw new ApiError('ParamsError', 'A refund needs a reason', { fields: { reason: 'required' } });
  const now = deps.clock.now();
  const viaChannel = await deps.db.transaction(async (tx) => {
    const row = await orderRow(tx, orderId, { lock: true });
    if (input.version !== undefined && row.version !== input.version) throw new ApiError('VersionConflict');
    if (row.paymentStatus === 2) throw new ApiError('RefundProcessing');
    if (row.paymentStatus !== 1) throw new ApiError('InvalidTransition');
    const refundNo = refundNoOf(row);
    if (row.channel === 'weixin') {
      const [charge] = await tx.select().from(chargeOrders)
        .where(and(eq(chargeOrders.orderId, row.id), eq(chargeOrders.transactionId, row.transactionId ?? '')))
        .orderBy(desc(chargeOrders.id)).limit(1);
      if (!charge) throw new ApiError('PaymentInfoMissing', 'The paying charge order is missing');
      await tx.update(reportOrders).set({
        paymentStatus: 2, refundNo, refundReason: reason, refundOperatorId: input.operatorId, version: sql`${reportOrders.version} + 1`, updated: now,
      }).where(eq(reportOrders.id, row.id));
      await recordAudit(tx, {
        at: now, actorId: input.operatorId, bucketId: row.fromBucketId, area: 'payments', action: 'refund-requested', objectType: 'reportOrder', objectId: row.id,
        before: { paymentStatus: 1 }, after: { paymentStatus: 2, refundNo, reason },
      });
      return { charge, refundNo, amountFen: row.amountFen };
    }
    await refundAtOnce(tx, row, { refundNo, reason, operatorId: input.operatorId, at: now });
    return null;
  });
  if (!viaChannel) return;
  const provider = paymentProvider(deps);
  const { charge, refundNo } = viaChannel;
  let answer: Awaited<ReturnType<typeof provider.refund>>;
  try {
    answer = await provider.refund({
      outTradeNo: charge.outTradeNo, outRefundNo: refundNo, amountFen: viaChannel.amountFen, totalFen: charge.amountFen, reason,
      notifyUrl: notifyUrlOf(deps, deps.config.publicOrigin ?? 'http://127.0.0.1', provider.name),
    });
  } catch (err) {
    // The channel did not take it: back to paid (refundFailed), the reason traced, and the caller hears why.
    await applyChannelEvent(deps, { kind: 'refund_failed', outTradeNo: charge.outTradeNo, outRefundNo: refundNo, reason: err instanceof Error ? err.message : String(err) });
    throw err;
  }
  if (answer.state === 'SUCCESS') {
    await applyChannelEvent(deps, { kind: 'refunded', outTradeNo: charge.outTradeNo, outRefundNo: refundNo, refundId: answer.refundId, amountFen: viaChannel.amountFen, at: deps.clock.now() });
  } else if (answer.state === 'ABNORMAL' || answer.state === 'CLOSED') {
    await applyChannelEvent(deps, { kind: 'refund_failed', outTradeNo: charge.outTradeNo, outRefundNo: refundNo, reason: answer.state });
  }
  // PROCESSING: refunding until the channel's notification (or a refresh of the page) says how it ended.
}

/** credit, plan, free: the money (or the report) goes back in the same transaction that makes it refunded. */
async function refundAtOnce(tx: Db, row: OrderRow, r: { refundNo: string; reason: string; operatorId: number; at: Date }): Promise<void> {
  if (row.channel === 'credit' && row.amountFen > 0) {
    await moveCredit(tx, { groupId: row.groupId, kind: 'refund', amountFen: row.amountFen, orderId: row.id, accountId: r.operatorId, note: r.reason.slice(0, 256), at: r.at });
  }
  if (row.channel === 'plan') {
    const subscriptionId = Number(/^P(\d+)-/.exec(row.transactionId ?? '')?.[1]);
    if (Number.isInteger(subscriptionId) && subscriptionId > 0) {
      await tx.update(planSubscriptions).set({ reportsUsed: sql`greatest(${planSubscriptions.reportsUsed} - 1, 0)` }).where(eq(planSubscriptions.id, subscriptionId));
    }
  }
  await completeRefund(tx, row, { refundNo: r.refundNo, at: r.at, reason: r.reason, operatorId: r.operatorId });
}

/** POST payments/{id}/refund {reason, version} (Idempotency-Key): payment_refund in the applicant or a target organisation. */
export async function refundRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;
  app.post('/payments/:id/refund', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const input = parse(refundInput, req.body);
    const access = await authOf(req).access();
    const answer = await withIdempotency(req, `payments/${id}/refund`, async () => {
      const row = await orderRow(db, id);
      assertPaymentAction(access, row, await targetBucketIds(db, id), 'refund', { reason: input.reason });
      await refundOrder(deps, id, { reason: input.reason, operatorId: access.accountId, version: input.version });
      return { status: 200, body: await orderDetail(db, access, id) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });
}
