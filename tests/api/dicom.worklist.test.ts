import { eq } from 'drizzle-orm';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../contract/days';
import * as dicomParserModule from 'dicom-parser';
import type { Registration, RegistrySetup } from '../../contract/registry';
import { exams } from '../../server/db/schema';
import { dcmtk } from '../support/dcmtk';
import { startServer, type TestServer } from '../support/server';

/** The Modality Worklist: findscu -W as the CT console reads the registry's lines, Chinese names intact. */
let s: TestServer;
let registrar: string;
let setup: RegistrySetup;
let dir: string;
let wang: Registration;
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await startServer({ exams: 10, dicom: true });
  registrar = await s.login('registrar');
  setup = (await s.request('GET', `buckets/${s.ids.hospitalId}/registry/setup`, { token: registrar })).body as RegistrySetup;
  dir = mkdtempSync(path.join(tmpdir(), 'rad-mwl-'));
  const stepId = setup.steps.find((st) => st.modality === 'CT' && !st.reportDuringExam)!.id;
  const res = await s.request('POST', 'registry', { token: registrar, body: {
    bucketId: s.ids.hospitalId,
    patient: { patientName: '王小東', patientId: 'MWL0001', patientGender: 'M', patientDob: '1970-05-06', patientSource: 'O', outpatientId: 'MZ0001', phone: '13800138000' },
    exams: [{ procedureStepId: stepId, scheduledTime: new Date(s.clock.now().getTime() + HOUR).toISOString() }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  wang = res.body as Registration;
});
afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);

interface Answer { patientName: string; patientId?: string; patientBirthDate?: string; patientSex?: string; accessionNumber?: string; studyInstanceUid?: string; specificCharacterSet?: string; stationAe?: string }

/** One extracted answer: its name as dcmtk's dcmdump decodes it to UTF-8 (+U8, by the answer's own character set), the rest as text. */
async function answerOf(file: string): Promise<Answer> {
  const ds = dicomParser.parseDicom(readFileSync(file), {});
  const dump = await dcmtk('dcmdump', ['+U8', file]);
  const name = /\(0010,0010\) PN \[([^\]]*)\]/.exec(dump.stdout)?.[1] ?? '';
  const sps = ds.elements.x00400100?.items?.[0]?.dataSet;
  return {
    patientName: name, patientId: ds.string('x00100020'), patientBirthDate: ds.string('x00100030'), patientSex: ds.string('x00100040'),
    accessionNumber: ds.string('x00080050'), studyInstanceUid: ds.string('x0020000d'), specificCharacterSet: ds.string('x00080005'),
    stationAe: sps?.string('x00400001'),
  };
}

const scheduledDay = () => dayIn(new Date(s.clock.now().getTime() + HOUR), 'Asia/Shanghai').replaceAll('-', '');

/** findscu -W with the keys a console sends; the answers, read back with the upload's own reader (charset decoded). */
async function worklist(keys: string[], callingAe = 'CT1_SCANNER'): Promise<{ code: number; items: Answer[]; raw: Buffer[]; out: string }> {
  const od = mkdtempSync(path.join(dir, 'q-'));
  const r = await dcmtk('findscu', ['-W', '-X', '-od', od, '-aet', callingAe, '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port),
    '-k', 'PatientName', '-k', 'PatientID', '-k', 'PatientBirthDate', '-k', 'PatientSex', '-k', 'AccessionNumber', '-k', 'StudyInstanceUID',
    '-k', 'RequestedProcedureID', '-k', 'RequestedProcedureDescription', '-k', 'ReferringPhysicianName',
    '-k', 'ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartTime', '-k', 'ScheduledProcedureStepSequence[0].ScheduledProcedureStepID',
    ...keys.flatMap((k) => ['-k', k])]);
  const files = readdirSync(od).sort();
  const raw = files.map((f) => readFileSync(path.join(od, f)));
  const items = await Promise.all(files.map((f) => answerOf(path.join(od, f))));
  return { code: r.code, items, raw, out: r.stdout + r.stderr };
}

describe('Modality Worklist C-FIND', () => {
  it('gives the CT console the patient registered at the desk, his Chinese name intact (UTF-8)', async () => {
    const r = await worklist(['ScheduledProcedureStepSequence[0].Modality=CT', `ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartDate=${scheduledDay()}`,
      'ScheduledProcedureStepSequence[0].ScheduledStationAETitle=CT1_SCANNER', 'PatientID=MWL0001']);
    expect(r.code, r.out).toBe(0);
    expect(r.items).toHaveLength(1);
    const line = wang.lines[0]!;
    const [row] = await s.db.db.select().from(exams).where(eq(exams.id, line.examId));
    expect(r.items[0]).toMatchObject({
      patientName: '王小東', patientId: 'MWL0001', patientBirthDate: '19700506', patientSex: 'M', accessionNumber: row!.accessionNumber,
      studyInstanceUid: row!.scheduledStudyUid, specificCharacterSet: 'ISO_IR 192',
    });
    expect(row!.scheduledStudyUid).toMatch(/^2\.25\.\d+$/);
    // The raw bytes carry the name in UTF-8.
    expect(r.raw[0]!.includes(Buffer.from('王小東', 'utf8'))).toBe(true);
  });

  it('answers in GB18030 when the query asks for it', async () => {
    const r = await worklist(['SpecificCharacterSet=GB18030', 'PatientID=MWL0001']);
    expect(r.code, r.out).toBe(0);
    expect(r.items).toHaveLength(1);
    expect(r.items[0]).toMatchObject({ patientName: '王小東', specificCharacterSet: 'GB18030' });
    expect(r.raw[0]!.includes(Buffer.from([0xcd, 0xf5]))).toBe(true); // 王 in GB18030
  });

  it('matches names with * and ?, ids, accession numbers and date ranges; other modalities and days find nothing', async () => {
    const [row] = await s.db.db.select().from(exams).where(eq(exams.id, wang.lines[0]!.examId));
    const day = scheduledDay();
    const found = async (keys: string[]) => (await worklist(keys)).items.filter((i) => i.patientId === 'MWL0001').length;
    // A console that queries by a Chinese name says which character set it writes in.
    expect(await found(['SpecificCharacterSet=ISO_IR 192', 'PatientName=王*'])).toBe(1);
    expect(await found(['SpecificCharacterSet=ISO_IR 192', 'PatientName=王?東'])).toBe(1);
    expect(await found(['SpecificCharacterSet=ISO_IR 192', 'PatientName=李*'])).toBe(0);
    expect(await found([`AccessionNumber=${row!.accessionNumber}`])).toBe(1);
    expect(await found([`ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartDate=${day}-`])).toBe(1);
    expect(await found([`ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartDate=-${day}`])).toBe(1);
    expect(await found(['ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartDate=20000101-20000102'])).toBe(0);
    expect(await found(['ScheduledProcedureStepSequence[0].Modality=MR'])).toBe(0);
  });

  it('shows a calling AE only its own organisation\'s lines', async () => {
    // The expert centre's device: the hospital's lines are not its worklist.
    await s.db.db.execute(`insert into devices (bucket_id, name, modality, ae_title) values (${s.ids.expertCentreId}, 'CT-X', 'CT', 'EXPERT_CT')`);
    const r = await worklist(['PatientID=MWL0001'], 'EXPERT_CT');
    expect(r.code, r.out).toBe(0);
    expect(r.items).toHaveLength(0);
  });
});
