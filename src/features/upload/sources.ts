import type { SourceFile } from './readFiles';

/** Files picked with <input type=file> (multiple, or a folder with webkitdirectory). */
export function fromInput(list: FileList | null): SourceFile[] {
  return Array.from(list ?? [], (file) => ({ file, path: file.webkitRelativePath || file.name }));
}

/** Files and whole folders dropped on the page: folders are walked to the bottom. */
export async function fromDrop(data: DataTransfer): Promise<SourceFile[]> {
  const entries = Array.from(data.items ?? [])
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((e) => e === null)) return fromInput(data.files);
  const out: SourceFile[] = [];
  for (const entry of entries) await walk(entry!, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: SourceFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, path: entry.fullPath.replace(/^\//, '') });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out);
  }
}
