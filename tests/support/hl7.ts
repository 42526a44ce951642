import net from 'node:net';
import { ackOf, decodeMessage, encodeMessage, parseMessage } from '../../server/hl7/message';
import { frame, MllpDecoder } from '../../server/hl7/mllp';

/**
 * A raw MLLP client for the HL7 tests and the bench: sends chunks exactly as given (so a test can split a message
 * across packets or put two in one) and collects `expect` ACKs, each decoded by its MSH-18 and read.
 */
export interface ReadAck { code: string; controlId: string; errorCode: string; errorMessage: string; text: string }

export async function mllpExchange(port: number, chunks: Buffer[], expect: number, opts: { gapMs?: number; timeoutMs?: number } = {}): Promise<ReadAck[]> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  const decoder = new MllpDecoder(16 * 1024 * 1024);
  const acks: ReadAck[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${acks.length} of ${expect} ACKs`)), opts.timeoutMs ?? 20_000);
    socket.on('data', (chunk: Buffer) => {
      for (const ev of decoder.push(chunk)) {
        if (ev.kind !== 'message') continue;
        const text = decodeMessage(ev.bytes)!.text;
        acks.push({ ...ackOf(parseMessage(text)), text });
        if (acks.length >= expect) { clearTimeout(timer); resolve(); }
      }
    });
    socket.on('error', reject);
  });
  for (const c of chunks) {
    socket.write(c);
    if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
  }
  try {
    await done;
  } finally {
    socket.destroy();
  }
  return acks;
}

/** One message (text with \r between segments), encoded by `charset` and framed; one ACK back. */
export async function send(port: number, text: string, charset?: string): Promise<ReadAck> {
  const [ack] = await mllpExchange(port, [frame(encodeMessage(text, charset))], 1);
  return ack!;
}

export const framed = (text: string, charset?: string) => frame(encodeMessage(text, charset));
