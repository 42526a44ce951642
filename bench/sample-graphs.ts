/**
 * Sample graphs and global configs benchmark (`npm run bench:sample-graphs`): prints numbers, never passes or fails on
 * a time. The real app in this process on a fresh in-memory PGlite (and PostgreSQL too when DATABASE_URL is set: a new
 * database, dropped after) with the demo data and its two drawings, grown to BENCH_GRAPHS drawings (default 40) of 50
 * points each. Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up calls: the organisation's list (each
 * drawing with a signed read link), a save of 50 points, a re-sort, an upload of a 200 kB PNG, and the global-config
 * query. p50 / p95 / max in milliseconds.
 */
import { randomBytes } from 'node:crypto';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { seedDemo } from '../server/seed/demo';
import { encodePng } from '../server/http/png';
import { bodyOutline } from '../server/seed/sampleGraphs';
import { benchKinds, benchStorage, BENCH_SCRYPT_COST, openBenchDatabase, startBenchApp, timeScenarios } from './support/server';

const GRAPHS = Number(process.env.BENCH_GRAPHS ?? 40);

const points = (seed: number) => Array.from({ length: 50 }, (_, i) => ({ x: ((seed + i * 37) % 100) / 100, y: ((seed * 7 + i * 13) % 100) / 100, color: '#e03131' }));

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await openBenchDatabase(kind, 'graphs');
  const clock = systemClock;
  const files = benchStorage('graphs');
  const { storage } = files;
  const ids = await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock, exams: 0, storage, images: 0 });
  const drawing = bodyOutline();
  for (let i = 0; i < GRAPHS - 2; i++) {
    const key = `sample-graphs/${ids.hospitalId}/bench${i}.png`;
    await storage.put(key, drawing, { contentType: 'image/png' });
    await database.db.insert(t.sampleGraphs).values({ bucketId: ids.hospitalId, name: `示意图 ${i}`, url: key, points: points(i), sortIndex: 10 + i });
  }
  const bench = await startBenchApp(database, drop, files);
  const admin = await bench.login('admin');
  const call = (method: string, route: string, body?: unknown) => bench.call(admin, method, route, body);
  const list = await call('GET', `sample-graphs/query?bucketId=${ids.hospitalId}`) as { id: number }[];
  const target = list[0]!.id;
  // A 200 kB PNG: random grey noise does not compress.
  const noise = encodePng(460, 440, 1, randomBytes(460 * 440));
  const uploaded: number[] = [];

  let n = 0;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET sample-graphs/query (${list.length} drawings)`, () => call('GET', `sample-graphs/query?bucketId=${ids.hospitalId}`)],
    ['PATCH sample-graphs/{id} (50 points)', () => call('PATCH', `sample-graphs/${target}`, { points: points(n++) })],
    ['POST sample-graphs/{id}/resort', () => call('POST', `sample-graphs/${target}/resort`, { preId: n++ % 2 === 0 ? null : list[5]!.id })],
    [`POST sample-graphs (${Math.round(noise.length / 1024)} kB PNG)`, async () => {
      const form = new FormData();
      form.append('bucketId', String(ids.hospitalId));
      form.append('name', `上传 ${n++}`);
      form.append('file', new Blob([noise as Buffer<ArrayBuffer>], { type: 'image/png' }), 'noise.png');
      uploaded.push(((await call('POST', 'sample-graphs', form)) as { id: number }).id);
    }],
    ['GET global-configs/query (all keys)', () => call('GET', 'global-configs/query?keys=supportPhone,supportEmail,helpUrl,learningEnabled,sampleGraphMaxMb')],
  ];
  await timeScenarios(kind, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
