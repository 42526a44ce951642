import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../server/deps';
import { installErrorHandler } from '../../server/http/errors';
import { createLocalStorage } from '../../server/storage/local';
import { fileRoutes } from '../../server/storage/routes';
import { createS3Storage } from '../../server/storage/s3';
import { createSigner } from '../../server/storage/signer';
import { assertKey, StorageLimitError, StorageNotFoundError, storedName, type Storage } from '../../server/storage/types';
import { startFakeS3, type FakeS3 } from '../support/fakeS3';
import { TestClock } from '../support/server';

/**
 * One behaviour suite for both storages: local disk, and S3 spoken to over HTTP with SigV4 against
 * a fake S3 on loopback that checks every signature itself.
 */

const clock = new TestClock();
let root: string;
let s3: FakeS3;
let filesApp: FastifyInstance;
let filesUrl: string;
const PART = 64 * 1024;

const stores: Record<'local' | 's3', () => Storage> = {
  local: () => createLocalStorage({ root, signer: createSigner('local-secret'), clock }),
  s3: () => createS3Storage({
    endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey,
    signer: createSigner('s3-secret'), clock, partBytes: PART,
  }),
};

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'storage-test-'));
  s3 = await startFakeS3({ now: clock.now, pageSize: 2 });
  // The local read links are served by the files route: a minimal app with only that route and the error handler.
  filesApp = Fastify();
  installErrorHandler(filesApp);
  await filesApp.register(fileRoutes, { prefix: '/api/v1', deps: { storage: stores.local(), clock } as unknown as Deps });
  filesUrl = await filesApp.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await filesApp.close();
  await s3.close();
  rmSync(root, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function keys(storage: Storage, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of storage.list(prefix)) out.push(o.key);
  return out;
}

/** A stream of `n` bytes in uneven chunks, the way a network delivers them. */
function streamOf(bytes: Buffer): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) { const n = 1000 + ((i * 7919) % 30_000); pieces.push(bytes.subarray(at, at + n)); at += n; }
  return Readable.from(pieces);
}

const fetchUrl = (url: string) => fetch(url.startsWith('/') ? filesUrl + url : url);

