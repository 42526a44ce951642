import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { isReportable } from '../../../contract/reportable';
import {
  SERVICE_TERMS_VERSION, type ExpertProduct, type ExpertProducts, type ReportRequestType,
} from '../../../contract/payments';
import { submitRefusal } from '../../../machines/expertRequestTransitions';
import { assertCan, type Access } from '../../access/access';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/client';
import { buckets, expertProducts, exams, groupExpertBuckets, groups, reportOrderTargets, reportOrders } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { payOrder } from '../money/settle';
import { applyActionOf } from './load';

/** Applying for an expert or remote report (areas §5 "Expert application", §4 / core §4 remote report). */

const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export type ExamRow = typeof exams.$inferSelect;

/** The exam an application is about, for `access` with the applying action of `type` (404 outside, 403 without). */
export async function examForApplying(db: Db, access: Access, examId: number, type: ReportRequestType, opts: { lock?: boolean } = {}): Promise<{ exam: ExamRow; groupId: number }> {
  const query = db.select().from(exams).where(and(eq(exams.id, examId), isNull(exams.deletedTime)));
  const [exam] = opts.lock ? await query.for('update') : await query;
  if (!exam) throw new ApiError('NotFound');
  assertCan(access, applyActionOf(type), exam.bucketId);
  const [bucket] = await db.select({ groupId: buckets.groupId }).from(buckets).where(eq(buckets.id, exam.bucketId));
  if (!bucket) throw new ApiError('NotFound');
  return { exam, groupId: bucket.groupId };
}

/** Writing has begun on the exam (core §4): its current report is beyond the empty shell (or someone holds its lock). */
export const writingBegun = (exam: Pick<ExamRow, 'reportStatus'>): boolean => exam.reportStatus !== null && exam.reportStatus !== 'none';

/** The live remote request of an exam (the unique index's rule: every one not withdrawn), or null. */
export async function liveRemoteOrderId(db: Db, examId: number): Promise<number | null> {
  const [row] = await db.select({ id: reportOrders.id }).from(reportOrders)
    .where(and(eq(reportOrders.examId, examId), eq(reportOrders.type, 'remote'), ne(reportOrders.progress, 'withdrawn')))
    .orderBy(desc(reportOrders.id)).limit(1);
  return row?.id ?? null;
}

/**
 * The open expert requests of an exam by target organisation (not withdrawn, not refunded: queued, reporting, reported
 * or awaiting payment): the organisations a new expert request may not ask again (no double billing).
 */
export async function openExpertOrders(db: Db, examId: number): Promise<Map<number, number>> {
  const rows = await db.select({ bucketId: reportOrderTargets.bucketId, orderId: reportOrders.id }).from(reportOrders)
    .innerJoin(reportOrderTargets, eq(reportOrderTargets.orderId, reportOrders.id))
    .where(and(eq(reportOrders.examId, examId), eq(reportOrders.type, 'expert'), ne(reportOrders.progress, 'withdrawn'), ne(reportOrders.paymentStatus, 3)))
    .orderBy(desc(reportOrders.id));
  const out = new Map<number, number>();
  for (const r of rows) if (!out.has(r.bucketId)) out.set(r.bucketId, r.orderId);
  return out;
}

/** A copy made for an application is the expert's work, not an exam to send on (removing it would lose the new one). */
async function isExpertCopy(db: Db, examId: number): Promise<boolean> {
  const [row] = await db.select({ orderId: reportOrderTargets.orderId }).from(reportOrderTargets).where(eq(reportOrderTargets.expertExamId, examId)).limit(1);
  return row !== undefined;
}

/**
 * The organisations of the group that may receive the exam, each with its price for the exam's modality (its own
 * product, else its default, else it sells nothing: `product` null). A free one costs nothing with or without a
 * product. The exam's own organisation is not offered to itself.
 */
