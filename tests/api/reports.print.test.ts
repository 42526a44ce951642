import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { fetchLink, form, jpeg, png } from '../support/files';
import { act, reportIn, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Print data (core §8 print errors, areas "Report template"): the default template, the report, the exam header. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const printData = async (id: number, user = 'rad1') => s.request('GET', `reports/${id}/print-data`, { token: await tokenOf(s, user) });
const templates = () => s.db.db.select().from(t.printTemplates).where(eq(t.printTemplates.bucketId, s.ids.hospitalId));

describe('print data', () => {
  it('gives the organisation\'s default template, the clean report, the exam header and the approver\'s signature', async () => {
    await s.db.db.update(t.accounts).set({ signature: '/files/sign-chief.png' }).where(eq(t.accounts.id, s.ids.accounts.chief));
    const r = await reportIn(s, 'corrected');
    const res = await printData(r.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      template: { name: '标准报告单', titles: ['影像诊断报告单'], signatureOf: 'approver', qrMode: 'static', exactTime: false, pageNumbers: true },
      qrText: 'REPORT',
      organisation: { id: s.ids.hospitalId, name: '市第一人民医院放射科' },
      exam: { id: r.examId, patientName: '测试患者', modality: 'CT', bodyPart: '胸部' },
      report: { id: r.id, status: 'corrected' },
      creator: { id: s.ids.accounts.rad1, name: '李明' },
      approver: { id: s.ids.accounts.chief, name: '张建国', signature: '/files/sign-chief.png' },
      signature: '/files/sign-chief.png',
    });
    expect(res.body.report.approvedAt).toBeTruthy();
  });

  it('prints only a corrected or printed report', async () => {
    const final = await reportIn(s, 'final');
    const refused = await printData(final.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('InvalidTransition');
    const printed = await reportIn(s, 'printed');
    expect((await printData(printed.id)).status).toBe(200);
    const reprint = await act(s, 'rad1', printed, 'update-print-time', { version: printed.version });
    expect(reprint.body.printedTime).toBe(s.clock.now().toISOString());
    expect((await printData(printed.id, 'tech')).status).toBe(403);
  });

  it('prefers the default template of the exam\'s modality, and makes a per-report QR code of at most 10 characters', async () => {
    const [ct] = await s.db.db.insert(t.printTemplates).values({
      bucketId: s.ids.hospitalId, name: 'CT报告单', isDefault: true, modality: 'CT', titles: ['CT诊断报告'], qrMode: 'dynamic', signatureOf: 'creator', exactTime: true,
    }).returning();
    const r = await reportIn(s, 'corrected');
    const res = await printData(r.id);
    expect(res.body.template).toMatchObject({ id: ct!.id, name: 'CT报告单', qrMode: 'dynamic', exactTime: true, signatureOf: 'creator' });
    expect(res.body.qrText).toBe(`R${r.id.toString(36).toUpperCase()}`);
    expect(res.body.qrText.length).toBeLessThanOrEqual(10);
    expect(res.body.signature).toBeNull();
    await s.db.db.delete(t.printTemplates).where(eq(t.printTemplates.id, ct!.id));
  });

  it('answers NoPrintTemplate when no template is the default, and when there is none at all', async () => {
    const r = await reportIn(s, 'corrected');
    const kept = await templates();
    await s.db.db.update(t.printTemplates).set({ isDefault: false }).where(eq(t.printTemplates.bucketId, s.ids.hospitalId));
    const noDefault = await printData(r.id);
    expect(noDefault.status).toBe(400);
    expect(noDefault.body).toMatchObject({ code: 'NoPrintTemplate', message: 'No print template configured or no default chosen' });
    await s.db.db.delete(t.printTemplates).where(eq(t.printTemplates.bucketId, s.ids.hospitalId));
    expect((await printData(r.id)).body.code).toBe('NoPrintTemplate');
    await s.db.db.insert(t.printTemplates).values(kept.map(({ id: _id, ...rest }) => rest));
    expect((await printData(r.id)).status).toBe(200);
  });
});

describe('key images on the print', () => {
  const addImage = async (reportId: number, file: Buffer, type: string, description?: string) => {
    const res = await s.request('POST', `reports/${reportId}/images`, {
      token: await tokenOf(s, 'rad1'), body: form(file, type === 'image/png' ? 'key.png' : 'key.jpg', type, description ? { description } : {}),
    });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  };

  it('lists the report\'s key images in their order with signed read links that load, and none for a report without', async () => {
    const draft = await reportIn(s, 'partial');
    const first = await addImage(draft.id, png(16, 12), 'image/png', '右肺上叶结节');
    const second = await addImage(draft.id, jpeg(), 'image/jpeg');
    const third = await addImage(draft.id, png(8, 8), 'image/png', 'S2 I182');
    const submitted = await act(s, 'rad1', draft, 'submit', { version: draft.version });
    expect(submitted.status).toBe(200);
    expect((await act(s, 'chief', draft, 'approve', { version: submitted.body.version })).status).toBe(200);

    const res = await printData(draft.id);
    expect(res.status).toBe(200);
    expect(res.body.keyImages).toEqual([
      { id: first.id, url: expect.any(String), description: '右肺上叶结节' },
      { id: second.id, url: expect.any(String), description: null },
      { id: third.id, url: expect.any(String), description: 'S2 I182' },
    ]);
    // The same links as the workspace's list: a path on this site, which the print view's image check accepts.
    const listed = await s.request('GET', `reports/${draft.id}/images`, { token: await tokenOf(s, 'rad1') });
    expect(res.body.keyImages.map((i: { url: string }) => new URL(i.url, s.url).pathname)).toEqual(listed.body.map((i: { url: string }) => new URL(i.url, s.url).pathname));
    for (const image of res.body.keyImages as { url: string }[]) expect(image.url).toMatch(/^(\/[^/]|https?:\/\/)/);
    const png1 = await fetchLink(s, res.body.keyImages[0].url);
    expect([png1.status, png1.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(png1.bytes.equals(png(16, 12))).toBe(true);
    const jpg = await fetchLink(s, res.body.keyImages[1].url);
    expect([jpg.status, jpg.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    const plain = await reportIn(s, 'corrected');
    expect((await printData(plain.id)).body.keyImages).toEqual([]);
  });

  it('gives the key images only with the print data: a reader who may not print gets neither', async () => {
    const draft = await reportIn(s, 'partial');
    await addImage(draft.id, png(), 'image/png');
    const submitted = await act(s, 'rad1', draft, 'submit', { version: draft.version });
    await act(s, 'chief', draft, 'approve', { version: submitted.body.version });
    const refused = await printData(draft.id, 'tech');
    expect(refused.status).toBe(403);
    expect(refused.body.keyImages).toBeUndefined();
  });
});
