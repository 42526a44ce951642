/**
 * Expert and remote report requests, their payments and the group credits (areas §3 "Order / payment", "Charge
 * order and plan package", credit; §4 payment status, remote report). Money is integer fen everywhere (1 yuan =
 * 100 fen): never a float. The ledger is append-only; a balance and the order it pays change in one transaction.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { created, ts } from './columns';
import { accounts, buckets, groups } from './accounts';
import { exams } from './exams';

/** What an expert organisation charges for a report: per modality, or its default (modality null). */
export const expertProducts = pgTable('expert_products', {
  id: serial('id').primaryKey(),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id, { onDelete: 'cascade' }),
  modality: varchar('modality', { length: 8 }),
  name: varchar('name', { length: 128 }).notNull(),
  priceFen: integer('price_fen').notNull(),
  created: created(),
}, (t) => [
  uniqueIndex('expert_products_bucket_modality_uq').on(t.bucketId, sql`coalesce(${t.modality}, '')`),
  check('expert_products_price_ck', sql`${t.priceFen} >= 0`),
]);

/**
 * One application (the spec's "order / payment"): an exam of the applicant organisation sent to one or more
 * expert organisations (report_order_targets), paid once for all of them. `type` expert: organisations chosen
 * from the group's expert buckets; remote: the group's default expert organisation, once per exam and only
 * before writing has begun. `paymentStatus` is areas §4's number (machines/payment.ts); `progress` is the
 * request's own state (machines/expertRequest.ts): awaiting_payment → queued → (reporting, reported: derived
 * from the experts' reports when read) or withdrawn.
 */
export const reportOrders = pgTable('report_orders', {
  id: serial('id').primaryKey(),
  /** Shown to people and sent to the payment channel: 'R' + yyyymmdd + the id, zero-padded. */
  requestNo: varchar('request_no', { length: 32 }).notNull(),
  type: varchar('type', { length: 8 }).notNull(),
  examId: integer('exam_id').notNull().references(() => exams.id),
  fromBucketId: integer('from_bucket_id').notNull().references(() => buckets.id),
  groupId: integer('group_id').notNull().references(() => groups.id),
  applicantId: integer('applicant_id').notNull().references(() => accounts.id),
  patientName: varchar('patient_name', { length: 128 }).notNull(),
  patientGender: varchar('patient_gender', { length: 2 }).notNull().default('U'),
  patientAge: varchar('patient_age', { length: 8 }),
  email: varchar('email', { length: 128 }),
  mobile: varchar('mobile', { length: 32 }),
  reason: text('reason'),
  /** Sum of the targets' prices when submitted (0 when every target is free). */
  amountFen: integer('amount_fen').notNull(),
  paymentStatus: smallint('payment_status').notNull().default(0),
  progress: varchar('progress', { length: 24 }).notNull().default('awaiting_payment'),
  /** How it was paid: weixin, credit, plan (a group plan's quota) or free. */
  channel: varchar('channel', { length: 8 }),
  transactionId: varchar('transaction_id', { length: 64 }),
  paidAt: ts('paid_at'),
  paidDescription: varchar('paid_description', { length: 256 }),
  refundNo: varchar('refund_no', { length: 64 }),
  refundAt: ts('refund_at'),
  refundReason: varchar('refund_reason', { length: 512 }),
  refundOperatorId: integer('refund_operator_id').references(() => accounts.id),
  withdrawnAt: ts('withdrawn_at'),
  version: integer('version').notNull().default(1),
  created: created(),
  updated: ts('updated'),
}, (t) => [
  uniqueIndex('report_orders_request_no_uq').on(t.requestNo),
  uniqueIndex('report_orders_transaction_uq').on(t.transactionId),
  index('report_orders_from_bucket_idx').on(t.fromBucketId, t.id),
  // Statistics: an organisation's applications of a period.
  index('report_orders_from_bucket_created_idx').on(t.fromBucketId, t.created),
  index('report_orders_exam_idx').on(t.examId),
  // Areas §4: a remote report is requested once per exam (a withdrawn one frees the exam for a new application).
  uniqueIndex('report_orders_remote_once_uq').on(t.examId).where(sql`${t.type} = 'remote' and ${t.progress} <> 'withdrawn'`),
  check('report_orders_type_ck', sql`${t.type} in ('expert', 'remote')`),
  check('report_orders_amount_ck', sql`${t.amountFen} >= 0`),
  check('report_orders_payment_status_ck', sql`${t.paymentStatus} between 0 and 3`),
  check('report_orders_progress_ck', sql`${t.progress} in ('awaiting_payment', 'queued', 'withdrawn')`),
  check('report_orders_channel_ck', sql`${t.channel} is null or ${t.channel} in ('weixin', 'credit', 'plan', 'free')`),
]);

