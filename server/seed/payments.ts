import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { PAYMENT_STATUS, type PaymentChannel, type PaymentStatus, type ReportRequestType } from '../../contract/payments';
import type { Db } from '../db/client';
import {
  auditEvents, chargeOrders, chargePackages, creditLedger, exams, expertProducts, groupCredits, groupExpertBuckets, planSubscriptions,
  reportOrderTargets, reportOrders, reportTraces, reports, sandboxTrades,
} from '../db/schema';
import { dispatchOrder } from '../payments/requests/dispatch';
import { reportText } from './clinical';
import type { Rng } from './random';

export interface PaymentSeedOptions {
  now: Date;
  groupId: number;
  hospitalId: number;
  centreId: number;
  /** Who applies (the hospital's radiologists and chief), who refunds (the chief), who writes (the centre's expert). */
  applicants: number[];
  chief: number;
  expert: number;
  /** Exams of the hospital to apply with. */
  examIds: readonly number[];
}

/** What the expert centre charges per report (areas §3 expert products), integer fen; null = its default. */
const PRODUCTS: { modality: string | null; name: string; priceFen: number }[] = [
  { modality: null, name: '专家诊断报告', priceFen: 8000 },
  { modality: 'CT', name: 'CT专家诊断报告', priceFen: 12000 },
  { modality: 'MR', name: 'MR专家诊断报告', priceFen: 20000 },
  { modality: 'DX', name: 'DX专家诊断报告', priceFen: 5000 },
  { modality: 'CR', name: 'CR专家诊断报告', priceFen: 5000 },
  { modality: 'US', name: '超声专家诊断报告', priceFen: 6000 },
];

/** What the charge page sells to every group: the single payment, two plans, three credit packages. */
const PACKAGES: (typeof chargePackages.$inferInsert)[] = [
  { kind: 'single', name: '单次支付', priceFen: 0, sortOrder: 0 },
  { kind: 'plan', name: '专家报告套餐（10份 / 30天）', priceFen: 90_000, reports: 10, days: 30, sortOrder: 1 },
  { kind: 'plan', name: '专家报告套餐（50份 / 90天）', priceFen: 400_000, reports: 50, days: 90, sortOrder: 2 },
  { kind: 'credit', name: '充值500元', priceFen: 50_000, sortOrder: 3 },
  { kind: 'credit', name: '充值1000元（赠50元）', priceFen: 100_000, bonusFen: 5_000, sortOrder: 4 },
  { kind: 'credit', name: '充值2000元（赠150元）', priceFen: 200_000, bonusFen: 15_000, sortOrder: 5 },
];

/**
 * The applications, oldest first, one per state a user meets: paid by each channel and waiting for the expert,
 * being written, reported, refunded (credit and weixin), withdrawn, and two still unpaid (the newest).
 */
type Kind = 'queued' | 'reporting' | 'reported' | 'refunded' | 'withdrawn' | 'unpaid';
const PLAN: { type: ReportRequestType; channel: PaymentChannel | null; kind: Kind; reason: string }[] = [
  { type: 'expert', channel: 'weixin', kind: 'reported', reason: '右肺上叶结节性质待定，请专家出具诊断意见' },
  { type: 'expert', channel: 'credit', kind: 'reported', reason: '肝脏占位，请求专家明确诊断' },
  { type: 'expert', channel: 'credit', kind: 'refunded', reason: '颅内病变性质待定，请专家协助诊断' },
  { type: 'expert', channel: 'plan', kind: 'reported', reason: '腰椎退行性改变，评估椎管狭窄程度' },
  { type: 'expert', channel: 'weixin', kind: 'refunded', reason: '甲状腺结节，请专家评估TI-RADS分级' },
  { type: 'expert', channel: 'plan', kind: 'reporting', reason: '胸部多发淋巴结肿大，请专家会诊诊断' },
  { type: 'remote', channel: 'weixin', kind: 'reporting', reason: '本院夜间无诊断医师，申请远程诊断' },
  { type: 'expert', channel: null, kind: 'withdrawn', reason: '膝关节损伤，评估半月板情况' },
  { type: 'expert', channel: 'credit', kind: 'queued', reason: '肾上腺结节，良恶性鉴别' },
  { type: 'expert', channel: 'weixin', kind: 'queued', reason: '乳腺结节，请专家评估BI-RADS分级' },
  { type: 'expert', channel: 'credit', kind: 'queued', reason: '胰腺占位待排，请专家出具诊断意见' },
  { type: 'remote', channel: null, kind: 'unpaid', reason: '急诊夜间检查，申请远程诊断' },
  { type: 'expert', channel: null, kind: 'unpaid', reason: '肺部感染治疗后复查，请专家对比评估' },
];

