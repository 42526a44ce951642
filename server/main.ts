import { buildApp } from './app';
import { createTokens } from './auth/tokens';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { systemClock, type Deps } from './deps';
import { startDicomListener } from './dicom/listener';
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
// The HL7 results outbox (server/hl7/outbound): every process sends; rows are leased, so several never send one twice.
const hl7Out = startOutboundSender(deps, { pollMs: config.hl7Out.pollMs, leaseMs: config.hl7Out.leaseMs, log: app.log });
if (process.send) process.send({ ready: true, ms });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    await dicom?.close();
    await hl7Out.close();
    await app.close();
    await database.close();
    process.exit(0);
  });
}
