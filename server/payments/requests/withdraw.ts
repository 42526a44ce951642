import { eq, sql } from 'drizzle-orm';
import { canWithdraw, storedState } from '../../../machines/expertRequestTransitions';
import type { Access } from '../../access/access';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/client';
import { exams, reportOrderTargets, reportOrders } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { refundOrder } from '../money/refund';
import { applyActionOf, loadOrder, type OrderRow } from './load';

/**
 * DELETE report-requests/{id}: withdrawing an application (areas §4: asking again needs a new application). Only the
 * applicant side with the applying action, only while nothing is written on any copy (the request machine). A paid
 * one is refunded first (M's refundOrder: same rules as a refund, the experts' copies removed), then withdrawn.
 */
export async function withdrawOrder(deps: Deps, access: Access, id: number): Promise<void> {
  const { db } = deps;
  const first = await checkWithdraw(db, access, id, false);
  if (first.paymentStatus === 1) await refundOrder(deps, id, { reason: 'withdrawn', operatorId: access.accountId });
  const now = deps.clock.now();
  await db.transaction(async (tx) => {
    const row = await checkWithdraw(tx, access, id, true);
    await tx.update(reportOrders).set({ progress: 'withdrawn', withdrawnAt: now, version: sql`${reportOrders.version} + 1`, updated: now })
      .where(eq(reportOrders.id, id));
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId: row.fromBucketId, area: 'payments', action: 'withdraw', objectType: 'reportOrder', objectId: id,
      before: { progress: row.progress, paymentStatus: row.paymentStatus }, after: { progress: 'withdrawn' },
    });
  });
}

/** The row, refused unless the account may withdraw it now; `locked`: read FOR UPDATE in a transaction. */
async function checkWithdraw(db: Db, access: Access, id: number, locked: boolean): Promise<OrderRow> {
  const { row, sides } = await loadOrder(db, access, id, { lock: locked });
  if (sides.applicant === null) throw new ApiError('Forbidden');
  if (!sides.applicant.includes(applyActionOf(row.type))) throw new ApiError('Forbidden');
  if (row.paymentStatus === 2) throw new ApiError('RefundProcessing');
  const copies = await db.select({ status: exams.reportStatus }).from(reportOrderTargets)
    .leftJoin(exams, eq(exams.id, reportOrderTargets.expertExamId)).where(eq(reportOrderTargets.orderId, id));
  const state = storedState(row.type as 'expert' | 'remote', {
    progress: row.progress as 'awaiting_payment' | 'queued' | 'withdrawn',
    // After the refund of a paid one its copies are gone and payment status is 3: still withdrawable as a record.
    paymentStatus: row.paymentStatus === 3 && locked && row.progress !== 'withdrawn' ? 1 : row.paymentStatus,
    copyStatuses: copies.map((c) => c.status),
  });
  if (canWithdraw(state)) return row;
  if (state.status === 'reporting' || state.status === 'reported') throw new ApiError('ReportWritingBegun');
  throw new ApiError('InvalidTransition');
}
