/**
 * A small data set writer for the listener's answers (worklist items): little endian, explicit or implicit VR, text in
 * the answer's character set — UTF-8 (ISO_IR 192) or GB18030, which dcmjs cannot write (it writes UTF-8 whatever the
 * Specific Character Set says). Elements are written in the order given, which the caller keeps ascending.
 */
/** Text, a sequence's items, or bytes already in the value's binary form (US, UL). */
export type Value = string | Item[] | Buffer;
export interface Element { tag: number; vr: string; value: Value }
export type Item = Element[];
export type Charset = 'ISO_IR 192' | 'GB18030';

const LONG = new Set(['OB', 'OW', 'OF', 'SQ', 'UT', 'UN', 'UC', 'UR']);
/** VRs whose text follows the character set (PS3.5 6.1.2.3); the rest are the default repertoire. */
const TEXT = new Set(['PN', 'LO', 'SH', 'ST', 'LT', 'UT', 'UC']);

let gbTable: Map<string, Buffer> | null = null;
/** GB18030's two-byte codes (GBK and more: every common hanzi), read off the platform's decoder once. */
function gb18030(text: string): Buffer {
  if (!gbTable) {
    gbTable = new Map();
    const decoder = new TextDecoder('gb18030');
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        if (trail === 0x7f) continue;
        const ch = decoder.decode(Uint8Array.of(lead, trail));
        if (ch.length === 1 && ch !== '\ufffd' && !gbTable.has(ch)) gbTable.set(ch, Buffer.from([lead, trail]));
      }
    }
  }
  const parts: Buffer[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) parts.push(Buffer.from([code]));
    else parts.push(gbTable.get(ch) ?? Buffer.from('?'));
  }
  return Buffer.concat(parts);
}

function textBytes(value: string, vr: string, charset: Charset): Buffer {
  const raw = TEXT.has(vr) ? (charset === 'GB18030' ? gb18030(value) : Buffer.from(value, 'utf8')) : Buffer.from(value, 'latin1');
  if (raw.length % 2 === 0) return raw;
  return Buffer.concat([raw, Buffer.from([vr === 'UI' ? 0 : 0x20])]);
}

export function encodeDataSet(elements: Item, opts: { explicit: boolean; charset: Charset }): Buffer {
  const out: Buffer[] = [];
  for (const el of elements) {
    const value = typeof el.value === 'string'
      ? textBytes(el.value, el.vr, opts.charset)
      : Buffer.isBuffer(el.value) ? el.value : Buffer.concat(el.value.map((item) => {
        const body = encodeDataSet(item, opts);
        const head = Buffer.alloc(8);
        head.writeUInt16LE(0xfffe, 0); head.writeUInt16LE(0xe000, 2); head.writeUInt32LE(body.length, 4);
        return Buffer.concat([head, body]);
      }));
    const long = LONG.has(el.vr);
    const head = Buffer.alloc(opts.explicit ? (long ? 12 : 8) : 8);
    head.writeUInt16LE(el.tag >>> 16, 0);
    head.writeUInt16LE(el.tag & 0xffff, 2);
    if (!opts.explicit) head.writeUInt32LE(value.length, 4);
    else {
      head.write(el.vr, 4, 'ascii');
      if (long) head.writeUInt32LE(value.length, 8);
      else head.writeUInt16LE(value.length, 6);
    }
    out.push(head, value);
  }
  return Buffer.concat(out);
}
