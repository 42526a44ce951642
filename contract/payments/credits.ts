import { z } from 'zod';
import { idValue, pageQuerySchema, type Operator } from '../common';
import { DEFAULT_QUERY_LIMIT } from '../constants';

/** What a group pays applications with besides the QR channel: plans (a number of reports) and credit (a balance in fen). Re-exported by `contract/payments.ts`. */

// ── Plans ───────────────────────────────────────────────────────────────────────────────────────────────────────

export interface PlanSubscription {
  id: number;
  packageId: number;
  name: string;
  reportsTotal: number;
  reportsUsed: number;
  startsAt: string;
  expiresAt: string;
}

/** GET plans/check?orderId: can a plan of the group pay this application? */
export interface PlanCheck {
  covered: boolean;
  subscription: PlanSubscription | null;
}
export const planCheckQuery = z.object({ orderId: idValue }).strict();
export const planGroupQuery = z.object({ groupId: idValue }).strict();
/** POST plans/use: pay the application from the plan (Idempotency-Key). */
export const planUseInput = z.object({ orderId: idValue }).strict();

// ── Credits ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface GroupCredit {
  groupId: number;
  enabled: boolean;
  balanceFen: number;
}
export const groupCreditQuery = z.object({ groupId: idValue }).strict();

/** POST credits/create-token: the account's password, checked (and throttled) like a login. */
export const createChargeTokenInput = z.object({ groupId: idValue, password: z.string().min(1).max(128) }).strict();
export interface ChargeToken {
  chargeToken: string;
  expiresAt: string;
}

/** POST credits/charge with Charge-Authorization: pay an application from the group's credit. */
export const creditChargeInput = z.object({ orderId: idValue }).strict();

/** POST credits/recharge: a credit package bought through the QR channel. */
export const rechargeInput = z.object({ groupId: idValue, packageId: idValue }).strict();

/** POST credits/adjust: a group administrator's correction (±, with a note). */
export const creditAdjustInput = z.object({ groupId: idValue, amountFen: z.number().int().min(-100_000_000).max(100_000_000).refine((n) => n !== 0), note: z.string().trim().max(256).min(1) }).strict();

export const CREDIT_LEDGER_KINDS = ['recharge', 'charge', 'refund', 'adjust'] as const;
export type CreditLedgerKind = (typeof CREDIT_LEDGER_KINDS)[number];

export interface CreditLedgerEntry {
  id: number;
  kind: CreditLedgerKind;
  /** Signed: + recharge, refund; − charge. */
  amountFen: number;
  balanceAfterFen: number;
  orderId: number | null;
  requestNo: string | null;
  accountName: string | null;
  note: string | null;
  created: string;
}

export const CREDIT_FILTER_FIELDS = {
  kind: { kind: 'enum', operators: ['equal', 'in'] },
  created: { kind: 'time', operators: ['gte', 'lte'] },
  orderId: { kind: 'int', operators: ['equal'] },
} as const satisfies Record<string, { kind: string; operators: readonly Operator[] }>;

/** POST credits/page-query: the ledger of one group, newest first. */
export const creditPageQuery = pageQuerySchema.extend({
  groupId: idValue,
  limit: z.number().int().min(1).max(100).default(DEFAULT_QUERY_LIMIT),
});
export type CreditPageQuery = z.input<typeof creditPageQuery>;

/** GET credits/sums?groupId&from&to */
export const creditSumsQuery = z.object({ groupId: idValue, from: z.string().datetime({ offset: true }).optional(), to: z.string().datetime({ offset: true }).optional() }).strict();
export interface CreditSums {
  balanceFen: number;
  rechargedFen: number;
  chargedFen: number;
  refundedFen: number;
  adjustedFen: number;
}
