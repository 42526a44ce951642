import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../../server/storage/s3';
import { createSigner } from '../../server/storage/signer';
import { systemClock } from '../../server/deps';
import { CT_SERIES, sample } from '../support/dicom';
import { fetchLink, form, png } from '../support/files';
import { startS3Server, type S3Server } from '../support/s3server';
import { startServer, type TestServer } from '../support/server';
import { initUpload, putFile } from '../support/uploads';

/**
 * The images path with S3 storage against an S3 server not written here (@20minutes/s3rver from npm, in its own
 * process, checking SigV4): the fake in tests/support/fakeS3.ts shares our reading of the protocol; this one does not.
 */
let s3: S3Server;
let s: TestServer;
let admin: string;
const storageFor = (secretAccessKey: string) => createS3Storage({
  endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey,
  signer: createSigner('s3rver-app'), clock: systemClock, partBytes: 5 * 1024 * 1024,
});

beforeAll(async () => {
  s3 = await startS3Server();
  // The S3 server checks request times against its own clock: the product signs with the real one here.
  s = await startServer({ exams: 10, storage: () => storageFor(s3.secretAccessKey) });
  admin = await s.login('admin');
}, 60_000);
afterAll(async () => {
  await s?.close();
  await s3?.close();
});

describe('S3 storage against an independent S3 server', () => {
  it('refuses a request signed with the wrong secret and a tampered presigned link', async () => {
    await expect(storageFor('not-the-secret').put('probe/x.txt', Buffer.from('x'))).rejects.toThrow(/403.*SignatureDoesNotMatch/s);
    const good = storageFor(s3.secretAccessKey);
    await good.put('probe/y.txt', Buffer.from('yes'));
    const url = await good.readUrl('probe/y.txt', { expiresInSeconds: 60, filename: '报告 (1).txt', contentType: 'text/plain' });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('yes');
    expect(ok.headers.get('content-disposition')).toContain("filename*=UTF-8''%E6%8A%A5%E5%91%8A");
    const tampered = await fetch(url.replace('probe%2Fy.txt', 'probe%2Fz.txt').replace('probe/y.txt', 'probe/z.txt'));
    expect(tampered.status).toBe(403);
  });

  it('stores a multipart object and reads ranges and listings back', async () => {
    const st = storageFor(s3.secretAccessKey);
    const big = Buffer.alloc(11 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) & 0xff;
    expect((await st.put('probe/big.bin', big)).size).toBe(big.length);
    const range: Buffer[] = [];
    for await (const c of await st.get('probe/big.bin', { start: 4096 * 3, end: 4096 * 3 + 9 })) range.push(c as Buffer);
    expect(Buffer.concat(range).equals(big.subarray(4096 * 3, 4096 * 3 + 10))).toBe(true);
    const keys: string[] = [];
    for await (const o of st.list('probe/')) keys.push(o.key);
    expect(keys).toContain('probe/big.bin');
    await st.delete('probe/big.bin');
    expect(await st.head('probe/big.bin')).toBeNull();
  });

  it('stores uploaded DICOM files and serves them back through the API', async () => {
    const session = await initUpload(s, admin, s.ids.hospitalId);
    for (const f of CT_SERIES) expect((await putFile(s, session.credentials.token, sample(f))).body.status).toBe('stored');
    const series = await s.request('GET', `exams/${session.exam.id}/series`, { token: admin });
    const first = series.body.series[0].instances[0];
    const file = await fetch(`${s.url}/api/v1/${first.path}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(sample(CT_SERIES[0]!))).toBe(true);
  });

  it('serves an avatar uploaded with a policy token from the bucket', async () => {
    const policy = await s.request('GET', 'policies/avatars', { token: admin });
    const avatar = await s.request('POST', 'uploads/avatars', { body: form(png(), 'me.png', 'image/png', { token: policy.body.token }) });
    expect(avatar.status).toBe(201);
    const served = await fetchLink(s, avatar.body.url);
    expect(served.bytes.equals(png())).toBe(true);
  });
});
