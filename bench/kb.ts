/**
 * Knowledge-base benchmark (`npm run bench:kb`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, the hospital's knowledge base grown to BENCH_KB_FOLDERS folders
 * (default 40) of BENCH_KB_TEXTS texts each (default 25, with a paragraph of HTML) plus a template link per folder.
 * Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up calls: the tree query (as a radiologist), a
 * re-sort in a folder (the level's last item to the front, as the organisation admin), a re-sort at the top level,
 * and a rename. p50 / p95 / max in milliseconds.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { benchKinds, startDemoBench, timeScenarios } from './support/server';

const FOLDERS = Number(process.env.BENCH_KB_FOLDERS ?? 40);
const TEXTS = Number(process.env.BENCH_KB_TEXTS ?? 25);

async function grow(database: Database, bucketId: number): Promise<{ folderIds: number[] }> {
  const db = database.db;
  const [template] = await db.select({ id: t.reportTemplates.id }).from(t.reportTemplates).where(eq(t.reportTemplates.bucketId, bucketId)).limit(1);
  const folders = await db.insert(t.kbItems).values(Array.from({ length: FOLDERS }, (_, i) => ({
    bucketId, type: 'folder', name: `测试目录 ${i}`, sort: 100 + i,
  }))).returning({ id: t.kbItems.id });
  for (const folder of folders) {
    await db.insert(t.kbItems).values([
      ...Array.from({ length: TEXTS }, (_, i) => ({
        bucketId, parentId: folder.id, type: 'text', name: `测试文本 ${i}`, sort: i + 1,
        content: `<p>肺结节随访建议第 ${i} 条：<b>实性结节</b> 6–8 mm，6–12 个月复查 CT。</p>`.repeat(4),
      })),
      { bucketId, parentId: folder.id, type: 'template', name: '模板链接', referenceId: template?.id ?? null, sort: TEXTS + 1 },
    ]);
  }
  return { folderIds: folders.map((f) => f.id) };
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { ids, grown: { folderIds }, bench } = await startDemoBench(kind, 'kb', 200, (database, ids) => grow(database, ids.hospitalId));
  const orgadmin = await bench.login('orgadmin');
  const rad1 = await bench.login('rad1');
  const call = (token: string, method: string, route: string, body?: unknown) => bench.call(token, method, route, body);
  const tree = await call(rad1, 'GET', `kb-items/query?bucketId=${ids.hospitalId}`) as { items: { id: number; parentId: number | null }[] };
  const folderId = folderIds[0]!;
  const level = tree.items.filter((i) => i.parentId === folderId).map((i) => i.id);
  const top = tree.items.filter((i) => i.parentId === null).map((i) => i.id);

  let flip = false;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET kb-items/query (${tree.items.length} items)`, () => call(rad1, 'GET', `kb-items/query?bucketId=${ids.hospitalId}`)],
    [`POST kb-items/{id}/resort (a folder of ${level.length}, last to first)`, () => {
      const last = level.pop()!;
      level.unshift(last);
      return call(orgadmin, 'POST', `kb-items/${last}/resort`, { preId: null });
    }],
    [`POST kb-items/{id}/resort (top level of ${top.length}, first after second)`, () => {
      const [a, b] = top;
      top.splice(0, 2, b!, a!);
      return call(orgadmin, 'POST', `kb-items/${a}/resort`, { preId: b });
    }],
    ['PATCH kb-items/{id} (rename)', () => {
      flip = !flip;
      return call(orgadmin, 'PATCH', `kb-items/${level[0]}`, { name: flip ? '改名甲' : '改名乙' });
    }],
  ];
  await timeScenarios(`${kind}`, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
