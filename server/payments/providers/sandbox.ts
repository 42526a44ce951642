import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { SandboxTradeView } from '../../../contract/payments';
import type { Db } from '../../db/client';
import { sandboxTrades } from '../../db/schema';
import type { Clock } from '../../deps';
import { ApiError } from '../../http/errors';
import { checkTimestamp, eventOf, header } from './events';
import type { ChannelTrade, NativeOrder, PaymentProvider, RefundRequest, TradeState, VerifiedNotification } from './provider';
import { rfc3339China } from './wechatV3';

/**
 * The embedded payment channel (the default when WeChat Pay is not configured): it keeps its own books in
 * `sandbox_trades`, as WeChat Pay keeps its own, so the product sees a channel that answers later and may know of a
 * payment the product has not heard of yet (a crash between the two: the reconciler asks `query`). Its QR opens the
 * local confirmation page /sandbox-pay/{outTradeNo}?s=…, whose Pay and Fail buttons stand for the payer's phone.
 *
 * Notifications speak WeChat's dialect (the same JSON: id, create_time, event_type, resource_type, summary,
 * resource; the same Wechatpay-* headers) but the resource is plain (resource_type 'plain-resource': the fields of
 * WeChat's decrypted resource) and the signature is an HMAC-SHA256 over "timestamp\nnonce\nbody\n" with a key
 * derived from the server's secret, Wechatpay-Serial 'sandbox'. They are handed to the same function the notify
 * route calls, in the background, with retries like WeChat's (a failed settle is tried again).
 */
export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /** The `s` of a trade's page: only who holds the QR (or the server) knows it. */
  signatureOf(outTradeNo: string): string;
  checkSignature(outTradeNo: string, s: string): boolean;
  view(outTradeNo: string): Promise<SandboxTradeView>;
  /** The payer pays / the payment fails: once, only while unpaid and not expired; then the notification goes out. */
  pay(outTradeNo: string): Promise<SandboxTradeView>;
  fail(outTradeNo: string): Promise<SandboxTradeView>;
  /** Resolves when every notification handed out so far was delivered or given up (tests, shutdown). */
  idle(): Promise<void>;
}

export type Deliver = (headers: Record<string, string>, rawBody: string) => Promise<void>;

export const SANDBOX_SERIAL = 'sandbox';
/** After the first try: like WeChat Pay's schedule, shortened (one machine, nobody waits minutes). */
export const SANDBOX_RETRY_DELAYS_MS = [1000, 3000, 10_000, 30_000];

type Row = typeof sandboxTrades.$inferSelect;

