import { createDecipheriv, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { WechatPayConfig } from '../../config';
import { ApiError } from '../../http/errors';
import { checkTimestamp, eventOf, header } from './events';
import type { ChannelTrade, NativeOrder, PaymentProvider, RefundRequest, TradeState, VerifiedNotification } from './provider';

/**
 * WeChat Pay API v3, native (QR) payments, with node:crypto and fetch only (docs/decisions.md "Payments: channels":
 * no SDK). Every request carries `Authorization: WECHATPAY2-SHA256-RSA2048 …`, a SHA256withRSA signature by the
 * merchant's private key over "METHOD\nPATH?QUERY\ntimestamp\nnonce\nbody\n". Every answer and notification is
 * checked the other way: Wechatpay-Signature over "timestamp\nnonce\nbody\n" with WeChat Pay's platform public key,
 * Wechatpay-Serial equal to that key's id and the timestamp within 5 minutes. A notification's resource is
 * AEAD_AES_256_GCM ciphertext under the APIv3 key.
 */
export interface WechatV3Options {
  fetch?: typeof fetch;
  now?: () => Date;
  /** How long one call may take before the channel counts as unavailable. */
  timeoutMs?: number;
}

const TRADE_STATES: readonly TradeState[] = ['NOTPAY', 'USERPAYING', 'SUCCESS', 'CLOSED', 'PAYERROR', 'REFUND', 'REVOKED'];
const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';

export function createWechatV3Provider(config: WechatPayConfig, options: WechatV3Options = {}): PaymentProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const privateKey = createPrivateKey(config.privateKeyPem);
  const platformKey = createPublicKey(config.platformPublicKeyPem);
  const apiV3Key = Buffer.from(config.apiV3Key, 'utf8');
  const base = config.baseUrl.replace(/\/+$/, '');

  /** One signed call; answers the verified JSON body (null for 204). */
  async function call(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<Record<string, unknown> | null> {
    const url = new URL(base + pathAndQuery);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'rad-workstation (node fetch)',
      authorization: authorization(config, privateKey, method, url.pathname + url.search, payload, now()),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { method, headers, body: body === undefined ? undefined : payload, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch {
      throw new ApiError('PaymentChannelUnavailable');
    }
    if (!res.ok) {
      const error = parseJson(text);
      const channelCode = typeof error?.code === 'string' ? error.code : `HTTP_${res.status}`;
      const message = typeof error?.message === 'string' ? error.message : undefined;
      throw new ApiError('PaymentChannelError', message, { channelCode });
    }
    // An answer that does not verify may come from anyone between here and WeChat Pay: nothing in it is believed.
    try {
      verifySigned(config, platformKey, Object.fromEntries(res.headers), text, now());
    } catch {
      throw new ApiError('PaymentChannelError', 'The payment service answer did not verify', { channelCode: 'SIGNATURE_INVALID' });
    }
    if (res.status === 204 || !text) return null;
    const parsed = parseJson(text);
    if (!parsed) throw new ApiError('PaymentChannelError', 'The payment service answered something unreadable', { channelCode: 'BAD_RESPONSE' });
    return parsed;
  }

  const tradePath = (outTradeNo: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}`;

  return {
    name: 'wechat',

    async createNative(order: NativeOrder) {
      const answer = await call('POST', '/v3/pay/transactions/native', {
        appid: config.appid,
        mchid: config.mchid,
        description: order.description,
        out_trade_no: order.outTradeNo,
        time_expire: rfc3339China(order.expiresAt),
        notify_url: order.notifyUrl,
        amount: { total: order.amountFen, currency: 'CNY' },
      });
      const codeUrl = answer?.code_url;
      if (typeof codeUrl !== 'string' || !codeUrl) throw new ApiError('PaymentChannelError', 'No code_url in the answer', { channelCode: 'BAD_RESPONSE' });
      return { codeUrl };
    },

    async query(outTradeNo: string): Promise<ChannelTrade> {
      const answer = await call('GET', `${tradePath(outTradeNo)}?mchid=${encodeURIComponent(config.mchid)}`);
      const state = answer?.trade_state;
      if (typeof state !== 'string' || !TRADE_STATES.includes(state as TradeState)) {
        throw new ApiError('PaymentChannelError', 'Unknown trade state', { channelCode: 'BAD_RESPONSE' });
      }
      const amount = answer?.amount as { total?: unknown } | undefined;
      const paidAt = typeof answer?.success_time === 'string' ? new Date(answer.success_time) : null;
      return {
        outTradeNo,
        state: state as TradeState,
        transactionId: typeof answer?.transaction_id === 'string' && answer.transaction_id ? answer.transaction_id : null,
        amountFen: typeof amount?.total === 'number' ? amount.total : null,
        paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt : null,
      };
    },

    async close(outTradeNo: string) {
      await call('POST', `${tradePath(outTradeNo)}/close`, { mchid: config.mchid });
    },

    async refund(request: RefundRequest) {
      const answer = await call('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: request.outTradeNo,
        out_refund_no: request.outRefundNo,
        reason: request.reason.slice(0, 80),
        notify_url: request.notifyUrl,
        amount: { refund: request.amountFen, total: request.totalFen, currency: 'CNY' },
      });
      const status = answer?.status;
      const refundId = answer?.refund_id;
      if ((status !== 'SUCCESS' && status !== 'PROCESSING' && status !== 'ABNORMAL' && status !== 'CLOSED') || typeof refundId !== 'string') {
        throw new ApiError('PaymentChannelError', 'Unreadable refund answer', { channelCode: 'BAD_RESPONSE' });
      }
      return { state: status, refundId };
    },

    async verifyNotification(headers, rawBody): Promise<VerifiedNotification> {
      const at = now();
      verifySigned(config, platformKey, headers, rawBody, at);
      const body = parseJson(rawBody);
      const resource = body?.resource as Record<string, unknown> | undefined;
      if (!body || typeof body.id !== 'string' || typeof body.event_type !== 'string' || !resource || typeof resource !== 'object') {
        throw new ApiError('PaymentNotificationInvalid', 'Not a WeChat Pay notification');
      }
      const plain = decryptResource(apiV3Key, resource);
      return { id: body.id, eventType: body.event_type, resource: plain, event: eventOf(body.event_type, plain, at) };
    },
  };
}

/** The Authorization header of one request (exported for the tests' fake server, which checks it the same way). */
export function authorization(config: Pick<WechatPayConfig, 'mchid' | 'serialNo'>, key: KeyObject, method: string, pathAndQuery: string, body: string, at: Date): string {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const nonce = randomBytes(16).toString('hex').toUpperCase();
  const message = `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
  const signature = sign('RSA-SHA256', Buffer.from(message, 'utf8'), key).toString('base64');
  return `${AUTH_SCHEME} mchid="${config.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${config.serialNo}"`;
}

/** Wechatpay-Serial, -Timestamp, -Nonce, -Signature of an answer or a notification; throws PaymentNotificationInvalid. */
function verifySigned(config: Pick<WechatPayConfig, 'platformKeyId'>, key: KeyObject, headers: Record<string, string | string[] | undefined>, body: string, at: Date): void {
  const serial = header(headers, 'Wechatpay-Serial');
  if (serial !== config.platformKeyId) throw new ApiError('PaymentNotificationInvalid', 'Wechatpay-Serial is not the configured platform key');
  const timestamp = header(headers, 'Wechatpay-Timestamp');
  checkTimestamp(timestamp, at);
  const nonce = header(headers, 'Wechatpay-Nonce');
  const signature = header(headers, 'Wechatpay-Signature');
  if (!nonce || !signature) throw new ApiError('PaymentNotificationInvalid', 'The signature headers are missing');
  const message = Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8');
  let ok: boolean;
  try { ok = verify('RSA-SHA256', message, key, Buffer.from(signature, 'base64')); } catch { ok = false; }
  if (!ok) throw new ApiError('PaymentNotificationInvalid', 'The signature does not verify');
}

/** AEAD_AES_256_GCM: ciphertext = encrypted bytes + the 16-byte tag, base64; nonce and associated_data as text. */
function decryptResource(key: Buffer, resource: Record<string, unknown>): Record<string, unknown> {
  const { algorithm, ciphertext, nonce } = resource;
  const associated = typeof resource.associated_data === 'string' ? resource.associated_data : '';
  if (algorithm !== 'AEAD_AES_256_GCM' || typeof ciphertext !== 'string' || typeof nonce !== 'string') {
    throw new ApiError('PaymentNotificationInvalid', 'Unknown resource encryption');
  }
  try {
    const bytes = Buffer.from(ciphertext, 'base64');
    if (bytes.length < 17) throw new Error('short');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    decipher.setAAD(Buffer.from(associated, 'utf8'));
    const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
    const parsed = parseJson(plain);
    if (!parsed) throw new Error('not JSON');
    return parsed;
  } catch {
    throw new ApiError('PaymentNotificationInvalid', 'The resource does not decrypt');
  }
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** time_expire as WeChat Pay writes it: RFC 3339 in China time, whole seconds ("2026-11-26T18:00:00+08:00"). */
export function rfc3339China(at: Date): string {
  const shifted = new Date(at.getTime() + 8 * 3600_000);
  return `${shifted.toISOString().slice(0, 19)}+08:00`;
}
