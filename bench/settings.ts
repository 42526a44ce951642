/**
 * Personal settings benchmark (`npm run bench:settings`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh in-memory PGlite (and PostgreSQL too when DATABASE_URL is set: a new
 * database, dropped after) with the demo data. Over loopback HTTP, BENCH_RUNS each (default 200) after 10 warm-up
 * calls: the profile read (GET accounts/me), a notification switch (PATCH accounts/me), the masked mobile, and a
 * signature save (POST accounts/me/signature: a 600×200 drawn PNG, checked pixel by pixel, stored, the old one
 * deleted). p50 / p95 / max in milliseconds.
 */
import { encodePng } from '../server/http/png';
import { systemClock } from '../server/deps';
import { seedDemo } from '../server/seed/demo';
import { benchKinds, benchStorage, BENCH_SCRYPT_COST, openBenchDatabase, startBenchApp, timeScenarios } from './support/server';


/** A 600×200 RGBA PNG, transparent, with a wavy stroke: what a HiDPI pad of 300×100 CSS pixels sends. */
function drawnSignature(): Buffer {
  const w = 600;
  const h = 200;
  const pixels = Buffer.alloc(w * h * 4);
  for (let x = 20; x < w - 20; x++) {
    const y0 = Math.round(h / 2 + Math.sin(x / 25) * 50);
    for (let y = y0 - 2; y <= y0 + 2; y++) pixels[(y * w + x) * 4 + 3] = 255;
  }
  return encodePng(w, h, 4, pixels);
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { database, drop } = await openBenchDatabase(kind, 'settings');
  const clock = systemClock;
  await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock, exams: 50 });
  const bench = await startBenchApp(database, drop, benchStorage('settings'), { sms: { send: async () => undefined } });
  const token = await bench.login('rad1');
  const { id: userId } = await bench.call(token, 'GET', 'accounts/me') as { id: number };
  const call = (method: string, route: string, body?: unknown) => bench.call(token, method, route, body);
  const image = drawnSignature();
  let flip = false;
  const scenarios: [string, () => Promise<unknown>][] = [
    ['GET accounts/me (profile read)', () => call('GET', 'accounts/me')],
    ['PATCH accounts/me (a sound switch)', () => call('PATCH', 'accounts/me', { notificationPrefs: { examSound: (flip = !flip) } })],
    ['GET accounts/{id}/mobile (self)', () => call('GET', `accounts/${userId}/mobile`)],
    [`POST accounts/me/signature (600×200 PNG, ${Math.round(image.length / 1024)} KB)`, () => {
      const form = new FormData();
      form.append('file', new Blob([image as Buffer<ArrayBuffer>], { type: 'image/png' }), 'signature.png');
      return call('POST', 'accounts/me/signature', form);
    }],
  ];
  await timeScenarios(kind, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
