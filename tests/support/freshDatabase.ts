import pg from 'pg';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpPglite, openDatabase, type Database } from '../../server/db/client';

/**
 * A fresh, migrated database for one test file. Migrating from nothing costs seconds on PGlite (about 3.5 of a
 * server start's 5), and the API suite starts some fifty servers per database; so the migrations run once per
 * version of the migrations folder into a template, and every test file copies the template:
 * - PGlite: a tarball of the migrated data directory under .tmp/, loaded at creation (about a second);
 * - PostgreSQL: a template database `t_tpl_<hash>`, copied by CREATE DATABASE … TEMPLATE (about 0.1 s).
 * The template is named by a hash of the migrations, so a changed migration makes a new one. The copy still goes
 * through `openDatabase`, whose migrator then finds nothing to apply — the server's own start path is tested.
 */
export interface FreshDatabase {
  database: Database;
  /** The new PostgreSQL database's URL, or null on PGlite. */
  databaseUrl: string | null;
  /** Closes and (PostgreSQL) drops the database. */
  dispose(): Promise<void>;
}

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const migrationsFolder = path.join(root, 'server', 'db', 'migrations');

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const dir of [migrationsFolder, path.join(migrationsFolder, 'meta')]) {
    for (const name of readdirSync(dir).sort()) if (name.endsWith('.sql') || name === '_journal.json') h.update(name).update(readFileSync(path.join(dir, name)));
  }
  // The dump's format belongs to the PGlite release.
  h.update(readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  return h.digest('hex').slice(0, 12);
}

export async function freshDatabase(): Promise<FreshDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  return adminUrl ? freshPostgres(adminUrl) : freshPglite();
}

async function freshPglite(): Promise<FreshDatabase> {
  const file = path.join(root, '.tmp', `pglite-template-${migrationsHash()}.tar`);
  if (!existsSync(file)) {
    const made = await openDatabase({ databaseUrl: null, dataDir: null });
    const dump = Buffer.from(await (await dumpPglite(made)).arrayBuffer());
    await made.close();
    mkdirSync(path.dirname(file), { recursive: true });
    // Two workers may make it at once: each writes its own file and the rename makes one whole file win.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
  }
  const database = await openDatabase({ databaseUrl: null, dataDir: null, pgliteSnapshot: new Blob([readFileSync(file)]) });
  return { database, databaseUrl: null, dispose: () => database.close() };
}

async function freshPostgres(adminUrl: string): Promise<FreshDatabase> {
  const template = `t_tpl_${migrationsHash()}`;
  const name = `t_${randomBytes(6).toString('hex')}`;
  const urlOf = (db: string) => { const u = new URL(adminUrl); u.pathname = `/${db}`; return u.toString(); };
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // One maker at a time: a template being migrated cannot be copied (PostgreSQL refuses a source with sessions).
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (!rowCount) {
        const building = `${template}_${randomBytes(3).toString('hex')}`;
        await admin.query(`create database ${building}`);
        const made = await openDatabase({ databaseUrl: urlOf(building), dataDir: null });
        await made.close();
        await admin.query(`alter database ${building} rename to ${template}`);
      }
      await admin.query(`create database ${name} template ${template}`);
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [template]);
    }
  } finally {
    await admin.end();
  }
  const databaseUrl = urlOf(name);
  const database = await openDatabase({ databaseUrl, dataDir: null });
  return {
    database, databaseUrl,
    async dispose() {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
