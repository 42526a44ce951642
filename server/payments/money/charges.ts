import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  PAYMENT_CODE_TTL_MS,
  type ChargeOrderView, type ChargePackage, type ChargeStatus, type PaymentStatus, type PaymentStatusView, type RequestProgress,
} from '../../../contract/payments';
import type { Access } from '../../access/access';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/client';
import { chargeOrders, chargePackages } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { notifyUrlOf, paymentProvider } from '../providers/index';
import { crashAt } from './fault';
import { assertReads, orderRow, type OrderRow } from './orders';
import type { ChannelTrade } from '../providers/provider';
import { applyChannelEvent, type ChargeRow } from './settle';

/**
 * Paying an application through the QR channel (areas §7 "Charge"): packages, charge orders (one per QR attempt:
 * an expired or replaced code is closed at the channel and a new one made), the status the charge page polls, and
 * paid-confirm, which asks the channel and settles through the one path (applyChannelEvent).
 */

export function originOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/** 'C' + yyyymmdd (server time zone) + the id zero-padded to 8: what the channel sees. */
export function outTradeNoOf(id: number, at: Date): string {
  const day = `${at.getFullYear()}${String(at.getMonth() + 1).padStart(2, '0')}${String(at.getDate()).padStart(2, '0')}`;
  return `C${day}${String(id).padStart(8, '0')}`;
}

type PackageRow = typeof chargePackages.$inferSelect;

export function chargeView(row: ChargeRow, packageName: string): ChargeOrderView {
  return {
    id: row.id, outTradeNo: row.outTradeNo, provider: row.provider === 'wechat' ? 'wechat' : 'sandbox', orderId: row.orderId, packageId: row.packageId,
    packageName, amountFen: row.amountFen, description: row.description, status: row.status as ChargeStatus, codeUrl: row.codeUrl,
    expiresAt: row.expiresAt.toISOString(), paidAt: row.paidAt?.toISOString() ?? null, created: row.created.toISOString(),
  };
}

export function packageView(row: PackageRow, order?: Pick<OrderRow, 'amountFen'>): ChargePackage {
  return {
    id: row.id, kind: row.kind as ChargePackage['kind'], name: row.name, priceFen: row.kind === 'single' && order ? order.amountFen : row.priceFen,
    bonusFen: row.bonusFen, reports: row.reports, days: row.days,
  };
}

/** The active packages offered to a group (its own and those offered to every group), in their order. */
export async function packagesOf(db: Db, groupIds: readonly number[], kinds: readonly string[]): Promise<PackageRow[]> {
  return db.select().from(chargePackages).where(and(
    eq(chargePackages.active, true), inArray(chargePackages.kind, [...kinds]),
    groupIds.length ? or(isNull(chargePackages.groupId), inArray(chargePackages.groupId, [...groupIds])) : isNull(chargePackages.groupId),
  )).orderBy(asc(chargePackages.sortOrder), asc(chargePackages.id));
}

export async function packageFor(db: Db, groupId: number, kinds: readonly string[], packageId?: number): Promise<PackageRow> {
  const offered = await packagesOf(db, [groupId], kinds);
  const pkg = packageId === undefined ? offered.find((p) => p.kind === kinds[0]) : offered.find((p) => p.id === packageId);
  if (!pkg) throw new ApiError(packageId === undefined ? 'PaymentInfoMissing' : 'OrderInvalid', 'No such package for this group', { reason: 'package' });
  return pkg;
}

/** What a package costs for this application (single: the application's amount; plan, credit: the package's price). */
const amountOf = (pkg: PackageRow, order: Pick<OrderRow, 'amountFen'> | null) => (pkg.kind === 'single' ? order?.amountFen ?? 0 : pkg.priceFen);

/**
 * Opens a QR trade for `pkg` (paying `order`, or a credit recharge when null): the older open trades of the same
 * application are closed at the channel first, the charge row saved, then the channel's code asked for. A channel that
 * fails leaves the row 'failed'.
 */
