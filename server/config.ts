import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
  };
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
