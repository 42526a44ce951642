import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSULTATION_ATTACHMENT_MAX_BYTES, CONSULTATION_STATUS,
  type ConsultationAttachment, type ConsultationCase, type ConsultationLink, type ConsultationPrintData,
  type ConsultationStatus, type ConsultationVisitExam, type RtcToken,
} from '../../contract/consultations';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { createLocalStorage } from '../../server/storage/local';
import { createSigner } from '../../server/storage/signer';
import type { Storage } from '../../server/storage/types';
import { createAccount, createGroup } from '../support/accounts';
import { jpeg, png } from '../support/files';
import { IMAGE_LIMITS } from '../../contract/files';
import { pngChunk } from '../../server/http/png';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * A consultation's parts (areas §3, §4 "Case attachment upload", §7): cases and their files (processing, then
 * completed; refused types and sizes leave nothing behind), linked consultations and the related view, visit exams
 * (only the applicant's own), the layout-3 print and the video room's token. The demo's rad1 asks at the hospital,
 * expert answers at the expert centre, registrar is a hospital member without consultation rights.
 */
let s: TestServer;
let rad1: string;
let expert: string;
let registrar: string;
let outsider: string;
let filesDir: string;
/** While set, storing a consultation file says it has arrived there and waits: the upload is seen mid-way ('processing'). */
let gate: { reached: () => void; open: Promise<void> } | null = null;

/** A real PNG (its size is read from its header: every image upload's limits, server/http/imageLimits.ts). */
const PNG = png(16, 16, 600);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const DICOM = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), randomBytes(300)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), randomBytes(200)]);
const TEXT = Buffer.from('患者既往史：高血压十年，规律服药。\n');

/** Storage that can hold consultation files at the door (the gate), otherwise the plain local kind. */
function gatedStorage(clock: TestServer['clock']): Storage {
  filesDir = mkdtempSync(path.join(tmpdir(), 'rad-consult-'));
  const inner = createLocalStorage({ root: filesDir, signer: createSigner(randomBytes(16).toString('hex')), clock });
  return {
    ...inner,
    async put(key, body, opts) {
      if (key.startsWith('consultations/') && gate) {
        gate.reached();
        await gate.open;
      }
      return inner.put(key, body, opts);
    },
  };
}

async function insertConsultation(o: { status?: ConsultationStatus; applied?: number; target?: number; examId?: number | null } = {}): Promise<number> {
  const applied = o.applied ?? s.ids.hospitalId;
  const target = o.target ?? s.ids.expertCentreId;
  const examId = o.examId === undefined ? await insertExam(s, { bucketId: applied }) : o.examId;
  const [row] = await s.db.db.insert(t.consultations).values({
    appliedBucketId: applied, targetBucketId: target, patientName: '会诊患者', reason: '请求会诊', examId,
    status: o.status ?? CONSULTATION_STATUS.pending, createdBy: s.ids.accounts.rad1, created: s.clock.now(),
  }).returning();
  await s.db.db.insert(t.consultationBuckets).values({ consultationId: row!.id, bucketId: target });
  if (examId !== null) await s.db.db.insert(t.consultationExams).values({ consultationId: row!.id, examId, addedBy: s.ids.accounts.rad1 });
  return row!.id;
}

async function addCase(id: number, token = rad1, body: unknown = { name: '既往病历', type: 'history', note: '门诊记录' }) {
  return s.request('POST', `consultations/${id}/cases`, { token, body });
}

async function newCase(id: number): Promise<ConsultationCase> {
  const res = await addCase(id);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ConsultationCase;
}

function upload(id: number, caseId: number, bytes: Uint8Array, name: string, token = rad1) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return s.request('POST', `consultations/${id}/cases/${caseId}/attachments`, { token, body: form });
}

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of s.storage.list('consultations/')) keys.push(o.key);
  return keys;
}

async function attachmentRows(caseId: number) {
  return s.db.db.select().from(t.consultationAttachments).where(eq(t.consultationAttachments.caseId, caseId));
}