/**
 * The expert organisations of an application, each with its price and, once paid, the copy of the exam in that
 * organisation (expertExamId: its own row in the expert's worklist, sharing the stored DICOM files) on which the
 * expert writes in the ordinary report workspace.
 */
export const reportOrderTargets = pgTable('report_order_targets', {
  orderId: integer('order_id').notNull().references(() => reportOrders.id, { onDelete: 'cascade' }),
  bucketId: integer('bucket_id').notNull().references(() => buckets.id),
  free: boolean('free').notNull().default(false),
  priceFen: integer('price_fen').notNull(),
  expertExamId: integer('expert_exam_id').references(() => exams.id, { onDelete: 'set null' }),
}, (t) => [
  primaryKey({ columns: [t.orderId, t.bucketId] }),
  index('report_order_targets_bucket_idx').on(t.bucketId, t.orderId),
  uniqueIndex('report_order_targets_expert_exam_uq').on(t.expertExamId),
  check('report_order_targets_price_ck', sql`${t.priceFen} >= 0`),
]);

/**
 * What the charge page sells (areas §3 "plan package"): `single` pays exactly the application it is bought for
 * (its price is the application's), `plan` gives the group `reports` expert reports for `days` days,
 * `credit` adds `priceFen + bonusFen` to the group's credit balance.
 */
export const chargePackages = pgTable('charge_packages', {
  id: serial('id').primaryKey(),
  /** null: offered to every group. */
  groupId: integer('group_id').references(() => groups.id, { onDelete: 'cascade' }),
  kind: varchar('kind', { length: 8 }).notNull(),
  name: varchar('name', { length: 128 }).notNull(),
  priceFen: integer('price_fen').notNull().default(0),
  bonusFen: integer('bonus_fen').notNull().default(0),
  reports: integer('reports').notNull().default(0),
  days: integer('days').notNull().default(0),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [
  check('charge_packages_kind_ck', sql`${t.kind} in ('single', 'plan', 'credit')`),
  check('charge_packages_amounts_ck', sql`${t.priceFen} >= 0 and ${t.bonusFen} >= 0 and ${t.reports} >= 0 and ${t.days} >= 0`),
]);

/**
 * One attempt to collect money through a channel that answers later (weixin): a pre-paid order with its QR code.
 * An expired code is closed and replaced by a new charge order (a new outTradeNo), never reused. `orderId` is the
 * application it pays (single or plan bought for it), null for a credit recharge. Status: created (QR shown),
 * paid, closed (expired or replaced), failed.
 */
export const chargeOrders = pgTable('charge_orders', {
  id: serial('id').primaryKey(),
  outTradeNo: varchar('out_trade_no', { length: 32 }).notNull(),
  provider: varchar('provider', { length: 16 }).notNull(),
  groupId: integer('group_id').notNull().references(() => groups.id),
  orderId: integer('order_id').references(() => reportOrders.id, { onDelete: 'set null' }),
  packageId: integer('package_id').notNull().references(() => chargePackages.id),
  accountId: integer('account_id').notNull().references(() => accounts.id),
  amountFen: integer('amount_fen').notNull(),
  description: varchar('description', { length: 128 }).notNull(),
  status: varchar('status', { length: 8 }).notNull().default('created'),
  codeUrl: text('code_url'),
  expiresAt: ts('expires_at').notNull(),
  transactionId: varchar('transaction_id', { length: 64 }),
  paidAt: ts('paid_at'),
  /** Money that arrived for an application already paid another way: returned at once (refund number). */
  returnedRefundNo: varchar('returned_refund_no', { length: 64 }),
  created: created(),
}, (t) => [
  uniqueIndex('charge_orders_out_trade_no_uq').on(t.outTradeNo),
  uniqueIndex('charge_orders_transaction_uq').on(t.transactionId),
  index('charge_orders_order_idx').on(t.orderId),
  index('charge_orders_group_idx').on(t.groupId, t.id),
  // Statistics: a group's money received in a period.
  index('charge_orders_group_paid_idx').on(t.groupId, t.paidAt).where(sql`${t.paidAt} is not null`),
  check('charge_orders_status_ck', sql`${t.status} in ('created', 'paid', 'closed', 'failed')`),
  check('charge_orders_amount_ck', sql`${t.amountFen} > 0`),
]);

/** A group's plan bought on the charge page: reportsUsed counts the applications it paid. */
export const planSubscriptions = pgTable('plan_subscriptions', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  packageId: integer('package_id').notNull().references(() => chargePackages.id),
  chargeOrderId: integer('charge_order_id').references(() => chargeOrders.id),
  reportsTotal: integer('reports_total').notNull(),
  reportsUsed: integer('reports_used').notNull().default(0),
  startsAt: ts('starts_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  created: created(),
}, (t) => [
  uniqueIndex('plan_subscriptions_charge_uq').on(t.chargeOrderId),
  index('plan_subscriptions_group_idx').on(t.groupId, t.expiresAt),
  check('plan_subscriptions_used_ck', sql`${t.reportsUsed} >= 0 and ${t.reportsUsed} <= ${t.reportsTotal}`),
]);

/** A group's credit balance (areas §3 credit; enableCredit). Never below zero: the check is the last guard. */
export const groupCredits = pgTable('group_credits', {
  groupId: integer('group_id').primaryKey().references(() => groups.id, { onDelete: 'cascade' }),
  balanceFen: integer('balance_fen').notNull().default(0),
  version: integer('version').notNull().default(1),
  updated: ts('updated'),
}, (t) => [check('group_credits_balance_ck', sql`${t.balanceFen} >= 0`)]);

/**
 * Every movement of a group's credit, append-only (nothing updates or deletes a row): recharge (+), charge (−, an
 * application paid), refund (+, an application refunded), adjust (±, by an administrator). balanceAfterFen is
 * the balance right after it, so the ledger alone proves the balance. `idempotencyKey` makes a repeated call
 * one movement.
 */
export const creditLedger = pgTable('credit_ledger', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => groups.id, { onDelete: 'cascade' }),
  kind: varchar('kind', { length: 8 }).notNull(),
  amountFen: integer('amount_fen').notNull(),
  balanceAfterFen: integer('balance_after_fen').notNull(),
  orderId: integer('order_id').references(() => reportOrders.id, { onDelete: 'set null' }),
  chargeOrderId: integer('charge_order_id').references(() => chargeOrders.id),
  accountId: integer('account_id').references(() => accounts.id),
  idempotencyKey: varchar('idempotency_key', { length: 96 }),
  note: varchar('note', { length: 256 }),
  created: created(),
}, (t) => [
  index('credit_ledger_group_idx').on(t.groupId, t.id),
  uniqueIndex('credit_ledger_idempotency_uq').on(t.groupId, t.idempotencyKey),
  // One charge and one refund per application at most; one recharge per charge order.
  uniqueIndex('credit_ledger_order_kind_uq').on(t.orderId, t.kind).where(sql`${t.orderId} is not null`),
  uniqueIndex('credit_ledger_charge_order_uq').on(t.chargeOrderId).where(sql`${t.chargeOrderId} is not null`),
  check('credit_ledger_kind_ck', sql`${t.kind} in ('recharge', 'charge', 'refund', 'adjust')`),
  check('credit_ledger_balance_ck', sql`${t.balanceAfterFen} >= 0`),
]);

