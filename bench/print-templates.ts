/**
 * Print templates benchmark (`npm run bench:print-templates`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data and BENCH_TEMPLATES extra print templates of the hospital (default
 * 60), each with a stored logo (so the list signs a read link per image). Over loopback HTTP, BENCH_RUNS each (default
 * 200) after 10 warm-up calls: the list, one template, an update, making a default, a logo upload, and the print data
 * of an approved report (which reads the default and signs its images). p50 / p95 / max in milliseconds.
 */
import { and, eq } from 'drizzle-orm';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { printImageKey } from '../server/organizations/printTemplates';
import { seedDemo } from '../server/seed/demo';
import { demoLogo } from '../server/seed/printImages';
import { benchKinds, benchStorage, BENCH_SCRYPT_COST, openBenchDatabase, startBenchApp, timeScenarios } from './support/server';

const PREFIX = 'print';

const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 60);

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await openBenchDatabase(kind, PREFIX);
  const db = database.db;
  const clock = systemClock;
  const files = benchStorage(PREFIX);
  const { storage } = files;
  const ids = await seedDemo(db, { scryptCost: BENCH_SCRYPT_COST, clock, exams: 100 });
  const logo = demoLogo();
  const grown = await db.insert(t.printTemplates).values(Array.from({ length: TEMPLATES }, (_, i) => ({
    bucketId: ids.hospitalId, name: `测试打印模板 ${i}`, titles: ['影像诊断报告单'], modality: i % 3 === 0 ? 'XA' : null,
  }))).returning({ id: t.printTemplates.id });
  for (const row of grown) {
    const key = printImageKey(ids.hospitalId, row.id, 'image/png');
    await storage.put(key, logo, { contentType: 'image/png' });
    await db.update(t.printTemplates).set({ logo: key }).where(eq(t.printTemplates.id, row.id));
  }
  const bench = await startBenchApp(database, drop, files);
  const admin = await bench.login('orgadmin');
  const rad1 = await bench.login('rad1');
  const call = (token: string, method: string, route: string, body?: unknown) => bench.call(token, method, route, body);
  const list = `buckets/${ids.hospitalId}/print-templates`;
  const target = grown[1]!.id;
  const [a, b] = [grown[3]!.id, grown[6]!.id]; // two XA templates: the default goes back and forth
  const [approved] = await db.select({ id: t.reports.id }).from(t.reports)
    .where(and(eq(t.reports.bucketId, ids.hospitalId), eq(t.reports.status, 'corrected'))).limit(1);

  let n = 0;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET buckets/{id}/print-templates (${TEMPLATES + 3}, a logo each)`, () => call(admin, 'GET', list)],
    ['GET buckets/{id}/print-templates/{templateId}', () => call(admin, 'GET', `${list}/${target}`)],
    ['PUT buckets/{id}/print-templates/{templateId}', () => call(admin, 'PUT', `${list}/${target}`, {
      name: '测试打印模板 1', titles: ['影像诊断报告单', `副标题 ${++n}`], qrMode: 'static', qrText: `Q${n % 1000}`, exactTime: n % 2 === 0,
    })],
    ['POST …/{templateId}/default (XA, back and forth)', () => call(admin, 'POST', `${list}/${++n % 2 ? a : b}/default`)],
    ['PUT …/{templateId}/logo (605-byte PNG)', () => {
      const form = new FormData();
      form.append('file', new Blob([logo as Buffer<ArrayBuffer>], { type: 'image/png' }), 'logo.png');
      return call(admin, 'PUT', `${list}/${target}/logo`, form);
    }],
    ...(approved ? [['GET reports/{id}/print-data', () => call(rad1, 'GET', `reports/${approved.id}/print-data`)] as [string, () => Promise<unknown>]] : []),
  ];
  await timeScenarios(`${kind}`, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
