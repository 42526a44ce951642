import { and, eq } from 'drizzle-orm';
import { Transform, type Readable } from 'node:stream';
import { readDicomHeader, type DicomHeader } from '../../contract/dicom';
import { DICOM_MAX_BYTES, type StoredInstance, type UploadFileResult } from '../../contract/uploads';
import { dicomInstances } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { matchDevice } from './device';
import { StorageLimitError, storedName } from '../storage/types';
import { insertInstance, insertInstanceChecked, type InstanceInsert, type PermitAsRead } from './statements';
import { createBufferPool, type BufferPool, type PooledBuffer } from './bufferPool';

/** Whole files' buffers, reused from one file to the next (./bufferPool.ts). */
const filePool = createBufferPool();

/** Files up to this size are read whole; bigger ones by their head (to the pixel data) and their last bytes. */
export const HEAD_BYTES = 16 * 1024 * 1024;

export interface IngestTarget {
  bucketId: number;
  examId: number;
  /** The exam's Study Instance UID: a file of another study is refused. */
  storeUid: string | null;
  accountId: number | null;
  /**
   * Set when the permit was not read for this file but remembered from an earlier one: the file's row is then written
   * only if the permit is still as read, and any other outcome reads it again (`again`) before it is answered. The
   * file itself is written before that check, and deleted again when the permit has died (no row points at it).
   */
  asRead?: { permit: PermitAsRead; again: () => Promise<IngestTarget> };
}

/**
 * One DICOM file: stored (in one write when its bytes are here or its declared length is at most HEAD_BYTES, else
 * streamed while its head and tail are kept), then read; a refused file is
 * deleted again and the caller gets the reason (NotDicom / InvalidDicom with details.reason,
 * UploadTooLarge, StudyMismatch). Idempotent by SOP Instance UID within the exam: a file sent twice
 * keeps the first copy and answers 'duplicate'. `target` may still be on its way (the permit being checked): its
 * refusal is the answer, whatever the body, and nothing is stored before it has come.
 */
export async function ingestDicom(
  deps: Pick<Deps, 'db' | 'storage' | 'clock'>, target: IngestTarget | Promise<IngestTarget>, body: Readable | Uint8Array,
  opts: { maxBytes?: number; length?: number } = {},
): Promise<UploadFileResult> {
  const maxBytes = opts.maxBytes ?? DICOM_MAX_BYTES;
  const key = (t: IngestTarget) => `dicom/${t.bucketId}/${t.examId}/${storedName('dcm')}`;
  if (body instanceof Uint8Array || opts.length === undefined || opts.length > HEAD_BYTES) {
    const t = await target;
    const k = key(t);
    return ingestStored(deps, t, k, body instanceof Uint8Array ? await storeWhole(deps, k, body, maxBytes) : await storeStreaming(deps, k, body, maxBytes));
  }
  // The body is read from its first byte, while the permit's statement runs: chunks left waiting in the request's
  // stream outlive a few young-generation collections and then stay until a full one. The permit's answer comes
  // first all the same, and nothing is stored for a refused one. Local storage has written every byte when put
  // resolves, and nothing else holds them once the file is answered (the header is plain values); another store's
  // client might still be sending them, so it gets a buffer of its own.
  const reading = readExactly(body, opts.length, maxBytes, deps.storage.kind === 'local' ? filePool : null);
  // A body that fails while the permit is read is answered below, not as an unhandled rejection meanwhile.
  reading.catch(() => undefined);
  let t: IngestTarget;
  try {
    t = await target;
  } catch (err) {
    // Given back only once the body is read: until then its bytes are still being copied in.
    reading.then((whole) => whole.release(), () => undefined);
    throw err;
  }
  const whole = await reading;
  try {
    const k = key(t);
    return await ingestStored(deps, t, k, await storeWhole(deps, k, whole.bytes, maxBytes));
  } finally {
    whole.release();
  }
}

