import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { systemClock } from '../deps';
import { storageFromEnv } from '../storage';
import { seedDemoIfEmpty } from './demo';

/** `npm run seed [-- --exams N]`: demo data into an empty database (the server does the same on first start). */
const args = process.argv.slice(2);
const examsArg = args.indexOf('--exams');
const exams = examsArg >= 0 ? Number(args[examsArg + 1]) : undefined;
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const started = performance.now();
const storage = storageFromEnv(process.env, { dataDir: config.dataDir, secret: config.tokenSecret, clock: systemClock });
const ids = await seedDemoIfEmpty(database.db, { scryptCost: config.scryptCost, clock: systemClock, exams, storage });
console.log(ids ? `seeded demo data in ${Math.round(performance.now() - started)} ms` : 'database not empty: nothing seeded');
await database.close();
