/**
 * HL7 results-out benchmark (`npm run bench:hl7-out`): prints numbers, never passes or fails on a time.
 * Approvals through the real API (rad1 writes and submits beforehand; chief approves, BENCH_HL7_CONCURRENCY at once)
 * with the organisation's destination on; the outbox sender (one, in the same process) delivers each ORU^R01 to a
 * test MLLP peer that answers AA at once. Prints the approvals' p50/p95 and the ORUs delivered per second, and the
 * latency from the approval's request to the peer's receipt (p50/p95). Embedded PGlite, or PostgreSQL with
 * DATABASE_URL. BENCH_HL7_APPROVALS (200), BENCH_HL7_POLL_MS (50). Runs beside other work on a shared machine.
 */
import { eq } from 'drizzle-orm';
import { loadavg } from 'node:os';
import * as t from '../server/db/schema';
import { systemClock } from '../server/deps';
import { read } from '../server/hl7/message';
import { startOutboundSender } from '../server/hl7/outbound/sender';
import { startMllpPeer } from '../tests/support/mllpPeer';
import { startServer } from '../tests/support/server';
import { percentile } from './support/stats';

const APPROVALS = Number(process.env.BENCH_HL7_APPROVALS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_HL7_CONCURRENCY ?? 5);
const POLL_MS = Number(process.env.BENCH_HL7_POLL_MS ?? 50);

const s = await startServer({ exams: 20 });
const received = new Map<string, number>();
const peer = await startMllpPeer({
  answer: (_i, r) => {
    received.set(read(r.msg, 'OBR', 3), performance.now());
    return 'AA';
  },
});
const sender = startOutboundSender(s.deps, { pollMs: POLL_MS, clock: systemClock });
const admin = await s.login('admin');
const rad1 = await s.login('rad1');
const chief = await s.login('chief');
await s.request('PUT', `buckets/${s.ids.hospitalId}/hl7/destination`, {
  token: admin,
  body: {
    enabled: true, host: '127.0.0.1', port: peer.port, sendingApplication: 'RADWS', sendingFacility: '', receivingApplication: 'HIS',
    receivingFacility: 'HOSP', charset: 'UNICODE UTF-8', tls: false, tlsCa: null, maxAttempts: 5, ackTimeoutMs: 5000,
  },
});

// Reports waiting for approval, each of its own exam with an accession number the peer reads back.
const ready: { id: number; version: number; accession: string }[] = [];
for (let i = 0; i < APPROVALS; i++) {
  const [exam] = await s.db.db.insert(t.exams).values({
    bucketId: s.ids.hospitalId, patientName: `基准患者${i}`, patientId: `B${i}`, modality: 'CT', hasImage: true, examTime: new Date(), accessionNumber: `BENCH${i}`,
  }).returning({ id: t.exams.id });
  const created = await s.request('POST', `exams/${exam!.id}/reports`, { token: rad1 });
  let version = created.body.version as number;
  version = (await s.request('POST', `reports/${created.body.id}/save`, { token: rad1, body: { version, finding: '<p>双肺纹理清晰</p>', diagnosis: '<p>未见异常</p>', positive: false } })).body.version;
  version = (await s.request('POST', `reports/${created.body.id}/submit`, { token: rad1, body: { version } })).body.version;
  ready.push({ id: created.body.id, version, accession: `BENCH${i}` });
}

const approvedAt = new Map<string, number>();
const approveMs: number[] = [];
const started = performance.now();
let next = 0;
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (next < ready.length) {
    const r = ready[next++]!;
    const at = performance.now();
    approvedAt.set(r.accession, at);
    const res = await s.request('POST', `reports/${r.id}/approve`, { token: chief, body: { version: r.version } });
    if (res.status !== 200) throw new Error(`approve ${r.id}: ${res.status}`);
    approveMs.push(performance.now() - at);
  }
}));
while (received.size < ready.length) await new Promise((r) => setTimeout(r, 20));
const wall = performance.now() - started;
const latency = [...approvedAt].map(([acc, at]) => received.get(acc)! - at).sort((a, b) => a - b);
approveMs.sort((a, b) => a - b);
const [{ n }] = await s.db.db.select({ n: t.hl7Outbox.id }).from(t.hl7Outbox).where(eq(t.hl7Outbox.status, 'sent')).then((rows) => [{ n: rows.length }]);

console.log(`\nHL7 results out on ${s.deps.dbKind}: ${APPROVALS} approvals, ${CONCURRENCY} at once, sender polling every ${POLL_MS} ms`);
console.log(`approve round trip   p50 ${percentile(approveMs, 50).toFixed(1)} ms   p95 ${percentile(approveMs, 95).toFixed(1)} ms`);
console.log(`approval → ORU at peer p50 ${percentile(latency, 50).toFixed(1)} ms   p95 ${percentile(latency, 95).toFixed(1)} ms`);
console.log(`delivered ${received.size} ORUs (${n} rows sent) in ${(wall / 1000).toFixed(2)} s: ${((received.size / wall) * 1000).toFixed(1)} ORU/s`);
console.log(`load average (1 min) ${loadavg()[0]!.toFixed(2)}`);

await sender.close();
await peer.close();
await s.close();
