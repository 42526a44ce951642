import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { seedBench } from './benchSeed';

/**
 * `npm run seed:bench -- --exams 1000000 [--days 1095]`: adds N exams with their reports to a benchmark database
 * (DATABASE_URL, else PGlite in DATA_DIR); see benchSeed.ts for what it holds.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name}: expected a whole number`);
  return value;
}

const count = arg('exams', 1_000_000);
const days = arg('days', 1095);
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
console.log(`seed:bench → ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}` : ''}: ${count.toLocaleString('en')} exams over ${days} days`);
await seedBench(database.db, { add: count, days, scryptCost: config.scryptCost, log: (line) => console.log(line) });
await database.close();
