import { and, asc, eq, inArray } from 'drizzle-orm';
import { ACTIONS, type Action } from '../../../contract/actions';
import type { PaymentChannel, PaymentStatus, ReportOrder, ReportOrderDetail, RequestTarget } from '../../../contract/payments';
import { paymentMachine, type PaymentActor } from '../../../machines/payment';
import { canWithdraw, isApproved, progressOf, stateOfStored, storedState } from '../../../machines/expertRequestTransitions';
import { memberActions, type Access } from '../../access/access';
import type { Db } from '../../db/client';
import { accounts, bucketMembers, buckets, exams, groupCredits, groups, reportOrderTargets, reportOrders, reports } from '../../db/schema';
import { ApiError } from '../../http/errors';

export type OrderRow = typeof reportOrders.$inferSelect;

/** The order actions of areas §6: any of them (or exam_get) lets an applicant-side member read the applications. */
export const ORDER_ACTIONS: readonly Action[] = ACTIONS.order;
export const ORDER_READ_ACTIONS: readonly Action[] = [...ORDER_ACTIONS, 'exam_get'];

/** The applying action of a request type (areas §6). */
export const applyActionOf = (type: string): Action => (type === 'remote' ? 'apply_remote_report' : 'apply_expert_report');

const actionsIn = (access: Access, bucketId: number): readonly Action[] => [...(access.buckets.get(bucketId)?.actions ?? [])];

/** A target as read: its organisation, price and copy, with the copy's current report status. */
interface TargetRow {
  orderId: number;
  bucketId: number;
  bucketName: string;
  free: boolean;
  priceFen: number;
  expertExamId: number | null;
  reportId: number | null;
  reportStatus: string | null;
}

async function targetsOf(db: Db, orderIds: readonly number[]): Promise<Map<number, TargetRow[]>> {
  const out = new Map<number, TargetRow[]>();
  if (orderIds.length === 0) return out;
  const rows = await db.select({
    orderId: reportOrderTargets.orderId, bucketId: reportOrderTargets.bucketId, bucketName: buckets.name, free: reportOrderTargets.free,
    priceFen: reportOrderTargets.priceFen, expertExamId: reportOrderTargets.expertExamId, reportId: exams.reportId, reportStatus: exams.reportStatus,
  }).from(reportOrderTargets)
    .innerJoin(buckets, eq(buckets.id, reportOrderTargets.bucketId))
    .leftJoin(exams, eq(exams.id, reportOrderTargets.expertExamId))
    .where(inArray(reportOrderTargets.orderId, [...orderIds]))
    .orderBy(asc(reportOrderTargets.orderId), asc(reportOrderTargets.bucketId));
  for (const r of rows) out.set(r.orderId, [...(out.get(r.orderId) ?? []), r]);
  return out;
}

/** The progress a stored row and its copies' report statuses give (machines/expertRequestTransitions.ts). */
function progressOfRow(row: OrderRow, targets: readonly TargetRow[]) {
  return progressOf(stateOfStored({
    progress: row.progress as 'awaiting_payment' | 'queued' | 'withdrawn', paymentStatus: row.paymentStatus,
    copyStatuses: targets.map((t) => (t.expertExamId === null ? null : t.reportStatus)),
  }));
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The list's and the detail's shape of some applications, in the order of `rows`. */
export async function presentOrders(db: Db, rows: readonly OrderRow[]): Promise<{ orders: ReportOrder[]; targets: Map<number, TargetRow[]> }> {
  const targets = await targetsOf(db, rows.map((r) => r.id));
  const bucketIds = [...new Set(rows.map((r) => r.fromBucketId))];
  const accountIds = [...new Set(rows.flatMap((r) => [r.applicantId, r.refundOperatorId]).filter((id): id is number => id !== null))];
  const bucketNames = new Map((bucketIds.length === 0 ? [] : await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(inArray(buckets.id, bucketIds))).map((b) => [b.id, b.name]));
  const names = new Map((accountIds.length === 0 ? [] : await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, accountIds))).map((a) => [a.id, a.name]));
  const orders = rows.map((row): ReportOrder => {
    const t = targets.get(row.id) ?? [];
    return {
      id: row.id, requestNo: row.requestNo, type: row.type as ReportOrder['type'], examId: row.examId,
      fromBucketId: row.fromBucketId, fromBucketName: bucketNames.get(row.fromBucketId) ?? '',
      toBucketName: t.map((x) => x.bucketName).join('、'),
      applicantId: row.applicantId, applicantName: names.get(row.applicantId) ?? '',
      patientName: row.patientName, patientGender: row.patientGender, patientAge: row.patientAge,
      email: row.email, mobile: row.mobile, reason: row.reason, amountFen: row.amountFen,
      paymentStatus: row.paymentStatus as PaymentStatus, channel: row.channel as PaymentChannel | null, transactionId: row.transactionId,
      paidAt: iso(row.paidAt), paidDescription: row.paidDescription, refundNo: row.refundNo, refundAt: iso(row.refundAt),
      refundReason: row.refundReason, refundOperatorName: row.refundOperatorId === null ? null : names.get(row.refundOperatorId) ?? null,
      progress: progressOfRow(row, t), created: row.created.toISOString(), version: row.version,
    };
  });
  return { orders, targets };
}