/** The group's credit first came from this package (2000 + 150), bought by the chief through the QR channel. */
const RECHARGE_PACKAGE = 5;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** yyyymmdd in the server's zone, as the request and trade numbers carry it. */
const ymd = (d: Date) => `${d.getFullYear()}${pad(d.getMonth() + 1, 2)}${pad(d.getDate(), 2)}`;
const requestNoOf = (id: number, created: Date) => `R${ymd(created)}${pad(id, 6)}`;
const outTradeNoOf = (id: number, created: Date) => `C${ymd(created)}${pad(id, 8)}`;
/** A WeChat-style transaction id (28 digits), from the seeded generator. */
const transactionOf = (r: Rng, at: Date) => `4200${ymd(at)}${pad(r.int(0, 99_999_999), 8)}${pad(r.int(0, 99_999_999), 8)}`;

type LedgerEvent = Omit<typeof creditLedger.$inferInsert, 'balanceAfterFen' | 'groupId'> & { created: Date; amountFen: number };

/**
 * Demo data of the payments area (issue 13): the expert centre sells reports to the group, the group has bought a
 * plan and credit, and the hospital has applications in every state — the paid ones sent to the centre as real
 * copies (dispatchOrder, the path a payment takes), some written or approved there by the expert. The credit
 * balance is exactly what its ledger adds up to.
 */
