import { createServer, type Server } from 'node:net';
import { buildAck, decodeMessage, encodeMessage, parseMessage, read, type AckCode, type Hl7Message } from '../../server/hl7/message';
import { frame } from '../../server/hl7/outbound/mllpClient';

/** What the peer does with the Nth message (0-based): acknowledge with a code, or say nothing (the sender times out). */
export type PeerAnswer = 'AA' | 'AE' | 'AR' | 'CA' | 'silent';

export interface Received {
  text: string;
  msg: Hl7Message;
  controlId: string;
  /** MSH-18 as it came. */
  charset: string;
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
 * by its MSH-18) and answers each message as `answer` says, with an ACK built by the shared HL7 code
 * (server/hl7/message.ts) in the message's own character set.
 */
export async function startMllpPeer(o: { answer?: (index: number, r: Received) => PeerAnswer } = {}): Promise<MllpPeer> {
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
        const bytes = Buffer.from(buffer.subarray(start + 1, end));
        buffer = buffer.subarray(end + 2);
        const decoded = decodeMessage(bytes);
        if (!decoded) throw new Error('the peer cannot read the character set');
        const msg = parseMessage(decoded.text);
        const r: Received = { text: decoded.text, msg, controlId: read(msg, 'MSH', 10), charset: decoded.charset, bytes };
        const index = received.length;
        received.push(r);
        waiters.splice(0).forEach((w) => w());
        const answer = o.answer?.(index, r) ?? 'AA';
        if (answer === 'silent') continue;
        // CA (enhanced mode) is built like AA and renamed: the shared builder answers in original mode.
        const ack = buildAck(msg, answer === 'CA' ? 'AA' : (answer as AckCode));
        if (answer === 'CA') ack.getSegment('MSA')!.setField(1, 'CA');
        socket.write(frame(encodeMessage(ack.toString(), decoded.charset)));
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
