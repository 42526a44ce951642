import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { JointExamCandidate } from '../../contract/reports';
import type { Db } from '../db/client';
import { withFastRows } from '../db/fastRows';
import { preparedOnce } from '../db/preparedOnce';
import { exams } from '../db/schema';
import { ApiError } from '../http/errors';
import type { ReportRow } from './load';

/** Exams taken within this many hours of each other belong to one visit. */
const VISIT_HOURS = 12;

/**
 * Core §5 joint exams: other exams of the same patient, organisation and modality from the same visit
 * that no written report covers yet. One report may cover them all; the writer confirms or discards each.
 */
export async function jointCandidates(tx: Db, examId: number): Promise<JointExamCandidate[]> {
  const rows = await preparedOnce(tx, 'report_joint_candidates', prepareCandidates).execute({ exam: examId });
  return rows.map((r) => ({ ...r, examTime: r.examTime.toISOString() }));
}

function prepareCandidates(tx: Db) {
  // One statement (it was the exam, then its candidates): the exam joins as `self`. A blank patient id (what JS's
  // trim() would empty) has no candidates: an unknown patient is nobody's visit.
  const self = alias(exams, 'self');
  const examId = sql.placeholder('exam');
  return withFastRows(tx.select({
    id: exams.id, modality: exams.modality, bodyPart: exams.bodyPart, studyDescription: exams.studyDescription,
    accessionNumber: exams.accessionNumber, examTime: exams.examTime,
  }).from(exams).innerJoin(self, eq(self.id, examId)).where(and(
    eq(exams.bucketId, self.bucketId),
    eq(exams.patientId, self.patientId),
    eq(exams.modality, self.modality),
    ne(exams.id, examId),
    isNull(exams.deletedTime),
    sql`${self.patientId} !~ ${BLANK}`,
    sql`abs(extract(epoch from (${exams.examTime} - ${self.examTime}))) < ${VISIT_HOURS * 3600}`,
    sql`not exists (select 1 from reports r where r.deleted_time is null and r.status <> 'none'
      and (r.exam_id = ${exams.id} or r.joint_exam_ids @> jsonb_build_array(${exams.id})))`,
  )).orderBy(asc(exams.examTime), asc(exams.id)).limit(20).prepare('report_joint_candidates'));
}

/** Only the white space of JavaScript's String.prototype.trim, as a PostgreSQL regular expression. */
const BLANK = '^[ \\t\\n\\v\\f\\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$';

export interface JointDecision {
  jointExamIds: number[];
  jointDiscardedIds: number[];
}

/**
 * The joint exams after a submit: every candidate not decided before must be confirmed or discarded in
 * this request, else 409 JointExamsPending lists them (the client asks the user and submits again).
 */
export async function decideJointExams(
  tx: Db, row: ReportRow, decision: { confirm: number[]; discard: number[] } | undefined,
): Promise<JointDecision> {
  const candidates = await jointCandidates(tx, row.examId);
  const known = new Set([...row.jointExamIds, ...row.jointDiscardedIds]);
  const open = candidates.filter((c) => !known.has(c.id));
  const confirm = new Set(decision?.confirm ?? []);
  const discard = new Set(decision?.discard ?? []);
  const candidateIds = new Set(candidates.map((c) => c.id));
  const stray = [...confirm, ...discard].filter((id) => !candidateIds.has(id) && !known.has(id));
  const both = [...confirm].filter((id) => discard.has(id));
  if (stray.length > 0 || both.length > 0) {
    throw new ApiError('ParamsError', undefined, { fields: [{ path: 'jointExams', message: 'not a joint exam of this report, or both confirmed and discarded' }] });
  }
  const undecided = open.filter((c) => !confirm.has(c.id) && !discard.has(c.id));
  if (undecided.length > 0) throw new ApiError('JointExamsPending', undefined, { exams: undecided });
  const jointExamIds = [...new Set([...row.jointExamIds.filter((id) => !discard.has(id)), ...confirm])].sort((a, b) => a - b);
  const jointDiscardedIds = [...new Set([...row.jointDiscardedIds.filter((id) => !confirm.has(id)), ...discard])].sort((a, b) => a - b);
  return { jointExamIds, jointDiscardedIds };
}
