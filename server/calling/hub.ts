import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client';

/**
 * Tells every waiting-room screen of an organisation that its queues changed. In one process an EventEmitter does;
 * on PostgreSQL each change is also a NOTIFY on channel `calling` and every API process LISTENs on one dedicated
 * connection (not one of the pool's: LISTEN belongs to a session), so a call made through one process reaches the
 * screens connected to another (docs/deployment.md). The message is only the organisation's id: each process
 * reads the state itself, so nothing about a patient travels through the database's notifications.
 */
export const CALLING_CHANNEL = 'calling';

export interface CallingHub {
  /** After the change's transaction committed. */
  publish(bucketId: number): Promise<void>;
  subscribe(bucketId: number, listener: () => void): () => void;
  close(): Promise<void>;
}

/** The hubs of this process that hear nothing from PostgreSQL (PGlite): notifyInTransaction reaches them directly. */
const localHubs = new Set<EventEmitter>();

/**
 * For a write made outside the calling routes (the registry's check-in through enqueueArrived): a NOTIFY inside the
 * caller's transaction, which PostgreSQL delivers only when it commits; on PGlite the in-process screens are told at
 * once — their state read waits behind the open transaction (PGlite runs one at a time), so they read the commit.
 */
export async function notifyInTransaction(tx: Db, bucketId: number): Promise<void> {
  await tx.execute(sql`select pg_notify(${CALLING_CHANNEL}, ${String(bucketId)})`);
  for (const emitter of localHubs) emitter.emit(String(bucketId));
}

export function createHub(db: Db, databaseUrl: string | null): CallingHub {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let listener: pg.Client | null = null;
  let closed = false;
  if (!databaseUrl) localHubs.add(local);

  const connect = async () => {
    if (!databaseUrl || closed) return;
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (msg) => {
      const bucketId = Number(msg.payload);
      if (Number.isInteger(bucketId)) local.emit(String(bucketId));
    });
    // A dropped connection is replaced; screens meanwhile keep their last state and catch up on the next change.
    client.on('error', () => undefined);
    client.on('end', () => {
      listener = null;
      if (!closed) setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await client.connect();
    // A constant of lower-case letters: an identifier without quoting.
    await client.query(`listen ${CALLING_CHANNEL}`);
    listener = client;
  };
  const ready = connect().catch(() => undefined);

  return {
    async publish(bucketId) {
      if (databaseUrl) {
        await ready;
        // Delivered back to this process too, through its own LISTEN.
        if (listener) {
          await db.execute(sql`select pg_notify(${CALLING_CHANNEL}, ${String(bucketId)})`);
          return;
        }
      }
      local.emit(String(bucketId));
    },
    subscribe(bucketId, fn) {
      local.on(String(bucketId), fn);
      return () => local.off(String(bucketId), fn);
    },
    async close() {
      closed = true;
      localHubs.delete(local);
      await ready;
      await listener?.end().catch(() => undefined);
    },
  };
}