/** Payment-channel notifications as received, deduplicated by the channel's own id: a repeat changes nothing. */
export const paymentNotifications = pgTable('payment_notifications', {
  id: serial('id').primaryKey(),
  provider: varchar('provider', { length: 16 }).notNull(),
  notificationId: varchar('notification_id', { length: 96 }).notNull(),
  eventType: varchar('event_type', { length: 48 }).notNull(),
  outTradeNo: varchar('out_trade_no', { length: 64 }),
  /** The decrypted resource (never a card or account number: WeChat Pay sends none). */
  resource: jsonb('resource').$type<Record<string, unknown>>().notNull().default({}),
  result: varchar('result', { length: 32 }).notNull(),
  received: created(),
}, (t) => [uniqueIndex('payment_notifications_uq').on(t.provider, t.notificationId)]);

/**
 * Idempotency-Key of the paying calls (apply, pre-paid-order, paid-confirm, credit charge, refund): the first
 * call's answer is kept and given again to a repeat with the same key and body; the same key with another body is
 * refused (IdempotencyKeyReused).
 */
export const idempotencyKeys = pgTable('idempotency_keys', {
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  key: varchar('key', { length: 96 }).notNull(),
  route: varchar('route', { length: 96 }).notNull(),
  requestHash: varchar('request_hash', { length: 64 }).notNull(),
  statusCode: smallint('status_code'),
  response: jsonb('response'),
  created: created(),
}, (t) => [primaryKey({ columns: [t.accountId, t.key] })]);

/**
 * The sandbox channel's own books (server/payments/providers/sandbox.ts), standing in for WeChat Pay's side: kept
 * in the database so a restart (or kill -9) finds a payment the provider took but the product had not yet heard of.
 */
export const sandboxTrades = pgTable('sandbox_trades', {
  outTradeNo: varchar('out_trade_no', { length: 32 }).primaryKey(),
  amountFen: integer('amount_fen').notNull(),
  description: varchar('description', { length: 128 }).notNull(),
  state: varchar('state', { length: 12 }).notNull().default('NOTPAY'),
  transactionId: varchar('transaction_id', { length: 64 }),
  paidAt: ts('paid_at'),
  expiresAt: ts('expires_at').notNull(),
  refundedFen: integer('refunded_fen').notNull().default(0),
  created: created(),
}, (t) => [check('sandbox_trades_state_ck', sql`${t.state} in ('NOTPAY', 'SUCCESS', 'CLOSED', 'PAYERROR', 'REFUND')`)]);
