import net from 'node:net';

/** Hand-made DICOM upper layer PDUs (PS3.8 9.3), for the bad-input tests: what no well-behaved peer would send. */
const uidBytes = (uid: string) => {
  const b = Buffer.from(uid, 'ascii');
  return b.length % 2 ? Buffer.concat([b, Buffer.from([0])]) : b;
};
const item = (type: number, body: Buffer) => {
  const head = Buffer.alloc(4);
  head[0] = type;
  head.writeUInt16BE(body.length, 2);
  return Buffer.concat([head, body]);
};
const ae = (title: string) => Buffer.from(title.padEnd(16, ' ').slice(0, 16), 'ascii');

export function pdu(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(6);
  head[0] = type;
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}

export function associateRq(opts: { called: string; calling: string; contexts: { id: number; abstract: string; syntaxes: string[] }[] }): Buffer {
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(1, 0);
  ae(opts.called).copy(fixed, 4);
  ae(opts.calling).copy(fixed, 20);
  const maxLength = Buffer.alloc(4);
  maxLength.writeUInt32BE(16384, 0);
  return pdu(1, Buffer.concat([
    fixed,
    item(0x10, uidBytes('1.2.840.10008.3.1.1.1')),
    ...opts.contexts.map((c) => item(0x20, Buffer.concat([Buffer.from([c.id, 0, 0, 0]), item(0x30, uidBytes(c.abstract)), ...c.syntaxes.map((t) => item(0x40, uidBytes(t)))]))),
    item(0x50, Buffer.concat([item(0x51, maxLength), item(0x52, uidBytes('1.2.3.4'))])),
  ]));
}

/** The presentation context results of an A-ASSOCIATE-AC (0 accepted, 3 abstract syntax not supported, ...). */
export function contextResults(ac: Buffer): Map<number, number> {
  const results = new Map<number, number>();
  let at = 6 + 68;
  while (at + 4 <= ac.length) {
    const type = ac[at]!;
    const length = ac.readUInt16BE(at + 2);
    if (type === 0x21) results.set(ac[at + 4]!, ac[at + 6]!);
    at += 4 + length;
  }
  return results;
}

/** One P-DATA-TF with one PDV: `control` 1 = command, 2 = last fragment. */
export function pData(contextId: number, control: number, data: Buffer): Buffer {
  const pdv = Buffer.alloc(6);
  pdv.writeUInt32BE(data.length + 2, 0);
  pdv[4] = contextId;
  pdv[5] = control;
  return pdu(4, Buffer.concat([pdv, data]));
}

/** An implicit VR little endian command set: elements as [tag, value] (strings are UIs, numbers US), with its group length. */
export function commandSet(elements: [number, string | number][]): Buffer {
  const body = Buffer.concat(elements.map(([tag, value]) => {
    const v = typeof value === 'number' ? Buffer.from([value & 0xff, value >> 8]) : uidBytes(value);
    const head = Buffer.alloc(8);
    head.writeUInt16LE(tag >>> 16, 0);
    head.writeUInt16LE(tag & 0xffff, 2);
    head.writeUInt32LE(v.length, 4);
    return Buffer.concat([head, v]);
  }));
  const group = Buffer.alloc(12);
  group.writeUInt32LE(4, 4);
  group.writeUInt32LE(body.length, 8);
  return Buffer.concat([group, body]);
}

export const A_ABORT = pdu(7, Buffer.from([0, 0, 0, 0]));
export const A_RELEASE_RQ = pdu(5, Buffer.alloc(4));

/** A raw connection that collects what the listener answers and says when it closes. */
export class RawPeer {
  readonly socket: net.Socket;
  received = Buffer.alloc(0);
  closed: Promise<void>;
  private waiters: (() => void)[] = [];
  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('error', () => undefined);
    this.socket.on('data', (d: Buffer) => { this.received = Buffer.concat([this.received, d]); this.waiters.splice(0).forEach((w) => w()); });
    this.closed = new Promise((resolve) => this.socket.on('close', () => { this.waiters.splice(0).forEach((w) => w()); resolve(); }));
  }
  connected(): Promise<void> { return new Promise((resolve) => this.socket.once('connect', () => resolve())); }
  send(bytes: Buffer) { this.socket.write(bytes); }
  /** Waits until a whole PDU has arrived, or the connection closed (null). */
  async nextPdu(): Promise<Buffer | null> {
    for (;;) {
      if (this.received.length >= 6) {
        const length = this.received.readUInt32BE(2);
        if (this.received.length >= 6 + length) {
          const out = this.received.subarray(0, 6 + length);
          this.received = this.received.subarray(6 + length);
          return out;
        }
      }
      if (this.socket.destroyed || this.socket.readableEnded) return null;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
  end() { this.socket.destroy(); }
}
