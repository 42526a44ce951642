import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IMAGES_MAX } from '../../contract/constants';
import { exams, keyImages, reportAttachments, reports } from '../../server/db/schema';
import { fetchLink, form, jpeg, pdf, png } from '../support/files';
import { startServer, type TestServer } from '../support/server';

let s: TestServer;
let rad1: string;
let rad2: string;
let chief: string;
let registrar: string;
let tech: string;
let expert: string;
let draft: number;
let approved: number;

/** A live report of the hospital in `status` written by `creator`, nobody holding its lock. */
async function reportOf(status: string, creator: number, skip = 0): Promise<number> {
  const rows = await s.db.db.select({ id: reports.id }).from(reports).innerJoin(exams, eq(exams.id, reports.examId))
    .where(and(eq(reports.bucketId, s.ids.hospitalId), eq(reports.status, status), eq(reports.creatorId, creator), isNull(reports.lockedById), isNull(reports.deletedTime), isNull(exams.deletedTime)))
    .orderBy(reports.id);
  if (!rows[skip]) throw new Error(`no ${status} report of ${creator}`);
  return rows[skip]!.id;
}

const addImage = (reportId: number, file: Buffer, opts: { token?: string; fields?: Record<string, string>; type?: string; name?: string } = {}) =>
  s.request('POST', `reports/${reportId}/images`, { token: opts.token, body: form(file, opts.name ?? 'key.png', opts.type ?? 'image/png', opts.fields) });

beforeAll(async () => {
  s = await startServer({ exams: 240 });
  [rad1, rad2, chief, registrar, tech, expert] = await Promise.all(['rad1', 'rad2', 'chief', 'registrar', 'tech', 'expert'].map((u) => s.login(u)));
  draft = await reportOf('partial', s.ids.accounts.rad1);
  approved = await reportOf('corrected', s.ids.accounts.rad1);
});
afterAll(async () => { await s.close(); });

