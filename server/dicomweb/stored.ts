import { readDicomHeader } from '../../contract/dicom';
import { bucketsWith, can, type Access } from '../access/access';
import type { dicomInstances } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { StorageNotFoundError } from '../storage/types';
import { NoSuchFrameError, PixelError } from '../viewer/pixels';
import { servedImageFacts } from './frames';
import { fileMetadata, type JsonDataset } from './json';

/** The stored instances as DICOMweb serves and stores them (./routes.ts): whole files, metadata, STOW's answers. */

/** A file read whole for its metadata, frames or rendering is at most this large (as the viewer's preview). */
const DECODE_FILE_MAX = 256 * 1024 * 1024;

export type InstanceRow = typeof dicomInstances.$inferSelect;

/** The organisation a STOW stores into: the asked one, or the caller's only organisation with exam_upload. */
export function uploadBucket(access: Access, asked: number | undefined): number {
  if (asked !== undefined) {
    if (!access.buckets.has(asked)) throw new ApiError('NotFound');
    if (!can(access, 'exam_upload', asked)) throw new ApiError('Forbidden');
    return asked;
  }
  const ids = bucketsWith(access, 'exam_upload');
  if (ids.length === 0) throw new ApiError('Forbidden');
  if (ids.length > 1) throw new ApiError('ParamsError', 'You upload to several organisations: name one with ?bucketId=', { fields: ['bucketId'], bucketIds: ids });
  return ids[0]!;
}

export function failedItem(sopClassUid: string | null, sopInstanceUid: string | null, reason: number): JsonDataset {
  return {
    '00081150': sopClassUid ? { vr: 'UI', Value: [sopClassUid] } : { vr: 'UI' },
    '00081155': sopInstanceUid ? { vr: 'UI', Value: [sopInstanceUid] } : { vr: 'UI' },
    '00081197': { vr: 'US', Value: [reason] },
  };
}

/** The Study Instance UID of a part (null when it cannot be read: receiveInstance then refuses the file itself). */
export function studyOfPart(bytes: Uint8Array): string | null {
  const read = readDicomHeader(bytes);
  return read.ok ? read.header.studyInstanceUid : null;
}

// ------------------------------------------------------------------------------------------------ files
export async function readWhole(deps: Deps, row: InstanceRow): Promise<Uint8Array> {
  if (row.size > DECODE_FILE_MAX) throw new ApiError('InvalidDicom', 'The file is too large to decode here', { reason: 'tooLarge' });
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.storage.get(row.storageKey)) chunks.push(chunk as Buffer);
    const file = Buffer.concat(chunks);
    return new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw new ApiError('NotFound', 'The file is no longer stored');
    throw err;
  }
}

export async function pixelsOr404<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof NoSuchFrameError) throw new ApiError('NotFound', 'No such frame');
    if (err instanceof PixelError || !(err instanceof ApiError)) {
      throw new ApiError('InvalidDicom', `The pixel data cannot be decoded: ${err instanceof Error ? err.message : String(err)}`, { reason: 'pixels' });
    }
    throw err;
  }
}

/** One instance's DICOM JSON: read from its file once and kept in storage beside it (as the preview is). */
export async function instanceMetadata(deps: Deps, row: InstanceRow, base: string): Promise<JsonDataset> {
  const key = `dicomweb-metadata/${row.bucketId}/${row.examId}/${row.id}.v1.json`;
  const framesUrl = `${base}/studies/${row.studyInstanceUid}/series/${row.seriesInstanceUid}/instances/${row.sopInstanceUid}/frames`;
  let stored: JsonDataset | null = null;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.storage.get(key)) chunks.push(chunk as Buffer);
    stored = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonDataset;
  } catch (err) {
    if (!(err instanceof StorageNotFoundError)) throw err;
  }
  if (!stored) {
    const file = await readWhole(deps, row);
    stored = fileMetadata(file, { framesUrl: '', served: servedImageFacts(file) });
    await deps.storage.put(key, Buffer.from(JSON.stringify(stored)), { contentType: 'application/json' });
  }
  // The bulk data link is the caller's own (the host they reached).
  if (stored['7FE00010']) stored['7FE00010'] = { vr: stored['7FE00010'].vr, BulkDataURI: framesUrl };
  return stored;
}
