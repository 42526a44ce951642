import { eq } from 'drizzle-orm';
import type { Access } from '../../access/access';
import type { Db } from '../../db/client';
import { groups } from '../../db/schema';
import { ApiError } from '../../http/errors';

/**
 * Who may read a group's plans and credit (/work/notes/payments.md "Who may do what"): its administrators
 * (accessLevel 1) and accounts with payment_refund or an applying action in one of its organisations. Outside the
 * group 404; a member without those 403.
 */
const MONEY_ACTIONS = ['payment_refund', 'apply_expert_report', 'apply_remote_report'] as const;

export function isGroupMember(access: Access, groupId: number): boolean {
  return access.groups.has(groupId) || [...access.buckets.values()].some((b) => b.groupId === groupId);
}

export function assertGroupMoneyReader(access: Access, groupId: number): void {
  if (!isGroupMember(access, groupId)) throw new ApiError('NotFound');
  if (access.groups.get(groupId) === 1) return;
  const ok = [...access.buckets.values()].some((b) => b.groupId === groupId && MONEY_ACTIONS.some((a) => b.actions.has(a)));
  if (!ok) throw new ApiError('Forbidden');
}

/** The group's credit switch (areas §6 enableCredit): off → 403 CreditDisabled. */
export async function assertCreditEnabled(db: Db, groupId: number): Promise<void> {
  const [row] = await db.select({ enabled: groups.enableCredit }).from(groups).where(eq(groups.id, groupId));
  if (!row) throw new ApiError('NotFound');
  if (!row.enabled) throw new ApiError('CreditDisabled');
}

export async function creditEnabled(db: Db, groupId: number): Promise<boolean> {
  const [row] = await db.select({ enabled: groups.enableCredit }).from(groups).where(eq(groups.id, groupId));
  return row?.enabled ?? false;
}
