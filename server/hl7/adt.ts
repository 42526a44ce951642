import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import { exams } from '../db/schema';
import type { Deps } from '../deps';
import { registryDesk } from '../registry/access';
import { bumpVersion } from '../registry/lines';
import { visitAge } from '../registry/rules';
import { appError, reject } from './ack';
import type { Applied } from './inboundTypes';
import { read, type Hl7Message } from './message';
import { demographicsOf, patientIdOf, pidOf } from './patient';

/**
 * ADT^A08 (update patient information): the name, sex and birth date on the organisation's open lines of that patient
 * (Registered, Scheduled, Arrived) — a finished exam keeps the patient as it was examined. A patient with no open
 * line here is not an error (the HIS sends A08 for everyone): AA, nothing changed.
 * ADT^A40 (merge patient, MRG-1 prior id → PID-3 id): every line of the prior id in the organisation takes the new id
 * and PID's demographics. Both lock and bump the registrations they touch (the desk's stale-version check) and leave
 * an audit trail as the acting account.
 */
const OPEN = ['Registered', 'Scheduled', 'Arrived'];

export async function applyAdt(deps: Deps, access: Access, bucketId: number, msg: Hl7Message, event: 'A08' | 'A40'): Promise<Applied> {
  const desk = await registryDesk(deps.db, access, bucketId, 'registry_update');
  const pid = pidOf(msg);
  const patientId = patientIdOf(msg, pid);
  const demo = demographicsOf(msg, pid);
  const now = deps.clock.now();
  let priorId: string | null = null;
  if (event === 'A40') {
    const mrg = msg.getSegment('MRG');
    if (!mrg) throw reject('Hl7MissingSegment', '100', 'ADT^A40 has no MRG segment', 'MRG');
    priorId = read(msg, mrg, 1, 1).trim();
    if (!priorId) throw reject('Hl7MissingField', '101', 'MRG-1 (prior patient identifier) is empty', 'MRG^1^1');
  }
  const whose = priorId ?? patientId;
  const where = and(eq(exams.bucketId, bucketId), eq(exams.patientId, whose), isNull(exams.deletedTime),
    ...(event === 'A08' ? [inArray(exams.examStatus, OPEN)] : []));
  const changed = await deps.db.transaction(async (tx) => {
    const rows = await tx.select({ id: exams.id, registrationId: exams.registrationId, patientName: exams.patientName, patientDob: exams.patientDob })
      .from(exams).where(where).for('update');
    if (rows.length === 0) return rows;
    const age = visitAge({ ...demo, patientSource: 'O', ageUnit: 'Y', age: null } as Parameters<typeof visitAge>[0], now, desk.timeZone);
    await tx.update(exams).set({
      ...demo, ...(demo.patientDob ? { visitAge: age } : {}), ...(priorId ? { patientId, patientKeyId: patientId } : {}),
    }).where(inArray(exams.id, rows.map((r) => r.id)));
    for (const regId of new Set(rows.map((r) => r.registrationId).filter((id): id is number => id !== null))) await bumpVersion(tx, regId);
    await recordAudit(tx, {
      at: now, actorId: access.accountId, bucketId, area: 'hl7', action: event === 'A08' ? 'patient-update' : 'patient-merge',
      objectType: 'patient', objectId: patientId,
      before: { patientId: whose, patientName: rows[0]!.patientName, patientDob: rows[0]!.patientDob },
      after: { patientId, ...demo, examIds: rows.map((r) => r.id) },
    });
    return rows;
  });
  if (event === 'A40' && changed.length === 0) throw appError('Hl7UnknownPatient', '204', `no exam of the organisation has the prior patient id ${priorId}`, 'MRG^1^1');
  return { patientId, note: `${changed.length} line(s) ${event === 'A08' ? 'updated' : 'merged'}` };
}