/** Who `access` is to one application: its sides, for reading and for the machines. */
export interface OrderSides {
  applicant: readonly Action[] | null;
  /** The union of the account's actions in the target organisations it belongs to (null: none). */
  target: readonly Action[] | null;
}

export function sidesOf(access: Access, row: OrderRow, targetBucketIds: readonly number[]): OrderSides {
  const applicant = access.buckets.has(row.fromBucketId) ? actionsIn(access, row.fromBucketId) : null;
  const inTargets = targetBucketIds.filter((b) => access.buckets.has(b));
  return { applicant, target: inTargets.length === 0 ? null : [...new Set(inTargets.flatMap((b) => actionsIn(access, b)))] };
}

/**
 * The application `id` for `access`, locked when asked: 404 when missing or when the account belongs to neither the
 * applicant organisation nor a target one; 403 for an applicant-side member without any order action or exam_get.
 */
export async function loadOrder(db: Db, access: Access, id: number, opts: { lock?: boolean } = {}): Promise<{ row: OrderRow; sides: OrderSides; targetBucketIds: number[] }> {
  const query = db.select().from(reportOrders).where(eq(reportOrders.id, id));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (!row) throw new ApiError('NotFound');
  const targetBucketIds = (await db.select({ bucketId: reportOrderTargets.bucketId }).from(reportOrderTargets)
    .where(eq(reportOrderTargets.orderId, id))).map((t) => t.bucketId);
  const sides = sidesOf(access, row, targetBucketIds);
  if (sides.applicant === null && sides.target === null) throw new ApiError('NotFound');
  if (sides.target === null && !ORDER_READ_ACTIONS.some((a) => sides.applicant?.includes(a))) throw new ApiError('Forbidden');
  return { row, sides, targetBucketIds };
}

const PAYMENT_STATES = ['unpaid', 'paid', 'refunding', 'refunded'] as const;

/** What the account may do now: pay and refund asked of the payment machine, withdraw of the request machine. */
export function transitionsOf(row: OrderRow, targets: readonly TargetRow[], sides: OrderSides): ReportOrderDetail['transitions'] {
  const actor: PaymentActor = { id: 0, applicant: sides.applicant ?? [], target: sides.target ?? [] };
  const payment = paymentMachine.resolveState({
    value: PAYMENT_STATES[row.paymentStatus] ?? 'unpaid',
    context: { type: row.type as 'expert' | 'remote', channel: row.channel as PaymentChannel | null, withdrawn: row.progress === 'withdrawn' },
  });
  const out: ReportOrderDetail['transitions'] = [];
  if (payment.can({ type: 'pay', channel: 'credit', actor })) out.push('pay');
  const request = storedState(row.type as 'expert' | 'remote', {
    progress: row.progress as 'awaiting_payment' | 'queued' | 'withdrawn', paymentStatus: row.paymentStatus,
    copyStatuses: targets.map((t) => (t.expertExamId === null ? null : t.reportStatus)),
  });
  if (row.paymentStatus !== 2 && (sides.applicant ?? []).includes(applyActionOf(row.type)) && canWithdraw(request)) out.push('withdraw');
  if (payment.can({ type: 'refund', reason: 'asked', actor })) out.push('refund');
  return out;
}

/** The approved reports of the copies (findings and conclusion as the report area stores them: sanitised HTML). */
async function approvedReports(db: Db, targets: readonly TargetRow[]): Promise<Map<number, RequestTarget['report']>> {
  const ids = targets.filter((t) => t.reportId !== null && isApproved(t.reportStatus)).map((t) => t.reportId as number);
  if (ids.length === 0) return new Map();
  const rows = await db.select({
    id: reports.id, examId: reports.examId, status: reports.status, finding: reports.finding, diagnosis: reports.diagnosis,
    approvedTime: reports.approvedTime, approverName: accounts.name,
  }).from(reports).leftJoin(accounts, eq(accounts.id, reports.issuerId)).where(inArray(reports.id, ids));
  return new Map(rows.map((r) => [r.id, {
    id: r.id, status: r.status, findings: r.finding, conclusion: r.diagnosis, approvedAt: iso(r.approvedTime), approverName: r.approverName,
  }]));
}

