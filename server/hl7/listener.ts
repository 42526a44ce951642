import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type { Deps } from '../deps';
import { handleInbound, oversize } from './inbound';
import { frame, MllpDecoder } from './mllp';

/**
 * The HL7 v2 MLLP listener (issue 36, orders in), started by server/main.ts beside the DICOM one: TCP or TLS on
 * HL7_PORT. Messages on one connection are answered in the order they came (the peer matches ACKs by order as well
 * as by MSA-2), so each connection has its own queue; connections run side by side. All state is in the database.
 */
export interface Hl7ListenerOptions {
  port: number;
  /** Loopback in tests; all interfaces by default. */
  host?: string;
  tls?: { cert: string; key: string } | null;
  maxBytes?: number;
  log?: { warn: (msg: string) => void; info: (msg: string) => void };
}

export interface Hl7Listener {
  port: number;
  tls: boolean;
  close(): Promise<void>;
}

export async function startHl7Listener(deps: Deps, opts: Hl7ListenerOptions): Promise<Hl7Listener> {
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const sockets = new Set<Socket>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  };

  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (err) => opts.log?.warn(`hl7: connection ${socket.remoteAddress}: ${err.message}`));
    const peer = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? ''}`;
    const decoder = new MllpDecoder(maxBytes);
    let queue: Promise<void> = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      for (const event of decoder.push(chunk)) {
        queue = queue.then(async () => {
          const ack = event.kind === 'message'
            ? await track(handleInbound(deps, event.bytes, { peer, log: opts.log }))
            : await track(oversize(deps, event.bytes, maxBytes, { peer }));
          if (!socket.destroyed) socket.write(frame(ack));
        }).catch((err: Error) => {
          opts.log?.warn(`hl7: ${peer}: ${err.message}`);
        });
      }
    });
  };

  const server = opts.tls ? tls.createServer({ cert: opts.tls.cert, key: opts.tls.key }, onConnection) : net.createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as net.AddressInfo).port;
  opts.log?.info(`HL7 MLLP listener on port ${port}${opts.tls ? ' (TLS)' : ''}`);
  return {
    port,
    tls: !!opts.tls,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      await Promise.allSettled([...pending]);
    },
  };
}
