import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../../server/storage/s3';
import { createSigner } from '../../server/storage/signer';
import { CT_SERIES, sample } from '../support/dicom';
import { startFakeS3, type FakeS3 } from '../support/fakeS3';
import { fetchLink, form, png } from '../support/files';
import { startServer, TestClock, type TestServer } from '../support/server';
import { initUpload, putFile } from '../support/uploads';

/** The whole images path with S3 storage (the fake on loopback checks every signature): what S3_BUCKET switches on. */
let s3: FakeS3;
let s: TestServer;
let admin: string;
let clock: TestClock;

beforeAll(async () => {
  clock = new TestClock();
  s3 = await startFakeS3({ now: () => clock.now() });
  s = await startServer({
    exams: 30,
    storage: (serverClock) => {
      clock = serverClock;
      return createS3Storage({ endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, signer: createSigner('s3-app'), clock: serverClock });
    },
  });
  admin = await s.login('admin');
});
afterAll(async () => {
  await s.close();
  await s3.close();
});

describe('the images area on S3 storage', () => {
  it('stores uploaded files in the bucket and streams them back', async () => {
    const session = await initUpload(s, admin, s.ids.hospitalId);
    for (const f of CT_SERIES) expect((await putFile(s, session.credentials.token, sample(f))).body.status).toBe('stored');
    expect([...s3.objects.keys()].filter((k) => k.startsWith('dicom/'))).toHaveLength(4);
    const series = await s.request('GET', `exams/${session.exam.id}/series`, { token: admin });
    const first = series.body.series[0].instances[0];
    const file = await fetch(`${s.url}/api/v1/${first.path}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(sample(CT_SERIES[0]!))).toBe(true);

    // The study package is zipped from the bucket into the bucket and downloaded with a presigned URL.
    let pkg = await s.request('GET', `exams/${session.exam.id}/study-package`, { token: admin });
    for (let i = 0; i < 200 && pkg.body.state === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      pkg = await s.request('GET', `exams/${session.exam.id}/study-package`, { token: admin });
    }
    expect(pkg.body.state).toBe('ready');
    expect(pkg.body.url.startsWith(`${s3.endpoint}/${s3.bucket}/packages/`)).toBe(true);
    const zip = await fetchLink(s, pkg.body.url);
    expect(zip.status).toBe(200);
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');
    expect(s3.counts.rejectedSignatures).toBe(0);
  });

  it('serves an avatar uploaded with a policy token from the bucket', async () => {
    const policy = await s.request('GET', 'policies/avatars', { token: admin });
    const avatar = await s.request('POST', 'uploads/avatars', { body: form(png(), 'me.png', 'image/png', { token: policy.body.token }) });
    expect(avatar.status).toBe(201);
    const served = await fetchLink(s, avatar.body.url);
    expect(served.bytes.equals(png())).toBe(true);
  });
});