/** The stored file read, checked against the exam and indexed (or deleted again with the reason). */
async function ingestStored(deps: Pick<Deps, 'db' | 'storage' | 'clock'>, target: IngestTarget, key: string, stored: Stored): Promise<UploadFileResult> {
  const refuse = async (error: unknown): Promise<never> => { await deps.storage.delete(key); throw error; };

  const read = readDicomHeader(stored.head, stored.tail ? { totalSize: stored.size, tail: stored.tail } : {});
  if (target.asRead) {
    const done = await storedAsRead(deps, target, target.asRead.permit, key, stored, read);
    if (done) return done;
    // Refused, a duplicate, or the permit or exam changed: the permit as it is now decides, before anything else.
    target = await target.asRead.again().catch(refuse);
  }
  if (!read.ok) return refuse(new ApiError(read.code, read.message, { reason: read.reason }));
  const h = read.header;
  if (target.storeUid && h.studyInstanceUid !== target.storeUid) {
    return refuse(new ApiError('StudyMismatch', undefined, { expected: target.storeUid, received: h.studyInstanceUid }));
  }
  // A row that cannot be written (the exam deleted meanwhile, the database gone) leaves no file behind.
  const row = await insertInstance(deps.db, instanceRow(deps, target, h, key, stored)).catch(async (err: unknown) => { await deps.storage.delete(key); throw err; });
  if (row) {
    await matchDevice(deps.db, target, h.stationName);
    return { status: 'stored', instance: toStoredInstance(row), warnings: read.warnings };
  }

  await deps.storage.delete(key);
  const [existing] = await deps.db.select().from(dicomInstances)
    .where(and(eq(dicomInstances.examId, target.examId), eq(dicomInstances.sopInstanceUid, h.sopInstanceUid)));
  if (!existing) throw new ApiError('OperationFailed');
  return { status: 'duplicate', instance: toStoredInstance(existing), warnings: read.warnings };
}

/** A good file's row written under a remembered permit, or null when that is not the answer (ingestStored goes on). */
async function storedAsRead(
  deps: Pick<Deps, 'db' | 'storage' | 'clock'>, target: IngestTarget, permit: PermitAsRead, key: string, stored: Stored, read: ReturnType<typeof readDicomHeader>,
): Promise<UploadFileResult | null> {
  if (!read.ok) return null;
  const h = read.header;
  if (target.storeUid && h.studyInstanceUid !== target.storeUid) return null;
  const row = await insertInstanceChecked(deps.db, instanceRow(deps, target, h, key, stored), permit).catch(async (err: unknown) => { await deps.storage.delete(key); throw err; });
  if (!row) return null;
  await matchDevice(deps.db, target, h.stationName);
  return { status: 'stored', instance: toStoredInstance(row), warnings: read.warnings };
}

const tooLarge = (maxBytes: number) => new ApiError('UploadTooLarge', `The file is larger than ${maxBytes} bytes`, { maxBytes });

interface Stored {
  size: number;
  /** The whole file, or its first HEAD_BYTES when it is bigger (then `tail` holds its last bytes). */
  head: Uint8Array;
  tail?: Uint8Array;
}

/** A file whose bytes are all here (a body of declared length up to HEAD_BYTES, a seed's file): one write, no copy. */
async function storeWhole(deps: Pick<Deps, 'storage'>, key: string, bytes: Uint8Array, maxBytes: number): Promise<Stored> {
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  // The key is new and its row comes after the file: nobody can be reading it (PutOptions.fresh).
  await deps.storage.put(key, bytes, { contentType: 'application/dicom', fresh: true });
  return { size: bytes.length, head: bytes };
}

/**
 * A body of declared length read into one buffer of that length as it arrives (a request's Content-Length: Node's
 * parser never passes more), taken from the pool; the caller releases it. A body that fails or ends short rejects,
 * nothing is stored and the buffer goes back.
 */
function readExactly(body: Readable, length: number, maxBytes: number, pool: BufferPool | null): Promise<PooledBuffer> {
  if (length > maxBytes) return Promise.reject(tooLarge(maxBytes));
  if (body.errored) return Promise.reject(body.errored);
  if (body.destroyed || body.readableEnded) return Promise.reject(new ApiError('ParamsError', 'The file ended before it was complete'));
  return new Promise((resolve, reject) => {
    const pooled = pool ? pool.take(length) : { bytes: Buffer.allocUnsafe(length), release: () => undefined };
    const whole = pooled.bytes;
    let at = 0;
    const finish = (err: unknown) => {
      body.off('data', onData).off('end', onEnd).off('error', finish).off('close', onClose);
      // A body that fails after this (its socket's late error) must not become an uncaught exception.
      body.on('error', () => undefined);
      if (err) {
        pooled.release();
        reject(err);
      } else resolve(pooled);
    };
    const onData = (chunk: Buffer) => {
      if (at + chunk.length > length) {
        body.destroy();
        finish(new ApiError('ParamsError', 'The file is longer than its Content-Length'));
        return;
      }
      chunk.copy(whole, at);
      at += chunk.length;
    };
    const onEnd = () => finish(at === length ? null : new ApiError('ParamsError', 'The file ended before it was complete'));
    const onClose = () => finish(new ApiError('ParamsError', 'The file ended before it was complete'));
    body.on('data', onData).once('end', onEnd).once('error', finish).once('close', onClose);
  });
}