async function actionsOf(id: number): Promise<string[]> {
  return (await auditTrail(s.db.db, 'consultation', id)).map((e) => e.action);
}

beforeAll(async () => {
  s = await startServer({ exams: 5, storage: gatedStorage });
  rad1 = await tokenOf(s, 'rad1');
  expert = await tokenOf(s, 'expert');
  registrar = await tokenOf(s, 'registrar');
  const elsewhere = await createGroup(s);
  const other = await createAccount(s, {
    groupId: elsewhere.groupId, buckets: [{ bucketId: elsewhere.bucketId, actions: ['consultation_create', 'consultation_update', 'consultation_clinicCase_create'] }],
  });
  outsider = await s.login(other.username);
});
afterAll(async () => {
  await s?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

describe('cases', () => {
  it('are added by either side with consultation_clinicCase_create, with the audit event in the trail', async () => {
    const id = await insertConsultation();
    const mine = await newCase(id);
    expect(mine).toMatchObject({ name: '既往病历', type: 'history', note: '门诊记录', attachments: [] });
    expect(mine.createdBy).toMatchObject({ id: s.ids.accounts.rad1, name: '李明' });
    const theirs = await addCase(id, expert, { name: '病理报告', type: 'pathology' });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(theirs.body).toMatchObject({ name: '病理报告', type: 'pathology', note: '' });
    const rows = await s.db.db.select().from(t.consultationCases).where(eq(t.consultationCases.consultationId, id));
    expect(rows.map((r) => r.name).sort()).toEqual(['既往病历', '病理报告'].sort());
    expect((await actionsOf(id)).filter((a) => a === 'case.create')).toHaveLength(2);
  });

  it('refuse bad input (400), a member without the right (403), an outsider (404) and a closed consultation (409)', async () => {
    const id = await insertConsultation();
    expect((await addCase(id, rad1, { name: '', type: 'history' })).body.code).toBe('ParamsError');
    expect((await addCase(id, rad1, { name: '化验单', type: 'x-ray' })).status).toBe(400);
    expect((await addCase(id, rad1, { name: '化验单', type: 'lab', extra: 1 })).status).toBe(400);
    expect((await addCase(id, registrar)).status).toBe(403);
    expect((await addCase(id, outsider)).status).toBe(404);
    expect((await addCase(999_999)).status).toBe(404);
    const closed = await insertConsultation({ status: CONSULTATION_STATUS.completed });
    const res = await addCase(closed);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('InvalidTransition');
    expect(await s.db.db.select().from(t.consultationCases).where(eq(t.consultationCases.consultationId, closed))).toHaveLength(0);
  });

  it('are deleted with their attachments and the attachments\' stored bytes', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    expect((await upload(id, c.id, PNG, 'ct.png')).status).toBe(201);
    expect((await upload(id, c.id, PDF, 'report.pdf')).status).toBe(201);
    const keys = (await attachmentRows(c.id)).map((r) => r.storageKey!);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(await s.storage.head(key)).not.toBeNull();
    expect((await s.request('DELETE', `consultations/${id}/cases/${c.id}`, { token: registrar })).status).toBe(403);
    expect((await s.request('DELETE', `consultations/${id}/cases/${c.id}`, { token: rad1 })).status).toBe(204);
    expect(await attachmentRows(c.id)).toHaveLength(0);
    for (const key of keys) expect(await s.storage.head(key)).toBeNull();
    expect((await s.request('DELETE', `consultations/${id}/cases/${c.id}`, { token: rad1 })).status).toBe(404);
    expect(await actionsOf(id)).toContain('case.delete');
  });

  it('of another consultation are not found through this one', async () => {
    const a = await insertConsultation();
    const b = await insertConsultation();
    const c = await newCase(a);
    expect((await s.request('DELETE', `consultations/${b}/cases/${c.id}`, { token: rad1 })).status).toBe(404);
    expect((await upload(b, c.id, PNG, 'x.png')).status).toBe(404);
    expect(await attachmentRows(c.id)).toHaveLength(0);
  });
});

describe('attachments', () => {
  it('store images, PDF, DICOM, video and text, each completed with its size and a read link that serves the bytes', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    for (const [bytes, name, type] of [
      [PNG, 'ct.PNG', 'image/png'], [PDF, '报告.pdf', 'application/pdf'], [DICOM, 'IM0001.dcm', 'application/dicom'],
      [MP4, 'echo.mp4', 'video/mp4'], [TEXT, 'history.txt', 'text/plain; charset=utf-8'],
    ] as const) {
      const res = await upload(id, c.id, bytes, name);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const a = res.body as ConsultationAttachment;
      expect(a).toMatchObject({ caseId: c.id, name, fileType: type, size: bytes.length, status: 'completed' });
      const file = await fetch(new URL(a.url!, s.url));
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect((await actionsOf(id)).filter((a) => a === 'attachment.create')).toHaveLength(5);
  });

  it('are "processing" without a link while the bytes arrive, then "completed"', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    let open!: () => void;
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => { reached = resolve; });
    gate = { reached, open: new Promise((resolve) => { open = resolve; }) };
    const pending = upload(id, c.id, PDF, 'late.pdf');
    try {
      // The row is written before the bytes are stored: once storage is reached, it is there.
      await arrived;
      const rows = await attachmentRows(c.id);
      expect(rows).toHaveLength(1);
      const mid = await s.request('GET', `consultations/${id}/attachments/${rows[0]!.id}`, { token: expert });
      expect(mid.status).toBe(200);
      expect(mid.body).toMatchObject({ status: 'processing', url: null, size: 0 });
    } finally {
      gate = null;
      open();
    }
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = await s.request('GET', `consultations/${id}/attachments/${res.body.id}`, { token: expert });
    expect(done.body).toMatchObject({ status: 'completed', size: PDF.length });
    expect(done.body.url).toEqual(expect.any(String));
  });

  it('of a case deleted while the bytes arrive answer 404 and leave no bytes behind', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    const before = await storedKeys();
    let open!: () => void;
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => { reached = resolve; });
    gate = { reached, open: new Promise((resolve) => { open = resolve; }) };
    const pending = upload(id, c.id, PDF, 'racing.pdf');
    try {
      await arrived;
      // The upload holds no lock while its bytes travel: the case goes at once, its processing file with it.
      expect((await s.request('DELETE', `consultations/${id}/cases/${c.id}`, { token: expert })).status).toBe(204);
    } finally {
      gate = null;
      open();
    }
    const res = await pending;
    expect(res.status).toBe(404);
    expect(await attachmentRows(c.id)).toHaveLength(0);
    expect(await storedKeys()).toEqual(before);
  });

  it('refuse a type outside the list, and a known extension whose bytes are something else, keeping nothing', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    const before = await storedKeys();
    const exe = await upload(id, c.id, Buffer.from('MZ\x90\x00 this program cannot be run'), 'setup.exe');
    expect(exe.status).toBe(400);
    expect(exe.body.code).toBe('UnsupportedFileType');
    const disguised = await upload(id, c.id, Buffer.from('MZ\x90\x00 an executable named as a picture'), 'photo.png');
    expect(disguised.status).toBe(400);
    expect(disguised.body.code).toBe('UnsupportedFileType');
    const binaryText = await upload(id, c.id, Buffer.from([0x41, 0x00, 0x42]), 'notes.txt');
    expect(binaryText.body.code).toBe('UnsupportedFileType');
    expect((await upload(id, c.id, Buffer.alloc(0), 'empty.pdf')).body.code).toBe('UnsupportedFileType');
    expect(await attachmentRows(c.id)).toHaveLength(0);
    expect(await storedKeys()).toEqual(before);
    // The failed upload's trail says the file went again.
    const trail = await auditTrail(s.db.db, 'consultation', id);
    expect(trail.filter((e) => e.action === 'attachment.delete').map((e) => e.after)).toEqual([
      { reason: 'upload failed' }, { reason: 'upload failed' }, { reason: 'upload failed' },
    ]);
  });

  it('refuse a file over CONSULTATION_ATTACHMENT_MAX_BYTES with FileTooLarge, keeping nothing', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    const before = await storedKeys();
    const big = Buffer.alloc(CONSULTATION_ATTACHMENT_MAX_BYTES + 1);
    PNG.copy(big);
    const res = await upload(id, c.id, big, 'huge.png');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('FileTooLarge');
    expect(await attachmentRows(c.id)).toHaveLength(0);
    expect(await storedKeys()).toEqual(before);
  });

  it('refuses an image over every image upload\'s limits from its header (ImageTooLarge), and one whose size cannot be read (ImageBroken), keeping nothing', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    const before = await storedKeys();
    // A whole PNG that says 30000 × 30000 (a decompression bomb: 2.7 GB of pixels in about a kilobyte).
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(30000, 0);
    ihdr.writeUInt32BE(30000, 4);
    ihdr[8] = 8;
    ihdr[9] = 6;
    const bomb = Buffer.concat([PNG.subarray(0, 8), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(1 << 20))), pngChunk('IEND', Buffer.alloc(0))]);
    const res = await upload(id, c.id, bomb, 'bomb.png');
    expect([res.status, res.body]).toMatchObject([400, { code: 'ImageTooLarge', details: { width: 30000, height: 30000, ...IMAGE_LIMITS } }]);
    const wide = await upload(id, c.id, jpeg(9000, 9000), 'wide.jpg');
    expect([wide.status, wide.body]).toMatchObject([400, { code: 'ImageTooLarge', details: { width: 9000, height: 9000 } }]);
    const unreadable = await upload(id, c.id, Buffer.concat([PNG.subarray(0, 8), randomBytes(600)]), 'noise.png');
    expect([unreadable.status, unreadable.body.code]).toEqual([400, 'ImageBroken']);
    expect(await attachmentRows(c.id)).toHaveLength(0);
    expect(await storedKeys()).toEqual(before);
  });

  it('are refused to a reader without the right (403) and to an outsider (404); read by any reader with a fresh link', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    expect((await upload(id, c.id, PNG, 'a.png', registrar)).status).toBe(403);
    expect((await upload(id, c.id, PNG, 'a.png', outsider)).status).toBe(404);
    const a = (await upload(id, c.id, PNG, 'a.png')).body as ConsultationAttachment;
    const read = await s.request('GET', `consultations/${id}/attachments/${a.id}`, { token: registrar });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: a.id, status: 'completed', name: 'a.png' });
    expect((await s.request('GET', `consultations/${id}/attachments/${a.id}`, { token: outsider })).status).toBe(404);
    const other = await insertConsultation();
    expect((await s.request('GET', `consultations/${other}/attachments/${a.id}`, { token: rad1 })).status).toBe(404);
  });

  it('are deleted with their stored bytes, by a side with consultation_clinicCase_delete', async () => {
    const id = await insertConsultation();
    const c = await newCase(id);
    const a = (await upload(id, c.id, PNG, 'gone.png')).body as ConsultationAttachment;
    const [row] = await attachmentRows(c.id);
    expect(await s.storage.head(row!.storageKey!)).not.toBeNull();
    expect((await s.request('DELETE', `consultations/${id}/attachments/${a.id}`, { token: registrar })).status).toBe(403);
    expect((await s.request('DELETE', `consultations/${id}/attachments/${a.id}`, { token: expert })).status).toBe(204);
    expect(await attachmentRows(c.id)).toHaveLength(0);
    expect(await s.storage.head(row!.storageKey!)).toBeNull();
    expect((await s.request('GET', `consultations/${id}/attachments/${a.id}`, { token: rad1 })).status).toBe(404);
    expect(await actionsOf(id)).toContain('attachment.delete');
  });
});

