import { eq } from 'drizzle-orm';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as dicomParserModule from 'dicom-parser';
import type { ExamPage } from '../../contract/exams';
import type { Registration, RegistrySetup } from '../../contract/registry';
import { dicomInstances } from '../../server/db/schema';
import { dcmtk } from '../support/dcmtk';
import { CT_SERIES, SAMPLES_DIR } from '../support/dicom';
import { act, DIAGNOSIS, FINDING, tokenOf } from '../support/reports';
import { sendMpps } from '../support/mpps';
import { startServer, type TestServer } from '../support/server';

/**
 * Issue 33's end-to-end proof, every step through the wire a department uses: the desk registers a CT line, the
 * console (CT1_SCANNER) reads it by findscu -W, announces it by MPPS, sends its images by storescu under the
 * worklist's study UID and accession number, completes it; the radiologist finds it Performed with images in
 * the worklist page and reports it.
 */
let s: TestServer;
let dir: string;
const HOUR = 3_600_000;
const CONSOLE = 'CT1_SCANNER';

beforeAll(async () => {
  s = await startServer({ exams: 5, dicom: true });
  dir = mkdtempSync(path.join(tmpdir(), 'rad-journey-'));
});
afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);


/** One N-CREATE or N-SET in its own association, as the console; resolves with the DIMSE status. */
const mpps = (op: 'create' | 'set', uid: string, attrs: Record<string, unknown>) => sendMpps(s.dicom!.port, CONSOLE, op, uid, attrs);

async function pageRow(examId: number) {
  const res = await s.request('POST', 'exams/page-query', {
    token: await tokenOf(s, 'rad1'), body: { filters: [{ field: 'id', operator: 'equal', values: [examId] }], limit: 5 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as ExamPage).items;
}

describe('the department, end to end', () => {
  it('desk → worklist → MPPS → C-STORE → Performed with images → report', async () => {
    // 1. The registrar registers 陈建国 for a CT.
    const registrar = await tokenOf(s, 'registrar');
    const setup = (await s.request('GET', `buckets/${s.ids.hospitalId}/registry/setup`, { token: registrar })).body as RegistrySetup;
    const stepId = setup.steps.find((st) => st.modality === 'CT' && !st.reportDuringExam)!.id;
    const reg = await s.request('POST', 'registry', { token: registrar, body: {
      bucketId: s.ids.hospitalId,
      patient: { patientName: '陈建国', patientId: 'JRN0001', patientGender: 'M', patientDob: '1961-03-14', patientSource: 'O', outpatientId: 'MZ7001', phone: '13800138000' },
      exams: [{ procedureStepId: stepId, scheduledTime: new Date(s.clock.now().getTime() + HOUR).toISOString() }],
    } });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    const examId = (reg.body as Registration).lines[0]!.examId;
    expect((await pageRow(examId))[0]).toMatchObject({ hasImage: false, examStatus: 'Registered' });

    // 2. The console's worklist query finds him, his Chinese name intact.
    const od = mkdtempSync(path.join(dir, 'mwl-'));
    const find = await dcmtk('findscu', ['-W', '-X', '-od', od, '-aet', CONSOLE, '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port),
      '-k', 'PatientName', '-k', 'PatientID=JRN0001', '-k', 'AccessionNumber', '-k', 'StudyInstanceUID',
      '-k', 'ScheduledProcedureStepSequence[0].Modality=CT', '-k', `ScheduledProcedureStepSequence[0].ScheduledStationAETitle=${CONSOLE}`]);
    expect(find.code, find.stdout + find.stderr).toBe(0);
    const answers = readdirSync(od);
    expect(answers).toHaveLength(1);
    const answerFile = path.join(od, answers[0]!);
    const dump = await dcmtk('dcmdump', ['+U8', answerFile]);
    expect(/\(0010,0010\) PN \[([^\]]*)\]/.exec(dump.stdout)?.[1]).toBe('陈建国');
    const answer = dicomParser.parseDicom(readFileSync(answerFile), {});
    const accession = answer.string('x00080050')!;
    const studyUid = answer.string('x0020000d')!;
    expect(accession).toBeTruthy();
    expect(studyUid).toMatch(/^2\.25\.\d+$/);

    // 3. The console starts the step.
    const ppsUid = '2.25.3300001';
    expect(await mpps('create', ppsUid, {
      PerformedProcedureStepStatus: 'IN PROGRESS',
      ScheduledStepAttributesSequence: [{ AccessionNumber: accession, StudyInstanceUID: studyUid }],
    })).toBe(0);
    expect((await pageRow(examId))[0]!.examStatus).toBe('Arrived');

    // 4. It sends its images, made from a sample series by dcmodify: this patient, this accession, this study.
    const files = CT_SERIES.map((f, i) => {
      const to = path.join(dir, `img${i}.dcm`);
      copyFileSync(path.join(SAMPLES_DIR, f), to);
      return to;
    });
    const mod = await dcmtk('dcmodify', ['-nb', '-gin', '-i', '(0008,0005)=ISO_IR 192', '-i', '(0010,0010)=陈建国', '-i', '(0010,0020)=JRN0001',
      '-i', `(0008,0050)=${accession}`, '-i', `(0020,000d)=${studyUid}`, ...files]);
    expect(mod.code, mod.stdout + mod.stderr).toBe(0);
    const store = await dcmtk('storescu', ['-aet', CONSOLE, '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port), ...files]);
    expect(store.code, store.stdout + store.stderr).toBe(0);
    expect(await s.db.db.select().from(dicomInstances).where(eq(dicomInstances.examId, examId))).toHaveLength(files.length);

    // 5. It completes the step.
    expect(await mpps('set', ppsUid, { PerformedProcedureStepStatus: 'COMPLETED' })).toBe(0);

    // 6. The radiologist sees the line Performed, with images, in the worklist page...
    const [row] = await pageRow(examId);
    expect(row).toMatchObject({ examStatus: 'Performed', hasImage: true, patientName: '陈建国', accessionNumber: accession });

    // 7. ...and writes and submits its report.
    const created = await s.request('POST', `exams/${examId}/reports`, { token: await tokenOf(s, 'rad1') });
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
    const report = { id: created.body.id as number };
    const saved = await act(s, 'rad1', report, 'save', { version: created.body.version, finding: FINDING, diagnosis: DIAGNOSIS });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const submitted = await act(s, 'rad1', report, 'submit', { version: saved.body.version });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect((await pageRow(examId))[0]).toMatchObject({ reportStatus: submitted.body.status, reportId: report.id });
  });
});
