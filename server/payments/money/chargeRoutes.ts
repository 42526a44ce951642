import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idParam } from '../../../contract/common';
import { applyChargeInput, chargeListQuery, packagesQuery, prePaidQuery, type ChargeOrderView, type ChargePackage, type PaymentStatusView } from '../../../contract/payments';
import { authOf } from '../../auth/plugin';
import type { Db } from '../../db/client';
import { chargeOrders, chargePackages } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { parse } from '../../http/validate';
import { orderDetail } from '../requests/load';
import { chargeView, closeCharge, createCharge, packageFor, packagesOf, packageView, paymentStatus, settleFromChannel } from './charges';
import { withIdempotency } from './idempotency';
import { assertPaymentAction, assertReads, orderRow, targetBucketIds, type OrderRow } from './orders';
import type { ChargeRow } from './settle';

/** The charge routes (areas §7 "Charge"): packages, a charge's QR code (made or reused), its status, paid-confirm; the rules are ./charges.ts. */

async function packageNames(db: Db, rows: readonly ChargeRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.packageId))];
  if (ids.length === 0) return new Map();
  const pkgs = await db.select({ id: chargePackages.id, name: chargePackages.name }).from(chargePackages).where(inArray(chargePackages.id, ids));
  return new Map(pkgs.map((p) => [p.id, p.name]));
}

async function viewsOf(db: Db, rows: readonly ChargeRow[]): Promise<ChargeOrderView[]> {
  const names = await packageNames(db, rows);
  return rows.map((r) => chargeView(r, names.get(r.packageId) ?? ''));
}

/** The live charge of an application: the newest 'created' one not yet expired (optionally of one package). */
async function liveCharge(deps: Deps, orderId: number, packageId?: number): Promise<ChargeRow | null> {
  const [row] = await deps.db.select().from(chargeOrders).where(and(eq(chargeOrders.orderId, orderId), eq(chargeOrders.status, 'created')))
    .orderBy(desc(chargeOrders.id)).limit(1);
  if (!row || row.codeUrl === null) return null;
  if (row.expiresAt.getTime() <= deps.clock.now().getTime()) return null;
  if (packageId !== undefined && row.packageId !== packageId) return null;
  return row;
}

const prePaidBody = z.object({ refresh: z.boolean().optional(), packageId: z.number().int().min(1).optional() }).strict();

