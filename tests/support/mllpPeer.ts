import { createServer, type Server } from 'node:net';
import type { Hl7Charset } from '../../contract/hl7Outbound';
import { decodeHl7, encodeHl7 } from '../../server/hl7/outbound/charset';
import { readV2, writeV2, type V2Json } from '../../server/hl7/outbound/hl7v2';
import { frame } from '../../server/hl7/outbound/mllpClient';

/** What the peer does with the Nth message (0-based): acknowledge with a code, or say nothing (the sender times out). */
export type PeerAnswer = 'AA' | 'AE' | 'AR' | 'CA' | 'silent';

export interface Received {
  text: string;
  json: V2Json;
  controlId: string;
  bytes: Buffer;
}

export interface MllpPeer {
  port: number;
  received: Received[];
  /** Resolves once `n` messages have arrived. */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A hospital information system in the test: a plain TCP server speaking MLLP that keeps what it receives (decoded
 * in `charset`) and answers each message as `answer` says, with an ACK built by the same HL7 library.
 */
export async function startMllpPeer(o: { charset?: Hl7Charset; answer?: (index: number, r: Received) => PeerAnswer } = {}): Promise<MllpPeer> {
  const charset = o.charset ?? 'UNICODE UTF-8';
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const start = buffer.indexOf(0x0b);
        const end = buffer.indexOf(0x1c, start + 1);
        if (start < 0 || end < 0 || buffer.length < end + 2) return;
        const bytes = buffer.subarray(start + 1, end);
        buffer = buffer.subarray(end + 2);
        const text = decodeHl7(bytes, charset);
        const json = readV2(text);
        const controlId = String((json.MSH as Record<string, unknown>)[10]);
        const r: Received = { text, json, controlId, bytes: Buffer.from(bytes) };
        const index = received.length;
        received.push(r);
        waiters.splice(0).forEach((w) => w());
        const answer = o.answer?.(index, r) ?? 'AA';
        if (answer === 'silent') continue;
        const ack = writeV2({
          MSH: { 1: '|', 2: '^~\\&', 3: { 1: 'HIS' }, 7: { 1: '20260101000000' }, 9: { 1: 'ACK', 2: 'R01', 3: 'ACK' }, 10: `ACK${index}`, 11: { 1: 'P' }, 12: { 1: '2.5.1' }, 18: [charset] },
          MSA: { 1: answer, 2: controlId },
        });
        socket.write(frame(encodeHl7(ack, charset)));
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    received,
    async waitFor(n, ms = 20_000) {
      const end = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`the peer received ${received.length} of ${n} messages`);
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 100); });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