async function offeredTargets(db: Db, groupId: number, exam: ExamRow, only?: readonly number[]): Promise<(Omit<ExpertProduct, 'openOrderId'> & { sells: boolean })[]> {
  const rows = await db.select({ bucketId: groupExpertBuckets.bucketId, free: groupExpertBuckets.free, name: buckets.name }).from(groupExpertBuckets)
    .innerJoin(buckets, eq(buckets.id, groupExpertBuckets.bucketId))
    .where(and(eq(groupExpertBuckets.groupId, groupId), ne(groupExpertBuckets.bucketId, exam.bucketId), only ? inArray(groupExpertBuckets.bucketId, [...only]) : undefined))
    .orderBy(groupExpertBuckets.bucketId);
  if (rows.length === 0) return [];
  const products = await db.select().from(expertProducts).where(and(
    inArray(expertProducts.bucketId, rows.map((r) => r.bucketId)),
    sql`(${expertProducts.modality} is null or ${expertProducts.modality} = ${exam.modality})`,
  ));
  return rows.map((r) => {
    const own = products.find((p) => p.bucketId === r.bucketId && p.modality === exam.modality) ?? products.find((p) => p.bucketId === r.bucketId && p.modality === null);
    return {
      bucketId: r.bucketId, bucketName: r.name, free: r.free, productName: own?.name ?? r.name,
      priceFen: r.free ? 0 : own?.priceFen ?? 0, sells: r.free || own !== undefined,
    };
  });
}

/** GET report-requests/products?examId&type */
export async function productsOf(db: Db, access: Access, examId: number, type: ReportRequestType): Promise<ExpertProducts> {
  const { exam, groupId } = await examForApplying(db, access, examId, type);
  const [group] = await db.select({ defaultBucketId: groups.defaultExpertBucketId }).from(groups).where(eq(groups.id, groupId));
  const defaultBucketId = group?.defaultBucketId ?? null;
  const offered = await offeredTargets(db, groupId, exam);
  const open = type === 'expert' ? await openExpertOrders(db, exam.id) : new Map<number, number>();
  const products = offered.filter((p) => p.sells && (type === 'expert' || p.bucketId === defaultBucketId))
    .map(({ sells: _sells, ...p }) => ({ ...p, openOrderId: open.get(p.bucketId) ?? null }));
  const remoteId = await liveRemoteOrderId(db, exam.id);
  const [existing] = type === 'remote' ? [] : await db.select({ id: reportOrders.id }).from(reportOrders)
    .where(and(eq(reportOrders.examId, exam.id), eq(reportOrders.type, 'expert'), ne(reportOrders.progress, 'withdrawn'), ne(reportOrders.paymentStatus, 3)))
    .orderBy(desc(reportOrders.id)).limit(1);
  let blockedBy: ExpertProducts['blockedBy'] = null;
  if (!isReportable(exam)) blockedBy = 'ExamNotReportable';
  else if (type === 'remote' && remoteId !== null) blockedBy = 'RemoteReportRequested';
  else if (type === 'remote' && writingBegun(exam)) blockedBy = 'ReportWritingBegun';
  return {
    examId: exam.id, type, products, defaultBucketId, termsVersion: SERVICE_TERMS_VERSION,
    existingOrderId: type === 'remote' ? remoteId : existing?.id ?? null, blockedBy,
  };
}

export interface ApplyRequest {
  examId: number;
  type: ReportRequestType;
  bucketIds: readonly number[];
  agreeTerms: boolean;
  reason?: string;
  email?: string;
  mobile?: string;
}

/** 'R' + yyyymmdd in the server's time zone + the id zero-padded to 6 (the design's request number). */
export function requestNoOf(id: number, at: Date, timeZone = SERVER_TIME_ZONE): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at).replaceAll('-', '');
  return `R${day}${String(id).padStart(6, '0')}`;
}

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * POST report-requests/apply and apply-remote-report: the application in one transaction (the exam locked, so two
 * applications of one exam are decided one after the other), refused by the request machine's rules; an all-free one is
 * paid at once (channel 'free') and so dispatched. Returns the new application's id.
 */
