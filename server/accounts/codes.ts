import { randomInt } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { CODE_MAX_TRIES, CODE_RESEND_SECONDS, CODE_TTL_SECONDS } from '../../contract/accounts';
import type { Db } from '../db/client';
import { accounts, verificationCodes } from '../db/schema';
import { hashPassword, verifyPassword } from '../auth/password';
import { ApiError } from '../http/errors';

/**
 * One-time verification codes sent by SMS (settings/mobile, password reset): 6 random digits, kept only as a
 * scrypt hash (verification_codes), alive 10 minutes, 5 wrong tries, used once. A new code of the same purpose
 * supersedes the earlier one. An account gets at most one code per 60 seconds, whatever the purpose (429
 * TooManyAttempts with details.retryAfter).
 */
export type CodePurpose = 'bind-mobile' | 'reset-password';

export type CodeFailure = 'missing' | 'expired' | 'tooManyTries' | 'wrong';

export type CodeOutcome = { ok: true } | { ok: false; reason: CodeFailure; triesLeft: number };

/** The code's hashing cost: a 6-digit code has a million values, so the hash must be slow to try them all. */
const CODE_HASH_COST = 16384;

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Stores a new code for the account inside `tx` (which must run the sending too, so a failed send leaves no code)
 * after the 60-second rule. The account row is locked, so two sends at once cannot both pass the rule.
 */
export async function storeCode(tx: Db, input: { accountId: number; purpose: CodePurpose; mobile: string; now: Date; scryptCost: number }): Promise<string> {
  const { accountId, purpose, mobile, now } = input;
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
  const [last] = await tx.select({ created: verificationCodes.created }).from(verificationCodes)
    .where(eq(verificationCodes.accountId, accountId)).orderBy(desc(verificationCodes.created)).limit(1);
  const next = last ? last.created.getTime() + CODE_RESEND_SECONDS * 1000 : 0;
  if (next > now.getTime()) {
    throw new ApiError('TooManyAttempts', 'A code was sent less than a minute ago', { retryAfter: Math.max(1, Math.ceil((next - now.getTime()) / 1000)) });
  }
  // Superseded: only the newest code of a purpose is valid.
  await tx.update(verificationCodes).set({ usedAt: now })
    .where(and(eq(verificationCodes.accountId, accountId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt)));
  const code = newCode();
  // Tests and benchmarks run with a cheap password cost; production's is at least the code's own.
  const codeHash = await hashPassword(code, Math.min(CODE_HASH_COST, Math.max(1024, input.scryptCost)));
  await tx.insert(verificationCodes).values({
    accountId, purpose, mobile, codeHash, expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000), created: now,
  });
  return code;
}

/**
 * Checks `code` against the account's newest open code of `purpose` for `mobile`, inside `tx`. A wrong code costs
 * a try (the count is written even though the caller then refuses: it must commit the transaction and throw after,
 * see `codeError`); the right one is marked used. A code for another number counts as wrong.
 */
export async function consumeCode(tx: Db, input: { accountId: number; purpose: CodePurpose; mobile: string; code: string; now: Date }): Promise<CodeOutcome> {
  const { accountId, purpose, mobile, code, now } = input;
  const [row] = await tx.select().from(verificationCodes)
    .where(and(eq(verificationCodes.accountId, accountId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt)))
    .orderBy(desc(verificationCodes.id)).limit(1).for('update');
  if (!row) return { ok: false, reason: 'missing', triesLeft: 0 };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired', triesLeft: 0 };
  if (row.attempts >= CODE_MAX_TRIES) return { ok: false, reason: 'tooManyTries', triesLeft: 0 };
  const right = row.mobile === mobile && await verifyPassword(code, row.codeHash);
  if (!right) {
    await tx.update(verificationCodes).set({ attempts: sql`${verificationCodes.attempts} + 1` }).where(eq(verificationCodes.id, row.id));
    const triesLeft = CODE_MAX_TRIES - row.attempts - 1;
    return { ok: false, reason: triesLeft > 0 ? 'wrong' : 'tooManyTries', triesLeft };
  }
  await tx.update(verificationCodes).set({ usedAt: now }).where(eq(verificationCodes.id, row.id));
  return { ok: true };
}

export function codeError(outcome: Exclude<CodeOutcome, { ok: true }>): ApiError {
  return new ApiError('VerificationCodeInvalid', undefined, { reason: outcome.reason, triesLeft: outcome.triesLeft });
}

/** 13812345678 → 138****5678; an international number keeps its first 4 and last 4 characters. */
export function maskMobile(mobile: string): string {
  if (mobile.length <= 8) return `${mobile.slice(0, 2)}****${mobile.slice(-2)}`;
  const head = mobile.startsWith('+') ? 4 : 3;
  return `${mobile.slice(0, head)}${'*'.repeat(mobile.length - head - 4)}${mobile.slice(-4)}`;
}

/** The text of a code's SMS. */
export function codeText(purpose: CodePurpose, code: string): string {
  const what = purpose === 'bind-mobile' ? '绑定手机号 / bind this mobile number' : '重置密码 / reset your password';
  return `验证码 / Verification code ${code}: ${what}. 10 分钟内有效 / valid for 10 minutes.`;
}
