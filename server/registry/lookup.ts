import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PatientRecord, patientLookupInput, MatchDob } from '../../contract/registry';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import { containsPattern } from '../http/pageQuery';
import type { RegistryDesk } from './access';

/**
 * Earlier records of a person as the registrar types (name from its start, patient id, phone), one per patient id
 * with the latest details, and — once a date of birth is typed — the group's matchDob rule (areas §3): disabled
 * ignores it, shift_off wants the same date, shift_on a date within one year.
 */
const YEAR_MS = 366 * 86_400_000;

export function dobMatches(rule: MatchDob, typed: string | null | undefined, stored: string | null): boolean {
  if (!typed || rule === 'disabled') return true;
  if (!stored) return rule === 'shift_on';
  if (rule === 'shift_off') return stored === typed;
  const a = Date.parse(`${typed}T00:00:00Z`);
  const b = Date.parse(`${stored}T00:00:00Z`);
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= YEAR_MS;
}

export async function lookupPatients(db: Db, desk: RegistryDesk, input: z.output<typeof patientLookupInput>): Promise<PatientRecord[]> {
  const q = input.q.trim();
  const start = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.select().from(exams).where(and(
    eq(exams.bucketId, desk.bucketId), isNull(exams.deletedTime),
    or(sql`${exams.patientName} ilike ${start}`, eq(exams.patientId, q), sql`${exams.patientPhone} like ${containsPattern(q)}`),
  )).orderBy(desc(exams.created), desc(exams.id)).limit(200);
  const byPatient = new Map<string, { latest: typeof rows[number]; count: number; last: Date }>();
  for (const row of rows) {
    if (!dobMatches(desk.matchDob, input.patientDob, row.patientDob)) continue;
    const seen = byPatient.get(row.patientId);
    if (seen) {
      seen.count += 1;
      if (row.examTime > seen.last) seen.last = row.examTime;
    } else byPatient.set(row.patientId, { latest: row, count: 1, last: row.examTime });
  }
  return [...byPatient.values()].slice(0, input.limit).map(({ latest: e, count, last }) => ({
    patientName: e.patientName, patientId: e.patientId, patientGender: e.patientGender, patientDob: e.patientDob, phone: e.patientPhone,
    patientSource: e.patientSource, inpatientId: e.inpatientId, bedNum: e.bedNum, outpatientId: e.outpatientId, physicalExamId: e.physicalExamId,
    lastExamTime: last.toISOString(), exams: count,
  }));
}
