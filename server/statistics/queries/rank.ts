import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** The rows of a raw statement: both drivers (node-postgres, PGlite) answer `{ rows }`; Drizzle's type does not say so. */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/**
 * The order of a statistic's rows (statistics notes): the first count column descending, then by name; a row without
 * a name (`unknown`) after the named ones among equals.
 */
export function byCountThenName<T>(count: (x: T) => number, name: (x: T) => string | null) {
  return (a: T, b: T): number => {
    const na = name(a);
    const nb = name(b);
    return count(b) - count(a) || (na === null ? 1 : 0) - (nb === null ? 1 : 0) || (na ?? '').localeCompare(nb ?? '');
  };
}