export function createSandboxProvider(opts: { db: Db; clock: Clock; secret: Buffer; deliver: Deliver; retryDelaysMs?: number[] }): SandboxProvider {
  const { db, clock } = opts;
  const pageKey = createHmac('sha256', opts.secret).update('sandbox-pay-page').digest();
  const notifyKey = createHmac('sha256', opts.secret).update('sandbox-notify').digest();
  const delays = opts.retryDelaysMs ?? SANDBOX_RETRY_DELAYS_MS;
  const pending = new Set<Promise<void>>();

  const signatureOf = (outTradeNo: string) => createHmac('sha256', pageKey).update(outTradeNo).digest('base64url').slice(0, 32);
  const macOf = (timestamp: string, nonce: string, body: string) => createHmac('sha256', notifyKey).update(`${timestamp}\n${nonce}\n${body}\n`).digest('base64');

  const find = async (outTradeNo: string): Promise<Row | undefined> => (await db.select().from(sandboxTrades).where(eq(sandboxTrades.outTradeNo, outTradeNo)))[0];
  const notFound = () => new ApiError('PaymentChannelError', 'The trade does not exist', { channelCode: 'ORDER_NOT_EXIST' });

  const viewOf = (row: Row): SandboxTradeView => ({
    outTradeNo: row.outTradeNo,
    amountFen: row.amountFen,
    description: row.description,
    state: row.state as SandboxTradeView['state'],
    expiresAt: row.expiresAt.toISOString(),
    expired: row.state === 'NOTPAY' && row.expiresAt.getTime() <= clock.now().getTime(),
    transactionId: row.transactionId,
    paidAt: row.paidAt?.toISOString() ?? null,
  });

  /** Why pay/fail did nothing: the row as it is now says it. */
  async function refusal(outTradeNo: string): Promise<ApiError> {
    const row = await find(outTradeNo);
    if (!row) return new ApiError('NotFound');
    if (row.state === 'SUCCESS' || row.state === 'REFUND') return new ApiError('OrderAlreadyPaid');
    return new ApiError('PaymentCodeExpired');
  }

  /** Signs and hands a notification to the product; retried in the background until it is taken or the tries run out. */
  function notify(eventType: string, summary: string, resource: Record<string, unknown>): void {
    const at = clock.now();
    const body = JSON.stringify({
      id: `SBXN${randomBytes(12).toString('hex')}`, create_time: rfc3339China(at), resource_type: 'plain-resource', event_type: eventType, summary, resource,
    });
    const attempt = (): Promise<void> => {
      const timestamp = String(Math.floor(clock.now().getTime() / 1000));
      const nonce = randomBytes(16).toString('hex');
      return opts.deliver({ 'wechatpay-serial': SANDBOX_SERIAL, 'wechatpay-timestamp': timestamp, 'wechatpay-nonce': nonce, 'wechatpay-signature': macOf(timestamp, nonce, body), 'content-type': 'application/json' }, body);
    };
    const run = (async () => {
      for (let i = 0; ; i++) {
        try {
          await attempt();
          return;
        } catch {
          // The product could not settle it now (database busy, shutting down): WeChat would call again, so do we.
          if (i >= delays.length) return;
          await new Promise<void>((resolve) => setTimeout(resolve, delays[i]).unref());
        }
      }
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  const transactionResource = (row: Row) => ({
    mchid: 'sandbox', appid: 'sandbox', out_trade_no: row.outTradeNo, transaction_id: row.transactionId, trade_type: 'NATIVE', trade_state: row.state,
    trade_state_desc: row.state === 'SUCCESS' ? 'paid in the sandbox' : 'payment failed in the sandbox',
    success_time: row.paidAt ? rfc3339China(row.paidAt) : undefined, amount: { total: row.amountFen, payer_total: row.amountFen, currency: 'CNY', payer_currency: 'CNY' },
  });

  return {
    name: 'sandbox',
    signatureOf,

    checkSignature(outTradeNo, s) {
      const expected = Buffer.from(signatureOf(outTradeNo));
      const given = Buffer.from(s);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    async createNative(order: NativeOrder) {
      let origin: string;
      try { origin = new URL(order.notifyUrl).origin; } catch { throw new ApiError('PaymentInfoMissing', 'The notify URL is not an address'); }
      if (!Number.isInteger(order.amountFen) || order.amountFen <= 0) throw new ApiError('PaymentChannelError', 'The amount must be positive', { channelCode: 'PARAM_ERROR' });
      const inserted = await db.insert(sandboxTrades).values({
        outTradeNo: order.outTradeNo, amountFen: order.amountFen, description: order.description.slice(0, 128), expiresAt: order.expiresAt,
      }).onConflictDoNothing().returning({ outTradeNo: sandboxTrades.outTradeNo });
      if (!inserted.length) {
        // WeChat answers a repeat of the same order with the same code and refuses another order under the number.
        const row = await find(order.outTradeNo);
        if (!row || row.amountFen !== order.amountFen) throw new ApiError('PaymentChannelError', 'The trade number is used by another order', { channelCode: 'OUT_TRADE_NO_USED' });
      }
      return { codeUrl: `${origin}/sandbox-pay/${encodeURIComponent(order.outTradeNo)}?s=${signatureOf(order.outTradeNo)}` };
    },

    async query(outTradeNo): Promise<ChannelTrade> {
      const row = await find(outTradeNo);
      if (!row) throw notFound();
      return { outTradeNo, state: row.state as TradeState, transactionId: row.transactionId, amountFen: row.amountFen, paidAt: row.paidAt };
    },

    async close(outTradeNo) {
      const closed = await db.update(sandboxTrades).set({ state: 'CLOSED' })
        .where(and(eq(sandboxTrades.outTradeNo, outTradeNo), inArray(sandboxTrades.state, ['NOTPAY', 'PAYERROR']))).returning({ outTradeNo: sandboxTrades.outTradeNo });
      if (closed.length) return;
      const row = await find(outTradeNo);
      if (!row) throw notFound();
      if (row.state === 'SUCCESS' || row.state === 'REFUND') throw new ApiError('PaymentChannelError', 'The trade is paid', { channelCode: 'ORDERPAID' });
      // CLOSED already: closing again is harmless, as at WeChat.
    },

    async refund(request: RefundRequest) {
      if (!Number.isInteger(request.amountFen) || request.amountFen <= 0) throw new ApiError('PaymentChannelError', 'The refund amount must be positive', { channelCode: 'PARAM_ERROR' });
      const at = clock.now();
      // One statement: the refundable rest is checked and taken together, so two refunds cannot both pass.
      const [row] = await db.update(sandboxTrades).set({ state: 'REFUND', refundedFen: sql`${sandboxTrades.refundedFen} + ${request.amountFen}` })
        .where(and(
          eq(sandboxTrades.outTradeNo, request.outTradeNo), inArray(sandboxTrades.state, ['SUCCESS', 'REFUND']),
          sql`${sandboxTrades.refundedFen} + ${request.amountFen} <= ${sandboxTrades.amountFen}`,
        )).returning();
      if (!row) {
        const current = await find(request.outTradeNo);
        if (!current) throw notFound();
        if (current.state !== 'SUCCESS' && current.state !== 'REFUND') throw new ApiError('PaymentChannelError', 'The trade is not paid', { channelCode: 'TRADE_NOT_PAID' });
        throw new ApiError('PaymentChannelError', 'The refund exceeds what is left to refund', { channelCode: 'NOT_ENOUGH' });
      }
      const refundId = `SBXR${randomBytes(12).toString('hex').toUpperCase()}`;
      notify('REFUND.SUCCESS', 'Refunded', {
        mchid: 'sandbox', out_trade_no: row.outTradeNo, transaction_id: row.transactionId, out_refund_no: request.outRefundNo, refund_id: refundId,
        refund_status: 'SUCCESS', success_time: rfc3339China(at), amount: { total: row.amountFen, refund: request.amountFen, payer_total: row.amountFen, payer_refund: request.amountFen },
      });
      return { state: 'SUCCESS' as const, refundId };
    },

    async verifyNotification(headers, rawBody): Promise<VerifiedNotification> {
      const at = clock.now();
      if (header(headers, 'Wechatpay-Serial') !== SANDBOX_SERIAL) throw new ApiError('PaymentNotificationInvalid', 'Wechatpay-Serial is not the sandbox key');
      const timestamp = header(headers, 'Wechatpay-Timestamp');
      checkTimestamp(timestamp, at);
      const nonce = header(headers, 'Wechatpay-Nonce');
      const given = Buffer.from(header(headers, 'Wechatpay-Signature'), 'base64');
      const expected = Buffer.from(macOf(timestamp, nonce, rawBody), 'base64');
      if (!nonce || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ApiError('PaymentNotificationInvalid', 'The signature does not verify');
      let body: { id?: unknown; event_type?: unknown; resource?: unknown };
      try { body = JSON.parse(rawBody); } catch { throw new ApiError('PaymentNotificationInvalid', 'Not a notification'); }
      if (typeof body.id !== 'string' || typeof body.event_type !== 'string' || !body.resource || typeof body.resource !== 'object') throw new ApiError('PaymentNotificationInvalid', 'Not a notification');
      const resource = body.resource as Record<string, unknown>;
      return { id: body.id, eventType: body.event_type, resource, event: eventOf(body.event_type, resource, at) };
    },

    async view(outTradeNo) {
      const row = await find(outTradeNo);
      if (!row) throw new ApiError('NotFound');
      return viewOf(row);
    },

    async pay(outTradeNo) {
      const at = clock.now();
      const [row] = await db.update(sandboxTrades).set({ state: 'SUCCESS', transactionId: `SBX${randomBytes(12).toString('hex').toUpperCase()}`, paidAt: at })
        .where(and(eq(sandboxTrades.outTradeNo, outTradeNo), eq(sandboxTrades.state, 'NOTPAY'), gt(sandboxTrades.expiresAt, at))).returning();
      if (!row) throw await refusal(outTradeNo);
      notify('TRANSACTION.SUCCESS', 'Payment succeeded', transactionResource(row));
      return viewOf(row);
    },

    async fail(outTradeNo) {
      const at = clock.now();
      const [row] = await db.update(sandboxTrades).set({ state: 'PAYERROR' })
        .where(and(eq(sandboxTrades.outTradeNo, outTradeNo), eq(sandboxTrades.state, 'NOTPAY'), gt(sandboxTrades.expiresAt, at))).returning();
      if (!row) throw await refusal(outTradeNo);
      notify('TRANSACTION.PAYERROR', 'Payment failed', transactionResource(row));
      return viewOf(row);
    },

    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

export function isSandbox(provider: PaymentProvider): provider is SandboxProvider {
  return provider.name === 'sandbox' && typeof (provider as Partial<SandboxProvider>).pay === 'function';
}
