import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema';
import { withDrizzleParsers } from './pgliteParsers';
import { setPlannedTwin } from './preparedOnce';
import type { Db } from './types';

export type { Db, Schema } from './types';

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
    // The pool of the statements that are planned once (preparedOnce, `planned`): PostgreSQL planned each of them again
    // on every execution (a custom plan, because a generic plan's estimate for an unknown LIMIT looks dearer; the
    // worklist page spent ~1.5 ms of its ~2.5 ms planning). Only statements whose generic plan is the plan they need
    // run here: the setting is per connection and holds for unnamed statements too, where it would ruin the text
    // search (12 → 190 ms) and the many-organisation pages.
    const plannedPool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, options: '-c plan_cache_mode=force_generic_plan' });
    // An idle connection the server ends (a restart, a failover, a dropped database) is an 'error' on the pool; without
    // a listener it would crash the process. The pool replaces the connection; requests in flight get their own error.
    let closing = false;
    for (const p of [pool, plannedPool]) {
      p.on('error', (err) => {
        if (!closing) console.error(`PostgreSQL closed an idle connection: ${err.message}`);
      });
    }
    const db = drizzlePg(pool, { schema });
    await migrateOnce(pool, () => migratePg(db, { migrationsFolder }));
    setPlannedTwin(db as unknown as Db, drizzlePg(plannedPool, { schema }) as unknown as Db);
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      close: async () => {
        closing = true;
        await Promise.all([pool.end(), plannedPool.end()]);
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

/** The advisory lock key the migrations of every process take (an arbitrary constant: "radws-migrate"). */
export const MIGRATION_LOCK = 0x72616477;

/**
 * Drizzle's migrator takes no lock: processes started together on one database would each find the journal empty and
 * run the same migration, the second failing on "relation already exists" (or worse, half of a migration that has no
 * such guard). One session-level advisory lock, held on a connection of its own while the migrator runs, lets the first
 * process migrate; the others wait, then find every migration in the journal and apply nothing.
 */
async function migrateOnce(pool: pg.Pool, migrate: () => Promise<unknown>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
