import type { Config } from './config';
import type { Db } from './db/client';
import type { Tokens } from './auth/tokens';
import type { Storage } from './storage/types';
import type { SmsSender } from './accounts/sms';

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
  config: Pick<Config, 'tokenTtlSeconds' | 'scryptCost' | 'dataDir' | 'clientDir'> & Partial<Pick<Config, 'databaseUrl' | 'smsOutboxFile' | 'livekit'>>;
  /** Verification texts (server/accounts/sms.ts); absent: the local sender (server log, SMS_OUTBOX_FILE). */
  sms?: SmsSender;
}