/** Report statuses the writer still holds (core §4): not begun, a draft, rejected or recalled back to the writer. */
const WRITER_HOLDS = ['none', 'partial', 'hold', 'cancelled'];
/** Submitted and waiting for an approver's decision. */
const AWAITS_APPROVAL = ['final', 'advised'];

/**
 * What each live copy's report waits for (RequestTarget.waiting): the writer, or the approvers of the expert
 * organisation by the same rule as every permission (access level, then roles; active accounts; the writer never
 * approves their own report). Read from the reports themselves, so a held lock does not hide the status.
 */
async function waitingOf(db: Db, targets: readonly TargetRow[]): Promise<Map<number, RequestTarget['waiting']>> {
  const out = new Map<number, RequestTarget['waiting']>();
  const ids = targets.filter((t) => t.reportId !== null).map((t) => t.reportId as number);
  const rows = ids.length === 0 ? [] : await db.select({ id: reports.id, status: reports.status, creatorId: reports.creatorId, creatorName: accounts.name })
    .from(reports).leftJoin(accounts, eq(accounts.id, reports.creatorId)).where(inArray(reports.id, ids));
  for (const t of targets) {
    if (t.expertExamId === null) continue;
    const report = rows.find((r) => r.id === t.reportId);
    if (!report || WRITER_HOLDS.includes(report.status)) {
      out.set(t.bucketId, { step: 'writing', names: report?.creatorName ? [report.creatorName] : [] });
    } else if (AWAITS_APPROVAL.includes(report.status)) {
      out.set(t.bucketId, { step: 'approval', names: await approverNames(db, t.bucketId, report.creatorId) });
    }
  }
  return out;
}

async function approverNames(db: Db, bucketId: number, writerId: number | null): Promise<string[]> {
  const members = await db.select({ id: accounts.id, name: accounts.name }).from(bucketMembers)
    .innerJoin(accounts, eq(accounts.id, bucketMembers.accountId))
    .where(and(eq(bucketMembers.bucketId, bucketId), eq(accounts.status, 0))).orderBy(asc(accounts.id));
  const actions = await memberActions(db, bucketId, members.map((m) => m.id));
  return members.filter((m) => m.id !== writerId && actions.get(m.id)?.has('report_approval')).map((m) => m.name);
}

/** The request detail (GET report-requests/{id}, orders/{id}, charge/{id}/detail). */
export async function orderDetail(db: Db, access: Access, id: number): Promise<ReportOrderDetail> {
  const { row, sides } = await loadOrder(db, access, id);
  return detailOf(db, row, sides);
}

export async function detailOf(db: Db, row: OrderRow, sides: OrderSides): Promise<ReportOrderDetail> {
  const { orders: [order], targets } = await presentOrders(db, [row]);
  const t = targets.get(row.id) ?? [];
  const reportsById = await approvedReports(db, t);
  const stillLive = row.paymentStatus !== 3 && row.progress !== 'withdrawn';
  const waiting = stillLive && row.paymentStatus === 1 ? await waitingOf(db, t) : new Map<number, RequestTarget['waiting']>();
  const targetViews: RequestTarget[] = t.map((x) => {
    const copyStatus = x.expertExamId === null ? null : x.reportStatus;
    return {
      bucketId: x.bucketId, bucketName: x.bucketName, free: x.free, priceFen: x.priceFen, expertExamId: x.expertExamId,
      report: x.reportId === null ? null : reportsById.get(x.reportId) ?? null,
      progress: !stillLive || x.expertExamId === null ? order.progress
        : progressOf(stateOfStored({ progress: 'queued', paymentStatus: row.paymentStatus, copyStatuses: [copyStatus] })),
      waiting: waiting.get(x.bucketId) ?? null,
    };
  });
  const mayPay = (sides.applicant ?? []).includes(applyActionOf(row.type));
  let credit: ReportOrderDetail['credit'] = null;
  if (mayPay) {
    const [g] = await db.select({ enabled: groups.enableCredit, balanceFen: groupCredits.balanceFen }).from(groups)
      .leftJoin(groupCredits, eq(groupCredits.groupId, groups.id)).where(eq(groups.id, row.groupId));
    if (g) credit = { enabled: g.enabled, balanceFen: g.balanceFen ?? 0 };
  }
  return { ...order, targets: targetViews, transitions: transitionsOf(row, t, sides), credit };
}
