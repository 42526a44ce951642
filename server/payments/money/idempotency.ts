import { createHash } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '../../../contract/payments';
import { authOf } from '../../auth/plugin';
import type { Db } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { ApiError } from '../../http/errors';

/**
 * Idempotency-Key on the paying calls (apply, pre-paid-order, paid-confirm, credits/charge, plans/use, refund,
 * withdraw): the first answer is kept and a repeat with the same key and the same request gets it again (same
 * status, same body); the same key with another request is refused (409 IdempotencyKeyReused).
 *
 * Insert first: the row (account, key) is claimed with INSERT … ON CONFLICT DO NOTHING before the work runs, so of
 * two concurrent calls with one key exactly one runs; the other waits for the first answer (polling the row) and
 * gives it. The unique primary key decides, never a read-then-write race. A call that fails (any error: its
 * transaction changed nothing) releases the key, so a retry runs again. A claim left without an answer by a crashed
 * process is taken over after ABANDONED_MS.
 */

export interface IdempotentAnswer<T> {
  status: number;
  body: T;
}

const WAIT_STEP_MS = 25;
const WAIT_MAX_MS = 15_000;
const ABANDONED_MS = 60_000;
const KEY_MAX = 96;

/** The request as the key promises it: method, path (with its query) and body. */
function requestHash(req: FastifyRequest, route: string): string {
  return createHash('sha256').update(JSON.stringify([route, req.method, req.url, req.body ?? null])).digest('hex');
}

function keyOf(req: FastifyRequest): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return null;
  if (key.length === 0 || key.length > KEY_MAX) throw new ApiError('ParamsError', 'Idempotency-Key: 1 to 96 characters', { fields: { [IDEMPOTENCY_HEADER]: 'length' } });
  return key;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` once per (account, Idempotency-Key); without the header it simply runs. `route` names the call (it is
 * stored and hashed with the request). The database is the caller's (`db`): the handlers pass deps.db.
 */
export async function withIdempotency<T>(req: FastifyRequest, route: string, fn: () => Promise<IdempotentAnswer<T>>, db: Db): Promise<IdempotentAnswer<T>> {
  const key = keyOf(req);
  if (key === null) return fn();
  const accountId = authOf(req).account.id;
  const hash = requestHash(req, route);
  const mine = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key));
  const started = Date.now();
  for (;;) {
    const claimed = await db.insert(idempotencyKeys).values({ accountId, key, route, requestHash: hash })
      .onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) {
      let answer: IdempotentAnswer<T>;
      try {
        answer = await fn();
      } catch (err) {
        await db.delete(idempotencyKeys).where(and(mine, isNull(idempotencyKeys.statusCode)));
        throw err;
      }
      await db.update(idempotencyKeys).set({ statusCode: answer.status, response: (answer.body ?? null) as unknown }).where(mine);
      return answer;
    }
    const [row] = await db.select().from(idempotencyKeys).where(mine);
    if (!row) continue; // released by a failed first call between our insert and read: claim it again
    if (row.requestHash !== hash) throw new ApiError('IdempotencyKeyReused');
    if (row.statusCode !== null) return { status: row.statusCode, body: row.response as T };
    // The first call is still running: wait for its answer (or take over a claim its crashed process left).
    if (Date.now() - row.created.getTime() > ABANDONED_MS) {
      await db.delete(idempotencyKeys).where(and(mine, isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.created, new Date(Date.now() - ABANDONED_MS))));
      continue;
    }
    if (Date.now() - started > WAIT_MAX_MS) throw new ApiError('IdempotencyKeyReused', 'The first call with this key is still running');
    await sleep(WAIT_STEP_MS);
  }
}
