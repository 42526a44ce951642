import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/** The planner's row estimate of a query (EXPLAIN: planned, not run; well under a millisecond). */
export async function estimatedRows(db: Db, query: SQL | { getSQL(): SQL }): Promise<number> {
  const result = await db.execute(sql`explain (format json) ${query}`);
  const first = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  const raw = first['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Math.round(plan[0]?.Plan?.['Plan Rows'] ?? 0);
}

const TTL_MS = 10_000;
const INSTANT = /^(\d{4}-\d\d-\d\dT\d\d:\d\d):\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/;

/**
 * An instant as part of the key, to the minute. The worklist's snapshot filter (created <= the moment the view was
 * opened) is a new instant on every opening, which made every first page plan its estimate afresh; the planner's
 * estimate for two instants of the same minute differs by the few rows made in between, far below what an estimate
 * is used for (choosing an exact count above EXAM_COUNT_EXACT_LIMIT, or showing "about N").
 */
function toTheMinute(param: unknown): unknown {
  if (param instanceof Date) return Math.floor(param.getTime() / 60_000);
  if (typeof param !== 'string') return param;
  const m = INSTANT.exec(param);
  return m ? `${m[1]}${m[3]}` : param;
}
function statementKey(query: { toSQL(): { sql: string; params: unknown[] } }): string {
  const { sql: text, params } = query.toSQL();
  return `${text}\u0000${JSON.stringify(params.map(toTheMinute))}`;
}
const cacheKey = (query: { toSQL(): { sql: string; params: unknown[] } }, ownKey: string | undefined) =>
  (ownKey !== undefined ? `\u0001${ownKey}` : statementKey(query));
const MAX_ENTRIES = 500;
/** One cache per database: a process may hold several (the test suite's servers, a bench comparing two). */
const caches = new WeakMap<Db, Map<string, { rows: number; until: number }>>();

/**
 * Estimates of the same query (one user scrolling a list, every workstation polling the same view) for ten
 * seconds: an estimate is approximate anyway, and on embedded PGlite every statement saved is a few milliseconds
 * of the one connection. Keyed by the statement and its parameters, so scope and filters are part of the key.
 * Exact counts are never cached.
 *
 * `ownKey`: a caller that knows what its statement is made of (the exam list: scope, view and filters as asked) may
 * name it itself, which spares building the statement's text only to look it up (`toSQL()` was most of this
 * function's cost). Such a key must change whenever the statement would, instants to the minute as above; it is
 * kept apart from the statement keys by a prefix no SQL text starts with.
 */
export async function cachedEstimate(db: Db, query: { toSQL(): { sql: string; params: unknown[] }; getSQL(): SQL }, now = Date.now(), ownKey?: string): Promise<number> {
  const key = cacheKey(query, ownKey);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.rows;
  const rows = await estimatedRows(db, query);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { rows, until: now + TTL_MS });
  return rows;
}

/**
 * A count that found more rows than the cached estimate of the same statement said (an exact count that ran past
 * its limit): the cached estimate is raised to it for the rest of its ten seconds, so the next page of that list
 * answers from the estimate instead of counting to the limit again (10,000 rows of "my tasks" on PGlite: ~12 ms).
 */
export function raiseCachedEstimate(db: Db, query: { toSQL(): { sql: string; params: unknown[] } }, rows: number, ownKey?: string): void {
  const hit = caches.get(db)?.get(cacheKey(query, ownKey));
  if (hit && hit.rows < rows) hit.rows = rows;
}

export interface CappedCount {
  total: number;
  totalIsEstimate: boolean;
}

/**
 * The rows of `table` matching `where`: exact up to `exactLimit` (reading at most one row more, so its cost is
 * bounded), else the planner's estimate, never below the limit. Every list's total (and an export's limit check)
 * is this: an exact count of 100,000 visible rows costs hundreds of ms, and nobody reads a total of that size exactly.
 */
export async function cappedCount(db: Db, table: PgTable, where: SQL | undefined, exactLimit: number): Promise<CappedCount> {
  const capped = db.select({ one: sql`1`.as('one') }).from(table).where(where).limit(exactLimit + 1).as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  const n = Number(row?.n ?? 0);
  if (n <= exactLimit) return { total: n, totalIsEstimate: false };
  const estimate = await cachedEstimate(db, db.select({ one: sql`1` }).from(table).where(where));
  return { total: Math.max(estimate, exactLimit + 1), totalIsEstimate: true };
}
