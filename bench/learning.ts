/**
 * Learning benchmark (`npm run bench:learning`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, its library grown to BENCH_VIDEOS videos (default 500) in 8
 * categories, and BENCH_WATCHERS accounts (default 1,000) each with progress on 30 videos, so the progress table holds
 * tens of thousands of rows. Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up calls: the list signed
 * out and signed in (progress merged), a search, a category, one video, and the progress write. p50 / p95 / max in ms.
 */
import { hashPassword } from '../server/auth/password';
import type { Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { benchKinds, BENCH_SCRYPT_COST, startDemoBench, timeScenarios } from './support/server';

const PREFIX = 'learning';

const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 500);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const PER_WATCHER = 30;
const CATEGORIES = ['workstation', 'reporting', 'calling', 'viewer', 'registry', 'admin', 'quality', 'safety'];

async function grow(database: Database, rad2: number) {
  const db = database.db;
  const videos: number[] = [];
  for (let start = 0; start < VIDEOS; start += 250) {
    const n = Math.min(250, VIDEOS - start);
    const rows = await db.insert(t.learnings).values(Array.from({ length: n }, (_, i) => ({
      title: `培训视频 ${start + i} / Training video ${start + i}`, description: `第 ${start + i} 课的简介。Lesson ${start + i} in short.`,
      videoUrl: '/learning/worklist.webm', posterUrl: '/learning/worklist.jpg', durationSec: 20 + ((start + i) % 600),
      category: CATEGORIES[(start + i) % CATEGORIES.length]!, sort: 100 + start + i,
    }))).returning({ id: t.learnings.id });
    videos.push(...rows.map((r) => r.id));
  }
  const hash = await hashPassword(DEMO_PASSWORD, BENCH_SCRYPT_COST);
  const now = new Date();
  for (let start = 0; start < WATCHERS; start += 100) {
    const n = Math.min(100, WATCHERS - start);
    const accounts = await db.insert(t.accounts).values(Array.from({ length: n }, (_, i) => ({
      username: `watcher${start + i}`, name: `观看者${start + i}`, passwordHash: hash,
    }))).returning({ id: t.accounts.id });
    await db.insert(t.learningProgress).values(accounts.flatMap((a, k) => Array.from({ length: PER_WATCHER }, (_, j) => ({
      accountId: a.id, learningId: videos[(start + k + j * 7) % videos.length]!, positionSec: j, completed: j % 5 === 0, updated: now,
    }))));
  }
  await db.insert(t.learningProgress).values(videos.slice(0, PER_WATCHER).map((id, j) => ({ accountId: rad2, learningId: id, positionSec: j, completed: false, updated: now })));
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { bench } = await startDemoBench(kind, PREFIX, 50, (database, ids) => grow(database, ids.accounts.rad2));
  const rad2 = await bench.login('rad2');
  const call = bench.call;
  const first = ((await call(null, 'GET', 'learnings?limit=1')) as { items: { id: number }[] }).items[0]!.id;

  let position = 0;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET learnings signed out (20 of ${VIDEOS + 3})`, () => call(null, 'GET', 'learnings')],
    ['GET learnings signed in (20, progress merged)', () => call(rad2, 'GET', 'learnings')],
    ['GET learnings?q=… (title or description)', () => call(rad2, 'GET', `learnings?q=${encodeURIComponent('Lesson 42')}`)],
    ['GET learnings?category=… (skip 20)', () => call(rad2, 'GET', 'learnings?category=viewer&skip=20')],
    ['GET learnings/{id} signed in', () => call(rad2, 'GET', `learnings/${first}`)],
    ['PUT learnings/{id}/progress', () => {
      position = (position + 1.5) % 19;
      return call(rad2, 'PUT', `learnings/${first}/progress`, { positionSec: position, completed: false });
    }],
  ];
  await timeScenarios(`${kind}, ${VIDEOS} videos, ${WATCHERS * PER_WATCHER} progress rows`, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
