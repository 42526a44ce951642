import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyticsUrlFrom } from './domain/analytics';

/** Configuration by environment (README table). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  tokenSecret: string;
  tokenTtlSeconds: number;
  /** scrypt cost parameter N (a power of two). */
  scryptCost: number;
  seedDemo: boolean;
  clientDir: string;
  /**
   * Which proxies may speak for the client in X-Forwarded-For: false (none; the socket's address is the
   * client), true (any), a hop count, or addresses/CIDRs. Trusting everyone would let any caller pick the
   * address the login throttle counts against.
   */
  trustProxy: TrustProxy;
  /** REQUEST_TIMEOUT_MS: a request whose headers and body have not all arrived by then is answered 408 and closed. */
  requestTimeoutMs: number;
  /** SMS_OUTBOX_FILE: the local SMS sender also appends each text as a JSON line here (development, e2e). */
  smsOutboxFile: string | null;
  /** LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET: the SFU consultation video joins (docs/deployment.md); null = no video. */
  livekit: LiveKitConfig | null;
  /** WECHATPAY_*: WeChat Pay API v3 native QR (docs/deployment.md "Payments: WeChat Pay"); null = the embedded sandbox channel. */
  wechatPay: WechatPayConfig | null;
  /** PUBLIC_ORIGIN: the origin the outside world reaches this server at (payment notify URLs); null = the request's own. */
  publicOrigin: string | null;
  /** DICOM_PORT, DICOM_AE_TITLE, DICOM_TLS_CERT, DICOM_TLS_KEY: the DICOM listener (server/dicom); null = off (DICOM_PORT=0). */
  dicom: DicomConfig | null;
  /** HL7_PORT, HL7_TLS_CERT, HL7_TLS_KEY, HL7_MAX_BYTES: the HL7 v2 MLLP listener (server/hl7); null = off (HL7_PORT=0). */
  hl7: Hl7ListenerConfig | null;
  /** HL7_OUT_POLL_MS, HL7_OUT_LEASE_MS: the HL7 results sender (server/hl7/outbound/sender.ts). */
  hl7Out: { pollMs: number; leaseMs: number };
  /** ANALYTICS_URL: a self-hosted page-view collector (server/domain/analytics.ts); null = no page views sent (default). */
  analyticsUrl: string | null;
}

export interface Hl7ListenerConfig {
  port: number;
  tls: { cert: string; key: string } | null;
  /** The largest message taken; a bigger one is answered AR (Hl7Oversize) and not kept. */
  maxBytes: number;
}

export interface DicomConfig {
  port: number;
  /** The listener's own AE title: an association calling any other is refused. */
  aeTitle: string;
  /** PEM certificate and key, read at start; null = plain TCP. */
  tls: { cert: string; key: string } | null;
}

/** A WeChat Pay merchant's settings, keys already read from their files. */
export interface WechatPayConfig {
  mchid: string;
  appid: string;
  /** The merchant API certificate's serial number (Authorization header). */
  serialNo: string;
  /** The merchant API private key (PEM). */
  privateKeyPem: string;
  /** The APIv3 key (32 bytes) that encrypts notification resources. */
  apiV3Key: string;
  /** WeChat Pay's platform public key (PEM) and its id (the Wechatpay-Serial it signs with). */
  platformPublicKeyPem: string;
  platformKeyId: string;
  baseUrl: string;
}

export interface LiveKitConfig {
  /** What browsers connect to (wss://…), handed out with each room token. */
  url: string;
  apiKey: string;
  apiSecret: string;
}

