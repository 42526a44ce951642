import { and, eq, or } from 'drizzle-orm';
import type { RegistrationEvent } from '../../machines/registration';
import { recordAudit } from '../audit/record';
import { notifyInTransaction } from '../calling/hub';
import { dicomMpps, exams } from '../db/schema';
import type { Deps } from '../deps';
import { liveLine } from '../registry/present';
import { deviceEvent } from '../registry/status';

/**
 * Modality Performed Procedure Step (PS3.4 F.7, 1.2.840.10008.3.1.2.3.3): the modality says it began (N-CREATE, IN
 * PROGRESS), finished (N-SET, COMPLETED) or gave up (N-SET, DISCONTINUED) a registry line's exam. Each drives the
 * registration machine like the desk's actions: IN PROGRESS checks the patient in (Registered/Scheduled → Arrived),
 * COMPLETED performs the line (Arrived → Performed, or a line nobody checked in is matched to Performed), DISCONTINUED
 * cancels it with that reason. A transition the machine refuses is answered 0110 and traced; an unknown accession
 * number 0106; an unknown MPPS instance 0112; a second N-CREATE of one instance 0111.
 */
export interface MppsAnswer { status: number; comment?: string }

const STATUS = { success: 0, invalidAttribute: 0x0106, processingFailure: 0x0110, duplicate: 0x0111, noSuchInstance: 0x0112, missingAttribute: 0x0120 } as const;

type Naturalized = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : Array.isArray(v) ? text(v[0]) : '');

function stepKeys(attrs: Naturalized): { accession: string; studyUid: string } {
  const steps = attrs.ScheduledStepAttributesSequence;
  const step = (Array.isArray(steps) && steps[0] && typeof steps[0] === 'object' ? steps[0] : {}) as Naturalized;
  return { accession: text(step.AccessionNumber) || text(attrs.AccessionNumber), studyUid: text(step.StudyInstanceUID) };
}

/** Images the Performed Series Sequence references (each series' Referenced Image Sequence); null when it names none. */
export function imagesOf(attrs: Naturalized): number | null {
  const series = attrs.PerformedSeriesSequence;
  if (!Array.isArray(series) || series.length === 0) return null;
  let n = 0;
  for (const item of series) {
    const refs = item && typeof item === 'object' ? (item as Naturalized).ReferencedImageSequence : undefined;
    if (Array.isArray(refs)) n += refs.length;
  }
  return n;
}

function eventOf(status: string, now: Date, lineStatus: string | null): RegistrationEvent | null {
  if (status === 'IN PROGRESS') return lineStatus === 'Arrived' ? null : { type: 'check-in', now: now.getTime(), needsImages: true };
  if (status === 'COMPLETED') return lineStatus === 'Arrived' ? { type: 'perform', now: now.getTime() } : { type: 'match', now: now.getTime() };
  return { type: 'cancel', reason: 'MPPS DISCONTINUED' };
}

export async function applyMpps(deps: Deps, req: { op: 'create' | 'set'; bucketId: number; callingAe: string; sopInstanceUid: string; attributes: Naturalized }): Promise<MppsAnswer> {
  const { db } = deps;
  const now = deps.clock.now();
  const status = text(req.attributes.PerformedProcedureStepStatus).toUpperCase();
  if (status && !['IN PROGRESS', 'COMPLETED', 'DISCONTINUED'].includes(status)) return { status: STATUS.invalidAttribute, comment: `Unknown status ${status}` };
  const source = { via: 'mpps', callingAe: req.callingAe, mpps: req.sopInstanceUid, mppsStatus: status || null };

  let examId: number;
  if (req.op === 'create') {
    if (!req.sopInstanceUid) return { status: STATUS.missingAttribute, comment: 'No Affected SOP Instance UID' };
    if (status !== 'IN PROGRESS') return { status: STATUS.invalidAttribute, comment: 'N-CREATE must be IN PROGRESS' };
    const [dup] = await db.select().from(dicomMpps).where(eq(dicomMpps.sopInstanceUid, req.sopInstanceUid));
    if (dup) return { status: STATUS.duplicate };
    const { accession, studyUid } = stepKeys(req.attributes);
    const match = [accession ? eq(exams.accessionNumber, accession) : undefined, studyUid ? eq(exams.scheduledStudyUid, studyUid) : undefined].filter((c) => c !== undefined);
    const [line] = match.length === 0 ? [] : await db.select({ id: exams.id }).from(exams).where(and(eq(exams.bucketId, req.bucketId), liveLine, or(...match))).limit(1);
    if (!line) {
      await recordAudit(db, { at: now, actorId: null, bucketId: req.bucketId, area: 'dicom', action: 'mpps-refused', objectType: 'mpps', objectId: req.sopInstanceUid.slice(0, 64), after: { ...source, accession, reason: 'unknown accession number' } });
      return { status: STATUS.invalidAttribute, comment: 'Unknown accession number' };
    }
    examId = line.id;
  } else {
    const [row] = await db.select().from(dicomMpps).where(and(eq(dicomMpps.sopInstanceUid, req.sopInstanceUid), eq(dicomMpps.bucketId, req.bucketId)));
    if (!row) return { status: STATUS.noSuchInstance };
    if (row.status !== 'IN PROGRESS') return { status: STATUS.processingFailure, comment: `The step is ${row.status} already` };
    examId = row.examId;
    if (!status || status === 'IN PROGRESS') {
      const images = imagesOf(req.attributes);
      await db.update(dicomMpps).set({ updated: now, ...(images === null ? {} : { images }) }).where(eq(dicomMpps.sopInstanceUid, req.sopInstanceUid));
      await notifyInTransaction(db, req.bucketId);
      return { status: STATUS.success };
    }
  }

  const [line] = await db.select({ status: exams.examStatus }).from(exams).where(eq(exams.id, examId));
  const event = eventOf(status, now, line?.status ?? null);
  if (event) {
    const moved = await deviceEvent(deps, examId, req.bucketId, event, source);
    if (!moved.ok) return { status: STATUS.processingFailure, comment: `The line is ${moved.status ?? 'gone'}: ${event.type} refused` };
  }
  const images = imagesOf(req.attributes);
  if (req.op === 'create') {
    const stationAe = text(req.attributes.PerformedStationAETitle) || req.callingAe;
    await db.insert(dicomMpps).values({
      sopInstanceUid: req.sopInstanceUid, bucketId: req.bucketId, examId, status, callingAe: req.callingAe.slice(0, 16), stationAe: stationAe.slice(0, 16), images, created: now, updated: now,
    });
  } else {
    await db.update(dicomMpps).set({ status, updated: now, ...(images === null ? {} : { images }) }).where(eq(dicomMpps.sopInstanceUid, req.sopInstanceUid));
  }
  // The call queue's desks poll, and its screens listen: the step's new state reaches both (the registry desk polls).
  await notifyInTransaction(db, req.bucketId);
  return { status: STATUS.success };
}
