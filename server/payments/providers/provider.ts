/**
 * A payment channel that answers later (areas §3: weixin). Two implementations: WeChat Pay API v3 native QR
 * (wechatV3.ts: signs each request, verifies notification signatures, decrypts their resource) and the sandbox
 * (sandbox.ts: the embedded default; its own books in `sandbox_trades`, its QR opens a local confirmation page), so
 * the whole flow runs on one machine. The money side (server/payments/money) knows only this interface.
 */

/** What a channel tells about a trade or a refund, once verified: the only input the money side acts on. */
export type ChannelEvent =
  | { kind: 'paid'; outTradeNo: string; transactionId: string; amountFen: number; paidAt: Date }
  | { kind: 'closed'; outTradeNo: string }
  | { kind: 'failed'; outTradeNo: string; reason: string }
  | { kind: 'refunded'; outTradeNo: string; outRefundNo: string; refundId: string; amountFen: number; at: Date }
  | { kind: 'refund_failed'; outTradeNo: string; outRefundNo: string; reason: string };

/** WeChat Pay's trade states (v3 "trade_state"), which the sandbox speaks too. */
export type TradeState = 'NOTPAY' | 'USERPAYING' | 'SUCCESS' | 'CLOSED' | 'PAYERROR' | 'REFUND' | 'REVOKED';

export interface ChannelTrade {
  outTradeNo: string;
  state: TradeState;
  transactionId: string | null;
  amountFen: number | null;
  paidAt: Date | null;
}

export interface NativeOrder {
  outTradeNo: string;
  description: string;
  amountFen: number;
  expiresAt: Date;
  /** Where the channel sends its notifications (the public origin + /api/v1/payments/notify/{provider}). */
  notifyUrl: string;
}

export interface RefundRequest {
  outTradeNo: string;
  outRefundNo: string;
  amountFen: number;
  totalFen: number;
  reason: string;
  notifyUrl: string;
}

export interface VerifiedNotification {
  /** The channel's notification id: a repeat carries the same one (deduplicated in payment_notifications). */
  id: string;
  eventType: string;
  resource: Record<string, unknown>;
  /** null when the notification is about something the product does not act on. */
  event: ChannelEvent | null;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'wechat';
  /** A native (QR) pre-paid order: what the QR encodes. Throws PaymentChannelUnavailable / PaymentChannelError. */
  createNative(order: NativeOrder): Promise<{ codeUrl: string }>;
  /** The channel's view of a trade (paid-confirm, the reconciler after a restart). */
  query(outTradeNo: string): Promise<ChannelTrade>;
  /** Closes an unpaid trade (an expired or replaced code), so it can no longer be paid. */
  close(outTradeNo: string): Promise<void>;
  /** A full refund to the original account: SUCCESS at once (sandbox) or PROCESSING until its notification. */
  refund(request: RefundRequest): Promise<{ state: 'SUCCESS' | 'PROCESSING' | 'ABNORMAL' | 'CLOSED'; refundId: string }>;
  /** Verifies (signature, timestamp window) and decrypts a notification; throws PaymentNotificationInvalid. */
  verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<VerifiedNotification>;
}
