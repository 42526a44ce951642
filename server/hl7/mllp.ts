/**
 * MLLP framing (HL7 v2 Minimal Lower Layer Protocol): <VT 0x0B> message <FS 0x1C><CR 0x0D>. Only the framing is ours
 * (the library's MLLP side ties one connection to one encoding and has no size guard): TCP hands us arbitrary
 * slices, so a message may come in several packets and several messages in one; a frame over `maxBytes` is refused
 * before it is kept in memory.
 */
export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

/** One message framed for the wire. */
export function frame(payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([VT]), Buffer.from(payload), Buffer.from([FS, CR])]);
}

export type MllpEvent = { kind: 'message'; bytes: Buffer } | { kind: 'oversize'; bytes: number };

/**
 * Feeds bytes in, gets whole messages out. Bytes outside a frame (noise between frames) are dropped. An oversize
 * frame is reported once and then skipped up to its end marker, so the next message on the connection still works.
 */
export class MllpDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private inFrame = false;
  private skipping = false;
  private skipped = 0;
  private pendingFs = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): MllpEvent[] {
    const out: MllpEvent[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (!this.inFrame) {
        const start = chunk.indexOf(VT, i);
        if (start < 0) break;
        this.inFrame = true;
        this.parts = [];
        this.size = 0;
        this.skipping = false;
        this.skipped = 0;
        this.pendingFs = false;
        i = start + 1;
        continue;
      }
      // An FS that ended the previous chunk: the frame ends if this chunk starts with CR.
      if (this.pendingFs) {
        this.pendingFs = false;
        if (chunk[i] === CR) {
          out.push(this.finish());
          i += 1;
          continue;
        }
        this.append(Buffer.from([FS]));
      }
      const fs = chunk.indexOf(FS, i);
      if (fs < 0) {
        this.append(chunk.subarray(i));
        break;
      }
      this.append(chunk.subarray(i, fs));
      if (fs + 1 >= chunk.length) {
        this.pendingFs = true;
        break;
      }
      if (chunk[fs + 1] === CR) {
        out.push(this.finish());
        i = fs + 2;
      } else {
        // A lone FS inside the payload is not an end marker (MLLP release 1); keep it.
        this.append(Buffer.from([FS]));
        i = fs + 1;
      }
    }
    return out;
  }

  private append(b: Buffer) {
    if (b.length === 0) return;
    if (this.skipping) {
      this.skipped += b.length;
      return;
    }
    if (this.size + b.length > this.maxBytes) {
      this.skipping = true;
      this.skipped = this.size + b.length;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(Buffer.from(b));
    this.size += b.length;
  }

  private finish(): MllpEvent {
    this.inFrame = false;
    if (this.skipping) {
      this.skipping = false;
      return { kind: 'oversize', bytes: this.skipped };
    }
    const bytes = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return { kind: 'message', bytes };
  }
}
