import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A tiny S3-compatible server on loopback for the storage tests: objects in memory, path-style
 * addressing, single PUT, multipart upload, ranged GET, HEAD, DELETE, ListObjectsV2 with paging and
 * presigned GETs. Every request's SigV4 signature is recomputed here from scratch (not with the
 * client's library), so a signing mistake in server/storage/s3.ts fails the tests as it would on S3.
 */
export interface FakeS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { body: Buffer; contentType: string; modified: Date }>;
  /** Multipart uploads not yet completed or aborted. */
  pendingUploads: Map<string, { key: string; parts: Map<number, Buffer> }>;
  counts: { put: number; multipartCompleted: number; rejectedSignatures: number };
  close(): Promise<void>;
}

const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startFakeS3(opts: { now: () => Date; pageSize?: number }): Promise<FakeS3> {
  const bucket = 'rad-test';
  const region = 'test-region-1';
  const accessKeyId = 'AKIDTEST';
  const secretAccessKey = randomBytes(20).toString('hex');
  const objects: FakeS3['objects'] = new Map();
  const pendingUploads: FakeS3['pendingUploads'] = new Map();
  const counts = { put: 0, multipartCompleted: 0, rejectedSignatures: 0 };
  const pageSize = opts.pageSize ?? 1000;

  function signingKey(date: string) {
    return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), 's3'), 'aws4_request');
  }

  /** Recomputes the signature of a header-signed or presigned request; returns why it fails, or null. */
  function verify(req: IncomingMessage, url: URL, body: Buffer): string | null {
    const q = url.searchParams;
    const presigned = q.has('X-Amz-Signature');
    let credential: string, signedHeaders: string, signature: string, amzDate: string, payloadHash: string;
    if (presigned) {
      credential = q.get('X-Amz-Credential') ?? '';
      signedHeaders = q.get('X-Amz-SignedHeaders') ?? '';
      signature = q.get('X-Amz-Signature') ?? '';
      amzDate = q.get('X-Amz-Date') ?? '';
      payloadHash = 'UNSIGNED-PAYLOAD';
      const expires = Number(q.get('X-Amz-Expires'));
      const signedAt = parseAmzDate(amzDate);
      if (!Number.isFinite(expires) || !signedAt || opts.now().getTime() > signedAt.getTime() + expires * 1000) return 'Request has expired';
    } else {
      const auth = req.headers.authorization ?? '';
      const m = auth.match(/^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/);
      if (!m) return 'Missing or malformed Authorization';
      [, credential, signedHeaders, signature] = m as unknown as [string, string, string, string];
      amzDate = String(req.headers['x-amz-date'] ?? '');
      payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
      const signedAt = parseAmzDate(amzDate);
      if (!signedAt || Math.abs(opts.now().getTime() - signedAt.getTime()) > 15 * 60_000) return 'RequestTimeTooSkewed';
      if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'XAmzContentSHA256Mismatch';
    }
    const [keyId, date, credRegion, service, terminator] = credential.split('/');
    if (keyId !== accessKeyId) return 'InvalidAccessKeyId';
    if (credRegion !== region || service !== 's3' || terminator !== 'aws4_request' || date !== amzDate.slice(0, 8)) return 'Bad credential scope';
    const canonicalUri = url.pathname.split('/').map((seg) => rfc3986(decodeURIComponent(seg))).join('/');
    const canonicalQuery = [...q].filter(([k]) => k !== 'X-Amz-Signature')
      .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
      .sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`).join('&');
    const names = signedHeaders.split(';');
    if (!names.includes('host')) return 'host must be signed';
    const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
    const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${region}/s3/aws4_request`, sha256(canonicalRequest)].join('\n');
    const expected = createHmac('sha256', signingKey(date!)).update(stringToSign).digest('hex');
    return expected === signature ? null : 'SignatureDoesNotMatch';
  }

  function error(res: ServerResponse, status: number, code: string) {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${xml(code)}</Code></Error>`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const problem = verify(req, url, body);
    if (problem) { counts.rejectedSignatures++; return error(res, 403, problem); }
    const [, bucketName, ...rest] = url.pathname.split('/');
    if (bucketName !== bucket) return error(res, 404, 'NoSuchBucket');
    const key = rest.map(decodeURIComponent).join('/');
    const q = url.searchParams;

    if (!key && req.method === 'GET' && q.get('list-type') === '2') {
      const prefix = q.get('prefix') ?? '';
      const all = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      const start = q.get('continuation-token') ? all.indexOf(Buffer.from(q.get('continuation-token')!, 'base64url').toString()) : 0;
      const page = all.slice(start, start + pageSize);
      const next = all[start + pageSize];
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${next ? 'true' : 'false'}</IsTruncated>${next ? `<NextContinuationToken>${Buffer.from(next).toString('base64url')}</NextContinuationToken>` : ''}${page.map((k) => `<Contents><Key>${xml(k)}</Key><LastModified>${objects.get(k)!.modified.toISOString()}</LastModified><Size>${objects.get(k)!.body.length}</Size></Contents>`).join('')}</ListBucketResult>`);
    }
    if (!key) return error(res, 400, 'InvalidRequest');

    if (req.method === 'POST' && q.has('uploads')) {
      const uploadId = randomBytes(8).toString('hex');
      pendingUploads.set(uploadId, { key, parts: new Map() });
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xml(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (q.has('uploadId')) {
      const upload = pendingUploads.get(q.get('uploadId')!);
      if (!upload || upload.key !== key) return error(res, 404, 'NoSuchUpload');
      if (req.method === 'PUT') {
        const n = Number(q.get('partNumber'));
        upload.parts.set(n, body);
        res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
        return res.end();
      }
      if (req.method === 'DELETE') { pendingUploads.delete(q.get('uploadId')!); res.writeHead(204); return res.end(); }
      if (req.method === 'POST') {
        const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        if (numbers.some((n) => !upload.parts.has(n))) return error(res, 400, 'InvalidPart');
        objects.set(key, { body: Buffer.concat(numbers.map((n) => upload.parts.get(n)!)), contentType: 'application/octet-stream', modified: opts.now() });
        pendingUploads.delete(q.get('uploadId')!);
        counts.multipartCompleted++;
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(`<CompleteMultipartUploadResult><Key>${xml(key)}</Key></CompleteMultipartUploadResult>`);
      }
    }
    if (req.method === 'PUT') {
      objects.set(key, { body, contentType: String(req.headers['content-type'] ?? 'application/octet-stream'), modified: opts.now() });
      counts.put++;
      res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      return res.end();
    }
    const object = objects.get(key);
    if (req.method === 'DELETE') { objects.delete(key); res.writeHead(204); return res.end(); }
    if (!object) return error(res, 404, 'NoSuchKey');
    const headers: Record<string, string | number> = {
      'content-type': q.get('response-content-type') ?? object.contentType,
      'last-modified': object.modified.toUTCString(),
      ...(q.get('response-content-disposition') ? { 'content-disposition': q.get('response-content-disposition')! } : {}),
    };
    if (req.method === 'HEAD') { res.writeHead(200, { ...headers, 'content-length': object.body.length }); return res.end(); }
    const range = String(req.headers.range ?? '').match(/^bytes=(\d+)-(\d*)$/);
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), object.body.length - 1) : object.body.length - 1;
      res.writeHead(206, { ...headers, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${object.body.length}` });
      return res.end(object.body.subarray(start, end + 1));
    }
    res.writeHead(200, { ...headers, 'content-length': object.body.length });
    return res.end(object.body);
  }

  const server: Server = createServer((req, res) => { handle(req, res).catch(() => error(res, 500, 'InternalError')); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`, bucket, region, accessKeyId, secretAccessKey, objects, pendingUploads, counts,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function parseAmzDate(value: string): Date | null {
  const m = value.match(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}
