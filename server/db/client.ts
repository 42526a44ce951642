import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema';
import { withDrizzleParsers } from './pgliteParsers';

export type Schema = typeof schema;
/** The common face of the PGlite and node-postgres Drizzle databases. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens PostgreSQL when a URL is given, else embedded PGlite (in `dataDir`, or in memory when
 * `dataDir` is null), and applies the migrations. PGlite's extension must be loaded at creation,
 * which drizzle-kit's CLI cannot do, so migrations always run from here.
 */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string | null; pgliteSnapshot?: Blob }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 20 });
    // An idle connection the server ends (a restart, a failover, a dropped database) is an 'error' on the pool; without
    // a listener it would crash the process. The pool replaces the connection; requests in flight get their own error.
    let closing = false;
    pool.on('error', (err) => {
      if (!closing) console.error(`PostgreSQL closed an idle connection: ${err.message}`);
    });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      close: () => {
        closing = true;
        return pool.end();
      },
    };
  }
  // A snapshot (tests: a migrated database dumped once) starts from its files; the migrations below then find
  // nothing to do. Creating and migrating a fresh PGlite costs seconds; loading a snapshot about one.
  const client = new PGlite(opts.dataDir ? path.join(opts.dataDir, 'pglite') : 'memory://', { extensions: { pg_trgm }, loadDataDir: opts.pgliteSnapshot });
  const db = drizzlePglite(withDrizzleParsers(client), { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}

/** Writes an open PGlite database's files as an uncompressed tarball (see `pgliteSnapshot`). */
export async function dumpPglite(database: Database): Promise<Blob> {
  if (database.kind !== 'pglite') throw new Error('only an embedded database can be dumped');
  // drizzle's PGlite database keeps its client here; the common Db type does not name it.
  const client = (database.db as unknown as { $client: PGlite }).$client;
  return client.dumpDataDir('none');
}
