import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Hl7DestinationInput } from '../../contract/hl7Outbound';
import * as t from '../../server/db/schema';
import { systemClock } from '../../server/deps';
import { read, repetitions } from '../../server/hl7/message';
import { hl7Time } from '../../server/hl7/outbound/oru';
import { startOutboundSender, type OutboundSender } from '../../server/hl7/outbound/sender';
import { createGroup } from '../support/accounts';
import { startMllpPeer, type MllpPeer, type PeerAnswer, type Received } from '../support/mllpPeer';
import { act, insertExam, reportRow, tokenOf, type ReportRef } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Results out (issue 36): an issued report becomes an ORU^R01 in the outbox in the approval's transaction, and the
 * sender delivers it over MLLP to the organisation's destination — here a test peer — until the peer acknowledges.
 */
let s: TestServer;
let peer: MllpPeer;
let sender: OutboundSender;
let answers: (index: number, r: Received) => PeerAnswer = () => 'AA';

const destination = (o: Partial<Hl7DestinationInput> = {}): Hl7DestinationInput => ({
  enabled: true, host: '127.0.0.1', port: peer.port, sendingApplication: 'RADWS', sendingFacility: '',
  receivingApplication: 'HIS', receivingFacility: 'HOSP', charset: 'UNICODE UTF-8', tls: false, tlsCa: null,
  maxAttempts: 3, ackTimeoutMs: 2000, ...o,
});

async function configure(o: Partial<Hl7DestinationInput> = {}) {
  const res = await s.request('PUT', `buckets/${s.ids.hospitalId}/hl7/destination`, { token: await tokenOf(s, 'admin'), body: destination(o) });
  expect(res.status).toBe(200);
  return res.body;
}

async function step(username: string, ref: ReportRef, action: string, body: Record<string, unknown> = {}): Promise<ReportRef> {
  const res = await act(s, username, ref, action, { version: ref.version, ...body });
  if (res.status !== 200) throw new Error(`${action}: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...ref, version: res.body.version };
}

const FINDING = '<p>右肺上叶见结节 a|b^c&amp;d~e\\f</p><p>纵隔居中</p>';
const DIAGNOSIS = '<p>右肺上叶结节，建议随访</p>';

/** A fresh exam with a HIS order number, its report written by rad1 and approved by chief. */
async function approvedReport(o: { positive?: boolean | null } = {}): Promise<ReportRef> {
  const examId = await insertExam(s);
  await s.db.db.update(t.exams).set({ orderId: `HIS-${examId}`, accessionNumber: `ACC${examId}`, patientName: '张三丰', patientDob: '1961-04-09', patientGender: 'M' })
    .where(eq(t.exams.id, examId));
  const created = await s.request('POST', `exams/${examId}/reports`, { token: await tokenOf(s, 'rad1') });
  let ref: ReportRef = { id: created.body.id, examId, version: created.body.version };
  ref = await step('rad1', ref, 'save', { finding: FINDING, diagnosis: DIAGNOSIS, positive: o.positive === undefined ? true : o.positive });
  ref = await step('rad1', ref, 'submit');
  return step('chief', ref, 'approve');
}

/** One value of the received message, unescaped by the shared parser: segment (nth of its name), field, component, subcomponent, repetition. */
const v = (r: Received, segment: string, field: number, component = 1, sub = 1, rep = 1, nth = 1) =>
  read(r.msg, r.msg.getAllSegments(segment)[nth - 1]!, field, component, sub, rep);
/** The text lines of OBX number `nth` (OBX-5's repetitions). */
const lines = (r: Received, nth: number) => {
  const obx = r.msg.getAllSegments('OBX')[nth - 1]!;
  return Array.from({ length: repetitions(obx, 5) }, (_, i) => read(r.msg, obx, 5, 1, 1, i + 1));
};

async function outbox(filters: unknown[] = []) {
  const res = await s.request('POST', `buckets/${s.ids.hospitalId}/hl7/outbox/query`, { token: await tokenOf(s, 'admin'), body: { filters } });
  expect(res.status).toBe(200);
  return res.body as { total: number; items: { id: number; reportId: number; status: string; attempts: number; ackCode: string | null; controlId: string; resultStatus: string; lastError: string | null }[] };
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`never: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const rowOf = async (reportId: number) => (await outbox([{ field: 'reportId', operator: 'equal', values: [reportId] }])).items;

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  peer = await startMllpPeer({ answer: (i, r) => answers(i, r) });
  sender = startOutboundSender(s.deps, { pollMs: 50, backoffBaseMs: 50, backoffMaxMs: 200, leaseMs: 10_000, clock: systemClock });
});
afterAll(async () => {
  await sender?.close();
  await peer?.close();
  await s?.close();
});
beforeEach(() => { answers = () => 'AA'; });

