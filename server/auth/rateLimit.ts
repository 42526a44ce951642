import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginAttempts } from '../db/schema';
import { ApiError } from '../http/errors';

/**
 * Login throttling per account and per address: after MAX_FAILURES failures inside WINDOW the key
 * is blocked for BLOCK. Kept in the database so every API process sees the same counts.
 */
export const LOGIN_LIMITS = { maxFailuresPerAccount: 5, maxFailuresPerAddress: 20, windowMs: 15 * 60_000, blockMs: 15 * 60_000 };

export function loginKeys(username: string, ip: string) {
  return [
    { key: `user:${username.toLowerCase()}`, max: LOGIN_LIMITS.maxFailuresPerAccount },
    { key: `ip:${ip}`, max: LOGIN_LIMITS.maxFailuresPerAddress },
  ];
}

export async function assertNotBlocked(db: Db, keys: { key: string }[], now: Date): Promise<void> {
  for (const { key } of keys) {
    const [row] = await db.select().from(loginAttempts).where(eq(loginAttempts.key, key));
    if (row?.blockedUntil && row.blockedUntil > now) {
      const retryAfter = Math.ceil((row.blockedUntil.getTime() - now.getTime()) / 1000);
      throw new ApiError('TooManyAttempts', undefined, { retryAfter });
    }
  }
}

export async function recordFailure(db: Db, keys: { key: string; max: number }[], now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - LOGIN_LIMITS.windowMs);
  for (const { key, max } of keys) {
    // One statement per key: a fresh window restarts the count, otherwise it grows; the block is set when it reaches max.
    await db.execute(sql`
      insert into login_attempts (key, failures, window_start, blocked_until)
      values (${key}, 1, ${now.toISOString()}, null)
      on conflict (key) do update set
        failures = case when login_attempts.window_start < ${windowStart.toISOString()} then 1 else login_attempts.failures + 1 end,
        window_start = case when login_attempts.window_start < ${windowStart.toISOString()} then ${now.toISOString()}::timestamptz else login_attempts.window_start end,
        blocked_until = case
          when (case when login_attempts.window_start < ${windowStart.toISOString()} then 1 else login_attempts.failures + 1 end) >= ${max}
          then ${new Date(now.getTime() + LOGIN_LIMITS.blockMs).toISOString()}::timestamptz
          else login_attempts.blocked_until end`);
  }
}

export async function clearFailures(db: Db, username: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, `user:${username.toLowerCase()}`));
}
