import { z } from 'zod';
import { idValue, pageQuerySchema, type Operator } from './common';
import { PAYMENT_STATUS, PAYMENT_STATUSES, type PaymentStatus } from './consultations';
import { DEFAULT_QUERY_LIMIT } from './constants';
import { examExportInput } from './exams';
export * from './payments/credits';

/**
 * Expert and remote report requests, payments and credits (areas §2 /{examId}/apply-report, /charge/{id}; §3
 * order / payment, charge order and plan package, credit; §4 payment status, remote report; §5; §7 "Expert and
 * remote report requests and payments", "Credits"; §8 payment errors). Money is integer fen (1 yuan = 100 fen)
 * in every field named `…Fen`; the client formats it as yuan, nothing computes with floats.
 */

export { PAYMENT_STATUS, PAYMENT_STATUSES, type PaymentStatus };

export const REPORT_REQUEST_TYPES = ['expert', 'remote'] as const;
export type ReportRequestType = (typeof REPORT_REQUEST_TYPES)[number];

/**
 * Where a request stands (machines/expertRequest.ts). Stored: awaiting_payment, queued, withdrawn. Derived when
 * read from the experts' reports on their copies of the exam: reporting (someone is writing), reported (every
 * target's report is approved). refunded: the payment status says so and the experts' work is gone.
 */
export const REQUEST_PROGRESS = ['awaiting_payment', 'queued', 'reporting', 'reported', 'withdrawn', 'refunded'] as const;
export type RequestProgress = (typeof REQUEST_PROGRESS)[number];

export const PAYMENT_CHANNELS = ['weixin', 'credit', 'plan', 'free'] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

/** The service terms' version the applicant agreed to (shown on the apply page; the server records it). */
export const SERVICE_TERMS_VERSION = '2026-11';

/** Areas §9 / §5: an order list export holds at most 1000 rows. */
export const ORDER_EXPORT_MAX = 1000;

/** A weixin native code lives this long; then the page asks for a new one (charge machine: expired → refresh). */
export const PAYMENT_CODE_TTL_MS = 10 * 60_000;

/** A credit charge token (create-token → Charge-Authorization) lives this long; kept in session storage. */
export const CHARGE_TOKEN_TTL_MS = 10 * 60_000;

/** The header every paying call may carry; a repeat with the same key and body gets the first answer. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const CHARGE_AUTH_HEADER = 'charge-authorization';
export const CHARGE_TOKEN_STORAGE_KEY = 'charge-access-token';

const fen = z.number().int().min(0).max(100_000_000);
const text = (max: number) => z.string().trim().max(max);

// ── Products and applying ───────────────────────────────────────────────────────────────────────────────────────

/** GET report-requests/products?examId&type */
export const productsQuery = z.object({ examId: idValue, type: z.enum(REPORT_REQUEST_TYPES).default('expert') }).strict();

/** One expert organisation the exam may be sent to, with its price for the exam's modality. */
export interface ExpertProduct {
  bucketId: number;
  bucketName: string;
  free: boolean;
  productName: string;
  priceFen: number;
  /** An open expert request of this exam with this organisation (not withdrawn, not refunded): asking again is refused. */
  openOrderId: number | null;
}

export interface ExpertProducts {
  examId: number;
  type: ReportRequestType;
  products: ExpertProduct[];
  /** The group's default expert organisation (the one a remote report goes to), or null. */
  defaultBucketId: number | null;
  termsVersion: string;
  /** A live request of this exam of the same type (remote: at most one), so the page opens it instead. */
  existingOrderId: number | null;
  /** Why the exam cannot be sent now (ExamNotReportable: nothing to read yet; remote: ReportWritingBegun, RemoteReportRequested), or null. */
  blockedBy: 'ExamNotReportable' | 'ReportWritingBegun' | 'RemoteReportRequested' | null;
}

/** POST report-requests/apply (the spec's POST request/apply); Idempotency-Key recommended. */
export const applyInput = z.object({
  examId: idValue,
  type: z.enum(REPORT_REQUEST_TYPES).default('expert'),
  /** Expert: at least one of the group's expert organisations; remote: ignored (the group's default). */
  bucketIds: z.array(idValue).max(10).default([]),
  /** Must be true (TermsNotAgreed otherwise). */
  agreeTerms: z.boolean(),
  reason: text(1000).optional(),
  email: z.string().trim().email().max(128).or(z.literal('')).optional(),
  mobile: z.string().trim().regex(/^\+?[0-9 -]{5,20}$/).or(z.literal('')).optional(),
}).strict();
export type ApplyInput = z.input<typeof applyInput>;

