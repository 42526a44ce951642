import { createRequire } from 'node:module';
import type * as DcmjsDimse from 'dcmjs-dimse';

/**
 * dcmjs-dimse (DIMSE services over DICOM upper layer, PS3.7/3.8), loaded once. It is a CommonJS bundle whose named
 * exports Node's ESM loader cannot see, so it is required; its types come from its own index.d.ts.
 */
export const dimse = createRequire(import.meta.url)('dcmjs-dimse') as typeof DcmjsDimse;

// Its logger writes every PDU at info level; the listener keeps its own record (dicom_associations) and log.
dimse.log.setLevel('silent');

/**
 * dcmjs decodes text by the data set's Specific Character Set and then rewrites that attribute to ISO_IR 192, so the
 * character set a query was written in (which its answer should use: GB18030 for a console that asks in it) is lost.
 * It is read off the raw bytes first, for every data set the library builds from bytes (queries, MPPS; stored files are
 * never parsed by it), and kept as `queryCharsets`.
 */
type WithRaw = { _fromElementsBuffer(buffer: Buffer, syntax: string, options: unknown): unknown; queryCharsets?: string[] };
const proto = dimse.Dataset.prototype as unknown as WithRaw;
const fromElementsBuffer = proto._fromElementsBuffer;
proto._fromElementsBuffer = function patched(this: WithRaw, buffer: Buffer, syntax: string, options: unknown) {
  this.queryCharsets = rawCharsets(buffer, syntax !== '1.2.840.10008.1.2');
  return fromElementsBuffer.call(this, buffer, syntax, options);
};

/** (0008,0005) of a little endian data set, read from its first elements (it comes before any other but group lengths). */
export function rawCharsets(bytes: Buffer, explicit: boolean): string[] {
  let at = 0;
  for (let n = 0; n < 8 && at + 8 <= bytes.length; n++) {
    const group = bytes.readUInt16LE(at);
    const element = bytes.readUInt16LE(at + 2);
    if (group > 0x0008 || (group === 0x0008 && element > 0x0005)) return [];
    let length: number;
    let header: number;
    if (explicit) {
      const vr = bytes.toString('latin1', at + 4, at + 6);
      const long = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN', 'UC', 'UR'].includes(vr);
      length = long ? bytes.readUInt32LE(at + 8) : bytes.readUInt16LE(at + 6);
      header = long ? 12 : 8;
    } else {
      length = bytes.readUInt32LE(at + 4);
      header = 8;
    }
    if (length === 0xffffffff) return [];
    if (group === 0x0008 && element === 0x0005) {
      return bytes.toString('latin1', at + header, at + header + length).split('\\').map((c) => c.trim().toUpperCase());
    }
    at += header + length;
  }
  return [];
}

export function charsetsOf(dataset: object | undefined): string[] {
  return (dataset as { queryCharsets?: string[] } | undefined)?.queryCharsets ?? [];
}
