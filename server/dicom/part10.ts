/**
 * A received data set as a DICOM file (PS3.10): preamble, 'DICM' and the File Meta Information (explicit VR little
 * endian), then the data set's bytes exactly as they came over the association, in its transfer syntax (deflated and
 * encapsulated ones included: nothing is decoded or re-encoded on the way in).
 */
/** A UUID-derived UID (2.25, PS3.5 B.2): this product's implementation, in the files it writes and its associations. */
export const IMPLEMENTATION_CLASS_UID = '2.25.319016814804717861568875028481354472009';
export const IMPLEMENTATION_VERSION = 'RADWS_1';

function element(group: number, el: number, vr: string, value: Buffer): Buffer {
  const long = vr === 'OB';
  const head = Buffer.alloc(long ? 12 : 8);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(el, 2);
  head.write(vr, 4, 'ascii');
  if (long) head.writeUInt32LE(value.length, 8);
  else head.writeUInt16LE(value.length, 6);
  return Buffer.concat([head, value]);
}

/** A UI value padded with NUL, other text with a space, to even length. */
function text(value: string, pad: number): Buffer {
  const b = Buffer.from(value, 'ascii');
  return b.length % 2 ? Buffer.concat([b, Buffer.from([pad])]) : b;
}

export function part10(opts: { sopClassUid: string; sopInstanceUid: string; transferSyntaxUid: string; sourceAe?: string; dataSet: Uint8Array }): Buffer {
  const meta = Buffer.concat([
    element(0x0002, 0x0001, 'OB', Buffer.from([0, 1])),
    element(0x0002, 0x0002, 'UI', text(opts.sopClassUid, 0)),
    element(0x0002, 0x0003, 'UI', text(opts.sopInstanceUid, 0)),
    element(0x0002, 0x0010, 'UI', text(opts.transferSyntaxUid, 0)),
    element(0x0002, 0x0012, 'UI', text(IMPLEMENTATION_CLASS_UID, 0)),
    element(0x0002, 0x0013, 'SH', text(IMPLEMENTATION_VERSION, 0x20)),
    ...(opts.sourceAe ? [element(0x0002, 0x0016, 'AE', text(opts.sourceAe, 0x20))] : []),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(meta.length, 0);
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'ascii'), element(0x0002, 0x0000, 'UL', groupLength), meta, opts.dataSet]);
}
