import { asc, eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { dicomInstances, exams } from '../db/schema';
import type { Deps } from '../deps';

/** Transfer syntaxes whose pixel data is already compressed: stored as they are, deflating them gains nothing. */
const COMPRESSED = /^1\.2\.840\.10008\.1\.2\.(4\.|5$|1\.99$)/;

const safe = (s: string) => s.normalize('NFC').replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'x';
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export interface BuiltPackage {
  key: string;
  size: number;
  fileCount: number;
}

/**
 * Writes the exam's DICOM files into one zip in storage, streaming: each file is opened when the zip
 * reaches it, so memory stays flat and few files are open at once. Folders: patient and date, then one
 * per series (S<number>_<modality>), files by instance number.
 */
export async function buildPackage(deps: Deps, examId: number, attempt: number): Promise<BuiltPackage> {
  const [exam] = await deps.db.select().from(exams).where(eq(exams.id, examId));
  if (!exam) throw new Error('The exam is gone');
  const rows = await deps.db.select().from(dicomInstances).where(eq(dicomInstances.examId, examId))
    .orderBy(asc(dicomInstances.seriesNumber), asc(dicomInstances.seriesInstanceUid), asc(dicomInstances.instanceNumber), asc(dicomInstances.id));
  if (rows.length === 0) throw new Error('The exam has no images to pack');

  const root = `${safe(exam.patientId)}_${safe(exam.patientName)}_${exam.examTime.toISOString().slice(0, 10).replaceAll('-', '')}`;
  const seriesDirs = new Map<string, string>();
  const used = new Set<string>();
  const zip = new yazl.ZipFile();
  for (const row of rows) {
    let dir = seriesDirs.get(row.seriesInstanceUid);
    if (!dir) {
      const n = seriesDirs.size + 1;
      dir = `${root}/S${pad(row.seriesNumber ?? n, 3)}_${safe(row.modality ?? 'OT')}`;
      // Two series with the same number (it happens across modalities' restarts) get their own folders.
      if ([...seriesDirs.values()].includes(dir)) dir = `${dir}_${n}`;
      seriesDirs.set(row.seriesInstanceUid, dir);
    }
    let name = `${dir}/I${pad(row.instanceNumber ?? 0, 5)}.dcm`;
    if (used.has(name)) name = `${dir}/I${pad(row.instanceNumber ?? 0, 5)}_${row.id}.dcm`;
    used.add(name);
    zip.addReadStreamLazy(name, { compress: !COMPRESSED.test(row.transferSyntaxUid), mtime: row.created, size: row.size }, (cb) => {
      deps.storage.get(row.storageKey).then((stream) => cb(null, stream), (err: Error) => cb(err, null as never));
    });
  }
  zip.end();
  const key = `packages/${exam.bucketId}/${examId}/${attempt}.zip`;
  // A file that cannot be read fails the zip (yazl reports it on the ZipFile), which fails the put: nothing half-written is kept.
  const output = zip.outputStream as unknown as Readable;
  // The error may come before storage has attached to the stream; put then fails on the destroyed stream.
  output.on('error', () => undefined);
  zip.on('error', (err: Error) => output.destroy(err));
  const { size } = await deps.storage.put(key, output, { contentType: 'application/zip' });
  return { key, size, fileCount: rows.length };
}