export type TrustProxy = boolean | number | string[];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    tokenSecret: env.TOKEN_SECRET || persistedSecret(dataDir),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 12 * 3600, 60, 366 * 24 * 3600),
    scryptCost: scryptCost(env),
    seedDemo: env.SEED_DEMO !== '0',
    clientDir: path.resolve(env.CLIENT_DIR ?? './dist'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    // Ten minutes: a 1 GiB DICOM file arrives in that time over about 15 Mbit/s; a stalled body is cut off then.
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10 * 60_000, 1000, 24 * 3600_000),
    smsOutboxFile: env.SMS_OUTBOX_FILE ? path.resolve(env.SMS_OUTBOX_FILE) : null,
    livekit: liveKit(env),
    wechatPay: wechatPay(env),
    publicOrigin: publicOrigin(env),
    dicom: dicom(env),
    hl7: hl7(env),
    hl7Out: { pollMs: integer(env, 'HL7_OUT_POLL_MS', 1000, 50, 600_000), leaseMs: integer(env, 'HL7_OUT_LEASE_MS', 60_000, 500, 3600_000) },
    analyticsUrl: analyticsUrlFrom(env),
  };
}

/**
 * The DICOM listener: on port 11112 unless DICOM_PORT says otherwise (0 turns it off). An AE title is 1-16 characters
 * of the default repertoire without backslash; upper-case by convention, and so are the devices' (contract).
 * TLS needs both files; one without the other would listen in clear while the admin believes otherwise.
 */
export function dicom(env: NodeJS.ProcessEnv): DicomConfig | null {
  const port = integer(env, 'DICOM_PORT', 11112, 0, 65535);
  if (port === 0) return null;
  const aeTitle = (env.DICOM_AE_TITLE?.trim() || 'RADWS');
  if (!/^[A-Z0-9 _.-]{1,16}$/.test(aeTitle)) throw new Error(`DICOM_AE_TITLE=${aeTitle}: expected 1 to 16 upper-case letters, digits, space, dash, underscore or dot`);
  const certFile = env.DICOM_TLS_CERT?.trim() ?? '';
  const keyFile = env.DICOM_TLS_KEY?.trim() ?? '';
  if (!certFile && !keyFile) return { port, aeTitle, tls: null };
  if (!certFile || !keyFile) throw new Error('DICOM_TLS_CERT and DICOM_TLS_KEY go together: set both or neither');
  const read = (name: string, file: string) => {
    try { return readFileSync(path.resolve(file), 'utf8'); } catch (err) { throw new Error(`${name}=${file}: cannot read the file (${(err as Error).message})`, { cause: err }); }
  };
  return { port, aeTitle, tls: { cert: read('DICOM_TLS_CERT', certFile), key: read('DICOM_TLS_KEY', keyFile) } };
}

/**
 * The HL7 v2 listener (orders in, issue 36): MLLP on port 2575 unless HL7_PORT says otherwise (0 turns it off);
 * TLS with both HL7_TLS_CERT and HL7_TLS_KEY; HL7_MAX_BYTES caps one message (1 MiB by default).
 */