export async function seedPayments(db: Db, r: Rng, o: PaymentSeedOptions): Promise<void> {
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await tx.insert(groupExpertBuckets).values({ groupId: o.groupId, bucketId: o.centreId, free: false });
    await tx.insert(expertProducts).values(PRODUCTS.map((p) => ({ ...p, bucketId: o.centreId, created: new Date(o.now.getTime() - 60 * DAY) })));
    const packages = await tx.insert(chargePackages).values(PACKAGES).returning();
    const single = packages[0]!;
    const plan10 = packages[1]!;

    // The exams asked about: not yet reported by the hospital (that is when one asks), newest first, one each.
    const candidates = await tx.select({
      id: exams.id, modality: exams.modality, bodyPart: exams.bodyPart, created: exams.created, patientName: exams.patientName,
      patientGender: exams.patientGender, visitAge: exams.visitAge, reportStatus: exams.reportStatus,
    }).from(exams).where(and(inArray(exams.id, [...o.examIds]), eq(exams.bucketId, o.hospitalId), sql`coalesce(${exams.reportStatus}, 'none') = 'none'`))
      .orderBy(sql`${exams.created} desc`, asc(exams.id));
    // Spread over the last three weeks, oldest first: each application takes the exam done nearest before its day
    // (a remote one an exam nobody has started writing). With few exams (small test seeds) some are left out.
    const used = new Set<number>();
    const picked = PLAN.map((app, i) => {
      const due = o.now.getTime() - (PLAN.length - i) * 1.6 * DAY;
      const fits = candidates.filter((e) => !used.has(e.id) && (app.type === 'expert' || (e.reportStatus ?? 'none') === 'none'));
      const exam = fits.find((e) => e.created.getTime() <= due) ?? fits.at(-1) ?? null;
      if (exam) used.add(exam.id);
      return exam;
    });
    const priceOf = (modality: string) => (PRODUCTS.find((p) => p.modality === modality) ?? PRODUCTS[0]!).priceFen;

    // The plan the group bought three weeks ago (by QR), the first credit recharge a month ago.
    const ledger: LedgerEvent[] = [];
    // Both before the first application they pay (an exam picked by a small seed may be older than three weeks).
    const firstExam = Math.min(o.now.getTime(), ...picked.map((e) => e?.created.getTime() ?? Infinity));
    const planBought = new Date(Math.min(o.now.getTime() - 21 * DAY, firstExam) - 3 * HOUR);
    const planCharge = await paidCharge(tx, r, { groupId: o.groupId, orderId: null, packageId: plan10.id, accountId: o.chief, amountFen: plan10.priceFen, description: plan10.name, at: planBought });
    const [subscription] = await tx.insert(planSubscriptions).values({
      groupId: o.groupId, packageId: plan10.id, chargeOrderId: planCharge.id, reportsTotal: plan10.reports ?? 10, reportsUsed: 0,
      startsAt: planBought, expiresAt: new Date(planBought.getTime() + (plan10.days ?? 30) * DAY), created: planBought,
    }).returning();
    const recharge = packages[RECHARGE_PACKAGE]!;
    const rechargedAt = new Date(Math.min(o.now.getTime() - 30 * DAY, firstExam) - 5 * HOUR);
    const rechargeCharge = await paidCharge(tx, r, { groupId: o.groupId, orderId: null, packageId: recharge.id, accountId: o.chief, amountFen: recharge.priceFen, description: recharge.name, at: rechargedAt });
    ledger.push({ kind: 'recharge', amountFen: recharge.priceFen + (recharge.bonusFen ?? 0), chargeOrderId: rechargeCharge.id, accountId: o.chief, note: recharge.name, created: rechargedAt });
    const audit: (typeof auditEvents.$inferInsert)[] = [
      { at: rechargedAt, actorId: o.chief, bucketId: o.hospitalId, area: 'payments', action: 'recharge', objectType: 'creditLedger', objectId: String(o.groupId), before: null, after: { amountFen: recharge.priceFen + (recharge.bonusFen ?? 0) } },
    ];

    let planUsed = 0;
    for (const [i, app] of PLAN.entries()) {
      const exam = picked[i];
      if (!exam) continue;
      const amountFen = priceOf(exam.modality);
      // Asked within a day of the exam, never later than an hour ago; paid within minutes of asking.
      const latest = o.now.getTime() - (PLAN.length - i) * 20 * MINUTE;
      const created = new Date(Math.min(exam.created.getTime() + r.int(1, 20) * HOUR, latest));
      const paidAt = new Date(created.getTime() + r.int(2, 9) * MINUTE);
      const applicant = app.kind === 'refunded' || i % 3 === 0 ? o.chief : r.pick(o.applicants);
      const paid = app.channel !== null;
      const refunded = app.kind === 'refunded';
      const refundAt = new Date(paidAt.getTime() + r.int(1, 5) * HOUR);
      const transactionId = app.channel === 'weixin' ? transactionOf(r, paidAt) : null;
      const refundReason = app.channel === 'credit' ? '患者已转上级医院，申请退款' : '检查图像不完整，无法出具报告';
      const status: PaymentStatus = !paid ? PAYMENT_STATUS.unpaid : refunded ? PAYMENT_STATUS.refunded : PAYMENT_STATUS.paid;
      const [row] = await tx.insert(reportOrders).values({
        requestNo: `seed-${i}`, type: app.type, examId: exam.id, fromBucketId: o.hospitalId, groupId: o.groupId, applicantId: applicant,
        patientName: exam.patientName, patientGender: exam.patientGender, patientAge: exam.visitAge, reason: app.reason, amountFen,
        paymentStatus: status,
        progress: app.kind === 'withdrawn' ? 'withdrawn' : paid ? 'queued' : 'awaiting_payment',
        channel: app.channel, transactionId, paidAt: paid ? paidAt : null,
        paidDescription: paid ? `${exam.modality}专家诊断报告 ${exam.patientName}` : null,
        refundNo: refunded ? `RF${ymd(refundAt)}${pad(r.int(0, 99_999_999), 8)}` : null,
        refundAt: refunded ? refundAt : null,
        refundReason: refunded ? refundReason : null,
        refundOperatorId: refunded ? o.chief : null,
        withdrawnAt: app.kind === 'withdrawn' ? new Date(created.getTime() + 30 * MINUTE) : null,
        version: 1 + (paid ? 1 : 0) + (refunded || app.kind === 'withdrawn' ? 1 : 0),
        created, updated: refunded ? refundAt : paid ? paidAt : created,
      }).returning({ id: reportOrders.id });
      const id = row!.id;
      const requestNo = requestNoOf(id, created);
      await tx.update(reportOrders).set({ requestNo }).where(eq(reportOrders.id, id));
      await tx.insert(reportOrderTargets).values({ orderId: id, bucketId: o.centreId, free: false, priceFen: amountFen });

      const events: { at: Date; action: string; actorId: number; after: Record<string, unknown> }[] = [
        { at: created, action: 'apply', actorId: applicant, after: { requestNo, type: app.type, amountFen } },
      ];
      if (app.channel === 'weixin') {
        await paidCharge(tx, r, { groupId: o.groupId, orderId: id, packageId: single.id, accountId: applicant, amountFen, description: `专家诊断报告 ${requestNo}`, at: paidAt, transactionId, refunded });
      } else if (app.channel === 'credit') {
        ledger.push({ kind: 'charge', amountFen: -amountFen, orderId: id, accountId: applicant, note: null, created: paidAt });
        if (refunded) ledger.push({ kind: 'refund', amountFen, orderId: id, accountId: o.chief, note: refundReason, created: refundAt });
      } else if (app.channel === 'plan') {
        planUsed += 1;
      }
      if (paid) events.push({ at: paidAt, action: 'pay', actorId: applicant, after: { channel: app.channel, amountFen } });
      if (refunded) events.push({ at: refundAt, action: 'refund', actorId: o.chief, after: { amountFen, channel: app.channel } });
      if (app.kind === 'withdrawn') events.push({ at: new Date(created.getTime() + 30 * MINUTE), action: 'withdraw', actorId: applicant, after: { progress: 'withdrawn' } });
      audit.push(...events.map((e) => ({ at: e.at, actorId: e.actorId, bucketId: o.hospitalId, area: 'payments', action: e.action, objectType: 'reportOrder', objectId: String(id), before: null, after: e.after })));

      // A paid application reaches the centre as its copy of the exam; a refunded one's copy is gone again.
      if (!paid || refunded) continue;
      await dispatchOrder(tx, id, paidAt);
      if (app.kind === 'reporting' || app.kind === 'reported') await writeExpertReport(tx, r, o, id, app.kind === 'reported', paidAt, o.now);
    }
    if (subscription && planUsed > 0) await tx.update(planSubscriptions).set({ reportsUsed: planUsed }).where(eq(planSubscriptions.id, subscription.id));

    // The ledger in time order proves the balance: each row's balance is the previous plus its amount.
    ledger.sort((a, b) => a.created.getTime() - b.created.getTime());
    let balance = 0;
    const rows = ledger.map((e) => ({ ...e, groupId: o.groupId, balanceAfterFen: (balance += e.amountFen) }));
    await tx.insert(creditLedger).values(rows);
    audit.push(...ledger.filter((e) => e.kind !== 'recharge').map((e) => ({
      at: e.created, actorId: e.accountId ?? null, bucketId: o.hospitalId, area: 'payments', action: e.kind, objectType: 'creditLedger', objectId: String(o.groupId), before: null, after: { amountFen: e.amountFen, orderId: e.orderId ?? null },
    })));
    await tx.insert(groupCredits).values({ groupId: o.groupId, balanceFen: balance, version: rows.length + 1, updated: rows.at(-1)?.created ?? o.now });
    await tx.insert(auditEvents).values(audit);
  });
}

