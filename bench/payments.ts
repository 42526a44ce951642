/**
 * `npm run bench:payments [-- --only postgres|pglite]`
 *
 * Paying an expert report request (issue 13 "bench/: pay → paid status seen by the client"), through the real server
 * on loopback with the sandbox channel: p50/p95 of
 * - QR: GET charge/{id}/pre-paid-order (the code), POST the sandbox page's Pay (the payer's phone), then
 *   GET charge/{id}/payment-status until it says paid — the time from asking for the code to the client seeing
 *   "paid" (the server settles on the sandbox's notification; the bench polls every 5 ms where the page polls every
 *   2 s, so the number is the server's part, not the page's wait);
 * - credit: POST credits/charge with a charge token held (the password dialog done once), answered with the paid detail;
 * - the charge page's poll alone: GET charge/{id}/payment-status.
 * Each paying run gets its own fresh application (made before the clock starts). A fresh database each run (PGlite in
 * memory; PostgreSQL from DATABASE_URL too, dropped after). Prints numbers; never fails on a time.
 */
import { eq } from 'drizzle-orm';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { DEMO_PASSWORD, seedDemo, type DemoIds } from '../server/seed/demo';
import { benchKinds, benchStorage, BENCH_RUNS, BENCH_SCRYPT_COST, BENCH_WARMUP, openBenchDatabase, startBenchApp, timeScenarios, type BenchApp, type BenchDbKind } from './support/server';
import { arg } from './support/args';

const ONLY = arg('only') as BenchDbKind | undefined;
const PER_SCENARIO = BENCH_WARMUP + BENCH_RUNS;

interface Order { id: number }

async function applications(bench: BenchApp, db: Awaited<ReturnType<typeof openBenchDatabase>>['database']['db'], ids: DemoIds, token: string, n: number): Promise<Order[]> {
  const out: Order[] = [];
  for (let i = 0; i < n; i++) {
    const [exam] = await db.insert(t.exams).values({
      bucketId: ids.hospitalId, patientName: '基准患者', patientId: `B${Date.now().toString(36)}${i}`, modality: 'CT', bodyPart: '胸部', hasImage: false,
      examTime: systemClock.now(), created: systemClock.now(),
    }).returning({ id: t.exams.id });
    out.push(await bench.call(token, 'POST', 'report-requests/apply', { examId: exam!.id, type: 'expert', bucketIds: [ids.expertCentreId], agreeTerms: true }) as Order);
  }
  return out;
}

async function run(kind: BenchDbKind): Promise<void> {
  const { database, drop } = await openBenchDatabase(kind, 'pay');
  const ids = await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock: systemClock, exams: 5 });
  // Enough credit for every credit run, whatever the applications cost.
  await database.db.update(t.groupCredits).set({ balanceFen: 1_000_000_000 }).where(eq(t.groupCredits.groupId, ids.groupId));
  const bench = await startBenchApp(database, drop, benchStorage('pay'));
  try {
    const rad1 = await bench.login('rad1');
    const { chargeToken } = await bench.call(rad1, 'POST', 'credits/create-token', { groupId: ids.groupId, password: DEMO_PASSWORD }) as { chargeToken: string };
    const forQr = await applications(bench, database.db, ids, rad1, PER_SCENARIO);
    const forCredit = await applications(bench, database.db, ids, rad1, PER_SCENARIO);
    const root = bench.base.replace(/\/api\/v1$/, '');
    let q = 0;
    let c = 0;
    await timeScenarios(`payments on ${kind} (sandbox channel, loopback)`, [
      ['QR: code → pay → client sees paid', async () => {
        const order = forQr[q++]!;
        const code = await bench.call(rad1, 'GET', `charge/${order.id}/pre-paid-order`) as { outTradeNo: string; codeUrl: string };
        const s = new URL(code.codeUrl).searchParams.get('s')!;
        const paid = await fetch(`${root}/api/v1/payments/sandbox/${encodeURIComponent(code.outTradeNo)}/pay?s=${encodeURIComponent(s)}`, { method: 'POST' });
        if (!paid.ok) throw new Error(`sandbox pay: ${paid.status} ${await paid.text()}`);
        for (;;) {
          const status = await bench.call(rad1, 'GET', `charge/${order.id}/payment-status`) as { paymentStatus: number };
          if (status.paymentStatus === 1) return;
          await new Promise((r) => setTimeout(r, 5));
        }
      }],
      ['credit: credits/charge → paid detail', async () => {
        const order = forCredit[c++]!;
        const res = await fetch(`${bench.base}/credits/charge`, {
          method: 'POST', headers: { authorization: `Bearer ${rad1}`, 'charge-authorization': `Bearer ${chargeToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ orderId: order.id }),
        });
        const body = await res.json() as { paymentStatus: number };
        if (!res.ok || body.paymentStatus !== 1) throw new Error(`credits/charge: ${res.status} ${JSON.stringify(body)}`);
      }],
      ['GET charge/{id}/payment-status (the page\'s poll)', () => bench.call(rad1, 'GET', `charge/${forQr[0]!.id}/payment-status`)],
    ]);
  } finally {
    await bench.close();
  }
}

for (const kind of benchKinds().filter((k) => !ONLY || k === ONLY)) await run(kind);
process.exit(0);
