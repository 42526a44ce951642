/**
 * Report templates benchmark (`npm run bench:templates`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, the hospital's tree grown to BENCH_TEMPLATES templates (default
 * 1,000, in folders of 50) and the group's shared tree to 200. Over loopback HTTP, BENCH_RUNS each (default 200) after
 * 10 warm-up calls: the tree read a report opens (organisation + group), the group tree, an upsert that changes a
 * template's text, an upsert that creates one, the export, and an import of a 100-node document.
 * p50 / p95 / max in milliseconds.
 */
import type { Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { benchKinds, startDemoBench, timeScenarios } from './support/server';

const PREFIX = 'templates';

const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 1000);

async function grow(database: Database, ids: { groupId: number; hospitalId: number }) {
  const db = database.db;
  const text = '<p>双肺纹理清晰，走行自然，肺野内未见明显实变影。两肺门不大，纵隔居中。心影大小、形态未见异常。</p>';
  for (let f = 0; f * 50 < TEMPLATES; f++) {
    const [folder] = await db.insert(t.reportTemplates).values({ bucketId: ids.hospitalId, name: `测试文件夹${f}`, isFolder: true, sort: 100 + f }).returning();
    const n = Math.min(50, TEMPLATES - f * 50);
    await db.insert(t.reportTemplates).values(Array.from({ length: n }, (_, i) => ({
      bucketId: ids.hospitalId, parentId: folder!.id, name: `测试模板${f}-${i}`, modality: 'CT', bodyPart: '胸部', finding: text, diagnosis: '<p>未见异常。</p>', sort: i,
    })));
  }
  for (let f = 0; f < 4; f++) {
    const [folder] = await db.insert(t.reportTemplates).values({ groupId: ids.groupId, name: `集团测试${f}`, isFolder: true, sort: 10 + f }).returning();
    await db.insert(t.reportTemplates).values(Array.from({ length: 50 }, (_, i) => ({
      groupId: ids.groupId, parentId: folder!.id, name: `集团模板${f}-${i}`, modality: 'US', finding: text, sort: i,
    })));
  }
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, ids, bench } = await startDemoBench(kind, PREFIX, 200, grow);
  const admin = await bench.login('admin');
  const rad2 = await bench.login('rad2');
  const call = (token: string, method: string, route: string, body?: unknown) => bench.call(token, method, route, body);
  const tree = await call(admin, 'GET', `report-templates?bucketId=${ids.hospitalId}`) as { items: { id: number; isFolder: boolean; children: { id: number; name: string; parentId: number }[] }[] };
  const target = tree.items.find((n) => n.isFolder && n.children.length > 0)!.children[0]!;
  const [scratch] = await database.db.insert(t.reportTemplates).values({ bucketId: ids.hospitalId, name: 'bench-import', isFolder: true }).returning();
  let serial = 0;
  const document = (n: number) => ({
    format: 'report-templates', version: 1,
    items: [{ name: `导入${n}`, folder: true, children: Array.from({ length: 99 }, (_, i) => ({ name: `模板${i}`, modality: 'CT', finding: '<p>所见</p>', diagnosis: '<p>结论</p>' })) }],
  });
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET report-templates?bucketId (${TEMPLATES} + group 200)`, () => call(rad2, 'GET', `report-templates?bucketId=${ids.hospitalId}`)],
    ['GET report-templates?groupId (200)', () => call(rad2, 'GET', `report-templates?groupId=${ids.groupId}`)],
    ['POST report-templates/upsert (change a text)', () => call(admin, 'POST', 'report-templates/upsert', {
      id: target.id, bucketId: ids.hospitalId, parentId: target.parentId, name: target.name, finding: `<p>所见 ${serial++}</p>`, diagnosis: '<p>结论</p>',
    })],
    ['POST report-templates/upsert (new template)', () => call(admin, 'POST', 'report-templates/upsert', {
      bucketId: ids.hospitalId, parentId: scratch!.id, name: `新模板${serial++}`, finding: '<p>所见</p>',
    })],
    ['GET report-templates/export', () => call(rad2, 'GET', `report-templates/export?bucketId=${ids.hospitalId}`)],
    ['POST report-templates/import (100 nodes)', () => call(admin, 'POST', 'report-templates/import', { bucketId: ids.hospitalId, parentId: scratch!.id, document: document(serial++) })],
  ];
  await timeScenarios(`${kind}`, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