/** A charge order the channel has paid (the QR was scanned), with the sandbox's own record of the trade. */
async function paidCharge(tx: Db, r: Rng, c: { groupId: number; orderId: number | null; packageId: number; accountId: number; amountFen: number; description: string; at: Date; transactionId?: string | null; refunded?: boolean }) {
  const created = new Date(c.at.getTime() - r.int(1, 3) * MINUTE);
  const transactionId = c.transactionId ?? transactionOf(r, c.at);
  const [row] = await tx.insert(chargeOrders).values({
    outTradeNo: `T${transactionId.slice(-20)}`, provider: 'sandbox', groupId: c.groupId, orderId: c.orderId, packageId: c.packageId, accountId: c.accountId,
    amountFen: c.amountFen, description: c.description, status: 'paid', codeUrl: null, expiresAt: new Date(created.getTime() + 10 * MINUTE),
    transactionId, paidAt: c.at, created,
  }).returning();
  const outTradeNo = outTradeNoOf(row!.id, created);
  await tx.update(chargeOrders).set({ outTradeNo }).where(eq(chargeOrders.id, row!.id));
  // The sandbox keeps its books like WeChat Pay would: a refund of the demo's weixin payments finds the trade.
  await tx.insert(sandboxTrades).values({
    outTradeNo, amountFen: c.amountFen, description: c.description, state: c.refunded ? 'REFUND' : 'SUCCESS', transactionId, paidAt: c.at,
    refundedFen: c.refunded ? c.amountFen : 0,
    expiresAt: new Date(created.getTime() + 10 * MINUTE), created,
  });
  return { id: row!.id, outTradeNo };
}

