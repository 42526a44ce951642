import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueBoard } from '../../contract/calling';
import type { Registration } from '../../contract/registry';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Issue 11 on issue 10: a registry check-in puts the line into today's queue of its modality; revoke and cancel take it out. */
let s: TestServer;
let registrar: string;
beforeAll(async () => {
  s = await startServer({ exams: 10 });
  registrar = await tokenOf(s, 'registrar');
});
afterAll(async () => s?.close());

const board = async () => (await s.request('GET', `buckets/${s.ids.hospitalId}/queue-exams`, { token: registrar })).body as QueueBoard;

async function registered(modality: string): Promise<Registration> {
  const res = await s.request('POST', 'registry', { token: registrar, body: {
    bucketId: s.ids.hospitalId, patient: { patientName: '叫号登记', patientGender: 'F', patientSource: 'E' },
    exams: [{ modality, scheduledTime: new Date(s.clock.now().getTime() + 3_600_000).toISOString() }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Registration;
}

describe('registry check-in and the call queue', () => {
  it('enters the queue of the modality on check-in and leaves it on revoke', async () => {
    const reg = await registered('CT');
    const examId = reg.lines[0]!.examId;
    expect((await board()).entries.some((e) => e.examId === examId)).toBe(false);
    const arrived = await s.request('POST', 'exam/status', { token: registrar, body: { examId, status: 'Arrived', version: reg.version } });
    expect(arrived.status).toBe(200);
    const b = await board();
    const entry = b.entries.find((e) => e.examId === examId)!;
    expect(entry.status).toBe('waiting');
    expect(b.queueTypes.find((q) => q.id === entry.queueTypeId)!.modality).toBe('CT');
    const revoked = await s.request('POST', `scheduled-exams/${examId}/revoke`, { token: registrar, body: { version: (arrived.body as Registration).version } });
    expect(revoked.status).toBe(200);
    expect((await board()).entries.some((e) => e.examId === examId)).toBe(false);
  });

  it('leaves the queue when an arrived line is cancelled; no queue for a modality without one', async () => {
    const reg = await registered('US');
    const examId = reg.lines[0]!.examId;
    const arrived = (await s.request('POST', 'exam/status', { token: registrar, body: { examId, status: 'Arrived', version: reg.version } })).body as Registration;
    expect((await board()).entries.some((e) => e.examId === examId)).toBe(true);
    await s.request('POST', `scheduled-exams/${examId}/cancel`, { token: registrar, body: { version: arrived.version, reason: '患者离开' } });
    expect((await board()).entries.some((e) => e.examId === examId)).toBe(false);
    const mr = await registered('MR');
    await s.request('POST', 'exam/status', { token: registrar, body: { examId: mr.lines[0]!.examId, status: 'Arrived', version: mr.version } });
    expect((await board()).entries.some((e) => e.examId === mr.lines[0]!.examId)).toBe(false);
  });
});
