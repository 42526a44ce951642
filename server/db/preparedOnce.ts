import type { Db } from './types';
import { nameOnPglite } from './pgliteNamed';

/**
 * Prepared statements by database handle and name, each made on its first use. drizzle builds a statement's SQL text
 * from its object tree on every execute (0.3–0.6 ms for a report's read or write, issue 18); a prepared statement is
 * built once, and on PostgreSQL a named one is also parsed once per connection. A statement belongs to the handle it
 * was made on: a transaction's handle is its own key, so statements made in a transaction run on its connection and
 * are dropped with it.
 */
const byDb = new WeakMap<Db, Map<string, unknown>>();

/**
 * On PostgreSQL a statement made here runs on the database's planned twin: the same database through a pool whose
 * connections use the statement's generic plan, planned once, instead of planning it again on every execution
 * (server/db/client.ts says why only these statements). A transaction's handle has no twin: its statements run on it.
 */
const plannedTwins = new WeakMap<Db, Db>();
export function setPlannedTwin(db: Db, twin: Db): void {
  plannedTwins.set(db, twin);
}

/** `planned: false` keeps the statement off the twin: a statement whose plan depends on its values (see client.ts). */
export function preparedOnce<T>(db: Db, name: string, make: (db: Db) => T, opts: { planned?: boolean } = {}): T {
  let byName = byDb.get(db);
  if (!byName) byDb.set(db, (byName = new Map()));
  // The map holds every statement type; `name` is unique per statement, so what it holds under `name` is a T.
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    byName.set(name, (statement = make(opts.planned === false ? db : plannedTwins.get(db) ?? db)));
    // On PGlite the statement's text runs as a named statement, parsed once (./pgliteNamed.ts). drizzle's prepared
    // queries keep their SQL text in `queryString`.
    const text = (statement as { queryString?: unknown }).queryString;
    if (typeof text === 'string') nameOnPglite(text);
  }
  return statement;
}