/** The expert's report on the centre's copy: a draft being written, or approved (what the applicant then reads). */
async function writeExpertReport(tx: Db, r: Rng, o: PaymentSeedOptions, orderId: number, approved: boolean, paidAt: Date, now: Date): Promise<void> {
  const [target] = await tx.select({ examId: reportOrderTargets.expertExamId }).from(reportOrderTargets).where(eq(reportOrderTargets.orderId, orderId));
  if (!target?.examId) return;
  const [copy] = await tx.select({ id: exams.id, bodyPart: exams.bodyPart }).from(exams).where(eq(exams.id, target.examId));
  if (!copy) return;
  const text = reportText(r, copy.bodyPart ?? '', r.chance(0.6));
  // Written after the payment and before now, in the order the work happened.
  const room = Math.max(MINUTE, now.getTime() - paidAt.getTime() - MINUTE);
  const savedTime = new Date(paidAt.getTime() + Math.min(room / 3, r.int(20, 120) * MINUTE));
  const submittedTime = approved ? new Date(savedTime.getTime() + Math.min(room / 6, r.int(5, 30) * MINUTE)) : null;
  const approvedTime = submittedTime ? new Date(submittedTime.getTime() + Math.min(room / 6, r.int(5, 60) * MINUTE)) : null;
  const status = approved ? 'corrected' : 'partial';
  const [report] = await tx.insert(reports).values({
    examId: copy.id, bucketId: o.centreId, sourceBucketId: o.centreId, status, creatorId: o.expert, lastUpdaterId: o.expert, issuerId: approved ? o.expert : null,
    finding: text.finding, diagnosis: text.diagnosis, positive: text.positive, savedTime, submittedTime, approvedTime,
    lastOperationTime: approvedTime ?? savedTime, created: savedTime,
  }).returning({ id: reports.id });
  const snapshot = { finding: text.finding, diagnosis: text.diagnosis };
  await tx.insert(reportTraces).values([
    { reportId: report!.id, accountId: o.expert, action: 'save', fromStatus: 'none', toStatus: 'partial', snapshot, created: savedTime },
    ...(approved ? [
      { reportId: report!.id, accountId: o.expert, action: 'submit', fromStatus: 'partial', toStatus: 'final', snapshot, created: submittedTime! },
      { reportId: report!.id, accountId: o.expert, action: 'approve', fromStatus: 'final', toStatus: 'corrected', snapshot, created: approvedTime! },
    ] : []),
  ]);
  await tx.update(exams).set({ reportId: report!.id, reportStatus: status, reportCreatorId: o.expert }).where(eq(exams.id, copy.id));
}
