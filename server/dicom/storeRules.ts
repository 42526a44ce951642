import { Writable } from 'node:stream';
import { dimse } from './dimse';

/** What the DICOM listener takes in and how it collects a C-STORE's bytes (./listener.ts). */
const { SopClass } = dimse.constants;

/** Storage SOP classes (PS3.4 B.5): every one the upload takes, i.e. any, under the storage arc. */
export const isStorage = (uid: string) => uid.startsWith('1.2.840.10008.5.1.4.1.1.');
export const NATIVE = ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'];
export const UNCOMPRESSED = [...NATIVE, '1.2.840.10008.1.2.2'];
/** What a data set may come in to be stored as it came: native, big endian, deflated, and every encapsulated syntax. */
export const isStorableSyntax = (ts: string) =>
  ts === '1.2.840.10008.1.2' || ts === '1.2.840.10008.1.2.1' || ts === '1.2.840.10008.1.2.2' || ts === '1.2.840.10008.1.2.1.99'
  || ts === '1.2.840.10008.1.2.5' || ts.startsWith('1.2.840.10008.1.2.4.');
export const NON_STORAGE = new Set<string>([
  SopClass.Verification, SopClass.ModalityWorklistInformationModelFind, SopClass.ModalityPerformedProcedureStep,
  SopClass.StudyRootQueryRetrieveInformationModelFind, SopClass.StudyRootQueryRetrieveInformationModelMove, SopClass.StudyRootQueryRetrieveInformationModelGet,
]);

/** Bytes of one C-STORE's data set as they arrive; over the limit they are dropped and the file is refused. */
export class Collector extends Writable {
  chunks: Buffer[] = [];
  size = 0;
  overflow = false;
  /** The transfer syntax of the presentation context the data set came on (a peer may propose several per SOP class). */
  constructor(private readonly max: number, readonly transferSyntaxUid: string) { super({ highWaterMark: 64 * 1024 * 1024 }); }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    this.size += chunk.length;
    if (this.size > this.max) { this.overflow = true; this.chunks = []; } else this.chunks.push(chunk);
    done();
  }
}
