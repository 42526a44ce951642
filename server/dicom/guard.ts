import type { Socket } from 'node:net';

/**
 * The upper layer's PDUs as they arrive, screened before dcmjs-dimse (which buffers whatever length a PDU declares)
 * sees them: an unknown PDU type, or a declared length no peer may send (a P-DATA-TF larger than any maximum we
 * could accept, or an association PDU larger than any real one: a 2 GB "PDU" is a lie or an attack), aborts the
 * association (A-ABORT, service provider, then the connection closed). Other associations are not affected.
 */
export const MAX_PDATA_LENGTH = 4 * 1024 * 1024;
export const MAX_OTHER_PDU_LENGTH = 1024 * 1024;

/** A-ASSOCIATE-RQ/AC/RJ, P-DATA-TF, A-RELEASE-RQ/RP, A-ABORT (PS3.8 9.3). */
const KNOWN = new Set([1, 2, 3, 4, 5, 6, 7]);

export function guardPdus(socket: Socket, onViolation: (why: string) => void): void {
  let header = Buffer.alloc(0);
  /** Bytes of the current PDU's body still to come. */
  let remaining = 0;
  let done = false;
  const violate = (why: string, reason: number) => {
    if (done) return;
    done = true;
    onViolation(why);
    // A-ABORT: source 2 (service provider), the reason (1 unrecognised PDU, 6 invalid parameter value).
    const abort = Buffer.from([7, 0, 0, 0, 0, 4, 0, 0, 2, reason]);
    socket.end(abort);
    socket.destroy();
  };
  socket.prependListener('data', (chunk: Buffer) => {
    let at = 0;
    while (!done && at < chunk.length) {
      if (remaining > 0) {
        const take = Math.min(remaining, chunk.length - at);
        remaining -= take;
        at += take;
        continue;
      }
      const need = 6 - header.length;
      header = Buffer.concat([header, chunk.subarray(at, at + need)]);
      at += Math.min(need, chunk.length - at);
      if (header.length < 6) return;
      const type = header[0]!;
      const length = header.readUInt32BE(2);
      header = Buffer.alloc(0);
      if (!KNOWN.has(type)) { violate(`unknown PDU type ${type}`, 1); return; }
      const max = type === 4 ? MAX_PDATA_LENGTH : MAX_OTHER_PDU_LENGTH;
      if (length > max) { violate(`PDU type ${type} declares ${length} bytes (at most ${max})`, 6); return; }
      remaining = length;
    }
  });
}
