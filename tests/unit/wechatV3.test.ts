import { createCipheriv, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { wechatPay, type WechatPayConfig } from '../../server/config';
import { ApiError } from '../../server/http/errors';
import type { PaymentProvider } from '../../server/payments/providers/provider';
import { createWechatV3Provider, rfc3339China } from '../../server/payments/providers/wechatV3';

/**
 * The WeChat Pay API v3 adapter against a fake WeChat Pay on loopback that does what the real one does with
 * signatures: it refuses a request whose Authorization does not verify with the merchant's public key (over
 * "METHOD\nPATH?QUERY\ntimestamp\nnonce\nbody\n"), and signs every answer with the platform key (over
 * "timestamp\nnonce\nbody\n"). Keys are generated here; notifications are built and encrypted here as WeChat does.
 */
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = pair();
const platform = pair();
const otherPlatform = pair();
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
const API_V3_KEY = 'abcdefghijklmnopqrstuvwxyz012345';
const PLATFORM_KEY_ID = 'PUB_KEY_ID_0114232134912410000000000000';

interface Seen { method: string; url: string; body: string; authorized: boolean; mchid: string | null }
const seen: Seen[] = [];
/** What the fake answers next: status, body, and how to sign it. */
let next: { status: number; body: unknown; sign?: 'platform' | 'other' | 'none'; serial?: string; hang?: boolean } = { status: 200, body: {} };

function checkAuthorization(req: IncomingMessage, body: string): { ok: boolean; mchid: string | null } {
  const header = req.headers.authorization ?? '';
  const m = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header);
  if (!m) return { ok: false, mchid: null };
  const fields = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((f) => [f[1], f[2]]));
  const message = `${req.method}\n${req.url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
  const ok = fields.serial_no === 'MERCHANT_SERIAL' && Math.abs(Date.now() / 1000 - Number(fields.timestamp)) < 300
    && verify('RSA-SHA256', Buffer.from(message), merchant.publicKey, Buffer.from(fields.signature ?? '', 'base64'));
  return { ok, mchid: fields.mchid ?? null };
}

function signedHeaders(body: string, key: KeyObject, serial = PLATFORM_KEY_ID, timestamp = Math.floor(Date.now() / 1000)) {
  const nonce = randomBytes(16).toString('hex');
  const signature = sign('RSA-SHA256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`), key).toString('base64');
  return { 'wechatpay-serial': serial, 'wechatpay-timestamp': String(timestamp), 'wechatpay-nonce': nonce, 'wechatpay-signature': signature };
}

function answer(res: ServerResponse, status: number, payload: unknown, how: 'platform' | 'other' | 'none' = 'platform', serial?: string) {
  const body = status === 204 ? '' : JSON.stringify(payload);
  const headers: Record<string, string> = status === 204 ? {} : { 'content-type': 'application/json' };
  if (how !== 'none') Object.assign(headers, signedHeaders(body, how === 'platform' ? platform.privateKey : otherPlatform.privateKey, serial));
  res.writeHead(status, headers).end(body);
}

