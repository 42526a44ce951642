/**
 * `npm run bench:hl7 [-- --orders 200] [-- --connections 4]`: HL7 v2 orders in (server/hl7, issue 36). Prints
 * numbers; never fails on a time.
 *
 * - The product runs in this process (the app and its MLLP listener, as server/main.ts starts them) over in-memory
 *   PGlite, and PostgreSQL (a fresh database) too when DATABASE_URL is set; the demo hospital maps facility BENCH.
 * - Throughput: `--orders` ORM^O01 NW messages (one CT line each, each its own patient and order number) over
 *   `--connections` MLLP connections, each sending its next message when the last ACK came (as an HIS interface
 *   engine does): orders/s from the first send to the last ACK, and ACK p50/p95.
 * - Order → desk: for each of 30 further orders, one at a time, the time from the first byte sent to the line being
 *   found by the registry's `registry/findbyorderid` (polled every 5 ms from the send): p50/p95.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import * as t from '../server/db/schema';
import { seedDemo } from '../server/seed/demo';
import { systemClock } from '../server/deps';
import { startHl7Listener } from '../server/hl7/listener';
import { framed, mllpExchange } from '../tests/support/hl7';
import { arg } from './support/args';
import { benchKinds, benchStorage, BENCH_SCRYPT_COST, openBenchDatabase, startBenchApp } from './support/server';
import { percentile } from './support/stats';

const ORDERS = Number(arg('orders') ?? 200);
const CONNECTIONS = Number(arg('connections') ?? 4);
const DESK_ORDERS = 30;

const order = (n: number, code: string, tag: string) => [
  `MSH|^~\\&|HISAPP|BENCH|RADWS|RAD|20261129080000||ORM^O01^ORM_O01|${tag}${n}|P|2.5.1|||||CHN|UNICODE UTF-8`,
  `PID|1||B${tag}${n}^^^HIS^MR||测试^患者${n}||19800115|F`,
  `PV1|1|O|RAD||||||||||||||||V${n}`,
  `ORC|NW|ORD${tag}${n}|||||||20261129080000`,
  `OBR|1|ORD${tag}${n}||${code}^检查^LOCAL`,
].join('\r');

async function run(kind: 'pglite' | 'postgres') {
  const { database, drop } = await openBenchDatabase(kind, 'hl7');
  const ids = await seedDemo(database.db, { scryptCost: BENCH_SCRYPT_COST, clock: systemClock, exams: 0 });
  const app = await startBenchApp(database, drop, benchStorage('hl7'));
  const admin = await app.login('admin');
  await app.call(admin, 'PUT', `buckets/${ids.hospitalId}/hl7/settings`, { enabled: true, facilities: [{ facility: 'BENCH' }] });
  const [step] = await database.db.select({ code: t.procedures.code }).from(t.procedureSteps)
    .innerJoin(t.procedures, eq(t.procedures.id, t.procedureSteps.procedureId))
    .where(and(eq(t.procedureSteps.bucketId, ids.hospitalId), isNotNull(t.procedureSteps.procedureId), eq(t.procedureSteps.reportDuringExam, false)));
  // The listener needs the app's deps; the bench app builds its own, so this reads the same database through a twin.
  const deps = { db: database.db, dbKind: database.kind, clock: systemClock } as Parameters<typeof startHl7Listener>[0];
  const listener = await startHl7Listener(deps, { port: 0, host: '127.0.0.1' });
  try {
    const ackMs: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      for (;;) {
        const n = next++;
        if (n >= ORDERS) return;
        const t0 = performance.now();
        const [ack] = await mllpExchange(listener.port, [framed(order(n, step!.code, 'T'))], 1);
        if (ack!.code !== 'AA') throw new Error(`order ${n}: ${ack!.code} ${ack!.errorMessage}`);
        ackMs.push(performance.now() - t0);
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    ackMs.sort((a, b) => a - b);

    const token = await app.login('registrar');
    const deskMs: number[] = [];
    for (let n = 0; n < DESK_ORDERS; n += 1) {
      const t0 = performance.now();
      const sent = mllpExchange(listener.port, [framed(order(n, step!.code, 'D'))], 1);
      for (;;) {
        try {
          await app.call(token, 'GET', `registry/findbyorderid?bucketId=${ids.hospitalId}&orderId=ORDD${n}`);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 5));
        }
      }
      deskMs.push(performance.now() - t0);
      await sent;
    }
    deskMs.sort((a, b) => a - b);
    const f = (x: number) => x.toFixed(1);
    console.log(`[${kind}] ${ORDERS} ORM^O01 over ${CONNECTIONS} MLLP connections: ${(ORDERS / seconds).toFixed(1)} orders/s; ACK p50 ${f(percentile(ackMs, 50))} ms, p95 ${f(percentile(ackMs, 95))} ms`);
    console.log(`[${kind}] ORM sent → line found by registry/findbyorderid (${DESK_ORDERS} orders, one at a time): p50 ${f(percentile(deskMs, 50))} ms, p95 ${f(percentile(deskMs, 95))} ms`);
  } finally {
    await listener.close();
    await app.close();
  }
}

for (const kind of benchKinds()) await run(kind);
