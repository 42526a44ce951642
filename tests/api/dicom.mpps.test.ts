import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueBoard } from '../../contract/calling';
import type { Registration, RegistryPage, RegistrySetup } from '../../contract/registry';
import { auditEvents, exams } from '../../server/db/schema';
import { sendMpps } from '../support/mpps';
import { startServer, type TestServer } from '../support/server';

/** MPPS (N-CREATE / N-SET) through dcmjs-dimse's client: the modality's progress drives the registration machine. */
let s: TestServer;
let registrar: string;
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await startServer({ exams: 10, dicom: true });
  registrar = await s.login('registrar');
});
afterAll(async () => { await s.close(); });

async function register(name: string): Promise<{ examId: number; accession: string }> {
  const setup = (await s.request('GET', `buckets/${s.ids.hospitalId}/registry/setup`, { token: registrar })).body as RegistrySetup;
  const stepId = setup.steps.find((st) => st.modality === 'CT' && !st.reportDuringExam)!.id;
  const res = await s.request('POST', 'registry', { token: registrar, body: {
    bucketId: s.ids.hospitalId,
    patient: { patientName: name, patientGender: 'F', patientSource: 'O', outpatientId: 'MZ9', phone: '13800138000', age: 30, ageUnit: 'Y' },
    exams: [{ procedureStepId: stepId, scheduledTime: new Date(s.clock.now().getTime() + HOUR).toISOString() }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const examId = (res.body as Registration).lines[0]!.examId;
  const [row] = await s.db.db.select().from(exams).where(eq(exams.id, examId));
  return { examId, accession: row!.accessionNumber! };
}


/** One N-CREATE or N-SET in its own association, as CT1_SCANNER; resolves with the DIMSE status. */
const send = (op: 'create' | 'set', uid: string, attrs: Record<string, unknown>) => sendMpps(s.dicom!.port, 'CT1_SCANNER', op, uid, attrs);

const statusOf = async (examId: number) => (await s.db.db.select({ st: exams.examStatus }).from(exams).where(eq(exams.id, examId)))[0]!.st;

describe('MPPS', () => {
  it('IN PROGRESS checks the patient in, COMPLETED makes the line Performed', async () => {
    const line = await register('马丽');
    const uid = '2.25.1000001';
    expect(await send('create', uid, { PerformedProcedureStepStatus: 'IN PROGRESS', ScheduledStepAttributesSequence: [{ AccessionNumber: line.accession }] })).toBe(0);
    expect(await statusOf(line.examId)).toBe('Arrived');
    expect(await send('set', uid, { PerformedProcedureStepStatus: 'COMPLETED' })).toBe(0);
    expect(await statusOf(line.examId)).toBe('Performed');
    const trail = await s.db.db.select().from(auditEvents).where(eq(auditEvents.objectId, String(line.examId)));
    expect(trail.filter((e) => e.area === 'registry').map((e) => e.action)).toEqual(['check-in', 'perform']);
    // A finished step is not updated again.
    expect(await send('set', uid, { PerformedProcedureStepStatus: 'DISCONTINUED' })).toBe(0x0110);
  });

  it('DISCONTINUED cancels the line', async () => {
    const line = await register('赵敏');
    expect(await send('create', '2.25.1000002', { PerformedProcedureStepStatus: 'IN PROGRESS', ScheduledStepAttributesSequence: [{ AccessionNumber: line.accession }] })).toBe(0);
    expect(await send('set', '2.25.1000002', { PerformedProcedureStepStatus: 'DISCONTINUED' })).toBe(0);
    expect(await statusOf(line.examId)).toBe('Cancelled');
  });

  it('refuses an unknown accession number, an unknown instance, a duplicate, and a transition the machine refuses', async () => {
    expect(await send('create', '2.25.1000003', { PerformedProcedureStepStatus: 'IN PROGRESS', ScheduledStepAttributesSequence: [{ AccessionNumber: 'NO-SUCH' }] })).toBe(0x0106);
    expect(await send('set', '2.25.999999', { PerformedProcedureStepStatus: 'COMPLETED' })).toBe(0x0112);
    const line = await register('钱伟');
    expect(await send('create', '2.25.1000004', { PerformedProcedureStepStatus: 'IN PROGRESS', ScheduledStepAttributesSequence: [{ AccessionNumber: line.accession }] })).toBe(0);
    expect(await send('create', '2.25.1000004', { PerformedProcedureStepStatus: 'IN PROGRESS', ScheduledStepAttributesSequence: [{ AccessionNumber: line.accession }] })).toBe(0x0111);
    // The desk cancels the line meanwhile: the modality's COMPLETED is refused by the machine, and traced.
    await s.db.db.update(exams).set({ examStatus: 'Cancelled' }).where(eq(exams.id, line.examId));
    expect(await send('set', '2.25.1000004', { PerformedProcedureStepStatus: 'COMPLETED' })).toBe(0x0110);
    expect(await statusOf(line.examId)).toBe('Cancelled');
    const refused = await s.db.db.select().from(auditEvents).where(eq(auditEvents.objectId, String(line.examId)));
    expect(refused.map((e) => e.action)).toContain('match-refused');
  });

  it('the registry line and the call queue entry show the step: who scans since when, then done with its images', async () => {
    const line = await register('孙悦');
    const lineOf = async () => {
      const res = await s.request('POST', `buckets/${s.ids.hospitalId}/registry/query`, { token: registrar, body: { filters: [{ field: 'examId', operator: 'equal', values: [line.examId] }] } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as RegistryPage).items[0]!;
    };
    const entryOf = async () => ((await s.request('GET', `buckets/${s.ids.hospitalId}/queue-exams`, { token: registrar })).body as QueueBoard).entries.find((e) => e.examId === line.examId)!;
    expect((await lineOf()).mpps).toBeNull();
    // Checked in at the desk: the patient waits in the CT queue; then the scanner starts.
    const reg = (await lineOf());
    expect((await s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Arrived', version: reg.version } })).status).toBe(200);
    expect((await entryOf()).mpps).toBeNull();
    const started = s.clock.now().toISOString();
    const uid = '2.25.1000010';
    expect(await send('create', uid, { PerformedProcedureStepStatus: 'IN PROGRESS', PerformedStationAETitle: 'CT1', ScheduledStepAttributesSequence: [{ AccessionNumber: line.accession }] })).toBe(0);
    const scanning = { status: 'IN PROGRESS', stationAe: 'CT1', started, ended: null, images: null };
    expect((await lineOf()).mpps).toEqual(scanning);
    expect((await entryOf()).mpps).toEqual(scanning);
    // The N-SET names two series of 3 and 2 images.
    const series = [
      { SeriesInstanceUID: '2.25.7.1', ReferencedImageSequence: [1, 2, 3].map((n) => ({ ReferencedSOPClassUID: '1.2.840.10008.5.1.4.1.1.2', ReferencedSOPInstanceUID: `2.25.7.1.${n}` })) },
      { SeriesInstanceUID: '2.25.7.2', ReferencedImageSequence: [1, 2].map((n) => ({ ReferencedSOPClassUID: '1.2.840.10008.5.1.4.1.1.2', ReferencedSOPInstanceUID: `2.25.7.2.${n}` })) },
    ];
    expect(await send('set', uid, { PerformedProcedureStepStatus: 'COMPLETED', PerformedSeriesSequence: series })).toBe(0);
    const done = await lineOf();
    expect(done.status).toBe('Performed');
    expect(done.mpps).toEqual({ status: 'COMPLETED', stationAe: 'CT1', started, ended: s.clock.now().toISOString(), images: 5 });
  });

  it('a step without a station AE title names the calling AE; a discontinued one says so', async () => {
    const line = await register('周航');
    expect(await send('create', '2.25.1000011', { PerformedProcedureStepStatus: 'IN PROGRESS', ScheduledStepAttributesSequence: [{ AccessionNumber: line.accession }] })).toBe(0);
    expect(await send('set', '2.25.1000011', { PerformedProcedureStepStatus: 'DISCONTINUED' })).toBe(0);
    const res = await s.request('POST', `buckets/${s.ids.hospitalId}/registry/query`, { token: registrar, body: { filters: [{ field: 'examId', operator: 'equal', values: [line.examId] }, { field: 'examStatus', operator: 'in', values: ['Cancelled'] }] } });
    expect((res.body as RegistryPage).items[0]!.mpps).toMatchObject({ status: 'DISCONTINUED', stationAe: 'CT1_SCANNER', images: null });
  });
});