let server: Server;
let base: string;
let wechat: PaymentProvider;
const config = (): WechatPayConfig => ({
  mchid: '1900000001', appid: 'wx0000000000000001', serialNo: 'MERCHANT_SERIAL',
  privateKeyPem: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), apiV3Key: API_V3_KEY,
  platformPublicKeyPem: pem(platform.publicKey), platformKeyId: PLATFORM_KEY_ID, baseUrl: base,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
    req.on('end', () => {
      const { ok, mchid } = checkAuthorization(req, body);
      seen.push({ method: req.method!, url: req.url!, body, authorized: ok, mchid });
      if (next.hang) return; // never answers: the adapter's timeout must fire
      if (!ok) return answer(res, 401, { code: 'SIGN_ERROR', message: '签名错误' });
      answer(res, next.status, next.body, next.sign, next.serial);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  wechat = createWechatV3Provider(config(), { timeoutMs: 1500 });
});
afterAll(async () => { server.closeAllConnections(); await new Promise((resolve) => server.close(resolve)); });

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('WeChat Pay v3 requests', () => {
  it('creates a native order with a signed request and returns the code_url', async () => {
    next = { status: 200, body: { code_url: 'weixin://wxpay/bizpayurl?pr=abc123' } };
    const expiresAt = new Date('2026-11-26T10:00:00Z');
    const { codeUrl } = await wechat.createNative({ outTradeNo: 'C2026112600000001', description: 'Expert report', amountFen: 12_345, expiresAt, notifyUrl: 'https://rad.example.org/api/v1/payments/notify/wechat' });
    expect(codeUrl).toBe('weixin://wxpay/bizpayurl?pr=abc123');
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/v3/pay/transactions/native', authorized: true, mchid: '1900000001' });
    expect(JSON.parse(request.body)).toEqual({
      appid: 'wx0000000000000001', mchid: '1900000001', description: 'Expert report', out_trade_no: 'C2026112600000001',
      time_expire: '2026-11-26T18:00:00+08:00', notify_url: 'https://rad.example.org/api/v1/payments/notify/wechat', amount: { total: 12_345, currency: 'CNY' },
    });
  });

  it('queries a trade by out_trade_no (the query string is part of the signed URL)', async () => {
    next = { status: 200, body: { out_trade_no: 'C1', transaction_id: '4200000000202611260000000001', trade_state: 'SUCCESS', success_time: '2026-11-26T18:01:02+08:00', amount: { total: 500, payer_total: 500 } } };
    const trade = await wechat.query('C1');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/v3/pay/transactions/out-trade-no/C1?mchid=1900000001', authorized: true, body: '' });
    expect(trade).toEqual({ outTradeNo: 'C1', state: 'SUCCESS', transactionId: '4200000000202611260000000001', amountFen: 500, paidAt: new Date('2026-11-26T10:01:02Z') });
  });

  it('closes a trade (204, signed empty body)', async () => {
    next = { status: 204, body: null };
    await wechat.close('C2');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v3/pay/transactions/out-trade-no/C2/close', authorized: true });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ mchid: '1900000001' });
  });

  it('asks for a refund', async () => {
    next = { status: 200, body: { refund_id: '50000000382019052709732678859', out_refund_no: 'F1', status: 'PROCESSING' } };
    const result = await wechat.refund({ outTradeNo: 'C1', outRefundNo: 'F1', amountFen: 500, totalFen: 500, reason: 'withdrawn', notifyUrl: 'https://rad.example.org/api/v1/payments/notify/wechat' });
    expect(result).toEqual({ state: 'PROCESSING', refundId: '50000000382019052709732678859' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v3/refund/domestic/refunds', authorized: true });
    expect(JSON.parse(seen.at(-1)!.body)).toMatchObject({ out_trade_no: 'C1', out_refund_no: 'F1', amount: { refund: 500, total: 500, currency: 'CNY' } });
  });

  it('a non-2xx answer is PaymentChannelError with the channel code', async () => {
    next = { status: 400, body: { code: 'ORDERPAID', message: '订单已支付' } };
    const err = await refusal(wechat.close('C3'));
    expect(err.code).toBe('PaymentChannelError');
    expect(err.details).toEqual({ channelCode: 'ORDERPAID' });
  });

  it('the fake refuses a request signed with another key (so the checks above mean something)', async () => {
    const forger = createWechatV3Provider({ ...config(), privateKeyPem: otherPlatform.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    next = { status: 200, body: { code_url: 'weixin://x' } };
    const err = await refusal(forger.createNative({ outTradeNo: 'C4', description: 'x', amountFen: 1, expiresAt: new Date(), notifyUrl: 'https://a/b' }));
    expect(seen.at(-1)!.authorized).toBe(false);
    expect(err.details).toEqual({ channelCode: 'SIGN_ERROR' });
  });

  it('an answer signed by someone else, with another serial or unsigned is not believed', async () => {
    for (const bad of [{ sign: 'other' as const }, { sign: 'platform' as const, serial: 'PUB_KEY_ID_SOMEONE_ELSE' }, { sign: 'none' as const }]) {
      next = { status: 200, body: { code_url: 'weixin://forged' }, ...bad };
      const err = await refusal(wechat.createNative({ outTradeNo: 'C5', description: 'x', amountFen: 1, expiresAt: new Date(), notifyUrl: 'https://a/b' }));
      expect(err.code).toBe('PaymentChannelError');
      expect(err.details).toEqual({ channelCode: 'SIGNATURE_INVALID' });
    }
  });

  it('no answer in time or no server is PaymentChannelUnavailable', async () => {
    next = { status: 200, body: {}, hang: true };
    expect((await refusal(wechat.query('C6'))).code).toBe('PaymentChannelUnavailable');
    const nowhere = createWechatV3Provider({ ...config(), baseUrl: 'http://127.0.0.1:1' });
    expect((await refusal(nowhere.query('C6'))).code).toBe('PaymentChannelUnavailable');
    next = { status: 200, body: {} };
  });

  it('writes time_expire in China time', () => {
    expect(rfc3339China(new Date('2026-12-31T20:30:15.250Z'))).toBe('2027-01-01T04:30:15+08:00');
  });
});

/** A notification as WeChat Pay sends it: the resource encrypted with AEAD_AES_256_GCM under the APIv3 key. */
function notification(eventType: string, resource: Record<string, unknown>, opts: { key?: string; associated?: string; signWith?: KeyObject; serial?: string; timestamp?: number } = {}) {
  const nonce = randomBytes(6).toString('hex'); // 12 characters, as WeChat's
  const associated = 'transaction';
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(opts.key ?? API_V3_KEY), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(opts.associated ?? associated));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(resource)), cipher.final(), cipher.getAuthTag()]).toString('base64');
  const body = JSON.stringify({
    id: `EV-${randomBytes(8).toString('hex')}`, create_time: '2026-11-26T18:01:03+08:00', resource_type: 'encrypt-resource', event_type: eventType, summary: '支付成功',
    resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: associated, nonce },
  });
  return { body, headers: signedHeaders(body, opts.signWith ?? platform.privateKey, opts.serial, opts.timestamp) };
}