export function hl7(env: NodeJS.ProcessEnv): Hl7ListenerConfig | null {
  const port = integer(env, 'HL7_PORT', 2575, 0, 65535);
  if (port === 0) return null;
  const maxBytes = integer(env, 'HL7_MAX_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024);
  const certFile = env.HL7_TLS_CERT?.trim() ?? '';
  const keyFile = env.HL7_TLS_KEY?.trim() ?? '';
  if (!certFile && !keyFile) return { port, tls: null, maxBytes };
  if (!certFile || !keyFile) throw new Error('HL7_TLS_CERT and HL7_TLS_KEY go together: set both or neither');
  const read = (name: string, file: string) => {
    try { return readFileSync(path.resolve(file), 'utf8'); } catch (err) { throw new Error(`${name}=${file}: cannot read the file (${(err as Error).message})`, { cause: err }); }
  };
  return { port, tls: { cert: read('HL7_TLS_CERT', certFile), key: read('HL7_TLS_KEY', keyFile) }, maxBytes };
}

/** Video is optional: all three LiveKit settings or none; some without the others would fail only at the first call. */
function liveKit(env: NodeJS.ProcessEnv): LiveKitConfig | null {
  const url = env.LIVEKIT_URL?.trim() ?? '';
  const apiKey = env.LIVEKIT_API_KEY?.trim() ?? '';
  const apiSecret = env.LIVEKIT_API_SECRET?.trim() ?? '';
  if (!url && !apiKey && !apiSecret) return null;
  if (!url || !apiKey || !apiSecret) throw new Error('LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET go together: set all three or none');
  if (!/^(wss?|https?):\/\//.test(url)) throw new Error(`LIVEKIT_URL=${url}: expected a ws://, wss://, http:// or https:// address`);
  return { url, apiKey, apiSecret };
}

const WECHATPAY_REQUIRED = ['WECHATPAY_MCHID', 'WECHATPAY_APPID', 'WECHATPAY_SERIAL_NO', 'WECHATPAY_PRIVATE_KEY_FILE', 'WECHATPAY_APIV3_KEY', 'WECHATPAY_PLATFORM_PUBLIC_KEY_FILE', 'WECHATPAY_PLATFORM_KEY_ID'] as const;

/**
 * WeChat Pay is optional: all seven settings or none (a partial set would fail only at the first payment, with a
 * patient waiting). The key files are read now, so a wrong path stops the start, not a payment.
 */
export function wechatPay(env: NodeJS.ProcessEnv): WechatPayConfig | null {
  const value = (name: string) => env[name]?.trim() ?? '';
  const present = WECHATPAY_REQUIRED.filter((name) => value(name));
  if (present.length === 0) return null;
  if (present.length < WECHATPAY_REQUIRED.length) {
    const missing = WECHATPAY_REQUIRED.filter((name) => !value(name));
    throw new Error(`WeChat Pay is partly configured: set all of ${WECHATPAY_REQUIRED.join(', ')} or none (missing ${missing.join(', ')})`);
  }
  const apiV3Key = value('WECHATPAY_APIV3_KEY');
  if (Buffer.byteLength(apiV3Key) !== 32) throw new Error('WECHATPAY_APIV3_KEY: expected the 32-character APIv3 key');
  const pem = (name: string) => {
    try { return readFileSync(path.resolve(value(name)), 'utf8'); } catch (err) { throw new Error(`${name}=${value(name)}: cannot read the key file (${(err as Error).message})`, { cause: err }); }
  };
  const baseUrl = (value('WECHATPAY_BASE_URL') || 'https://api.mch.weixin.qq.com').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`WECHATPAY_BASE_URL=${baseUrl}: expected an http:// or https:// address`);
  return {
    mchid: value('WECHATPAY_MCHID'), appid: value('WECHATPAY_APPID'), serialNo: value('WECHATPAY_SERIAL_NO'),
    privateKeyPem: pem('WECHATPAY_PRIVATE_KEY_FILE'), apiV3Key,
    platformPublicKeyPem: pem('WECHATPAY_PLATFORM_PUBLIC_KEY_FILE'), platformKeyId: value('WECHATPAY_PLATFORM_KEY_ID'), baseUrl,
  };
}

/** PUBLIC_ORIGIN=https://rad.example.org: scheme and host only (a path would break the notify URL). */
function publicOrigin(env: NodeJS.ProcessEnv): string | null {
  const raw = env.PUBLIC_ORIGIN?.trim();
  if (!raw) return null;
  let url: URL;
  try { url = new URL(raw); } catch { throw new Error(`PUBLIC_ORIGIN=${raw}: expected an origin such as https://rad.example.org`); }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) throw new Error(`PUBLIC_ORIGIN=${raw}: expected an origin such as https://rad.example.org`);
  return url.origin;
}

/** A bad number would surface much later as NaN (a token that never expires, a port that never opens): stop at start. */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name}=${raw}: expected a whole number from ${min} to ${max}`);
  return value;
}

/** scrypt's N must be a power of two; below 2^14 (the default) only for tests and benchmarks. */
function scryptCost(env: NodeJS.ProcessEnv): number {
  const value = integer(env, 'SCRYPT_COST', 16384, 1024, 1_048_576);
  if ((value & (value - 1)) !== 0) throw new Error(`SCRYPT_COST=${value}: expected a power of two (16384, 32768, ...)`);
  return value;
}

/** TRUST_PROXY: unset or 'false' → false; 'true' → true; '2' → two hops; '10.0.0.0/8,127.0.0.1' → those addresses. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v.split(',').map((a) => a.trim()).filter(Boolean);
}

/** A secret generated once and kept in DATA_DIR, so tokens survive restarts without living in the repo. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'token-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