describe('results out over MLLP', () => {
  it('queues nothing while the organisation has no destination switched on', async () => {
    const r = await approvedReport();
    expect(await s.db.db.select().from(t.hl7Outbox).where(eq(t.hl7Outbox.reportId, r.id))).toEqual([]);
  });

  it('sends the approved report as an ORU^R01 the peer receives: text, conclusion, positive flag, radiologist, times', async () => {
    await configure();
    const before = peer.received.length;
    const r = await approvedReport();
    const [msg] = (await peer.waitFor(before + 1)).slice(before);
    const row = await reportRow(s, r.id);
    const exam = (await s.db.db.select().from(t.exams).where(eq(t.exams.id, r.examId)))[0]!;
    expect([v(msg!, 'MSH', 9, 1), v(msg!, 'MSH', 9, 2), v(msg!, 'MSH', 9, 3)]).toEqual(['ORU', 'R01', 'ORU_R01']);
    expect(v(msg!, 'MSH', 5)).toBe('HIS');
    expect(v(msg!, 'MSH', 6)).toBe('HOSP');
    expect(v(msg!, 'MSH', 18)).toBe('UNICODE UTF-8');
    expect(v(msg!, 'PID', 5)).toBe('张三丰');
    expect(v(msg!, 'PID', 7)).toBe('19610409');
    expect(v(msg!, 'OBR', 2)).toBe(`HIS-${r.examId}`);
    expect(v(msg!, 'OBR', 3)).toBe(`ACC${r.examId}`);
    expect(v(msg!, 'OBR', 25)).toBe('F');
    expect(v(msg!, 'OBR', 22)).toBe(hl7Time(row.approvedTime!, 'Asia/Shanghai'));
    expect(v(msg!, 'OBR', 7)).toBe(hl7Time(exam.examTime, 'Asia/Shanghai'));
    const [chief] = await s.db.db.select().from(t.accounts).where(eq(t.accounts.id, s.ids.accounts.chief));
    expect([v(msg!, 'OBR', 32, 1, 1), v(msg!, 'OBR', 32, 1, 2)]).toEqual(['chief', chief!.name]);
    // Delimiters in the text are escaped on the wire and read back as text.
    expect(lines(msg!, 1)).toEqual(['右肺上叶见结节 a|b^c&d~e\\f', '纵隔居中']);
    expect(msg!.text).toContain('a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f');
    expect(lines(msg!, 2)).toEqual(['右肺上叶结节，建议随访']);
    expect(v(msg!, 'OBX', 8, 1, 1, 1, 2)).toBe('A');
    expect(v(msg!, 'OBX', 11, 1, 1, 1, 2)).toBe('F');
    const [item] = await until(() => rowOf(r.id), (rows) => rows[0]?.status === 'sent');
    expect(item).toMatchObject({ status: 'sent', ackCode: 'AA', attempts: 1, resultStatus: 'F', controlId: msg!.controlId });
  });

  it('flags a negative report N', async () => {
    await configure();
    const before = peer.received.length;
    await approvedReport({ positive: false });
    const [msg] = (await peer.waitFor(before + 1)).slice(before);
    expect(v(msg!, 'OBX', 8, 1, 1, 1, 2)).toBe('N');
  });

  it('sends GB18030 bytes when MSH-18 says GB 18030-2000', async () => {
    await configure({ charset: 'GB 18030-2000' });
    const gbPeer = await startMllpPeer();
    try {
      await configure({ charset: 'GB 18030-2000', port: gbPeer.port });
      await approvedReport();
      const [msg] = await gbPeer.waitFor(1);
      expect(v(msg!, 'MSH', 18)).toBe('GB 18030-2000');
      expect(v(msg!, 'PID', 5)).toBe('张三丰');
      // 张 is D5 C5 in GB18030 (E5 BC A0 in UTF-8).
      expect(msg!.bytes.includes(Buffer.from([0xd5, 0xc5]))).toBe(true);
      expect(msg!.bytes.includes(Buffer.from('张', 'utf8'))).toBe(false);
    } finally {
      await configure();
      await gbPeer.close();
    }
  });

  it('retries after an AE and is sent once the peer answers AA, with the same control id', async () => {
    await configure();
    const before = peer.received.length;
    answers = (i) => (i === before ? 'AE' : 'AA');
    const r = await approvedReport();
    const got = (await peer.waitFor(before + 2)).slice(before);
    expect(got[1]!.controlId).toBe(got[0]!.controlId);
    const [item] = await until(() => rowOf(r.id), (rows) => rows[0]?.status === 'sent');
    expect(item).toMatchObject({ attempts: 2, ackCode: 'AA' });
  });

  it('makes a dead letter after the last attempt fails; an administrator finds it and resends it', async () => {
    await configure({ maxAttempts: 2, ackTimeoutMs: 500 });
    answers = () => 'AR';
    const r = await approvedReport();
    const [dead] = await until(() => rowOf(r.id), (rows) => rows[0]?.status === 'dead');
    expect(dead).toMatchObject({ attempts: 2, ackCode: 'AR' });
    expect(dead!.lastError).toContain('AR');
    const deadList = await outbox([{ field: 'status', operator: 'equal', values: ['dead'] }]);
    expect(deadList.items.map((i) => i.id)).toContain(dead!.id);

    answers = () => 'AA';
    const before = peer.received.length;
    const resent = await s.request('POST', `buckets/${s.ids.hospitalId}/hl7/outbox/${dead!.id}/resend`, { token: await tokenOf(s, 'admin') });
    expect(resent.status).toBe(200);
    expect(resent.body.status).toBe('pending');
    await peer.waitFor(before + 1);
    const [sent] = await until(() => rowOf(r.id), (rows) => rows[0]?.status === 'sent');
    expect(sent).toMatchObject({ attempts: 1, ackCode: 'AA' });
    const trail = await s.db.db.select().from(t.auditEvents).where(eq(t.auditEvents.action, 'hl7-resend'));
    expect(trail.map((e) => e.objectId)).toContain(String(dead!.id));
  });

  it('counts a silent peer as a failed attempt (timeout)', async () => {
    await configure({ maxAttempts: 1, ackTimeoutMs: 500 });
    answers = () => 'silent';
    const r = await approvedReport();
    const [dead] = await until(() => rowOf(r.id), (rows) => rows[0]?.status === 'dead');
    expect(dead!.lastError).toMatch(/no acknowledgement/);
  });

  it('sends a recalled and re-issued report as a correction (OBR-25 and OBX-11 C)', async () => {
    await configure();
    const before = peer.received.length;
    let r = await approvedReport();
    await peer.waitFor(before + 1);
    r = await step('chief', r, 'recall', { reason: '左右写反' });
    r = await step('rad1', r, 'submit', { finding: '<p>左肺上叶见结节</p>' });
    r = await step('chief', r, 'approve');
    const got = (await peer.waitFor(before + 2)).slice(before);
    expect(v(got[1]!, 'OBR', 25)).toBe('C');
    expect([v(got[1]!, 'OBX', 11, 1, 1, 1, 1), v(got[1]!, 'OBX', 11, 1, 1, 1, 2)]).toEqual(['C', 'C']);
    expect(lines(got[1]!, 1)).toEqual(['左肺上叶见结节']);
    expect(got[1]!.controlId).not.toBe(got[0]!.controlId);
    const rows = await until(() => rowOf(r.id), (items) => items.length === 2 && items.every((i) => i.status === 'sent'));
    expect(rows.map((i) => i.resultStatus).sort()).toEqual(['C', 'F']);
  });
});

