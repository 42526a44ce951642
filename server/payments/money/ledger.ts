import { eq, sql } from 'drizzle-orm';
import type { CreditLedgerKind } from '../../../contract/payments';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/client';
import { creditLedger, groupCredits } from '../../db/schema';
import { ApiError } from '../../http/errors';

/**
 * Credit movements (areas §3 credit). One rule for every kind: inside the caller's transaction, lock the group's
 * balance row (created at 0 on first use), append the ledger row with the balance right after it, update the
 * balance and record the audit event. The ledger is append-only and proves the balance: the sum of a group's
 * amounts is its balance and every row's balanceAfterFen is the running sum. The unique indexes (one charge and one
 * refund per application, one recharge per charge order, one movement per idempotency key) are the last guard
 * against paying twice; the balance's check constraint the last guard against going below zero.
 */

export interface CreditMovement {
  groupId: number;
  kind: CreditLedgerKind;
  /** Signed fen: + recharge, refund, positive adjust; − charge, negative adjust. Never 0. */
  amountFen: number;
  orderId?: number | null;
  chargeOrderId?: number | null;
  accountId: number | null;
  idempotencyKey?: string | null;
  note?: string | null;
  at: Date;
}

/** Locks the group's balance row FOR UPDATE (creating it at 0 first when the group has none) and returns it. */
export async function lockCredit(tx: Db, groupId: number): Promise<{ balanceFen: number; version: number }> {
  await tx.insert(groupCredits).values({ groupId }).onConflictDoNothing();
  const [row] = await tx.select({ balanceFen: groupCredits.balanceFen, version: groupCredits.version }).from(groupCredits)
    .where(eq(groupCredits.groupId, groupId)).for('update');
  return row!;
}

/** Applies one movement; a charge or negative adjust over the balance is 409 InsufficientBalance (with details). */
export async function moveCredit(tx: Db, m: CreditMovement): Promise<{ entryId: number; balanceFen: number }> {
  const { balanceFen } = await lockCredit(tx, m.groupId);
  const after = balanceFen + m.amountFen;
  if (after < 0) throw new ApiError('InsufficientBalance', undefined, { balanceFen, amountFen: -m.amountFen });
  const [entry] = await tx.insert(creditLedger).values({
    groupId: m.groupId, kind: m.kind, amountFen: m.amountFen, balanceAfterFen: after, orderId: m.orderId ?? null,
    chargeOrderId: m.chargeOrderId ?? null, accountId: m.accountId, idempotencyKey: m.idempotencyKey ?? null, note: m.note ?? null, created: m.at,
  }).returning({ id: creditLedger.id });
  await tx.update(groupCredits).set({ balanceFen: after, version: sql`${groupCredits.version} + 1`, updated: m.at })
    .where(eq(groupCredits.groupId, m.groupId));
  await recordAudit(tx, {
    at: m.at, actorId: m.accountId, area: 'payments', action: `credit-${m.kind}`, objectType: 'creditLedger', objectId: entry!.id,
    before: { balanceFen }, after: { balanceFen: after, amountFen: m.amountFen, groupId: m.groupId, orderId: m.orderId ?? null, chargeOrderId: m.chargeOrderId ?? null },
  });
  return { entryId: entry!.id, balanceFen: after };
}

/** The balance without locking (reads: the credit page, the detail). */
export async function balanceOf(db: Db, groupId: number): Promise<number> {
  const [row] = await db.select({ balanceFen: groupCredits.balanceFen }).from(groupCredits).where(eq(groupCredits.groupId, groupId));
  return row?.balanceFen ?? 0;
}
