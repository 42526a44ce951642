import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/**
 * The database's types, apart from client.ts (which opens it) so that what client.ts itself uses (preparedOnce's
 * planned twin) can name them without importing it back.
 */
export type Schema = typeof schema;
/** The common face of the PGlite and node-postgres Drizzle databases. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