/** POST report-requests/apply-remote-report */
export const applyRemoteInput = z.object({ examId: idValue, agreeTerms: z.boolean(), reason: text(1000).optional() }).strict();
export type ApplyRemoteInput = z.input<typeof applyRemoteInput>;

/** GET report-requests/remote-report?examId */
export const remoteReportQuery = z.object({ examId: idValue }).strict();

export interface RequestTarget {
  bucketId: number;
  bucketName: string;
  free: boolean;
  priceFen: number;
  /** The exam's copy in the expert organisation once paid (the expert's worklist row), else null. */
  expertExamId: number | null;
  /** The expert's report on that copy, as the applicant may read it once approved; null before. */
  report: { id: number; status: string; findings: string; conclusion: string; approvedAt: string | null; approverName: string | null } | null;
  progress: RequestProgress;
  /**
   * What the target's report waits for while the request is live and paid: `writing` (nobody started, or `names` = the
   * writer drafting or revising), `approval` (submitted; `names` = the organisation's members who may approve it, the
   * writer excepted — empty: nobody can, the organisation must name an approver or issue on submit). Null once issued,
   * before payment and after a withdrawal or refund.
   */
  waiting: { step: 'writing' | 'approval'; names: string[] } | null;
}

/** A request with its payment: the spec's "order / payment" fields, and what the pages need. */
export interface ReportOrder {
  id: number;
  requestNo: string;
  type: ReportRequestType;
  examId: number;
  fromBucketId: number;
  fromBucketName: string;
  /** The expert organisations' names, joined with "、" when several. */
  toBucketName: string;
  applicantId: number;
  applicantName: string;
  patientName: string;
  patientGender: string;
  patientAge: string | null;
  email: string | null;
  mobile: string | null;
  reason: string | null;
  /** The price and the amount paid (equal: a refund is always full). */
  amountFen: number;
  paymentStatus: PaymentStatus;
  channel: PaymentChannel | null;
  transactionId: string | null;
  paidAt: string | null;
  paidDescription: string | null;
  refundNo: string | null;
  refundAt: string | null;
  refundReason: string | null;
  refundOperatorName: string | null;
  progress: RequestProgress;
  created: string;
  version: number;
}

export interface ReportOrderDetail extends ReportOrder {
  targets: RequestTarget[];
  /** What the account may do now, asked of the machines: pay, withdraw, refund. */
  transitions: ('pay' | 'withdraw' | 'refund')[];
  /** The group's credit, when enabled and the account may pay. */
  credit: { enabled: boolean; balanceFen: number } | null;
}

// ── Charge: paying an application (or recharging credit) through a QR channel ───────────────────────────────────

export const CHARGE_PACKAGE_KINDS = ['single', 'plan', 'credit'] as const;
export type ChargePackageKind = (typeof CHARGE_PACKAGE_KINDS)[number];

export interface ChargePackage {
  id: number;
  kind: ChargePackageKind;
  name: string;
  /** For `single`: the application's amount. */
  priceFen: number;
  bonusFen: number;
  reports: number;
  days: number;
}

/** GET packages/query?orderId (no orderId: the credit recharge packages) */
export const packagesQuery = z.object({ orderId: idValue.optional(), kind: z.enum(CHARGE_PACKAGE_KINDS).optional() }).strict();

export const CHARGE_STATUSES = ['created', 'paid', 'closed', 'failed'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** A pre-paid order: the QR to scan and how long it lives. */
export interface ChargeOrderView {
  id: number;
  outTradeNo: string;
  provider: 'sandbox' | 'wechat';
  orderId: number | null;
  packageId: number;
  packageName: string;
  amountFen: number;
  description: string;
  status: ChargeStatus;
  /** What the QR encodes (weixin://… from WeChat Pay; the local confirmation page from the sandbox). */
  codeUrl: string | null;
  expiresAt: string;
  paidAt: string | null;
  created: string;
}

/** POST charge/apply-charge */
export const applyChargeInput = z.object({ orderId: idValue, packageId: idValue }).strict();
export type ApplyChargeInput = z.input<typeof applyChargeInput>;

/** GET charge/{id}/pre-paid-order?refresh=1 (id = the application) */
export const prePaidQuery = z.object({ refresh: z.enum(['0', '1']).optional(), packageId: z.coerce.number().int().min(1).optional() }).strict();

/** GET charge/{id}/payment-status: what the charge page polls (or the SSE-free long poll answers). */
export interface PaymentStatusView {
  orderId: number;
  paymentStatus: PaymentStatus;
  progress: RequestProgress;
  charge: Pick<ChargeOrderView, 'id' | 'outTradeNo' | 'status' | 'expiresAt'> | null;
}

/** GET charge/request?limit&skip: the account's charge orders, newest first. */
export const chargeListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), skip: z.coerce.number().int().min(0).default(0) }).strict();

