import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';
import { ApiError } from './errors';

/**
 * The one rate limiter of the server: a fixed-window counter per key in the database (rate_counters),
 * so every API process counts into the same row. A rule says how many events a window allows and how
 * long a key stays blocked once it reaches them (to the window's end unless blockMs says otherwise).
 */
export interface RateRule { limit: number; windowMs: number; blockMs?: number }

const MINUTE = 60_000;
export const RATE_RULES = {
  /** Public lookups (share links, report views, electronic film, upload codes): per address and minute. */
  publicRequests: { limit: 60, windowMs: MINUTE },
  /** Failed verifications (wrong ids, wrong film code) per address: after 10 in 15 minutes the address waits. */
  publicFailures: { limit: 10, windowMs: 15 * MINUTE },
  /** Failed logins (and wrong old passwords) per account: 5 in 15 minutes block it for 15 minutes. */
  loginAccount: { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /** Failed logins per address, whichever accounts they named. */
  loginAddress: { limit: 20, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /** Self-registrations (well-formed ones, counted before the password is hashed) per address and hour. */
  registerAddress: { limit: 10, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateRule>;

interface CounterRow { count: number; window_start: string | Date; blocked_until: string | Date | null }

/** Counts one event for key under rule and returns the counter after it (a stale window starts again at 1). */
export async function count(db: Db, key: string, now: Date, rule: RateRule): Promise<{ count: number; windowStart: Date }> {
  const at = now.toISOString();
  const stale = new Date(now.getTime() - rule.windowMs).toISOString();
  const expired = sql`rate_counters.window_start <= ${stale}`;
  const next = sql`case when ${expired} then 1 else rate_counters.count + 1 end`;
  const start = sql`case when ${expired} then ${at}::timestamptz else rate_counters.window_start end`;
  const blockEnd = rule.blockMs === undefined
    ? sql`${start} + ${`${rule.windowMs} milliseconds`}::interval`
    : sql`${new Date(now.getTime() + rule.blockMs).toISOString()}::timestamptz`;
  const firstBlock = rule.limit <= 1
    ? sql`${new Date(now.getTime() + (rule.blockMs ?? rule.windowMs)).toISOString()}::timestamptz`
    : sql`null`;
  const result = await db.execute(sql`
    insert into rate_counters (key, window_start, count, blocked_until) values (${key}, ${at}, 1, ${firstBlock})
    on conflict (key) do update set
      count = ${next},
      window_start = ${start},
      blocked_until = case when ${next} >= ${rule.limit} then ${blockEnd} else rate_counters.blocked_until end
    returning count, window_start, blocked_until`);
  const row = (result as unknown as { rows: CounterRow[] }).rows[0]!;
  return { count: Number(row.count), windowStart: new Date(row.window_start) };
}

const secondsUntil = (end: number, now: Date) => Math.max(1, Math.ceil((end - now.getTime()) / 1000));

/** Counts a request and refuses it (429 TooManyAttempts, retryAfter) when it goes over the rule's limit. */
export async function limitRequest(db: Db, key: string, now: Date, rule: RateRule = RATE_RULES.publicRequests): Promise<void> {
  const counter = await count(db, key, now, rule);
  if (counter.count > rule.limit) {
    throw new ApiError('TooManyAttempts', undefined, { retryAfter: secondsUntil(counter.windowStart.getTime() + rule.windowMs, now) });
  }
}

/** Refuses (429, retryAfter) while any of keys is blocked, without counting this request. */
export async function assertNotBlocked(db: Db, keys: readonly string[], now: Date): Promise<void> {
  const rows = await db.select({ blockedUntil: rateCounters.blockedUntil }).from(rateCounters).where(inArray(rateCounters.key, [...keys]));
  const until = Math.max(0, ...rows.map((r) => r.blockedUntil?.getTime() ?? 0));
  if (until > now.getTime()) throw new ApiError('TooManyAttempts', undefined, { retryAfter: secondsUntil(until, now) });
}

/** Forgets a key's counter (a successful login, an administrator's password reset). */
export async function clearCounter(db: Db, key: string): Promise<void> {
  await db.delete(rateCounters).where(eq(rateCounters.key, key));
}

/** The login limiter's keys: one per account (any case of the name) and one per address. */
export function loginKeys(username: string, ip: string): { key: string; rule: RateRule }[] {
  return [
    { key: loginAccountKey(username), rule: RATE_RULES.loginAccount },
    { key: `login-ip:${ip}`, rule: RATE_RULES.loginAddress },
  ];
}
export const loginAccountKey = (username: string) => `login-user:${username.toLowerCase()}`;
