import { readDicomHeader, type DicomHeader } from '../../../contract/dicom';
import { DICOM_MAX_BYTES } from '../../../contract/uploads';

/** A file as the user chose it, with the path inside the folder it came from (when it came in one). */
export interface SourceFile {
  file: File;
  path: string;
}

export interface ReadFile {
  id: string;
  file: File;
  path: string;
  size: number;
  header: DicomHeader;
  warnings: string[];
}

/** Why a chosen file is left out; `reason` is an i18n key under upload.reasons. */
export type RefusalReason = 'empty' | 'notDicom' | 'truncated' | 'unreadable' | 'missingUid' | 'duplicate' | 'tooLarge' | 'readError';

export interface RefusedFile {
  id: string;
  path: string;
  size: number;
  reason: RefusalReason;
  /** The parser's own words, for the curious and for support. */
  detail: string;
}

/** Larger files are read from their head up to the pixel data (the shared parser checks the rest by its length). */
export const HEAD_BYTES = 16 * 1024 * 1024;

export const fileId = (source: SourceFile) => `${source.path}\u0000${source.file.size}\u0000${source.file.lastModified}`;

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** Reads one file's DICOM header in the browser with the same parser the server uses (contract/dicom). */
export async function readOne(source: SourceFile): Promise<ReadFile | RefusedFile> {
  const { file, path } = source;
  const id = fileId(source);
  const base = { id, path, size: file.size };
  if (file.size > DICOM_MAX_BYTES) return { ...base, reason: 'tooLarge', detail: `${file.size} bytes` };
  try {
    const whole = file.size <= HEAD_BYTES;
    const head = await bytesOf(whole ? file : file.slice(0, HEAD_BYTES));
    const read = whole ? readDicomHeader(head) : readDicomHeader(head, { totalSize: file.size, tail: await bytesOf(file.slice(file.size - 8)) });
    if (!read.ok) return { ...base, reason: read.reason, detail: read.message };
    return { ...base, file, header: read.header, warnings: read.warnings };
  } catch (error) {
    // The browser could not read it (moved, unplugged, no permission): say so, keep the rest going.
    return { ...base, reason: 'readError', detail: error instanceof Error ? error.message : String(error) };
  }
}

export interface ReadResult {
  read: ReadFile[];
  refused: RefusedFile[];
}

/**
 * Reads the chosen files a few at a time. Files whose SOP Instance UID is already chosen (the same image
 * twice, or picked again) are left out as duplicates; `known` holds the UIDs of files chosen before.
 */
export async function readChosen(sources: readonly SourceFile[], known: ReadonlySet<string> = new Set(), onRead?: (done: number) => void): Promise<ReadResult> {
  const results: (ReadFile | RefusedFile)[] = new Array(sources.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < sources.length) {
      const index = next++;
      results[index] = await readOne(sources[index]!);
      onRead?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, sources.length) }, worker));
  const seen = new Set(known);
  const read: ReadFile[] = [];
  const refused: RefusedFile[] = [];
  for (const result of results) {
    if (!('header' in result)) refused.push(result);
    else if (seen.has(result.header.sopInstanceUid)) refused.push({ id: result.id, path: result.path, size: result.size, reason: 'duplicate', detail: result.header.sopInstanceUid });
    else {
      seen.add(result.header.sopInstanceUid);
      read.push(result);
    }
  }
  return { read, refused };
}
