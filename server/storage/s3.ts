import { AwsV4Signer } from 'aws4fetch';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Clock } from '../deps';
import type { Signer } from './signer';
import {
  StorageLimitError, StorageNotFoundError, assertKey, assertPrefix,
  type ByteRange, type ObjectInfo, type PutOptions, type ReadUrlOptions, type Storage,
} from './types';

export interface S3Options {
  /** e.g. https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:9000; path-style addressing. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  signer: Signer;
  clock: Clock;
  /** Part size of multipart uploads (S3 needs at least 5 MiB for all parts but the last). */
  partBytes?: number;
}

const DEFAULT_PART = 8 * 1024 * 1024;

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph, OSS/COS in S3 mode) spoken to with SigV4 over fetch
 * (aws4fetch signs; node's fetch sends). Objects up to one part go up in one PUT; bigger ones as a
 * multipart upload, so memory stays at one part whatever the file size; a failed multipart upload is
 * aborted, so nothing half-written is ever visible (S3 objects appear whole or not at all).
 */
export function createS3Storage(o: S3Options): Storage {
  const base = o.endpoint.replace(/\/+$/, '');
  const partBytes = o.partBytes ?? DEFAULT_PART;
  const objectUrl = (key: string, query = '') => { assertKey(key); return `${base}/${o.bucket}/${key}${query}`; };
  const amzDate = () => o.clock.now().toISOString().replace(/[:-]|\.\d{3}/g, '');

  async function send(method: string, url: string, init: { headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.body) headers['x-amz-content-sha256'] = createHash('sha256').update(init.body).digest('hex');
    // Node's Buffer-backed Uint8Array is a valid fetch body; the DOM typings only name ArrayBuffer-backed views.
    const body = init.body as BodyInit | undefined;
    const signed = await new AwsV4Signer({
      method, url, headers, body, service: 's3', region: o.region,
      accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, datetime: amzDate(),
    }).sign();
    return fetch(signed.url, { method, headers: signed.headers, body });
  }

  async function expectOk(res: Response, what: string): Promise<Response> {
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    throw new Error(`S3 ${what} failed: ${res.status} ${text.slice(0, 300)}`);
  }

  async function put(key: string, body: Readable | Uint8Array, po: PutOptions = {}): Promise<{ size: number }> {
    assertKey(key);
    const contentType = po.contentType ?? 'application/octet-stream';
    const parts = chunks(body instanceof Uint8Array ? Readable.from([body]) : body, partBytes, po.maxBytes);
    const first = await parts.next();
    const firstPart = first.done ? new Uint8Array() : first.value;
    const second = first.done ? { done: true as const, value: undefined } : await parts.next();
    if (second.done) {
      await expectOk(await send('PUT', objectUrl(key), { headers: { 'content-type': contentType }, body: firstPart }), `put ${key}`);
      return { size: firstPart.length };
    }
    const created = await expectOk(await send('POST', objectUrl(key, '?uploads='), { headers: { 'content-type': contentType } }), `create upload ${key}`);
    const uploadId = xmlValue(await created.text(), 'UploadId');
    if (!uploadId) throw new Error(`S3 create upload ${key}: no UploadId`);
    const etags: string[] = [];
    let size = 0;
    try {
      const sendPart = async (bytes: Uint8Array) => {
        const n = etags.length + 1;
        const res = await expectOk(await send('PUT', objectUrl(key, `?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`), { body: bytes }), `part ${n} of ${key}`);
        etags.push(res.headers.get('etag') ?? '');
        size += bytes.length;
      };
      await sendPart(firstPart);
      await sendPart(second.value);
      for await (const part of parts) await sendPart(part);
      const xml = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(e)}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
      const done = await expectOk(await send('POST', objectUrl(key, `?uploadId=${encodeURIComponent(uploadId)}`), { body: new TextEncoder().encode(xml) }), `complete ${key}`);
      const answer = await done.text();
      if (answer.includes('<Error>')) throw new Error(`S3 complete ${key}: ${answer.slice(0, 300)}`);
    } catch (err) {
      await send('DELETE', objectUrl(key, `?uploadId=${encodeURIComponent(uploadId)}`)).catch(() => undefined);
      throw err;
    }
    return { size };
  }

  async function get(key: string, range?: ByteRange): Promise<Readable> {
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end ?? ''}` } : {};
    const res = await send('GET', objectUrl(key), { headers });
    if (res.status === 404) { await res.body?.cancel(); throw new StorageNotFoundError(key); }
    await expectOk(res, `get ${key}`);
    if (!res.body) return Readable.from([]);
    return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  }

  async function head(key: string): Promise<ObjectInfo | null> {
    const res = await send('HEAD', objectUrl(key));
    if (res.status === 404) return null;
    await expectOk(res, `head ${key}`);
    return { key, size: Number(res.headers.get('content-length') ?? 0), modified: new Date(res.headers.get('last-modified') ?? 0) };
  }

  async function remove(key: string): Promise<void> {
    const res = await send('DELETE', objectUrl(key));
    if (res.status !== 404) await expectOk(res, `delete ${key}`);
  }

  async function* list(prefix: string): AsyncIterable<ObjectInfo> {
    assertPrefix(prefix);
    let continuation: string | null = null;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix, ...(continuation ? { 'continuation-token': continuation } : {}) });
      const res = await expectOk(await send('GET', `${base}/${o.bucket}?${query}`), `list ${prefix}`);
      const xml = await res.text();
      for (const block of xml.match(/<Contents>[\s\S]*?<\/Contents>/g) ?? []) {
        yield { key: xmlValue(block, 'Key') ?? '', size: Number(xmlValue(block, 'Size') ?? 0), modified: new Date(xmlValue(block, 'LastModified') ?? 0) };
      }
      continuation = xmlValue(xml, 'IsTruncated') === 'true' ? xmlValue(xml, 'NextContinuationToken') : null;
    } while (continuation);
  }

  async function readUrl(key: string, ro: ReadUrlOptions): Promise<string> {
    const url = new URL(objectUrl(key));
    url.searchParams.set('X-Amz-Expires', String(ro.expiresInSeconds));
    if (ro.contentType) url.searchParams.set('response-content-type', ro.contentType);
    if (ro.filename) url.searchParams.set('response-content-disposition', contentDisposition(ro.filename));
    const signed = await new AwsV4Signer({
      method: 'GET', url: url.toString(), service: 's3', region: o.region, signQuery: true,
      accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, datetime: amzDate(),
    }).sign();
    return signed.url.toString();
  }

  return { kind: 's3', put, get, head, delete: remove, list, readUrl, signer: o.signer };
}

/** Cuts a stream into parts of exactly `size` bytes (the last may be shorter), refusing more than `max` in all. */
async function* chunks(stream: Readable, size: number, max?: number): AsyncGenerator<Uint8Array, void, undefined> {
  let buffer = Buffer.alloc(size);
  let filled = 0;
  let total = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    total += piece.length;
    if (max !== undefined && total > max) { stream.destroy(); throw new StorageLimitError(max); }
    let at = 0;
    while (at < piece.length) {
      const n = Math.min(size - filled, piece.length - at);
      piece.copy(buffer, filled, at, at + n);
      filled += n;
      at += n;
      if (filled === size) { yield buffer; buffer = Buffer.alloc(size); filled = 0; }
    }
  }
  if (filled > 0 || total === 0) yield buffer.subarray(0, filled);
}

function xmlValue(xml: string, tag: string): string | null {
  const m = xml.match(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`));
  return m ? unescapeXml(m[1]!) : null;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeXml = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** RFC 6266 with an ASCII fallback, so Chinese file names survive. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
