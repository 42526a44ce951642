import type { TestServer } from './server';

/** DICOMweb test helpers: the service root, a STOW-RS body and a multipart answer split into its parts. */
export const DW = '/api/v1/dicomweb';

export function stowBody(files: readonly Uint8Array[], boundary = 'test-boundary-7d1f', partType = 'application/dicom'): { body: Uint8Array; contentType: string } {
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Type: ${partType}\r\n\r\n`));
    chunks.push(Buffer.from(f));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/related; type="application/dicom"; boundary=${boundary}` };
}

export async function stow(s: TestServer, token: string, files: readonly Uint8Array[], path = 'studies', headers: Record<string, string> = {}) {
  const { body, contentType } = stowBody(files);
  return s.request('POST', `${DW}/${path}`, { token, body, headers: { 'content-type': contentType, accept: 'application/dicom+json', ...headers } });
}

/** GET with the raw bytes of the answer (multipart answers). */
export async function getBytes(s: TestServer, token: string | undefined, path: string, accept?: string) {
  const res = await fetch(`${s.url}${DW}/${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(accept ? { accept } : {}) } });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A multipart/related answer's parts (headers lower-cased, body bytes). */
export function splitMultipart(bytes: Buffer, contentType: string): { headers: Record<string, string>; body: Buffer }[] {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const after = at + delimiter.length;
    if (bytes.subarray(after, after + 2).toString() === '--') break;
    const headerEnd = bytes.indexOf('\r\n\r\n', after);
    const headers = Object.fromEntries(bytes.subarray(after + 2, headerEnd).toString('latin1').split('\r\n').map((l) => {
      const i = l.indexOf(':');
      return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()];
    }));
    const next = bytes.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    parts.push({ headers, body: bytes.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
  return parts;
}

/** The value of a DICOM JSON attribute (first value; a person name's Alphabetic group). */
export function value(ds: Record<string, { Value?: unknown[] }>, tag: string): unknown {
  const v = ds[tag]?.Value?.[0];
  if (v && typeof v === 'object' && 'Alphabetic' in v) return (v as { Alphabetic: string }).Alphabetic;
  return v;
}
