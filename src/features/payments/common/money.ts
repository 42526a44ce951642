import type { TFunction } from 'i18next';
import { formatYuan } from '../../../../contract/payments';

/** Fen as the screens show money: ¥ and two decimals (integer arithmetic in the contract's formatYuan). */
export function yuan(t: TFunction, amountFen: number): string {
  return t('payments.common.yuan', { amount: formatYuan(amountFen) });
}

/**
 * A fresh Idempotency-Key for one attempt of a paying call: the server answers a repeat of the same request (a
 * double submit, a resend after a lost answer) with its first answer instead of doing it twice.
 */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
