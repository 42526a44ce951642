import { eq } from 'drizzle-orm';
import type { Access } from '../../access/access';
import type { Db } from '../../db/client';
import { reportOrderTargets, reportOrders } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { ORDER_READ_ACTIONS } from '../requests/load';
import type { PaymentActor, PaymentChannelName } from '../../../machines/payment';
import {
  isPaymentAllowed, paymentRefusalFor, paymentStatusName, type PaymentAction, type PaymentState,
} from '../../../machines/paymentTransitions';

/** The money side's view of one application: its row, its target organisations, and the machine's questions. */

export type OrderRow = typeof reportOrders.$inferSelect;

/** The row, FOR UPDATE when `lock` (every paying write locks it before checking paymentStatus). 404 when absent. */
export async function orderRow(db: Db, id: number, opts: { lock?: boolean } = {}): Promise<OrderRow> {
  const query = db.select().from(reportOrders).where(eq(reportOrders.id, id));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (!row) throw new ApiError('NotFound');
  return row;
}

export async function targetBucketIds(db: Db, orderId: number): Promise<number[]> {
  const rows = await db.select({ bucketId: reportOrderTargets.bucketId }).from(reportOrderTargets).where(eq(reportOrderTargets.orderId, orderId));
  return rows.map((r) => r.bucketId);
}

/** The account as the payment machine sees it: its actions in the applicant organisation and the targets'. */
export function paymentActor(access: Access, row: OrderRow, targets: readonly number[]): PaymentActor {
  const at = (bucketId: number) => [...(access.buckets.get(bucketId)?.actions ?? [])];
  return { id: access.accountId, applicant: at(row.fromBucketId), target: [...new Set(targets.flatMap(at))] };
}

export function paymentState(row: OrderRow): PaymentState {
  return {
    status: paymentStatusName(row.paymentStatus),
    type: row.type === 'remote' ? 'remote' : 'expert',
    channel: (row.channel as PaymentChannelName | null) ?? null,
    withdrawn: row.progress === 'withdrawn',
  };
}

/**
 * Refuses `action` on the application for the account unless the machine allows it: 404 when the account is in
 * none of its organisations (ids from elsewhere reveal nothing), else the machine's reason (403, 409 …).
 */
export function assertPaymentAction(access: Access, row: OrderRow, targets: readonly number[], action: PaymentAction, input: { channel?: PaymentChannelName; reason?: string } = {}): void {
  const member = access.buckets.has(row.fromBucketId) || targets.some((t) => access.buckets.has(t));
  if (!member) throw new ApiError('NotFound');
  const actor = paymentActor(access, row, targets);
  const state = paymentState(row);
  if (isPaymentAllowed(state, actor, action, input)) return;
  const reason = paymentRefusalFor(state, actor, action);
  throw new ApiError(reason);
}

/**
 * Reading an application's payment, by the request side's rule (server/payments/requests/load.ts): members of a
 * target organisation, and members of the applicant organisation with an order action or exam_get; other members of
 * the applicant organisation 403, everyone else 404.
 */
export function assertReads(access: Access, row: Pick<OrderRow, 'fromBucketId'>, targets: readonly number[] | { anyTarget: boolean }): void {
  const inTarget = Array.isArray(targets) ? targets.some((t) => access.buckets.has(t)) : (targets as { anyTarget: boolean }).anyTarget;
  if (inTarget) return;
  const applicant = access.buckets.get(row.fromBucketId);
  if (!applicant) throw new ApiError('NotFound');
  if (!ORDER_READ_ACTIONS.some((a) => applicant.actions.has(a))) throw new ApiError('Forbidden');
}
