import { encodePng, pngChunk } from '../../server/http/png';
import type { TestServer } from './server';

/** A real PNG of w×h grey pixels (valid chunks and CRCs), padded with a private chunk up to `minBytes`. */
export function png(w = 4, h = 4, minBytes = 0): Buffer {
  const plain = encodePng(w, h, 1, Buffer.alloc(w * h, 0x80));
  if (minBytes <= plain.length + 12) return plain;
  return encodePng(w, h, 1, Buffer.alloc(w * h, 0x80), { extra: [pngChunk('prVt', Buffer.alloc(minBytes - plain.length - 12, 1))] });
}

/** A small JPEG whose size can be read (SOI, APP0, SOF0 of `w` × `h`, filler, EOI): every image upload reads it (IMAGE_LIMITS). */
export const jpeg = (w = 8, h = 8) => Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
  Buffer.from([0xff, 0xc0, 0, 11, 8, h >> 8, h & 0xff, w >> 8, w & 0xff, 1, 1, 0x11, 0]),
  Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9]),
]);
export const pdf = () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A multipart form with text fields first (the permit `token` among them) and then the file. */
export function form(file: Buffer, name: string, type: string, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([file as Buffer<ArrayBuffer>], { type }), name);
  return f;
}

/** GET a read link (a relative API link or an absolute presigned URL) and return status and bytes. */
export async function fetchLink(s: TestServer, url: string) {
  const res = await fetch(url.startsWith('/') ? s.url + url : url);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
