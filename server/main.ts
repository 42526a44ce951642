import { buildApp } from './app';
import { drain } from './http/drain';
import { createTokens } from './auth/tokens';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { systemClock, type Deps } from './deps';
import { startDicomListener } from './dicom/listener';
import { startHl7Listener } from './hl7/listener';
import { startOutboundSender } from './hl7/outbound/sender';
import { tuneHeap } from './heap';
import { seedDemoIfEmpty } from './seed/demo';
import { storageFromEnv } from './storage';

tuneHeap();
const started = performance.now();
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const storage = storageFromEnv(process.env, { dataDir: config.dataDir, secret: config.tokenSecret, clock: systemClock });
if (config.seedDemo) await seedDemoIfEmpty(database.db, { scryptCost: config.scryptCost, clock: systemClock, storage });
const deps: Deps = {
  db: database.db, dbKind: database.kind, clock: systemClock,
  tokens: createTokens(config.tokenSecret, config.tokenTtlSeconds), config, storage,
};
const app = await buildApp(deps, { logger: process.env.LOG !== '0', serveClient: true, trustProxy: config.trustProxy, requestTimeoutMs: config.requestTimeoutMs });
await app.listen({ port: config.port, host: config.host });
const ms = Math.round(performance.now() - started);
app.log.info(`listening on http://localhost:${config.port} (${database.kind}) after ${ms} ms`);
// The DICOM listener (server/dicom/listener.ts): DICOM_PORT, 0 = off. Its state is all in the database, so several
// processes may each listen behind a TCP balancer.
const dicom = config.dicom
  ? await startDicomListener(deps, { port: config.dicom.port, host: config.host, aeTitle: config.dicom.aeTitle, tls: config.dicom.tls, log: app.log })
  : null;
if (dicom) deps.dicomNode = { aeTitle: dicom.aeTitle, port: dicom.port, host: process.env.DICOM_HOST?.trim() || null };
// The HL7 v2 MLLP listener (server/hl7/listener.ts, orders in): HL7_PORT, 0 = off; like DICOM, state is all in the database.
const hl7 = config.hl7
  ? await startHl7Listener(deps, { port: config.hl7.port, host: config.host, tls: config.hl7.tls, maxBytes: config.hl7.maxBytes, log: app.log })
  : null;
if (hl7) deps.hl7Node = { port: hl7.port, tls: hl7.tls };
// The HL7 results outbox (server/hl7/outbound): every process sends; rows are leased, so several never send one twice.
const hl7Out = startOutboundSender(deps, { pollMs: config.hl7Out.pollMs, leaseMs: config.hl7Out.leaseMs, log: app.log });
if (process.send) process.send({ ready: true, ms });

// Graceful stop (a rolling restart, systemd's stop; server/http/drain.ts): the listener closes at once (the balancer's
// next connection goes to another process), requests already received are answered, screens' event streams are ended
// (they reconnect elsewhere), then the database pool closes. A second signal while stopping is ignored; systemd's
// TimeoutStopSec (deploy/systemd) bounds the wait with a SIGKILL, which loses nothing committed.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await dicom?.close();
    await hl7?.close();
    await hl7Out.close();
    await drain(app);
    await database.close();
    process.exit(0);
  });
}