describe.each(['local', 's3'] as const)('%s storage', (kind) => {
  let storage: Storage;
  beforeAll(() => { storage = stores[kind](); });

  it('stores a buffer and gives the same bytes back, with its size', async () => {
    const bytes = randomBytes(5000);
    expect(await storage.put('a/one.bin', bytes, { contentType: 'application/dicom' })).toEqual({ size: 5000 });
    expect(Buffer.compare(await readAll(await storage.get('a/one.bin')), bytes)).toBe(0);
    expect((await storage.head('a/one.bin'))?.size).toBe(5000);
  });

  it('stores a stream larger than several parts in one piece', async () => {
    const bytes = randomBytes(PART * 3 + 123);
    expect((await storage.put('a/big.bin', streamOf(bytes))).size).toBe(bytes.length);
    expect(Buffer.compare(await readAll(await storage.get('a/big.bin')), bytes)).toBe(0);
    if (kind === 's3') expect(s3.counts.multipartCompleted).toBeGreaterThan(0);
  });

  it('reads a byte range', async () => {
    await storage.put('a/range.txt', Buffer.from('0123456789'));
    expect(await text(await storage.get('a/range.txt', { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await storage.get('a/range.txt', { start: 7 }))).toBe('789');
  });

  it('stores an empty object', async () => {
    await storage.put('a/empty', new Uint8Array());
    expect((await storage.head('a/empty'))?.size).toBe(0);
    expect((await readAll(await storage.get('a/empty'))).length).toBe(0);
  });

  it('says a missing object is missing, and deleting it twice is fine', async () => {
    await expect(storage.get('nothing/here')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await storage.head('nothing/here')).toBeNull();
    await storage.put('a/gone', Buffer.from('x'));
    await storage.delete('a/gone');
    await storage.delete('a/gone');
    expect(await storage.head('a/gone')).toBeNull();
  });

  it('replaces an object written again', async () => {
    await storage.put('a/again', Buffer.from('first'));
    await storage.put('a/again', Buffer.from('second version'));
    expect(await text(await storage.get('a/again'))).toBe('second version');
  });

  it('refuses an object over its size limit and keeps nothing of it', async () => {
    await expect(storage.put('a/limited', streamOf(randomBytes(PART * 2 + 10)), { maxBytes: PART * 2 })).rejects.toBeInstanceOf(StorageLimitError);
    expect(await storage.head('a/limited')).toBeNull();
    if (kind === 'local') expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
    if (kind === 's3') expect(s3.pendingUploads.size).toBe(0);
  });

  it('keeps a failed stream out of sight', async () => {
    const failing = new Readable({ read() { this.push(randomBytes(PART)); this.destroy(new Error('connection reset')); } });
    await expect(storage.put('a/failed', failing)).rejects.toThrow('connection reset');
    expect(await storage.head('a/failed')).toBeNull();
  });

  it('lists by prefix in key order, across pages and folders', async () => {
    for (const k of ['list/x/2', 'list/x/1', 'list/x/sub/3', 'list/y/1', 'list/x-other']) await storage.put(k, Buffer.from(k));
    expect(await keys(storage, 'list/x/')).toEqual(['list/x/1', 'list/x/2', 'list/x/sub/3']);
    expect(await keys(storage, 'list/x')).toEqual(['list/x-other', 'list/x/1', 'list/x/2', 'list/x/sub/3']);
    expect(await keys(storage, 'list/none/')).toEqual([]);
  });

  it('refuses keys that could escape or be read two ways', async () => {
    for (const bad of ['../etc/passwd', 'a/../../b', 'a//b', '/abs', 'a/./b', 'sp ace', '']) {
      await expect(storage.put(bad, Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('gives a read link that works without other credentials until it expires', async () => {
    await storage.put('links/report.pdf', Buffer.from('%PDF-1.4 ...'), { contentType: 'application/pdf' });
    const url = await storage.readUrl('links/report.pdf', { expiresInSeconds: 60, filename: '报告.pdf', contentType: 'application/pdf' });
    const res = await fetchUrl(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''%E6%8A%A5%E5%91%8A.pdf");
    expect(await res.text()).toBe('%PDF-1.4 ...');

    clock.advance(61_000);
    expect((await fetchUrl(url)).status).toBe(403);
  });

  it('refuses a read link whose signature was tampered with', async () => {
    await storage.put('links/secret', Buffer.from('secret'));
    const url = await storage.readUrl('links/secret', { expiresInSeconds: 60 });
    const tampered = kind === 'local'
      ? url.replace(/\.([A-Za-z0-9_-])([A-Za-z0-9_-]*)$/, (_m, c: string, rest: string) => `.${c === 'A' ? 'B' : 'A'}${rest}`)
      : url.replace('links%2Fsecret', 'links%2Fother').replace('/links/secret', '/links/other');
    const res = await fetchUrl(tampered);
    expect(res.status).toBe(403);
  });

  it('stores a new name (fresh) in a folder that is not there yet, and gives the same bytes back', async () => {
    const bytes = randomBytes(3000);
    const key = `fresh/${storedName('dcm')}/${storedName('dcm')}`;
    expect(await storage.put(key, bytes, { fresh: true })).toEqual({ size: 3000 });
    expect(Buffer.compare(await readAll(await storage.get(key)), bytes)).toBe(0);
  });

  it('writes concurrently to one key without mixing the versions', async () => {
    const a = Buffer.alloc(PART * 2, 'a');
    const b = Buffer.alloc(PART * 2, 'b');
    await Promise.all([storage.put('race/one', streamOf(a)), storage.put('race/one', streamOf(b))]);
    const got = await readAll(await storage.get('race/one'));
    expect([a.equals(got), b.equals(got)]).toContain(true);
  });
});

describe('local storage folders and fresh names', () => {
  it('makes a folder again when it was removed, for a written and a fresh file', async () => {
    const storage = stores.local();
    await storage.put('folders/a/one', Buffer.from('one'));
    rmSync(path.join(root, 'folders'), { recursive: true, force: true });
    rmSync(path.join(root, '.tmp'), { recursive: true, force: true });
    await storage.put('folders/a/two', Buffer.from('two'));
    expect(await text(await storage.get('folders/a/two'))).toBe('two');
    rmSync(path.join(root, 'folders'), { recursive: true, force: true });
    await storage.put('folders/b/three', Buffer.from('three'), { fresh: true });
    expect(await text(await storage.get('folders/b/three'))).toBe('three');
  });

  it('never writes over a file with a fresh name, and leaves that file as it was', async () => {
    const storage = stores.local();
    await storage.put('fresh-clash/x', Buffer.from('first'));
    await expect(storage.put('fresh-clash/x', Buffer.from('second'), { fresh: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await text(await storage.get('fresh-clash/x'))).toBe('first');
  });

  it('writes a fresh name in place: no temporary file is made or left behind', async () => {
    const storage = stores.local();
    rmSync(path.join(root, '.tmp'), { recursive: true, force: true });
    await storage.put(`fresh-place/${storedName('dcm')}`, randomBytes(100), { fresh: true });
    expect(existsSync(path.join(root, '.tmp'))).toBe(false);
  });
});

describe('signed tokens', () => {
  it('are accepted only as issued: a signature altered in its unused bits or with a stray character is refused', () => {
    const signer = createSigner('token-secret');
    // The last of a 32-byte signature's 43 base64url characters carries 4 bits; its last 2 are unused, so each issued
    // signature has 3 other spellings that decode to the same bytes.
    for (let i = 0; i < 64; i++) {
      const token = signer.sign('blob', { k: `links/${i}` }, 2_000_000_000);
      expect(signer.verify('blob', token, 1_000_000_000).ok).toBe(true);
      const last = token.at(-1)!;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const at = alphabet.indexOf(last);
      const sameBytes = alphabet[(at & ~3) | ((at + 1) & 3)]!;
      expect(Buffer.from(token.slice(0, -1) + sameBytes, 'base64url').equals(Buffer.from(token, 'base64url'))).toBe(true);
      expect(signer.verify('blob', token.slice(0, -1) + sameBytes, 1_000_000_000)).toEqual({ ok: false, reason: 'invalid' });
      expect(signer.verify('blob', `${token}=`, 1_000_000_000)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('names the server chooses', () => {
  it('always make a valid key segment, whatever the random bytes', () => {
    const names = Array.from({ length: 5000 }, () => storedName('png'));
    for (const name of names) expect(() => assertKey(`avatars/1/${name}`)).not.toThrow();
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('local read links', () => {
  it('answers FileTokenExpired and FileTokenInvalid with their codes', async () => {
    const storage = stores.local();
    await storage.put('codes/x', Buffer.from('x'));
    const url = await storage.readUrl('codes/x', { expiresInSeconds: 5 });
    clock.advance(6000);
    expect(await (await fetchUrl(url)).json()).toMatchObject({ code: 'FileTokenExpired' });
    expect(await (await fetchUrl('/api/v1/files?token=not-a-token-at-all')).json()).toMatchObject({ code: 'FileTokenInvalid' });
  });
});
