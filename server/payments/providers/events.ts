import { z } from 'zod';
import { ApiError } from '../../http/errors';
import type { ChannelEvent } from './provider';

/**
 * From a notification's (decrypted) resource to the ChannelEvent the money side acts on. WeChat Pay v3 and the
 * sandbox send the same resource fields (the sandbox speaks WeChat's dialect), so both map through here.
 */
const transactionResource = z.object({
  out_trade_no: z.string().min(1).max(64),
  transaction_id: z.string().min(1).max(64),
  trade_state: z.string(),
  success_time: z.string().datetime({ offset: true }),
  amount: z.object({ total: z.number().int().min(0) }),
});

const failedResource = z.object({ out_trade_no: z.string().min(1).max(64), trade_state: z.string(), trade_state_desc: z.string().optional() });

const refundResource = z.object({
  out_trade_no: z.string().min(1).max(64),
  out_refund_no: z.string().min(1).max(64),
  refund_id: z.string().min(1).max(64),
  refund_status: z.string(),
  success_time: z.string().datetime({ offset: true }).optional(),
  amount: z.object({ refund: z.number().int().min(0) }),
});

/** The event of a verified notification, or null for event types the product does not act on. */
export function eventOf(eventType: string, resource: Record<string, unknown>, now: Date): ChannelEvent | null {
  switch (eventType) {
    case 'TRANSACTION.SUCCESS': {
      const r = shape(transactionResource, resource);
      if (r.trade_state !== 'SUCCESS') return null;
      return { kind: 'paid', outTradeNo: r.out_trade_no, transactionId: r.transaction_id, amountFen: r.amount.total, paidAt: new Date(r.success_time) };
    }
    // The sandbox's Fail button; WeChat Pay itself sends no notification for a failed payment.
    case 'TRANSACTION.PAYERROR': {
      const r = shape(failedResource, resource);
      return { kind: 'failed', outTradeNo: r.out_trade_no, reason: r.trade_state_desc ?? r.trade_state };
    }
    case 'REFUND.SUCCESS': {
      const r = shape(refundResource, resource);
      return { kind: 'refunded', outTradeNo: r.out_trade_no, outRefundNo: r.out_refund_no, refundId: r.refund_id, amountFen: r.amount.refund, at: r.success_time ? new Date(r.success_time) : now };
    }
    case 'REFUND.ABNORMAL':
    case 'REFUND.CLOSED': {
      const r = shape(refundResource, resource);
      return { kind: 'refund_failed', outTradeNo: r.out_trade_no, outRefundNo: r.out_refund_no, reason: `${eventType} ${r.refund_status}` };
    }
    default:
      return null;
  }
}

/** A signed notification whose resource lacks what its event type promises is not one the product can act on. */
function shape<S extends z.ZodType>(schema: S, resource: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(resource);
  if (!result.success) throw new ApiError('PaymentNotificationInvalid', 'The notification resource is incomplete');
  return result.data;
}

/** Header lookup that accepts Node's lower-cased names and a repeated header (first value). */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string {
  const value = headers[name.toLowerCase()] ?? headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/** WeChat's (and the sandbox's) replay window: a signature more than 5 minutes off the local clock is refused. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** The timestamp header as unix seconds, refused outside the window. */
export function checkTimestamp(raw: string, now: Date): number {
  if (!/^\d{1,12}$/.test(raw)) throw new ApiError('PaymentNotificationInvalid', 'The timestamp is missing');
  const ts = Number(raw);
  if (Math.abs(Math.floor(now.getTime() / 1000) - ts) > SIGNATURE_WINDOW_SECONDS) throw new ApiError('PaymentNotificationInvalid', 'The timestamp is outside the 5-minute window');
  return ts;
}