export async function createCharge(deps: Deps, req: FastifyRequest, c: { order: OrderRow | null; groupId: number; pkg: PackageRow; accountId: number }): Promise<ChargeOrderView> {
  const amountFen = amountOf(c.pkg, c.order);
  if (amountFen <= 0) throw new ApiError('OrderInvalid', 'Nothing to pay', { reason: 'amount' });
  const provider = paymentProvider(deps);
  const now = deps.clock.now();
  const { row, replaced } = await deps.db.transaction(async (tx) => {
    if (c.order) {
      const locked = await orderRow(tx, c.order.id, { lock: true });
      if (locked.paymentStatus !== 0) throw new ApiError('OrderAlreadyPaid');
      if (locked.progress === 'withdrawn') throw new ApiError('OrderInvalid', 'The application was withdrawn', { reason: 'withdrawn' });
    }
    const replaced = c.order ? await tx.select().from(chargeOrders).where(and(eq(chargeOrders.orderId, c.order.id), eq(chargeOrders.status, 'created'))) : [];
    const next = await tx.execute(sql`select nextval(pg_get_serial_sequence('charge_orders', 'id')) as id`);
    const id = Number((next as unknown as { rows: { id: string | number }[] }).rows[0]!.id);
    const description = (c.order ? `${c.pkg.name} ${c.order.requestNo}` : c.pkg.name).slice(0, 128);
    const [row] = await tx.insert(chargeOrders).values({
      id, outTradeNo: outTradeNoOf(id, now), provider: provider.name, groupId: c.groupId, orderId: c.order?.id ?? null, packageId: c.pkg.id,
      accountId: c.accountId, amountFen, description, status: 'created', expiresAt: new Date(now.getTime() + PAYMENT_CODE_TTL_MS), created: now,
    }).returning();
    await recordAudit(tx, {
      at: now, actorId: c.accountId, bucketId: c.order?.fromBucketId ?? null, area: 'payments', action: 'charge-created', objectType: 'reportOrder',
      objectId: c.order?.id ?? `charge:${id}`, after: { chargeOrderId: id, outTradeNo: row!.outTradeNo, amountFen, packageId: c.pkg.id },
    });
    return { row: row!, replaced };
  });
  for (const old of replaced) await closeCharge(deps, old);
  crashAt('charge-saved');
  try {
    const { codeUrl } = await provider.createNative({
      outTradeNo: row.outTradeNo, description: row.description, amountFen, expiresAt: row.expiresAt, notifyUrl: notifyUrlOf(deps, originOf(req), provider.name),
    });
    await deps.db.update(chargeOrders).set({ codeUrl }).where(eq(chargeOrders.id, row.id));
    return chargeView({ ...row, codeUrl }, c.pkg.name);
  } catch (err) {
    await applyChannelEvent(deps, { kind: 'failed', outTradeNo: row.outTradeNo, reason: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

/**
 * Closes an unpaid trade at the channel and the row ('closed'). A trade the channel says is paid is settled instead
 * (the payer was quicker than the close): never lost.
 */
export async function closeCharge(deps: Deps, charge: ChargeRow): Promise<void> {
  const provider = paymentProvider(deps);
  try {
    await provider.close(charge.outTradeNo);
  } catch {
    // Paid meanwhile, or the channel is down: ask it what it knows, and settle or leave for the reconciler.
    await settleFromChannel(deps, charge);
    return;
  }
  await applyChannelEvent(deps, { kind: 'closed', outTradeNo: charge.outTradeNo });
}

/** What a channel's trade state means for the charge order: settled through the one path, or nothing yet (NOTPAY). */
async function applyTrade(deps: Deps, trade: ChannelTrade): Promise<boolean> {
  const outTradeNo = trade.outTradeNo;
  if (trade.state === 'SUCCESS' || trade.state === 'REFUND') {
    await applyChannelEvent(deps, { kind: 'paid', outTradeNo, transactionId: trade.transactionId ?? outTradeNo, amountFen: trade.amountFen ?? 0, paidAt: trade.paidAt ?? deps.clock.now() });
  } else if (trade.state === 'CLOSED' || trade.state === 'REVOKED') {
    await applyChannelEvent(deps, { kind: 'closed', outTradeNo });
  } else if (trade.state === 'PAYERROR') {
    await applyChannelEvent(deps, { kind: 'failed', outTradeNo, reason: 'PAYERROR' });
  } else {
    return false;
  }
  return true;
}

/** Asks the channel about one trade and applies what it says (paid-confirm, the reconciler). */
export async function settleFromChannel(deps: Deps, charge: Pick<ChargeRow, 'outTradeNo' | 'expiresAt'>): Promise<void> {
  const provider = paymentProvider(deps);
  let trade: ChannelTrade;
  try {
    trade = await provider.query(charge.outTradeNo);
  } catch (err) {
    // The channel never heard of it (the process stopped before the trade was opened): nothing can pay it.
    if (err instanceof ApiError && err.code === 'PaymentChannelError' && (err.details as { channelCode?: string } | undefined)?.channelCode === 'ORDER_NOT_EXIST') {
      await applyChannelEvent(deps, { kind: 'closed', outTradeNo: charge.outTradeNo });
      return;
    }
    throw err;
  }
  if (await applyTrade(deps, trade)) return;
  if (charge.expiresAt.getTime() > deps.clock.now().getTime()) return;
  // NOTPAY past its expiry: closed at the channel so it can no longer be paid.
  try {
    await provider.close(charge.outTradeNo);
  } catch {
    // Refused: the payer was quicker than the close (ORDERPAID). What the channel says now is settled.
    await applyTrade(deps, await provider.query(charge.outTradeNo));
    return;
  }
  await applyChannelEvent(deps, { kind: 'closed', outTradeNo: charge.outTradeNo });
}

interface StatusRow { id: number; payment_status: number; progress: string; from_bucket_id: number; visible: boolean; charge_id: number | null; out_trade_no: string | null; charge_status: string | null; expires_at: string | Date | null }

/** The charge page's poll: one statement on primary keys and the charge orders' order index. */
export async function paymentStatus(db: Db, access: Access, orderId: number): Promise<PaymentStatusView> {
  const mine = [...access.buckets.keys()];
  const inMine = mine.length ? sql`t.bucket_id in (${sql.join(mine.map((b) => sql`${b}`), sql`, `)})` : sql`false`;
  const result = await db.execute(sql`
    select o.id, o.payment_status, o.progress, o.from_bucket_id,
      exists (select 1 from report_order_targets t where t.order_id = o.id and ${inMine}) as visible,
      c.id as charge_id, c.out_trade_no, c.status as charge_status, c.expires_at
    from report_orders o
    left join lateral (select id, out_trade_no, status, expires_at from charge_orders where order_id = o.id order by id desc limit 1) c on true
    where o.id = ${orderId}`);
  const row = (result as unknown as { rows: StatusRow[] }).rows[0];
  if (!row) throw new ApiError('NotFound');
  assertReads(access, { fromBucketId: Number(row.from_bucket_id) }, { anyTarget: Boolean(row.visible) });
  const status = Number(row.payment_status) as PaymentStatus;
  return {
    orderId: Number(row.id), paymentStatus: status, progress: (status === 3 ? 'refunded' : row.progress) as RequestProgress,
    charge: row.charge_id === null ? null : {
      id: Number(row.charge_id), outTradeNo: row.out_trade_no!, status: row.charge_status as ChargeStatus, expiresAt: new Date(row.expires_at!).toISOString(),
    },
  };
}
