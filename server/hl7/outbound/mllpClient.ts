import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** MLLP framing (HL7 v2 minimal lower layer protocol): <VT> message <FS><CR>. */
const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

export interface MllpPeer {
  host: string;
  port: number;
  tls: boolean;
  /** PEM CA for a hospital's own certificate authority; undefined: the system's CAs. */
  tlsCa?: string | null;
  /** Connect plus answer, in milliseconds. */
  timeoutMs: number;
}

export class MllpError extends Error {
  constructor(readonly kind: 'refused' | 'timeout' | 'closed' | 'network', message: string) {
    super(message);
  }
}

export function frame(payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([VT]), payload, Buffer.from([FS, CR])]);
}

/**
 * Sends one framed message on a new connection and resolves with the first framed answer's bytes (the ACK). One
 * connection per message: the outbox sends few messages, and a fresh connection never carries a half-read answer of
 * an earlier attempt into this one.
 */
export function sendFramed(peer: MllpPeer, payload: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const chunks: Buffer[] = [];
    const done = (err: Error | null, answer?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err); else resolve(answer!);
    };
    const timer = setTimeout(() => done(new MllpError('timeout', `no acknowledgement within ${peer.timeoutMs} ms`)), peer.timeoutMs);
    const onConnect = () => socket.write(frame(payload));
    const socket: Socket = peer.tls
      ? tlsConnect({ host: peer.host, port: peer.port, ca: peer.tlsCa ?? undefined, servername: /^[\d.:]+$/.test(peer.host) ? undefined : peer.host }, onConnect)
      : netConnect({ host: peer.host, port: peer.port }, onConnect);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      const start = all.indexOf(VT);
      if (start < 0) return;
      const end = all.indexOf(FS, start + 1);
      // The answer is complete at <FS><CR>; a peer that closes right after <FS> is taken as complete too (below).
      if (end >= 0 && end + 1 < all.length && all[end + 1] === CR) done(null, all.subarray(start + 1, end));
    });
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const start = all.indexOf(VT);
      const end = start >= 0 ? all.indexOf(FS, start + 1) : -1;
      if (end > start) done(null, all.subarray(start + 1, end));
      else done(new MllpError('closed', 'the peer closed the connection without an acknowledgement'));
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      done(new MllpError(err.code === 'ECONNREFUSED' ? 'refused' : 'network', err.code ? `${err.code}: ${err.message}` : err.message));
    });
  });
}