describe('key images', () => {
  it('adds a PNG and a JPEG to a report its writer may edit, and lists them with working links', async () => {
    const first = await addImage(draft, png(8, 8), { token: rad1, fields: { description: '右肺上叶结节' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ reportId: draft, contentType: 'image/png', description: '右肺上叶结节', sort: 0 });
    const second = await addImage(draft, jpeg(), { token: rad1, type: 'image/jpeg', name: 'key.jpg' });
    expect(second.body).toMatchObject({ contentType: 'image/jpeg', sort: 1 });

    const list = await s.request('GET', `reports/${draft}/images`, { token: chief });
    expect(list.body.map((i: { id: number }) => i.id)).toEqual([first.body.id, second.body.id]);
    const link = await fetchLink(s, list.body[0].url);
    expect(link.status).toBe(200);
    expect(link.headers.get('content-type')).toBe('image/png');
    expect(link.bytes.equals(png(8, 8))).toBe(true);
  });

  it('accepts the form with a policy token instead of a bearer', async () => {
    const policy = await s.request('GET', 'policies/images', { token: rad1 });
    expect(policy.body).toMatchObject({ kind: 'images', maxBytes: 5 * 1024 * 1024, types: ['image/png', 'image/jpeg'], maxCount: 6, uploadPath: 'reports/{id}/images' });
    const res = await addImage(draft, png(), { fields: { token: policy.body.token } });
    expect(res.status).toBe(201);
    // The permit is its account's: another account's permissions are not borrowed.
    const other = await s.request('GET', 'policies/images', { token: rad2 });
    expect((await addImage(draft, png(), { fields: { token: other.body.token } })).status).toBe(403);
    // A permit of another kind is no permit here.
    const avatars = await s.request('GET', 'policies/avatars', { token: rad1 });
    expect((await addImage(draft, png(), { fields: { token: avatars.body.token } })).body.code).toBe('FileTokenInvalid');
  });

  it('refuses a 6 MB image with "file greater than 5M" and stores nothing', async () => {
    const before = await s.db.db.select().from(keyImages).where(eq(keyImages.reportId, draft));
    const res = await addImage(draft, png(64, 64, 6 * 1024 * 1024), { token: rad1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'FileTooLarge', message: 'Upload failed, file greater than 5M' });
    expect(await s.db.db.select().from(keyImages).where(eq(keyImages.reportId, draft))).toHaveLength(before.length);
  });

  it('refuses a file that is not PNG or JPEG, whatever its name says', async () => {
    const res = await addImage(draft, pdf(), { token: rad1, name: 'scan.png' });
    expect([res.status, res.body.code]).toEqual([400, 'UnsupportedFileType']);
  });

  it('refuses the seventh image', async () => {
    const count = async () => (await s.db.db.select().from(keyImages).where(eq(keyImages.reportId, draft))).length;
    while ((await count()) < KEY_IMAGES_MAX) expect((await addImage(draft, png(), { token: rad1 })).status).toBe(201);
    const seventh = await addImage(draft, png(), { token: rad1 });
    expect([seventh.status, seventh.body.code]).toEqual([400, 'TooManyImages']);
    expect(await count()).toBe(KEY_IMAGES_MAX);
  });

  it('keeps six when several are added at once at five', async () => {
    const other = await reportOf('partial', s.ids.accounts.rad1, 1);
    for (let i = 0; i < 5; i++) await addImage(other, png(), { token: rad1 });
    const results = await Promise.all([1, 2, 3].map(() => addImage(other, png(), { token: rad1 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    expect(await s.db.db.select().from(keyImages).where(eq(keyImages.reportId, other))).toHaveLength(6);
  });

  it('refuses those who may not edit the report', async () => {
    expect((await addImage(draft, png(), { token: rad2 })).status).toBe(403); // not its writer
    expect((await addImage(draft, png(), { token: registrar })).status).toBe(403); // no report_upsert
    expect((await addImage(draft, png(), { token: expert })).status).toBe(404); // another organisation
    expect((await addImage(approved, png(), { token: rad1 })).body.code).toBe('InvalidTransition'); // approved: no more saves
    expect((await addImage(draft, png())).status).toBe(401);
  });

  it('refuses while someone else holds the report, naming them', async () => {
    const other = await reportOf('partial', s.ids.accounts.rad1, 2);
    await s.db.db.update(reports).set({ lockedById: s.ids.accounts.chief, lockedAt: s.clock.now() }).where(eq(reports.id, other));
    const res = await addImage(other, png(), { token: rad1 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'ReportLocked', details: { name: '张建国' } });
  });

  it('ties an image to an instance of its exam only', async () => {
    const other = await reportOf('partial', s.ids.accounts.rad1, 3);
    const res = await addImage(other, png(), { token: rad1, fields: { instanceId: '999999' } });
    expect([res.status, res.body.code]).toEqual([400, 'ParamsError']);
  });

  it('deletes an image and its file', async () => {
    const [image] = await s.db.db.select().from(keyImages).where(eq(keyImages.reportId, draft)).orderBy(keyImages.id);
    expect((await s.request('DELETE', `reports/${draft}/images/${image!.id}`, { token: rad2 })).status).toBe(403);
    expect((await s.request('DELETE', `reports/${draft}/images/${image!.id}`, { token: rad1 })).status).toBe(204);
    expect(await s.storage.head(image!.storageKey)).toBeNull();
    expect((await s.request('DELETE', `reports/${draft}/images/${image!.id}`, { token: rad1 })).status).toBe(404);
    // An image id of another report is not found through this one.
    const [elsewhere] = await s.db.db.select().from(keyImages).where(eq(keyImages.reportId, await reportOf('partial', s.ids.accounts.rad1, 1)));
    expect((await s.request('DELETE', `reports/${draft}/images/${elsewhere!.id}`, { token: rad1 })).status).toBe(404);
  });
});

describe('attachments', () => {
  let attachmentId: number;

  it('uploads a PDF with attachment_upload and lists it to readers', async () => {
    const res = await s.request('POST', `reports/${draft}/upload-attachments`, { token: tech, body: form(pdf(), '申请单.pdf', 'application/pdf') });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reportId: draft, name: '申请单.pdf', contentType: 'application/pdf', size: pdf().length, createdBy: s.ids.accounts.tech });
    attachmentId = res.body.id;
    const list = await s.request('GET', `reports/${draft}/attachments`, { token: rad1 });
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([attachmentId]);
    expect((await s.request('GET', `reports/${draft}/attachments`, { token: expert })).status).toBe(404);
  });

  it('refuses an upload without attachment_upload, and a file type it does not take', async () => {
    expect((await s.request('POST', `reports/${draft}/upload-attachments`, { token: rad1, body: form(pdf(), 'a.pdf', 'application/pdf') })).status).toBe(403);
    const text = await s.request('POST', `reports/${draft}/upload-attachments`, { token: tech, body: form(Buffer.from('plain text'), 'a.pdf', 'application/pdf') });
    expect(text.body.code).toBe('UnsupportedFileType');
  });

  it('gives a short-lived download link to attachment_presigned_url only', async () => {
    expect((await s.request('GET', `reports/${draft}/attachments/${attachmentId}/presign-url`, { token: rad1 })).status).toBe(403);
    const res = await s.request('GET', `reports/${draft}/attachments/${attachmentId}/presign-url`, { token: tech });
    expect(res.body.expires).toBe(Math.floor(s.clock.now().getTime() / 1000) + 600);
    const link = await fetchLink(s, res.body.url);
    expect(link.bytes.equals(pdf())).toBe(true);
    expect(link.headers.get('content-disposition')).toContain(encodeURIComponent('申请单.pdf'));
    s.clock.advance(601_000);
    expect((await fetchLink(s, res.body.url)).status).toBe(403);
  });

  it('takes files from someone without an account through an attachment code', async () => {
    [tech, rad1] = await Promise.all([s.login('tech'), s.login('rad1')]);
    expect((await s.request('POST', 'upload-codes', { token: rad1, body: { kind: 'attachment', bucketId: s.ids.hospitalId, reportId: draft } })).status).toBe(403);
    const code = await s.request('POST', 'upload-codes', { token: tech, body: { kind: 'attachment', bucketId: s.ids.hospitalId, reportId: draft, ttlHours: 24 } });
    expect(code.status).toBe(201);
    expect(code.body.path).toBe(`/attachments/upload?code=${code.body.code}`);
    const info = await s.request('GET', `upload-codes/${code.body.code}`);
    expect(info.body).toMatchObject({ kind: 'attachment', exam: { modality: expect.any(String) } });
    const up = await s.request('POST', `upload-codes/${code.body.code}/attachments`, { body: form(jpeg(), 'photo.jpg', 'image/jpeg') });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ createdBy: null, contentType: 'image/jpeg' });
    const [row] = await s.db.db.select().from(reportAttachments).where(eq(reportAttachments.id, up.body.id));
    expect(row!.uploadCode).toBe(code.body.code);
    // A serviceOrder code does not take attachments; a revoked code takes nothing.
    expect((await s.request('DELETE', `upload-codes/${code.body.code}`, { token: tech })).status).toBe(204);
    const revoked = await s.request('POST', `upload-codes/${code.body.code}/attachments`, { body: form(jpeg(), 'photo.jpg', 'image/jpeg') });
    expect([revoked.status, revoked.body.code, revoked.body.details.reason]).toEqual([410, 'LinkExpired', 'revoked']);
  });

  it('deletes with attachment_delete only', async () => {
    expect((await s.request('DELETE', `reports/${draft}/attachments/${attachmentId}`, { token: rad1 })).status).toBe(403);
    const [row] = await s.db.db.select().from(reportAttachments).where(eq(reportAttachments.id, attachmentId));
    expect((await s.request('DELETE', `reports/${draft}/attachments/${attachmentId}`, { token: tech })).status).toBe(204);
    expect(await s.storage.head(row!.storageKey)).toBeNull();
  });
});
