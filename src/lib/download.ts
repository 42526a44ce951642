const pad = (n: number) => String(n).padStart(2, '0');

/** `<stem>-yyyymmdd-hhmm.<ext>` in the browser's zone: how every export names its file. */
export function stampedName(stem: string, now: Date, ext = 'xlsx'): string {
  return `${stem}-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}.${ext}`;
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
  // The browser has taken the file once the click ran; the URL only has to outlive this task.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
