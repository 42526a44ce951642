import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';

/** Public lookups (share links, report views, electronic film, upload codes): per address and minute. */
export const PUBLIC_LIMIT = { requests: 60, windowMs: 60_000 };

/**
 * A fixed-window counter in the database (every API process counts into the same row): the request
 * that goes over `limit` inside the window is refused with 429 TooManyAttempts and retryAfter seconds.
 */
export async function throttle(db: Db, key: string, now: Date, limit = PUBLIC_LIMIT.requests, windowMs = PUBLIC_LIMIT.windowMs): Promise<void> {
  const fresh = new Date(now.getTime() - windowMs).toISOString();
  const result = await db.execute(sql`
    insert into request_counters (key, window_start, count) values (${key}, ${now.toISOString()}, 1)
    on conflict (key) do update set
      count = case when request_counters.window_start <= ${fresh} then 1 else request_counters.count + 1 end,
      window_start = case when request_counters.window_start <= ${fresh} then ${now.toISOString()}::timestamptz else request_counters.window_start end
    returning count, window_start`);
  const row = (result as unknown as { rows: { count: number; window_start: string | Date }[] }).rows[0];
  if (row && Number(row.count) > limit) {
    const retryAfter = Math.max(1, Math.ceil((new Date(row.window_start).getTime() + windowMs - now.getTime()) / 1000));
    throw new ApiError('TooManyAttempts', undefined, { retryAfter });
  }
}

/** Failed verifications (wrong ids, wrong film code) per address: after 10 in 15 minutes the address waits. */
export const FAILURE_LIMIT = { failures: 10, windowMs: 15 * 60_000 };

/** Refuses an address that already failed too often, without counting this request. */
export async function assertNotBlocked(db: Db, key: string, now: Date, limit = FAILURE_LIMIT.failures, windowMs = FAILURE_LIMIT.windowMs): Promise<void> {
  const result = await db.execute(sql`select count, window_start from request_counters where key = ${key}`);
  const row = (result as unknown as { rows: { count: number; window_start: string | Date }[] }).rows[0];
  if (!row) return;
  const start = new Date(row.window_start).getTime();
  if (start > now.getTime() - windowMs && Number(row.count) >= limit) {
    throw new ApiError('TooManyAttempts', undefined, { retryAfter: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)) });
  }
}

/** Counts one failure; never throws for the count itself (the caller answers the failure). */
export async function recordFailure(db: Db, key: string, now: Date, windowMs = FAILURE_LIMIT.windowMs): Promise<void> {
  await throttle(db, key, now, Number.MAX_SAFE_INTEGER, windowMs);
}