/** Any other body: streamed to storage while its head and tail are kept. */
async function storeStreaming(deps: Pick<Deps, 'storage'>, key: string, body: Readable, maxBytes: number): Promise<Stored> {
  const capture = new HeadAndTail(HEAD_BYTES, 8);
  // pipe() does not pass an error on: a body that fails (a form cut off mid-part) would leave storage waiting forever,
  // and one that failed already (before this was called) would never end at all.
  if (body.errored) throw body.errored;
  if (body.destroyed) throw new ApiError('ParamsError', 'The file ended before it was complete');
  body.once('error', (err) => capture.destroy(err));
  // The body may fail after storage has stopped reading (it refused the file, or a form part was cut off late): the
  // error then reaches `capture` with nobody listening any more, which would be an uncaught exception. Whoever still
  // reads it (storage.put) gets the failure through its own pipeline.
  capture.on('error', () => undefined);
  try {
    await deps.storage.put(key, body.pipe(capture), { maxBytes, contentType: 'application/dicom' });
  } catch (err) {
    body.destroy();
    if (err instanceof StorageLimitError) throw tooLarge(maxBytes);
    throw err;
  }
  return { size: capture.size, head: capture.head(), ...(capture.size > HEAD_BYTES ? { tail: capture.tail() } : {}) };
}

const cut = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

/** The instance row of a stored file. */
function instanceRow(deps: Pick<Deps, 'clock'>, target: IngestTarget, h: DicomHeader, key: string, stored: Stored): InstanceInsert {
  return {
    examId: target.examId, bucketId: target.bucketId, ...indexFields(h), storageKey: key, size: stored.size,
    uploadedBy: target.accountId, created: deps.clock.now(),
  };
}

function indexFields(h: DicomHeader) {
  return {
    studyInstanceUid: h.studyInstanceUid, seriesInstanceUid: h.seriesInstanceUid, sopInstanceUid: h.sopInstanceUid,
    sopClassUid: cut(h.sopClassUid, 64), transferSyntaxUid: h.transferSyntaxUid.slice(0, 64), modality: cut(h.modality, 16),
    seriesNumber: h.seriesNumber, seriesDescription: cut(h.seriesDescription, 128), instanceNumber: h.instanceNumber,
    rows: h.rows, columns: h.columns, frames: h.frames,
  };
}

export function toStoredInstance(row: typeof dicomInstances.$inferSelect): StoredInstance {
  return {
    id: row.id, studyInstanceUid: row.studyInstanceUid, seriesInstanceUid: row.seriesInstanceUid, sopInstanceUid: row.sopInstanceUid,
    sopClassUid: row.sopClassUid, transferSyntaxUid: row.transferSyntaxUid, modality: row.modality, seriesNumber: row.seriesNumber,
    seriesDescription: row.seriesDescription, instanceNumber: row.instanceNumber, rows: row.rows, columns: row.columns,
    frames: row.frames, size: row.size,
  };
}

/** Passes bytes through while keeping the first `headMax` and the last `tailMax` of them. */
class HeadAndTail extends Transform {
  size = 0;
  private headChunks: Buffer[] = [];
  private headSize = 0;
  private last = Buffer.alloc(0);
  constructor(private readonly headMax: number, private readonly tailMax: number) { super(); }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err: Error | null, data?: Buffer) => void) {
    this.size += chunk.length;
    if (this.headSize < this.headMax) {
      const part = chunk.subarray(0, this.headMax - this.headSize);
      this.headChunks.push(part);
      this.headSize += part.length;
    }
    this.last = Buffer.concat([this.last, chunk.subarray(Math.max(0, chunk.length - this.tailMax))]).subarray(-this.tailMax);
    done(null, chunk);
  }
  head(): Uint8Array { return Buffer.concat(this.headChunks); }
  tail(): Uint8Array { return this.last; }
}
