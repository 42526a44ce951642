import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { instantOf } from '../../contract/days';
import { readDicomHeader, studyInfoFromHeaders, type DicomHeader } from '../../contract/dicom';
import type { StoredInstance, studyUploadInput } from '../../contract/uploads';
import { recordAudit } from '../audit/record';
import { buckets, exams } from '../db/schema';
import type { Deps } from '../deps';
import { bindStudy, findOrCreateExam, type ExamRow } from '../exams/create';
import { ApiError } from '../http/errors';
import { StorageLimitError } from '../storage/types';
import { completeUpload } from '../uploads/exams';
import { ingestDicom } from '../uploads/ingest';

/**
 * One way in for a DICOM file that arrives from outside the browser: a C-STORE on the DICOM listener
 * (server/dicom/listener.ts) and a STOW-RS part. The file is read, its exam found (a line or exam of the organisation
 * with the same Study Instance UID, or the same accession number; else found or made by its study as the upload's
 * init does), then it goes through the web upload's own ingest (server/uploads/ingest.ts: duplicates by SOP Instance
 * UID, storage, charset decoding, device matching) and completion (hasImage, uploadTime), and is audited.
 */

/** Who sent the file: a DICOM peer over an association, or a STOW-RS request by an account. */
export type ReceiveVia =
  | { kind: 'dimse'; callingAe: string; calledAe?: string; peer?: string; associationId?: number | null }
  | { kind: 'stow'; accountId: number | null };

/**
 * PS3.4 C-STORE statuses (Annex B.2.3); STOW-RS answers the same numbers as Failure Reason (0008,1197) of a Failed
 * SOP Sequence item (PS3.18 Table 10.5.3-1). A duplicate is a success: the instance is there once.
 */
export const STORE_STATUS = {
  success: 0x0000,
  /** Refused: out of resources (a file over the size limit, storage full). */
  outOfResources: 0xa700,
  /** Error: data set does not match SOP class; used for a file of another study than the exam it names. */
  dataSetMismatch: 0xa900,
  /** Error: cannot understand (not DICOM, truncated, no UIDs). */
  cannotUnderstand: 0xc000,
  /** Failure: processing failure (anything else, e.g. the database gone). */
  processingFailure: 0x0110,
} as const;

export type ReceiveFailure = 'outOfResources' | 'studyMismatch' | 'cannotUnderstand' | 'processingFailure';

export type ReceiveResult =
  | {
    ok: true; status: 'stored' | 'duplicate'; examId: number; examCreated: boolean; instance: StoredInstance; warnings: string[];
    /** Always 0x0000. */
    dimseStatus: number;
  }
  | {
    ok: false; failure: ReceiveFailure; message: string;
    /** The C-STORE status and STOW Failure Reason. */
    dimseStatus: number;
    /** The catalogue code of the refusal (contract/errors.ts), as the web upload would answer it. */
    code: string;
    sopInstanceUid: string | null; sopClassUid: string | null; examId: number | null;
  };

type StudyInput = z.output<typeof studyUploadInput>;

const cut = (v: string | null | undefined, max: number) => (v ? v.slice(0, max) : null);

/**
 * The exam the study's files land on: in the organisation, not deleted; one whose study is this one first, then a
 * registry line given this Study Instance UID at registration (the Modality Worklist handed it out), then one (a line
 * or an exam) with the same accession number — the newest — when the file carries one.
 */
async function findExam(deps: Pick<Deps, 'db'>, bucketId: number, h: DicomHeader): Promise<ExamRow | null> {
  const byAccession = h.accessionNumber ? eq(exams.accessionNumber, h.accessionNumber) : sql`false`;
  const [found] = await deps.db.select().from(exams)
    .where(and(eq(exams.bucketId, bucketId), isNull(exams.deletedTime),
      or(eq(exams.storeUid, h.studyInstanceUid), eq(exams.scheduledStudyUid, h.studyInstanceUid), byAccession)))
    .orderBy(sql`(${exams.storeUid} = ${h.studyInstanceUid}) is true desc`, sql`(${exams.scheduledStudyUid} = ${h.studyInstanceUid}) is true desc`,
      sql`(${exams.registrationId} is not null) desc`, desc(exams.id))
    .limit(1);
  return found ?? null;
}

