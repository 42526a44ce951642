import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/client';
import { examCount, seedBench } from '../../server/seed/benchSeed';
import { BENCH_SCRYPT_COST } from './server';

/**
 * A bench's own database, filled once and reused: on PostgreSQL `bench_<name>` on the server of DATABASE_URL (made
 * when missing), or BENCH_DATABASE_URL as it is; on PGlite `.bench/<name>-pglite`, or DATA_DIR.
 */
export async function benchDatabase(name: string, target: 'postgres' | 'pglite'): Promise<Database> {
  if (target === 'pglite') {
    const dir = path.resolve(process.env.DATA_DIR ?? `.bench/${name}-pglite`);
    mkdirSync(dir, { recursive: true });
    return openDatabase({ databaseUrl: null, dataDir: dir });
  }
  if (process.env.BENCH_DATABASE_URL) return openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: null });
  if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) or BENCH_DATABASE_URL');
  const database = `bench_${name}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${database}`;
  return openDatabase({ databaseUrl: url.toString(), dataDir: null });
}

/**
 * `benchDatabase` grown to at least `wanted` exams by the generator of `npm run seed:bench` (made once, reused by
 * every later run); `count` is what it holds after.
 */
export async function examsBenchDatabase(name: string, target: 'postgres' | 'pglite', wanted: number): Promise<{ database: Database; count: number }> {
  const database = await benchDatabase(name, target);
  const have = await examCount(database.db);
  if (have < wanted) {
    console.log(`${target}: ${have.toLocaleString('en')} exams, seeding ${(wanted - have).toLocaleString('en')} more…`);
    await seedBench(database.db, { add: wanted - have, days: 1095, scryptCost: BENCH_SCRYPT_COST, log: (l) => console.log(`  ${l}`) });
  }
  return { database, count: await examCount(database.db) };
}
