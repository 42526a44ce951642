import type { Config } from './config';
import type { Db } from './db/client';
import type { Tokens } from './auth/tokens';
import type { Storage } from './storage/types';
import type { SmsSender } from './accounts/sms';
import type { PaymentProvider } from './payments/providers/provider';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Everything a route needs from outside; tests build the app with their own. */
export interface Deps {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  clock: Clock;
  tokens: Tokens;
  /** Files: local disk or S3-compatible (server/storage); also signs file links and upload credentials. */
  storage: Storage;
  config: Pick<Config, 'tokenTtlSeconds' | 'scryptCost' | 'dataDir' | 'clientDir'> & Partial<Pick<Config, 'databaseUrl' | 'smsOutboxFile' | 'livekit' | 'wechatPay' | 'publicOrigin' | 'analyticsUrl'>>;
  /** Verification texts (server/accounts/sms.ts); absent: the local sender (server log, SMS_OUTBOX_FILE). */
  sms?: SmsSender;
  /** The QR payment channel; absent: WeChat Pay when configured, else the sandbox (server/payments/providers). */
  payments?: PaymentProvider;
  /** The DICOM listener once it listens (server/main.ts sets it after start; absent: off). `host`: DICOM_HOST. */
  dicomNode?: { aeTitle: string; port: number; host?: string | null };
  /** The HL7 v2 listener when it runs (server/hl7/listener.ts): its port and whether it speaks TLS. */
  hl7Node?: { port: number; tls: boolean };
}