export async function applyForReport(deps: Deps, access: Access, input: ApplyRequest): Promise<number> {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const { exam, groupId } = await examForApplying(tx, access, input.examId, input.type, { lock: true });
      if (await isExpertCopy(tx, exam.id)) throw new ApiError('OrderInvalid', 'This exam is an expert copy of another application');
      const [group] = await tx.select({ defaultBucketId: groups.defaultExpertBucketId }).from(groups).where(eq(groups.id, groupId));
      const wanted = input.type === 'remote'
        ? (group?.defaultBucketId ? [group.defaultBucketId] : [])
        : [...new Set(input.bucketIds)];
      const offered = wanted.length === 0 ? [] : await offeredTargets(tx, groupId, exam, wanted);
      // The exam row is locked, so two applications of it are decided one after the other and see each other's rows.
      const open = input.type === 'expert' ? await openExpertOrders(tx, exam.id) : new Map<number, number>();
      const refusal = submitRefusal({
        type: input.type,
        targets: offered.map((t) => ({ bucketId: t.bucketId, free: t.free })),
        targetsValid: offered.length === wanted.length,
        termsAgreed: input.agreeTerms,
        examWritingBegun: writingBegun(exam),
        remoteRequested: input.type === 'remote' && (await liveRemoteOrderId(tx, exam.id)) !== null,
        copiesWritten: false,
        examReportable: isReportable(exam),
        openTargets: [...open.keys()],
      });
      if (refusal === 'ExpertTargetInvalid') {
        throw new ApiError('ExpertTargetInvalid', input.type === 'remote' ? 'The group has no default expert organisation' : undefined, { bucketIds: wanted.filter((b) => !offered.some((o) => o.bucketId === b)) });
      }
      if (refusal === 'ExpertRequestOpen') {
        const again = offered.filter((t) => open.has(t.bucketId)).map((t) => t.bucketId);
        throw new ApiError('ExpertRequestOpen', undefined, { orderId: open.get(again[0]!), bucketIds: again });
      }
      if (refusal) throw new ApiError(refusal);
      const silent = offered.filter((t) => !t.sells);
      if (silent.length > 0) throw new ApiError('OrderInvalid', 'An organisation sells no report for this modality', { bucketIds: silent.map((t) => t.bucketId) });
      const amountFen = offered.reduce((sum, t) => sum + t.priceFen, 0);
      const next = await tx.execute(sql`select nextval(pg_get_serial_sequence('report_orders', 'id')) as id`);
      // Both drivers answer { rows }; drizzle's PgDatabase type does not say so.
      const id = Number((next as unknown as { rows: { id: string | number }[] }).rows[0]!.id);
      const requestNo = requestNoOf(id, now);
      await tx.insert(reportOrders).values({
        id, requestNo, type: input.type, examId: exam.id, fromBucketId: exam.bucketId, groupId, applicantId: access.accountId,
        patientName: exam.patientName, patientGender: exam.patientGender, patientAge: exam.visitAge,
        email: input.email || null, mobile: input.mobile || null, reason: input.reason || null, amountFen, created: now, updated: now,
      });
      await tx.insert(reportOrderTargets).values(offered.map((t) => ({ orderId: id, bucketId: t.bucketId, free: t.free, priceFen: t.priceFen })));
      await recordAudit(tx, {
        at: now, actorId: access.accountId, bucketId: exam.bucketId, area: 'payments', action: 'apply', objectType: 'reportOrder', objectId: id,
        after: { requestNo, type: input.type, examId: exam.id, bucketIds: offered.map((t) => t.bucketId), amountFen, termsVersion: SERVICE_TERMS_VERSION },
      });
      // Areas §3 "expert buckets with a free flag": nothing to pay, so it is paid (and sent) at once.
      if (amountFen === 0) await payOrder(tx, deps, id, { channel: 'free', transactionId: null, paidAt: now, actorId: access.accountId });
      return id;
    });
  } catch (err) {
    // The last guard of "once per exam": two remote applications racing past the check meet the unique index.
    if (input.type === 'remote' && isUniqueViolation(err)) throw new ApiError('RemoteReportRequested');
    throw err;
  }
}
