import { and, eq, isNull } from 'drizzle-orm';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_LIMITS } from '../../contract/files';
import * as t from '../../server/db/schema';
import { pngChunk } from '../../server/http/png';
import { form, jpeg, png } from '../support/files';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Issue 32 "Decompression bombs": every image upload reads the width and height from the file's header and refuses,
 * before storing, an image over IMAGE_LIMITS (server/http/imageLimits.ts) with `400 ImageTooLarge` naming the limit.
 * The bomb is a whole, valid PNG that says 30000 × 30000 (900 million pixels, 2.7 GB once decoded) in a kilobyte.
 */
let s: TestServer;
let draft: number;
let examId: number;

/** A valid PNG (real chunks and CRCs, RGBA so it is "transparent" for a stamp) of w × h whose rows are mostly missing. */
function bomb(w = 30000, h = 30000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(1 << 20))), pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  s = await startServer({ exams: 40 });
  const [report] = await s.db.db.select({ id: t.reports.id, examId: t.reports.examId }).from(t.reports)
    .where(and(eq(t.reports.bucketId, s.ids.hospitalId), eq(t.reports.status, 'partial'), eq(t.reports.creatorId, s.ids.accounts.rad1), isNull(t.reports.deletedTime), isNull(t.reports.lockedById)))
    .orderBy(t.reports.id).limit(1);
  draft = report!.id;
  examId = report!.examId;
});
afterAll(async () => { await s?.close(); });

type Route = { name: string; send: (file: Buffer, fileName: string, type: string) => Promise<{ status: number; body: { code?: string; details?: unknown } }>; jpeg: boolean };

async function routes(): Promise<Route[]> {
  const [orgadmin, admin, rad1, tech] = await Promise.all(['orgadmin', 'admin', 'rad1', 'tech'].map((u) => tokenOf(s, u)));
  const templates = `buckets/${s.ids.hospitalId}/print-templates`;
  const template = await s.request('POST', templates, { token: orgadmin, body: { name: `炸弹模板-${Date.now()}`, titles: ['影像诊断报告单'] } });
  expect(template.status).toBe(201);
  const code = await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'attachment', bucketId: s.ids.hospitalId, reportId: draft, ttlHours: 24 } });
  expect(code.status).toBe(201);
  const post = (path: string, token: string | undefined, fields: Record<string, string> = {}, method = 'POST') =>
    (file: Buffer, fileName: string, type: string) => s.request(method, path, { token, body: form(file, fileName, type, fields) });
  return [
    { name: 'print logo', send: post(`${templates}/${template.body.id}/logo`, orgadmin, {}, 'PUT'), jpeg: true },
    { name: 'print stamp', send: post(`${templates}/${template.body.id}/stamp`, orgadmin, {}, 'PUT'), jpeg: false },
    { name: 'sample graph', send: post('sample-graphs', admin, { bucketId: String(s.ids.hospitalId), name: '炸弹' }), jpeg: true },
    { name: 'signature', send: post('accounts/me/signature', rad1), jpeg: true },
    { name: 'avatar', send: post('uploads/avatars', rad1), jpeg: true },
    { name: 'application form', send: post(`exams/${examId}/forms`, tech), jpeg: true },
    { name: 'key image', send: post(`reports/${draft}/images`, rad1), jpeg: true },
    { name: 'report attachment', send: post(`reports/${draft}/upload-attachments`, tech), jpeg: true },
    { name: 'report attachment by upload code', send: post(`upload-codes/${code.body.code}/attachments`, undefined), jpeg: true },
  ];
}

/** Every stored object's key (the local storage of the test server). */
async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of s.storage.list('')) keys.push(o.key);
  return keys.sort();
}

const tooLarge = (width: number, height: number) => ({ code: 'ImageTooLarge', details: { width, height, ...IMAGE_LIMITS } });

describe('every image upload', () => {
  it('refuses a 30000 × 30000 PNG (and JPEG) from its header with ImageTooLarge, and stores nothing', async () => {
    const before = await storedKeys();
    for (const route of await routes()) {
      const res = await route.send(bomb(), 'bomb.png', 'image/png');
      expect([route.name, res.status, res.body]).toMatchObject([route.name, 400, tooLarge(30000, 30000)]);
      if (route.jpeg) {
        const big = await route.send(jpeg(30000, 30000), 'bomb.jpg', 'image/jpeg');
        expect([route.name, big.status, big.body]).toMatchObject([route.name, 400, tooLarge(30000, 30000)]);
      }
    }
    expect(await storedKeys()).toEqual(before);
  });

  it('counts pixels too: sides within the limit but too many pixels in all is ImageTooLarge', async () => {
    const [avatar] = (await routes()).filter((r) => r.name === 'avatar');
    const res = await avatar!.send(jpeg(9000, 9000), 'wide.jpg', 'image/jpeg');
    expect([res.status, res.body]).toMatchObject([400, tooLarge(9000, 9000)]);
    // An ordinary image still passes the same routes.
    expect((await avatar!.send(png(8, 8), 'me.png', 'image/png')).status).toBe(201);
  });
});