/** A new exam's info from the file alone (nobody corrects it, as the wizard's user would): missing values get stand-ins. */
async function studyInput(deps: Pick<Deps, 'db'>, bucketId: number, h: DicomHeader): Promise<StudyInput> {
  const info = studyInfoFromHeaders([h]);
  const [bucket] = await deps.db.select({ timeZone: buckets.timeZone }).from(buckets).where(eq(buckets.id, bucketId));
  // Study Date/Time are the modality's wall clock: read in the organisation's time zone.
  const examTime = h.studyDate && /^\d{4}-\d{2}-\d{2}$/.test(h.studyDate)
    ? instantOf(h.studyDate, (h.studyTime ?? '00:00').slice(0, 5), bucket?.timeZone ?? 'Asia/Shanghai') : null;
  const modality = (info.modality ?? '').trim().toUpperCase();
  return {
    studyInstanceUid: h.studyInstanceUid,
    patientName: cut(info.patientName?.trim(), 128) || cut(h.patientId?.trim(), 128) || 'ANONYMOUS',
    patientId: cut(info.patientId?.trim(), 64) || 'UNKNOWN',
    patientGender: info.patientGender ?? 'U',
    patientDob: info.patientDob ?? null,
    visitAge: info.visitAge ?? null,
    modality: /^[A-Z0-9]{1,8}$/.test(modality) ? modality : 'OT',
    bodyPart: cut(info.bodyPart, 64),
    studyDescription: cut(info.studyDescription, 256),
    accessionNumber: cut(info.accessionNumber, 64),
    serviceRequestId: null, clinicImpression: null, applyDept: null, patientSource: null, inpatientId: null, bedNum: null,
    outpatientId: null, physicalExamId: null,
    examTime: examTime && !Number.isNaN(examTime.getTime()) ? examTime.toISOString() : null,
  };
}

function failureOf(err: unknown): { failure: ReceiveFailure; code: string; message: string } {
  if (err instanceof ApiError) {
    if (err.code === 'UploadTooLarge') return { failure: 'outOfResources', code: err.code, message: err.message };
    if (err.code === 'StudyMismatch') return { failure: 'studyMismatch', code: err.code, message: err.message };
    if (err.code === 'NotDicom' || err.code === 'InvalidDicom' || err.code === 'ParamsError') return { failure: 'cannotUnderstand', code: err.code, message: err.message };
  }
  if (err instanceof StorageLimitError || (err as { code?: string } | null)?.code === 'ENOSPC') {
    return { failure: 'outOfResources', code: 'UploadTooLarge', message: 'Out of storage' };
  }
  return { failure: 'processingFailure', code: 'OperationFailed', message: err instanceof Error ? err.message : String(err) };
}

const STATUS_OF: Record<ReceiveFailure, number> = {
  outOfResources: STORE_STATUS.outOfResources, studyMismatch: STORE_STATUS.dataSetMismatch,
  cannotUnderstand: STORE_STATUS.cannotUnderstand, processingFailure: STORE_STATUS.processingFailure,
};

const viaForAudit = (via: ReceiveVia) => (via.kind === 'dimse'
  ? { via: 'dimse', callingAe: via.callingAe, ...(via.associationId ? { associationId: via.associationId } : {}) }
  : { via: 'stow' });

/**
 * One file into organisation `bucketId`. Never throws for the file's own faults: the answer says what the peer is
 * told (stored, duplicate, or the failure and its status). A refused file leaves nothing stored.
 */
export async function receiveInstance(deps: Deps, bucketId: number, bytes: Uint8Array, via: ReceiveVia): Promise<ReceiveResult> {
  const read = readDicomHeader(bytes);
  const header = read.ok ? read.header : null;
  let examId: number | null = null;
  const refused = async (err: unknown): Promise<ReceiveResult> => {
    const f = failureOf(err);
    await recordAudit(deps.db, {
      at: deps.clock.now(), actorId: via.kind === 'stow' ? via.accountId : null, bucketId, area: 'dicom', action: 'receive-refused',
      objectType: examId ? 'exam' : 'bucket', objectId: examId ?? bucketId,
      after: { ...viaForAudit(via), sopInstanceUid: header?.sopInstanceUid ?? null, failure: f.failure, code: f.code },
    }).catch(() => undefined);
    return {
      ok: false, ...f, dimseStatus: STATUS_OF[f.failure], sopInstanceUid: header?.sopInstanceUid ?? null, sopClassUid: header?.sopClassUid ?? null, examId,
    };
  };
  if (!read.ok) return refused(new ApiError(read.code, read.message, { reason: read.reason }));
  const h = read.header;
  try {
    let exam = await findExam(deps, bucketId, h);
    let created = false;
    if (exam) {
      // A line found by its accession number takes the study (as an upload code naming it does); bound to another
      // study, it refuses this one.
      exam = await bindStudy(deps, exam, h.studyInstanceUid);
    } else {
      ({ exam, created } = await findOrCreateExam(deps, bucketId, await studyInput(deps, bucketId, h)));
    }
    examId = exam.id;
    const accountId = via.kind === 'stow' ? via.accountId : null;
    const result = await ingestDicom(deps, { bucketId, examId: exam.id, storeUid: exam.storeUid, accountId }, bytes);
    if (result.status === 'stored') {
      await completeUpload(deps, exam);
      await recordAudit(deps.db, {
        at: deps.clock.now(), actorId: accountId, bucketId, area: 'dicom', action: created ? 'receive-new-exam' : 'receive',
        objectType: 'exam', objectId: exam.id,
        after: { ...viaForAudit(via), sopInstanceUid: h.sopInstanceUid, seriesInstanceUid: h.seriesInstanceUid, instanceId: result.instance.id },
      });
    }
    return {
      ok: true, status: result.status, examId: exam.id, examCreated: created, instance: result.instance, warnings: result.warnings,
      dimseStatus: STORE_STATUS.success,
    };
  } catch (err) {
    return refused(err);
  }
}
