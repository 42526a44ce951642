import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Registration, RegistryRow } from '../../contract/registry';
import type { Access } from '../access/access';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { registryDesk } from './access';
import { loadRegistration, patientColumnsOf } from './lines';
import { liveLine, presentLine, selectLines } from './present';
import { checkLines, type LineInput } from './rules';
import { register } from './write';

/**
 * GET and POST exams/{id}/schedules: the exam's patient, in the exam's organisation (a registry desk): the lines still
 * to come (not Performed, not Cancelled), and booking more — the registration path of POST registry, with the patient
 * copied from the exam.
 */
async function examOf(db: Db, id: number) {
  const [exam] = await db.select().from(exams).where(and(eq(exams.id, id), isNull(exams.deletedTime)));
  if (!exam) throw new ApiError('NotFound');
  return exam;
}

export async function openSchedules(deps: Deps, access: Access, examId: number): Promise<RegistryRow[]> {
  const exam = await examOf(deps.db, examId);
  const desk = await registryDesk(deps.db, access, exam.bucketId);
  const rows = await selectLines(deps.db).where(and(eq(exams.bucketId, exam.bucketId), eq(exams.patientId, exam.patientId), liveLine,
    inArray(exams.examStatus, ['Registered', 'Scheduled', 'Arrived']))).orderBy(asc(exams.scheduledTime), asc(exams.id));
  return rows.map((r) => presentLine(r, desk.rights));
}

export async function scheduleForExam(deps: Deps, access: Access, examId: number, input: readonly LineInput[]): Promise<Registration> {
  const exam = await examOf(deps.db, examId);
  const desk = await registryDesk(deps.db, access, exam.bucketId, 'registry_create');
  const now = deps.clock.now();
  const lines = await checkLines(deps.db, desk, input, now);
  const id = await register(deps, access, desk, { lines, now, orderId: null, patientOf: () => patientColumnsOf(exam), fromExamId: exam.id });
  return loadRegistration(deps.db, id, desk.rights);
}
