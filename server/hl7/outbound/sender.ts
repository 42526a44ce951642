import { eq } from 'drizzle-orm';
import { hl7Destinations } from '../../db/schema';
import type { Clock, Deps } from '../../deps';
import { ackOf, decodeMessage, encodeMessage, parseMessage } from '../message';
import { faultAt } from './fault';
import { sendFramed } from './mllpClient';
import { backoffMs, claimDue, markFailed, markSent, type OutboxRow } from './outbox';

export interface SenderOptions {
  /** How often an idle sender looks for due rows. */
  pollMs?: number;
  /** How long a claimed row is this process's; past it another process may take the row again. */
  leaseMs?: number;
  /** Rows claimed per pass. */
  batch?: number;
  /** Messages of one pass on the wire at once (each on its own connection; one report's are never in one pass together). */
  parallel?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  log?: { warn(msg: string): void; info(msg: string): void };
  /** The clock of due times and leases; deps.clock unless given (a test whose app clock stands still passes the system's). */
  clock?: Clock;
}

export interface OutboundSender {
  /** Runs one pass now (tests, and a hint after an approval). Resolves when the pass is done. */
  pass(): Promise<number>;
  close(): Promise<void>;
}

/** What the peer answered (MSA-1, MSA-2), read by the shared HL7 parser; null when it is no acknowledgement. */
function readAck(text: string): { code: string; controlId: string } | null {
  try {
    const { code, controlId } = ackOf(parseMessage(text));
    return code ? { code, controlId } : null;
  } catch {
    return null;
  }
}

/**
 * The outbox's sender: one per API process (server/main.ts), all of them over the same table. Each pass leases the
 * due rows, sends each on its own MLLP connection and waits for the ACK. AA or CA marks the row sent; AE, AR, a
 * timeout or a network error schedule the next attempt with exponential backoff, and the last allowed attempt makes
 * it a dead letter an administrator can resend. Rows are marked only under the lease this pass took, so a sender
 * that outlived its lease cannot overwrite what another did since.
 */
export function startOutboundSender(deps: Deps, opts: SenderOptions = {}): OutboundSender {
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 60_000;
  const batch = opts.batch ?? 20;
  const parallel = opts.parallel ?? 4;
  const baseMs = opts.backoffBaseMs ?? 5_000;
  const maxMs = opts.backoffMaxMs ?? 10 * 60_000;
  const clock = opts.clock ?? deps.clock;
  let closed = false;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function sendOne(row: OutboxRow): Promise<void> {
    const [dest] = await deps.db.select().from(hl7Destinations).where(eq(hl7Destinations.bucketId, row.bucketId));
    const now = () => clock.now();
    if (!dest) return;
    const where = `${dest.host}:${dest.port}`;
    const fail = (error: string, ack?: { code: string; text: string }) => markFailed(deps.db, row, {
      now: now(), destination: where, error, ackCode: ack?.code, ack: ack?.text, maxAttempts: dest.maxAttempts,
      retryInMs: backoffMs(row.attempts, baseMs, maxMs),
    });
    let answer: string;
    try {
      const bytes = await sendFramed({ host: dest.host, port: dest.port, tls: dest.tls, tlsCa: dest.tlsCa, timeoutMs: dest.ackTimeoutMs }, encodeMessage(row.message, dest.charset));
      // The ACK is read in the character set its own MSH-18 names (the peer answers in ours, or says which).
      answer = decodeMessage(bytes)?.text ?? bytes.toString('utf8');
    } catch (err) {
      const outcome = await fail((err as Error).message);
      if (outcome === 'dead') opts.log?.warn(`hl7 out: ${row.controlId} to ${where} is a dead letter after ${row.attempts} attempts`);
      return;
    }
    faultAt('acked');
    const ack = readAck(answer);
    if (!ack) {
      await fail('the answer is not an HL7 acknowledgement', { code: '', text: answer });
      return;
    }
    if (ack.code === 'AA' || ack.code === 'CA') {
      await markSent(deps.db, row, { now: now(), destination: where, ackCode: ack.code, ack: answer });
      return;
    }
    await fail(`the peer answered ${ack.code}`, { code: ack.code, text: answer });
  }

  async function pass(): Promise<number> {
    if (running) return running;
    running = (async () => {
      const rows = await claimDue(deps.db, clock.now(), leaseMs, batch);
      if (rows.length) faultAt('claimed');
      let next = 0;
      await Promise.all(Array.from({ length: Math.min(parallel, rows.length) }, async () => {
        while (!closed && next < rows.length) {
          const row = rows[next++]!;
          try {
            await sendOne(row);
          } catch (err) {
            // A database error leaves the lease to run out; the row is taken again then.
            opts.log?.warn(`hl7 out: ${row.controlId}: ${(err as Error).message}`);
          }
        }
      }));
      return rows.length;
    })();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  const tick = async () => {
    timer = null;
    if (closed) return;
    let sent = 0;
    try {
      sent = await pass();
    } catch (err) {
      opts.log?.warn(`hl7 out: ${(err as Error).message}`);
    }
    // A full batch means more may be due: go on at once.
    if (!closed) timer = setTimeout(tick, sent >= batch ? 0 : pollMs);
  };
  timer = setTimeout(tick, 0);

  return {
    pass,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