export async function chargeRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  /** An application the account may pay now (the machine's pay), with its targets. */
  async function payable(req: FastifyRequest, id: number): Promise<OrderRow> {
    const access = await authOf(req).access();
    const row = await orderRow(db, id);
    assertPaymentAction(access, row, await targetBucketIds(db, id), 'pay');
    return row;
  }

  async function readable(req: FastifyRequest, id: number): Promise<OrderRow> {
    const access = await authOf(req).access();
    const row = await orderRow(db, id);
    assertReads(access, row, await targetBucketIds(db, id));
    return row;
  }

  app.get('/packages/query', async (req): Promise<ChargePackage[]> => {
    const q = parse(packagesQuery, req.query);
    if (q.orderId !== undefined) {
      const row = await readable(req, q.orderId);
      const kinds = q.kind ? [q.kind] : ['single', 'plan'];
      return (await packagesOf(db, [row.groupId], kinds)).map((p) => packageView(p, row));
    }
    const access = await authOf(req).access();
    const groupIds = [...new Set([...access.buckets.values()].map((b) => b.groupId))];
    return (await packagesOf(db, groupIds, [q.kind ?? 'credit'])).map((p) => packageView(p));
  });

  async function prePaid(req: FastifyRequest, id: number, o: { refresh: boolean; packageId?: number }): Promise<ChargeOrderView> {
    const row = await payable(req, id);
    if (!o.refresh) {
      const live = await liveCharge(deps, id, o.packageId);
      if (live) return (await viewsOf(db, [live]))[0]!;
    }
    const pkg = await packageFor(db, row.groupId, o.packageId === undefined ? ['single'] : ['single', 'plan'], o.packageId);
    return createCharge(deps, req, { order: row, groupId: row.groupId, pkg, accountId: authOf(req).account.id });
  }

  app.post('/charge/apply-charge', async (req, reply) => {
    const input = parse(applyChargeInput, req.body);
    const answer = await withIdempotency(req, 'charge/apply-charge', async () => {
      const row = await payable(req, input.orderId);
      const pkg = await packageFor(db, row.groupId, ['single', 'plan'], input.packageId);
      return { status: 201, body: await createCharge(deps, req, { order: row, groupId: row.groupId, pkg, accountId: authOf(req).account.id }) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });

  app.get('/charge/:id/detail', async (req) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const order = await orderDetail(db, access, id);
    const [charge] = await db.select().from(chargeOrders).where(eq(chargeOrders.orderId, id)).orderBy(desc(chargeOrders.id)).limit(1);
    return { order, charge: charge ? (await viewsOf(db, [charge]))[0]! : null };
  });

  app.get('/charge/:id/pre-paid-order', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const q = parse(prePaidQuery, req.query);
    const answer = await withIdempotency(req, `charge/${id}/pre-paid-order`, async () => ({ status: 200, body: await prePaid(req, id, { refresh: q.refresh === '1', packageId: q.packageId }) }), db);
    reply.status(answer.status);
    return answer.body;
  });

  app.post('/report-requests/:id/pre-paid-order', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const body = parse(prePaidBody, req.body ?? {});
    const answer = await withIdempotency(req, `report-requests/${id}/pre-paid-order`, async () => ({ status: 200, body: await prePaid(req, id, { refresh: body.refresh ?? false, packageId: body.packageId }) }), db);
    reply.status(answer.status);
    return answer.body;
  });

  app.get('/charge/:id/payment-status', async (req) => {
    const { id } = parse(idParam, req.params);
    return paymentStatus(db, await authOf(req).access(), id);
  });

  async function paidConfirm(req: FastifyRequest, id: number): Promise<PaymentStatusView> {
    await readable(req, id);
    const open = await db.select().from(chargeOrders).where(and(eq(chargeOrders.orderId, id), eq(chargeOrders.status, 'created')));
    for (const charge of open) await settleFromChannel(deps, charge);
    return paymentStatus(db, await authOf(req).access(), id);
  }

  app.post('/charge/:id/paid-confirm', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const answer = await withIdempotency(req, `charge/${id}/paid-confirm`, async () => ({ status: 200, body: await paidConfirm(req, id) }), db);
    reply.status(answer.status);
    return answer.body;
  });

  app.post('/report-requests/:id/paid-confirm', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const answer = await withIdempotency(req, `report-requests/${id}/paid-confirm`, async () => ({ status: 200, body: await paidConfirm(req, id) }), db);
    reply.status(answer.status);
    return answer.body;
  });

  app.get('/charge/request', async (req) => {
    const q = parse(chargeListQuery, req.query);
    const me = authOf(req).account.id;
    const [rows, [total]] = await Promise.all([
      db.select().from(chargeOrders).where(eq(chargeOrders.accountId, me)).orderBy(desc(chargeOrders.id)).limit(q.limit).offset(q.skip),
      db.select({ n: count() }).from(chargeOrders).where(eq(chargeOrders.accountId, me)),
    ]);
    return { items: await viewsOf(db, rows), total: Number(total?.n ?? 0) };
  });

  app.delete('/charge/:id/delete', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const row = await orderRow(db, id);
    const targets = await targetBucketIds(db, id);
    assertReads(access, row, targets);
    // Closing the code is the payer's: the applicant organisation's members with the applying action.
    if (row.paymentStatus === 0) assertPaymentAction(access, row, targets, 'pay');
    else if (!access.buckets.has(row.fromBucketId)) throw new ApiError('Forbidden');
    const open = await db.select().from(chargeOrders).where(and(eq(chargeOrders.orderId, id), eq(chargeOrders.status, 'created')));
    for (const charge of open) await closeCharge(deps, charge);
    reply.status(204).send();
  });
}