describe('destination and outbox API', () => {
  it('answers the defaults before anything is configured and keeps what an administrator puts', async () => {
    const token = await tokenOf(s, 'admin');
    const centre = await s.request('GET', `buckets/${s.ids.expertCentreId}/hl7/destination`, { token });
    expect(centre.status).toBe(200);
    expect(centre.body).toMatchObject({ enabled: false, host: '', charset: 'UNICODE UTF-8' });
    const put = await configure({ receivingFacility: '人民医院' });
    expect(put.receivingFacility).toBe('人民医院');
    const got = await s.request('GET', `buckets/${s.ids.hospitalId}/hl7/destination`, { token });
    expect(got.body).toEqual(put);
  });

  it.each([
    ['a delimiter in a name', { receivingApplication: 'HIS|X' }, 'receivingApplication'],
    ['no host while on', { host: '' }, 'host'],
    ['a port out of range', { port: 70000 }, 'port'],
    ['an unknown charset', { charset: 'latin1' }, 'charset'],
    ['a CA that is no certificate', { tlsCa: 'hello' }, 'tlsCa'],
  ])('refuses %s (400 ParamsError)', async (_name, change, field) => {
    const res = await s.request('PUT', `buckets/${s.ids.hospitalId}/hl7/destination`, { token: await tokenOf(s, 'admin'), body: { ...destination(), ...change } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    expect(JSON.stringify(res.body.details)).toContain(field);
  });

  it('refuses an unknown filter and a bad status value (400)', async () => {
    const token = await tokenOf(s, 'admin');
    for (const filters of [[{ field: 'message', operator: 'like', values: ['x'] }], [{ field: 'status', operator: 'equal', values: ['lost'] }]]) {
      const res = await s.request('POST', `buckets/${s.ids.hospitalId}/hl7/outbox/query`, { token, body: { filters } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });

  it('finds rows by patient name or accession number', async () => {
    const hits = await outbox([{ field: 'text', operator: 'like', values: ['张三丰'] }]);
    expect(hits.total).toBeGreaterThan(0);
    const none = await outbox([{ field: 'text', operator: 'like', values: ['无此患者'] }]);
    expect(none.total).toBe(0);
  });

  it('refuses to resend a row still queued (409) and a row of another organisation (404)', async () => {
    await configure();
    const r = await approvedReport();
    await until(() => rowOf(r.id), (rows) => rows[0]?.status === 'sent');
    // Switched off, the sender leaves the organisation's rows alone: this one stays queued.
    await configure({ enabled: false });
    const [row] = await s.db.db.update(t.hl7Outbox).set({ status: 'pending' }).where(eq(t.hl7Outbox.reportId, r.id)).returning();
    const token = await tokenOf(s, 'admin');
    const queued = await s.request('POST', `buckets/${s.ids.hospitalId}/hl7/outbox/${row!.id}/resend`, { token });
    expect(queued.status).toBe(409);
    expect(queued.body.code).toBe('InvalidTransition');
    const elsewhere = await s.request('POST', `buckets/${s.ids.expertCentreId}/hl7/outbox/${row!.id}/resend`, { token });
    expect(elsewhere.status).toBe(404);
    // An organisation of another group is not there for the caller; a member of the group who is not its admin is refused.
    const other = await createGroup(s);
    const foreign = await s.request('GET', `buckets/${other.bucketId}/hl7/destination`, { token });
    expect(foreign.status).toBe(404);
    const stranger = await s.request('GET', `buckets/${s.ids.hospitalId}/hl7/destination`, { token: await tokenOf(s, 'expert') });
    expect(stranger.status).toBe(403);
    const member = await s.request('GET', `buckets/${s.ids.hospitalId}/hl7/destination`, { token: await tokenOf(s, 'rad1') });
    expect(member.status).toBe(403);
    await configure();
  });
});