describe('links and the related view', () => {
  it('link a consultation the account can read, once (a second link answers the same list), never itself', async () => {
    const id = await insertConsultation();
    const older = await insertConsultation({ status: CONSULTATION_STATUS.completed });
    const first = await s.request('POST', `consultations/${id}/links`, { token: rad1, body: { linkedId: older } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((first.body as ConsultationLink[]).map((l) => l.id)).toEqual([older]);
    expect(first.body[0]).toMatchObject({ patientName: '会诊患者', reason: '请求会诊', status: CONSULTATION_STATUS.completed });
    const again = await s.request('POST', `consultations/${id}/links`, { token: expert, body: { linkedId: older } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await actionsOf(id)).filter((a) => a === 'link.create')).toHaveLength(1);
    const self = await s.request('POST', `consultations/${id}/links`, { token: rad1, body: { linkedId: id } });
    expect(self.status).toBe(400);
    expect(self.body.code).toBe('ParamsError');
  });

  it('made twice at once leave one link and one audit event', async () => {
    const id = await insertConsultation();
    const other = await insertConsultation();
    const both = await Promise.all([rad1, expert].map((token) => s.request('POST', `consultations/${id}/links`, { token, body: { linkedId: other } })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(await s.db.db.select().from(t.consultationLinks).where(eq(t.consultationLinks.consultationId, id))).toHaveLength(1);
    expect((await actionsOf(id)).filter((a) => a === 'link.create')).toHaveLength(1);
  });

  it('refuse a consultation the account cannot read (404), a reader without consultation_update (403), a canceled one (409)', async () => {
    const id = await insertConsultation();
    const elsewhere = await createGroup(s);
    const foreign = await insertConsultation({ applied: elsewhere.bucketId, target: elsewhere.bucketId, examId: null });
    expect((await s.request('POST', `consultations/${id}/links`, { token: rad1, body: { linkedId: foreign } })).status).toBe(404);
    expect((await s.request('POST', `consultations/${id}/links`, { token: rad1, body: { linkedId: 999_999 } })).status).toBe(404);
    const other = await insertConsultation();
    expect((await s.request('POST', `consultations/${id}/links`, { token: registrar, body: { linkedId: other } })).status).toBe(403);
    expect((await s.request('POST', `consultations/${id}/links`, { token: outsider, body: { linkedId: other } })).status).toBe(404);
    const canceled = await insertConsultation({ status: CONSULTATION_STATUS.canceled });
    expect((await s.request('POST', `consultations/${canceled}/links`, { token: rad1, body: { linkedId: other } })).status).toBe(409);
    expect(await s.db.db.select().from(t.consultationLinks).where(eq(t.consultationLinks.consultationId, id))).toHaveLength(0);
  });

  it('show a linked consultation\'s detail under related/{linkId}, only while linked; unlink removes it', async () => {
    const id = await insertConsultation();
    const older = await insertConsultation({ status: CONSULTATION_STATUS.completed });
    const unlinked = await insertConsultation();
    expect((await s.request('POST', `consultations/${id}/links`, { token: rad1, body: { linkedId: older } })).status).toBe(201);
    const related = await s.request('GET', `consultations/${id}/related/${older}`, { token: expert });
    expect(related.status, JSON.stringify(related.body)).toBe(200);
    expect(related.body).toMatchObject({ id: older, status: CONSULTATION_STATUS.completed, patientName: '会诊患者' });
    expect((await s.request('GET', `consultations/${id}/related/${unlinked}`, { token: rad1 })).status).toBe(404);
    expect((await s.request('GET', `consultations/${id}/related/${older}`, { token: outsider })).status).toBe(404);
    expect((await s.request('DELETE', `consultations/${id}/links/${older}`, { token: registrar })).status).toBe(403);
    expect((await s.request('DELETE', `consultations/${id}/links/${older}`, { token: rad1 })).status).toBe(204);
    expect((await s.request('DELETE', `consultations/${id}/links/${older}`, { token: rad1 })).status).toBe(404);
    expect((await s.request('GET', `consultations/${id}/related/${older}`, { token: rad1 })).status).toBe(404);
    expect(await actionsOf(id)).toContain('link.delete');
  });
});

describe('visit exams', () => {
  it('add the applicant organisation\'s live exams (twice is once) and delete them, with audit events', async () => {
    const id = await insertConsultation();
    const examId = await insertExam(s, { bucketId: s.ids.hospitalId, modality: 'MR' });
    const added = await s.request('POST', `consultations/${id}/visit-exams`, { token: rad1, body: { examId } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const list = added.body as ConsultationVisitExam[];
    expect(list).toHaveLength(2);
    expect(list.find((e) => e.examId === examId)).toMatchObject({ modality: 'MR', bodyPart: '胸部', hasImages: true });
    const again = await s.request('POST', `consultations/${id}/visit-exams`, { token: rad1, body: { examId } });
    expect(again.status).toBe(200);
    expect(again.body).toHaveLength(2);
    expect((await s.request('DELETE', `consultations/${id}/visit-exams/${examId}`, { token: rad1 })).status).toBe(204);
    expect((await s.request('DELETE', `consultations/${id}/visit-exams/${examId}`, { token: rad1 })).status).toBe(404);
    const actions = await actionsOf(id);
    expect(actions.filter((a) => a === 'exam.create')).toHaveLength(1);
    expect(actions).toContain('exam.delete');
  });

  it('refuse exams of another organisation, deleted exams, the target side, readers without the right and outsiders', async () => {
    const id = await insertConsultation();
    const centreExam = await insertExam(s, { bucketId: s.ids.expertCentreId });
    const foreign = await s.request('POST', `consultations/${id}/visit-exams`, { token: rad1, body: { examId: centreExam } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('ParamsError');
    const deleted = await insertExam(s, { bucketId: s.ids.hospitalId });
    await s.db.db.update(t.exams).set({ deletedTime: s.clock.now() }).where(eq(t.exams.id, deleted));
    expect((await s.request('POST', `consultations/${id}/visit-exams`, { token: rad1, body: { examId: deleted } })).body.code).toBe('ParamsError');
    const hospitalExam = await insertExam(s, { bucketId: s.ids.hospitalId });
    // The expert centre answers; only the applicant side adds exams (consultation_Exam_create there).
    expect((await s.request('POST', `consultations/${id}/visit-exams`, { token: expert, body: { examId: hospitalExam } })).status).toBe(403);
    expect((await s.request('POST', `consultations/${id}/visit-exams`, { token: registrar, body: { examId: hospitalExam } })).status).toBe(403);
    expect((await s.request('POST', `consultations/${id}/visit-exams`, { token: outsider, body: { examId: hospitalExam } })).status).toBe(404);
    expect((await s.request('POST', `consultations/${id}/visit-exams`, { token: rad1, body: { examId: 'x' } })).status).toBe(400);
    const rows = await s.db.db.select().from(t.consultationExams).where(eq(t.consultationExams.consultationId, id));
    expect(rows).toHaveLength(1);
  });

  it('keep the exam the consultation started from', async () => {
    const id = await insertConsultation();
    const [row] = await s.db.db.select().from(t.consultations).where(eq(t.consultations.id, id));
    const res = await s.request('DELETE', `consultations/${id}/visit-exams/${row!.examId}`, { token: rad1 });
    expect(res.status).toBe(400);
    const kept = await s.db.db.select().from(t.consultationExams)
      .where(and(eq(t.consultationExams.consultationId, id), eq(t.consultationExams.examId, row!.examId!)));
    expect(kept).toHaveLength(1);
  });
});

describe('print data', () => {
  it('carries the consultation and the applicant\'s default layout-3 template (the demo\'s 会诊报告单)', async () => {
    const id = await insertConsultation({ status: CONSULTATION_STATUS.canceled });
    const res = await s.request('GET', `consultations/${id}/print-data`, { token: registrar });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body as ConsultationPrintData;
    expect(data.consultation.id).toBe(id);
    expect(data.template).toMatchObject({ name: '会诊报告单', layoutType: 3, bucketId: s.ids.hospitalId, titles: ['远程会诊报告单'] });
    expect(data.printedAt).toBe(s.clock.now().toISOString());
    expect((await s.request('GET', `consultations/${id}/print-data`, { token: outsider })).status).toBe(404);
  });

  it('has no template when the organisation has no default consultation layout', async () => {
    const id = await insertConsultation();
    await s.db.db.update(t.printTemplates).set({ isDefault: false })
      .where(and(eq(t.printTemplates.bucketId, s.ids.hospitalId), eq(t.printTemplates.layoutType, 3)));
    try {
      const res = await s.request('GET', `consultations/${id}/print-data`, { token: rad1 });
      expect(res.status).toBe(200);
      expect(res.body.template).toBeNull();
    } finally {
      await s.db.db.update(t.printTemplates).set({ isDefault: true })
        .where(and(eq(t.printTemplates.bucketId, s.ids.hospitalId), eq(t.printTemplates.layoutType, 3)));
    }
  });
});

describe('the video room token', () => {
  it('says configured: false without LiveKit settings, to readers only', async () => {
    const id = await insertConsultation();
    const res = await s.request('GET', `consultations/rtc/access-token?room=consultation-${id}`, { token: registrar });
    expect(res.status).toBe(200);
    expect(res.body as RtcToken).toEqual({ configured: false });
    expect((await s.request('GET', `consultations/rtc/access-token?room=consultation-${id}`, { token: outsider })).status).toBe(404);
    expect((await s.request('GET', 'consultations/rtc/access-token?room=consultation-999999', { token: rad1 })).status).toBe(404);
    expect((await s.request('GET', 'consultations/rtc/access-token?room=lobby', { token: rad1 })).status).toBe(400);
    expect((await s.request('GET', 'consultations/rtc/access-token?room=consultation-9999999999', { token: rad1 })).status).toBe(400);
    expect((await s.request('GET', `consultations/rtc/access-token?room=consultation-${id}`)).status).toBe(401);
  });

  it('is a LiveKit JWT for the room and the account when configured', async () => {
    const livekit = { url: 'ws://127.0.0.1:7880', apiKey: 'APItestkey', apiSecret: 'a-test-secret-that-is-long-enough-for-hs256' };
    const v = await startServer({ exams: 1, config: { livekit } });
    try {
      const [row] = await v.db.db.insert(t.consultations).values({
        appliedBucketId: v.ids.hospitalId, targetBucketId: v.ids.expertCentreId, patientName: '视频患者', reason: '视频会诊',
        createdBy: v.ids.accounts.rad1, created: v.clock.now(),
      }).returning();
      await v.db.db.insert(t.consultationBuckets).values({ consultationId: row!.id, bucketId: v.ids.expertCentreId });
      const room = `consultation-${row!.id}`;
      const res = await v.request('GET', `consultations/rtc/access-token?room=${room}`, { token: await v.login('expert') });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as Extract<RtcToken, { configured: true }>;
      expect(body).toMatchObject({ configured: true, url: livekit.url, room, identity: String(v.ids.accounts.expert) });
      expect(Date.parse(body.expiresAt) - v.clock.now().getTime()).toBe(2 * 3600 * 1000);
      const claims = await new TokenVerifier(livekit.apiKey, livekit.apiSecret).verify(body.token);
      expect(claims.sub).toBe(String(v.ids.accounts.expert));
      expect(claims.name).toBe('刘志远');
      expect(claims.video).toMatchObject({ roomJoin: true, room, canPublish: true, canSubscribe: true });
      await expect(new TokenVerifier(livekit.apiKey, 'another-secret-of-the-same-sort-and-length').verify(body.token)).rejects.toThrow();
      // The page may open the SFU's signalling socket (Content-Security-Policy connect-src); without LiveKit it may not.
      expect(res.headers.get('content-security-policy')).toMatch(/connect-src [^;]*ws:\/\/127\.0\.0\.1:7880/);
      const plain = await s.request('GET', `consultations/rtc/access-token?room=${room}`, { token: rad1 });
      expect(plain.headers.get('content-security-policy')).not.toContain('7880');
    } finally {
      await v.close();
    }
  });
});