// ── The order list (payments page-query, refund, export) ────────────────────────────────────────────────────────

export const ORDER_FILTER_FIELDS = {
  id: { kind: 'int', operators: ['equal', 'in'] },
  requestNo: { kind: 'text', operators: ['equal', 'like'] },
  patientName: { kind: 'text', operators: ['equal', 'like'] },
  type: { kind: 'enum', operators: ['equal'] },
  paymentStatus: { kind: 'payment', operators: ['equal', 'in'] },
  channel: { kind: 'enum', operators: ['equal', 'in'] },
  fromBucketId: { kind: 'int', operators: ['equal', 'in'] },
  toBucketId: { kind: 'int', operators: ['equal', 'in'] },
  examId: { kind: 'int', operators: ['equal'] },
  created: { kind: 'time', operators: ['gte', 'lte'] },
  /** out: applications of my organisations; in: sent to my expert organisations. */
  side: { kind: 'enum', operators: ['equal'] },
} as const satisfies Record<string, { kind: string; operators: readonly Operator[] }>;
export type OrderFilterField = keyof typeof ORDER_FILTER_FIELDS;
export const ORDER_SORT_FIELDS = ['id', 'created', 'amountFen', 'paidAt'] as const;

/** POST payments/page-query (and orders/page-query): 20 a page on the screen, at most 100. */
export const orderPageQuery = pageQuerySchema.extend({ limit: z.number().int().min(1).max(100).default(DEFAULT_QUERY_LIMIT) });
export type OrderPageQuery = z.input<typeof orderPageQuery>;

/** POST payments/{id}/refund: full, to the original channel; deletes the experts' reports (Idempotency-Key). */
export const refundInput = z.object({ reason: text(512).min(1), version: z.number().int().min(1) }).strict();
export type RefundInput = z.input<typeof refundInput>;

/** POST payments/export-excel: the list's filters; more than ORDER_EXPORT_MAX rows → ExportTooLarge. */
export const orderExportInput = examExportInput;
/** POST credits/export: one group's ledger (≤ ORDER_EXPORT_MAX rows). */
export const creditExportInput = examExportInput.extend({ groupId: idValue });

export const fenAmount = fen;

/** Yuan with two decimals from fen, for display and exports (integer arithmetic: no float rounding). */
export function formatYuan(amountFen: number): string {
  const sign = amountFen < 0 ? '-' : '';
  const abs = Math.abs(amountFen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const PAYMENT_STATUS_NAMES: Record<PaymentStatus, 'unpaid' | 'paid' | 'refunding' | 'refunded'> = {
  [PAYMENT_STATUS.unpaid]: 'unpaid', [PAYMENT_STATUS.paid]: 'paid', [PAYMENT_STATUS.refunding]: 'refunding', [PAYMENT_STATUS.refunded]: 'refunded',
};

// ── The sandbox channel's confirmation page (/sandbox-pay/{outTradeNo}?s=…; server/payments/providers/sandbox.ts) ──

/** GET payments/sandbox/{outTradeNo}?s and its pay / fail: `s` proves the caller holds the QR. */
export const sandboxTradeParam = z.object({ outTradeNo: z.string().trim().regex(/^[A-Za-z0-9_-]{1,32}$/) }).strict();
export const sandboxSignatureQuery = z.object({ s: z.string().trim().min(1).max(128) }).strict();

/** What the sandbox "phone" shows: the trade as the sandbox channel sees it. */
export interface SandboxTradeView {
  outTradeNo: string;
  amountFen: number;
  description: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'PAYERROR' | 'REFUND';
  expiresAt: string;
  /** Unpaid and past its expiry: it can no longer be paid (the charge page makes a new code). */
  expired: boolean;
  transactionId: string | null;
  paidAt: string | null;
}
