import { and, asc, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  auditEvents, consultationExams, consultations, exams, reportOrderTargets, reportOrders, reports,
} from '../../db/schema';
import { recordAudit } from '../../audit/record';
import { syncExams } from '../../reports/examSync';
import { ApiError } from '../../http/errors';

/**
 * Sending a paid application to its expert organisations, and taking the experts' work back when it is refunded
 * (/work/notes/payments.md "Paying … dispatches", "Refund … removeExpertWork"). The expert writes on a copy of the
 * exam in its own organisation, so the report area, the worklist and their permissions need no change: the copy is
 * an ordinary exam of the expert organisation that shares the stored DICOM files (stored files are never deleted by
 * anything, so sharing them is safe).
 */

/** The original exam's flags that a dispatch changes and a removal restores. */
interface ExamFlags {
  teleMedFlag: boolean;
  isRemoteReportRequested: boolean;
  targetBucketId: number | null;
}

const AUDIT_AREA = 'payments';
const OBJECT_TYPE = 'reportOrder';

/** The instance columns copied as they are (the exam and organisation change; the stored file is shared). */
const INSTANCE_COLUMNS = sql.raw(
  'study_instance_uid, series_instance_uid, sop_instance_uid, sop_class_uid, transfer_syntax_uid, modality, series_number, '
  + 'series_description, instance_number, rows, columns, frames, storage_key, size, uploaded_by',
);

/**
 * Makes the copies of a paid application's exam, once per target (a target that already has its copy is left alone,
 * so a repeat changes nothing), and marks the original exam as sent: teleMedFlag (expert) or
 * isRemoteReportRequested (remote), and targetBucketId = the first target, which makes the hospital's own report
 * read-only (core §4: mutable when the upload target is absent or equals the source bucket). The copy carries no
 * report yet (exams.report_* null), so there is nothing to sync. Runs in the paying transaction.
 */
export async function dispatchOrder(tx: Db, orderId: number, now: Date): Promise<void> {
  const [order] = await tx.select().from(reportOrders).where(eq(reportOrders.id, orderId));
  if (!order) throw new ApiError('NotFound');
  const [original] = await tx.select().from(exams).where(eq(exams.id, order.examId)).for('update');
  if (!original) throw new ApiError('NotFound');
  const targets = await tx.select().from(reportOrderTargets).where(eq(reportOrderTargets.orderId, orderId)).orderBy(asc(reportOrderTargets.bucketId));
  const made: { bucketId: number; examId: number }[] = [];
  for (const target of targets) {
    if (target.expertExamId !== null) continue;
    const { id: _id, created: _created, ...fields } = original;
    const [copy] = await tx.insert(exams).values({
      ...fields,
      bucketId: target.bucketId,
      targetBucketId: target.bucketId,
      teleMedFlag: true,
      isRemoteReportRequested: false,
      orderId: order.requestNo,
      // The copy starts as a fresh worklist row of the expert organisation: nobody assigned, no report, not a
      // registry line (those belong to the hospital), nothing deleted.
      assigneeId: null, reportId: null, reportStatus: null, reportCreatorId: null, reportType: 'report',
      registrationId: null, procedureStepId: null, matchedScheduleId: null, prevExamStatus: null, prevArrivedTime: null,
      aiStatus: null, deletedTime: null, created: now,
    }).returning({ id: exams.id });
    await tx.execute(sql`insert into dicom_instances (exam_id, bucket_id, ${INSTANCE_COLUMNS})
      select ${copy.id}, ${target.bucketId}, ${INSTANCE_COLUMNS} from dicom_instances where exam_id = ${original.id} order by id`);
    await tx.update(reportOrderTargets).set({ expertExamId: copy.id })
      .where(and(eq(reportOrderTargets.orderId, orderId), eq(reportOrderTargets.bucketId, target.bucketId)));
    made.push({ bucketId: target.bucketId, examId: copy.id });
  }
  if (made.length === 0) return;
  const before: ExamFlags = { teleMedFlag: original.teleMedFlag, isRemoteReportRequested: original.isRemoteReportRequested, targetBucketId: original.targetBucketId };
  const after: ExamFlags = {
    teleMedFlag: original.teleMedFlag || order.type === 'expert',
    isRemoteReportRequested: original.isRemoteReportRequested || order.type === 'remote',
    targetBucketId: original.targetBucketId ?? targets[0].bucketId,
  };
  await tx.update(exams).set(after).where(eq(exams.id, original.id));
  // `before` is what removeExpertWork restores once no application of the exam is dispatched any more.
  await recordAudit(tx, {
    at: now, actorId: null, bucketId: order.fromBucketId, area: AUDIT_AREA, action: 'dispatch', objectType: OBJECT_TYPE, objectId: orderId,
    before: { examId: original.id, ...before }, after: { examId: original.id, ...after, copies: made },
  });
}