const paidResource = { mchid: '1900000001', appid: 'wx0000000000000001', out_trade_no: 'C7', transaction_id: '4200000000202611260000000007', trade_state: 'SUCCESS', success_time: '2026-11-26T18:01:02+08:00', amount: { total: 800, payer_total: 800, currency: 'CNY' } };
const refundResource = { mchid: '1900000001', out_trade_no: 'C7', transaction_id: '4200000000202611260000000007', out_refund_no: 'F7', refund_id: '50300000000000000007', refund_status: 'SUCCESS', success_time: '2026-11-26T19:00:00+08:00', amount: { total: 800, refund: 800, payer_total: 800, payer_refund: 800 } };

describe('WeChat Pay v3 notifications', () => {
  it('verifies and decrypts a payment notification into a paid event', async () => {
    const n = notification('TRANSACTION.SUCCESS', paidResource);
    const verified = await wechat.verifyNotification(n.headers, n.body);
    expect(verified.id).toBe(JSON.parse(n.body).id);
    expect(verified.resource).toEqual(paidResource);
    expect(verified.event).toEqual({ kind: 'paid', outTradeNo: 'C7', transactionId: '4200000000202611260000000007', amountFen: 800, paidAt: new Date('2026-11-26T10:01:02Z') });
  });

  it('maps refund notifications: SUCCESS → refunded, ABNORMAL and CLOSED → refund_failed', async () => {
    const ok = notification('REFUND.SUCCESS', refundResource);
    expect((await wechat.verifyNotification(ok.headers, ok.body)).event).toEqual({ kind: 'refunded', outTradeNo: 'C7', outRefundNo: 'F7', refundId: '50300000000000000007', amountFen: 800, at: new Date('2026-11-26T11:00:00Z') });
    for (const type of ['REFUND.ABNORMAL', 'REFUND.CLOSED']) {
      const n = notification(type, { ...refundResource, refund_status: type.split('.')[1] });
      expect((await wechat.verifyNotification(n.headers, n.body)).event).toMatchObject({ kind: 'refund_failed', outTradeNo: 'C7', outRefundNo: 'F7' });
    }
    const other = notification('TRANSACTION.OTHER', paidResource);
    expect((await wechat.verifyNotification(other.headers, other.body)).event).toBeNull();
  });

  it('refuses a tampered body, another serial, another signer, a stale or future timestamp, the wrong key or associated data', async () => {
    const cases: [string, { headers: Record<string, string>; body: string }][] = [];
    const good = notification('TRANSACTION.SUCCESS', paidResource);
    cases.push(['tampered body', { headers: good.headers, body: good.body.replace('支付成功', '支付失败') }]);
    cases.push(['wrong serial', notification('TRANSACTION.SUCCESS', paidResource, { serial: 'PUB_KEY_ID_OTHER' })]);
    cases.push(['another signer', notification('TRANSACTION.SUCCESS', paidResource, { signWith: otherPlatform.privateKey })]);
    cases.push(['stale', notification('TRANSACTION.SUCCESS', paidResource, { timestamp: Math.floor(Date.now() / 1000) - 301 })]);
    cases.push(['future', notification('TRANSACTION.SUCCESS', paidResource, { timestamp: Math.floor(Date.now() / 1000) + 301 })]);
    cases.push(['wrong APIv3 key', notification('TRANSACTION.SUCCESS', paidResource, { key: 'Z'.repeat(32) })]);
    cases.push(['wrong associated data', notification('TRANSACTION.SUCCESS', paidResource, { associated: 'refund' })]);
    cases.push(['no headers', { headers: {}, body: good.body }]);
    for (const [name, n] of cases) {
      const err = await refusal(wechat.verifyNotification(n.headers, n.body));
      expect(err.code, name).toBe('PaymentNotificationInvalid');
      expect(err.status, name).toBe(401);
    }
    // Within the window either side is accepted (clocks differ by a little).
    const skewed = notification('TRANSACTION.SUCCESS', paidResource, { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect((await wechat.verifyNotification(skewed.headers, skewed.body)).event?.kind).toBe('paid');
  });

  it('a signed notification whose resource lacks the fields of its event type is refused', async () => {
    const n = notification('TRANSACTION.SUCCESS', { out_trade_no: 'C8', trade_state: 'SUCCESS' });
    expect((await refusal(wechat.verifyNotification(n.headers, n.body))).code).toBe('PaymentNotificationInvalid');
  });

  it('the platform key is a public key: a certificate-less PEM works', () => {
    expect(createPublicKey(pem(platform.publicKey)).asymmetricKeyType).toBe('rsa');
  });
});

describe('WECHATPAY_* configuration', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wechatpay-'));
  const keyFile = path.join(dir, 'apiclient_key.pem');
  const pubFile = path.join(dir, 'pub_key.pem');
  writeFileSync(keyFile, merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  writeFileSync(pubFile, pem(platform.publicKey));
  const full = {
    WECHATPAY_MCHID: '1900000001', WECHATPAY_APPID: 'wx1', WECHATPAY_SERIAL_NO: 'S1', WECHATPAY_PRIVATE_KEY_FILE: keyFile,
    WECHATPAY_APIV3_KEY: API_V3_KEY, WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: pubFile, WECHATPAY_PLATFORM_KEY_ID: PLATFORM_KEY_ID,
  };

  it('none: the sandbox (null); all seven: the keys read from their files and the default base URL', () => {
    expect(wechatPay({})).toBeNull();
    const config = wechatPay(full)!;
    expect(config).toMatchObject({ mchid: '1900000001', appid: 'wx1', serialNo: 'S1', platformKeyId: PLATFORM_KEY_ID, baseUrl: 'https://api.mch.weixin.qq.com' });
    expect(config.privateKeyPem).toContain('PRIVATE KEY');
    expect(wechatPay({ ...full, WECHATPAY_BASE_URL: 'http://127.0.0.1:9/' })!.baseUrl).toBe('http://127.0.0.1:9');
  });

  it('a partial set, a short APIv3 key, a missing key file or a bad base URL stop the start', () => {
    expect(() => wechatPay({ WECHATPAY_MCHID: '1900000001' })).toThrow(/missing WECHATPAY_APPID, WECHATPAY_SERIAL_NO/);
    expect(() => wechatPay({ ...full, WECHATPAY_APIV3_KEY: 'short' })).toThrow(/WECHATPAY_APIV3_KEY/);
    expect(() => wechatPay({ ...full, WECHATPAY_PRIVATE_KEY_FILE: path.join(dir, 'none.pem') })).toThrow(/WECHATPAY_PRIVATE_KEY_FILE=.*cannot read/);
    expect(() => wechatPay({ ...full, WECHATPAY_BASE_URL: 'ftp://x' })).toThrow(/WECHATPAY_BASE_URL/);
  });
});
