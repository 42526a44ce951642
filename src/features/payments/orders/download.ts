const pad = (n: number) => String(n).padStart(2, '0');

/** `<stem>-yyyymmdd-hhmm.xlsx` in the browser's zone, as the other lists name their exports. */
export function exportName(stem: string, now: Date): string {
  return `${stem}-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}.xlsx`;
}

/** Hands a file the server answered to the browser's download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