/**
 * Takes back everything the experts did for an application (a refund: "deletes the report and related data"): the
 * copies' reports with every row hanging off them (traces, quality, key images, attachments, shares, publications,
 * upload codes: ON DELETE CASCADE), consultations opened on a copy, then the copy exams (their dicom_instances rows,
 * packages, film shares and queue entries cascade). The stored files stay: the original exam still uses them. The
 * original exam's flags go back to what they were before its first dispatch, unless another application of the exam
 * is still dispatched. The audit trail is history and stays. Runs in the refunding (or withdrawing) transaction.
 */
export async function removeExpertWork(tx: Db, orderId: number): Promise<void> {
  const [order] = await tx.select().from(reportOrders).where(eq(reportOrders.id, orderId));
  if (!order) throw new ApiError('NotFound');
  const copyRows = await tx.select({ examId: reportOrderTargets.expertExamId }).from(reportOrderTargets)
    .where(and(eq(reportOrderTargets.orderId, orderId), isNotNull(reportOrderTargets.expertExamId)));
  const copyIds = copyRows.map((r) => r.examId).filter((id): id is number => id !== null).sort((a, b) => a - b);
  if (copyIds.length > 0) {
    await tx.select({ id: exams.id }).from(exams).where(inArray(exams.id, copyIds)).orderBy(asc(exams.id)).for('update');
    const reportRows = await tx.select({ id: reports.id, jointExamIds: reports.jointExamIds }).from(reports).where(inArray(reports.examId, copyIds));
    const reportIds = reportRows.map((r) => r.id);
    // Consultations about a copy or its report (their own children cascade), and a copy listed in another one.
    await tx.delete(consultations).where(reportIds.length > 0
      ? or(inArray(consultations.examId, copyIds), inArray(consultations.reportId, reportIds))
      : inArray(consultations.examId, copyIds));
    await tx.delete(consultationExams).where(inArray(consultationExams.examId, copyIds));
    // A report of another exam that also covered a copy (core §5 joint exams) forgets it.
    for (const copyId of copyIds) {
      await tx.execute(sql`update ${reports} set joint_exam_ids = (select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(joint_exam_ids) e where e <> to_jsonb(${copyId}::int))
        where joint_exam_ids @> ${JSON.stringify([copyId])}::jsonb and exam_id <> all(${sql.raw(`array[${copyIds.join(',')}]::int[]`)})`);
    }
    if (reportIds.length > 0) await tx.delete(reports).where(inArray(reports.id, reportIds));
    // Exams a deleted report covered jointly show their own current report again.
    const others = [...new Set(reportRows.flatMap((r) => r.jointExamIds))].filter((id) => !copyIds.includes(id));
    await tx.update(reportOrderTargets).set({ expertExamId: null }).where(eq(reportOrderTargets.orderId, orderId));
    await tx.delete(exams).where(inArray(exams.id, copyIds));
    if (others.length > 0) await syncExams(tx, others);
  }
  await restoreOriginalFlags(tx, order.examId, orderId);
}

/** The original exam's flags once `orderId` no longer counts: as before the first dispatch, plus what other live applications need. */
async function restoreOriginalFlags(tx: Db, examId: number, orderId: number): Promise<void> {
  const others = await tx.select({ id: reportOrders.id, type: reportOrders.type, bucketId: reportOrderTargets.bucketId })
    .from(reportOrders).innerJoin(reportOrderTargets, eq(reportOrderTargets.orderId, reportOrders.id))
    .where(and(eq(reportOrders.examId, examId), ne(reportOrders.id, orderId), isNotNull(reportOrderTargets.expertExamId)))
    .orderBy(asc(reportOrders.id), asc(reportOrderTargets.bucketId));
  const orderIds = await tx.select({ id: reportOrders.id }).from(reportOrders).where(eq(reportOrders.examId, examId));
  const [first] = await tx.select({ before: auditEvents.before }).from(auditEvents)
    .where(and(eq(auditEvents.objectType, OBJECT_TYPE), eq(auditEvents.action, 'dispatch'), inArray(auditEvents.objectId, orderIds.map((o) => String(o.id)))))
    .orderBy(asc(auditEvents.id)).limit(1);
  const base = flagsOf(first?.before ?? null);
  const flags: ExamFlags = {
    teleMedFlag: base.teleMedFlag || others.some((o) => o.type === 'expert'),
    isRemoteReportRequested: base.isRemoteReportRequested || others.some((o) => o.type === 'remote'),
    targetBucketId: base.targetBucketId ?? others[0]?.bucketId ?? null,
  };
  await tx.update(exams).set(flags).where(eq(exams.id, examId));
}

function flagsOf(before: unknown): ExamFlags {
  const b = (before ?? {}) as Record<string, unknown>;
  return {
    teleMedFlag: b.teleMedFlag === true,
    isRemoteReportRequested: b.isRemoteReportRequested === true,
    targetBucketId: typeof b.targetBucketId === 'number' ? b.targetBucketId : null,
  };
}
