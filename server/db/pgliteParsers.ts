import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { isNamedOnPglite, queryNamed, queryNamedInTransaction } from './pgliteNamed';

/**
 * The types drizzle's PGlite driver reads as text (drizzle-orm/pglite/session.js passes them as `parsers` with every
 * query): timestamp, timestamptz, interval, date and the arrays numeric[], timestamp[], timestamptz[], interval[],
 * date[]. PGlite merges per-query parsers into its own table of ~320 by copying that table on every query
 * (`{ ...parsers, ...options.parsers }` in its parseResults): ~0.14 ms of a 0.23 ms statement, measured.
 */
export const DRIZZLE_TEXT_TYPES: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

const asText = (value: string) => value;

/**
 * The PGlite client drizzle is given: the same database, with drizzle's text parsers written once into the
 * client's own table, so that the per-query copy is not needed and is left out. Results are the same: the merged table
 * PGlite would have built is the client's table as it now stands. Options naming any other parser go through as
 * they are. PGlite installs its array parsers when it reads the array types (at start-up, and again on
 * refreshArrayTypes), so the table is checked (one comparison) before each query and written again when needed.
 *
 * The statements preparedOnce made run as named statements (./pgliteNamed.ts), on the client or in the transaction.
 */
export function withDrizzleParsers(client: PGlite): PGlite {
  const table = () => (client as unknown as { parsers: Record<number, (value: string, typeId: number) => unknown> }).parsers;
  // PGlite installs its array parsers at the end of its start-up (waitReady): drizzle's are written after that.
  const ready = (): Promise<void> | null => {
    if (table()[1185] === asText) return null;
    return client.waitReady.then(() => {
      const parsers = table();
      for (const typeId of DRIZZLE_TEXT_TYPES) parsers[typeId] = asText;
    });
  };
  const strip = (options: QueryOptions | undefined): QueryOptions | undefined => {
    const parsers = options?.parsers;
    if (!parsers) return options;
    for (const key of Object.keys(parsers)) if (!DRIZZLE_TEXT_TYPES.includes(Number(key))) return options;
    const { parsers: _dropped, ...rest } = options;
    return rest;
  };
  const named = (t: PGlite | Transaction, text: string, params: unknown[], options: QueryOptions | undefined) => {
    if (t === client) return queryNamed(client, text, params, options);
    // As PGlite's own transaction answers a statement sent after its end.
    if ((t as Transaction).closed) return Promise.reject(new Error('Transaction is closed'));
    return queryNamedInTransaction(client, text, params, options);
  };
  const send = (t: PGlite | Transaction, text: string, params: unknown[] | undefined, options: QueryOptions | undefined) => (
    isNamedOnPglite(text) ? named(t, text, params ?? [], strip(options)) : t.query(text, params, strip(options)));
  const wrap = <T extends PGlite | Transaction>(target: T): T => new Proxy(target, {
    get(t, prop) {
      if (prop === 'query') {
        return (text: string, params?: unknown[], options?: QueryOptions) => {
          const waiting = ready();
          return waiting ? waiting.then(() => send(t, text, params, options)) : send(t, text, params, options);
        };
      }
      if (prop === 'transaction' && 'transaction' in t) {
        return <R>(callback: (tx: Transaction) => Promise<R>) => (t as PGlite).transaction((tx) => callback(wrap(tx)));
      }
      // PGlite keeps its state in private fields: its methods must run on the client itself, not on the proxy.
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
  return wrap(client);
}
