import { and, asc, eq, gt, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { planCheckQuery, planGroupQuery, planUseInput, type ChargePackage, type PlanCheck, type PlanSubscription } from '../../../contract/payments';
import { authOf } from '../../auth/plugin';
import type { Db } from '../../db/client';
import { chargePackages, planSubscriptions } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { parse } from '../../http/validate';
import { orderDetail } from '../requests/load';
import { packagesOf, packageView } from './charges';
import { assertGroupMoneyReader } from './groupAccess';
import { withIdempotency } from './idempotency';
import { assertPaymentAction, assertReads, orderRow, targetBucketIds } from './orders';
import { payFromPlan } from './settle';

/**
 * Plans (areas §7 "Plans"): a plan package bought on the charge page gives the group `reports` expert reports for
 * `days` days; POST plans/use pays an application with one of them (the plan that expires first, so none is wasted).
 */

type SubscriptionRow = typeof planSubscriptions.$inferSelect;

function subscriptionView(row: SubscriptionRow, name: string): PlanSubscription {
  return {
    id: row.id, packageId: row.packageId, name, reportsTotal: row.reportsTotal, reportsUsed: row.reportsUsed,
    startsAt: row.startsAt.toISOString(), expiresAt: row.expiresAt.toISOString(),
  };
}

const live = (groupId: number, now: Date) => and(
  eq(planSubscriptions.groupId, groupId), lte(planSubscriptions.startsAt, now), gt(planSubscriptions.expiresAt, now),
  lt(planSubscriptions.reportsUsed, planSubscriptions.reportsTotal),
);

async function subscriptions(db: Db, where: ReturnType<typeof and>): Promise<PlanSubscription[]> {
  const rows = await db.select({ s: planSubscriptions, name: chargePackages.name }).from(planSubscriptions)
    .innerJoin(chargePackages, eq(chargePackages.id, planSubscriptions.packageId)).where(where)
    .orderBy(asc(planSubscriptions.expiresAt), asc(planSubscriptions.id));
  return rows.map((r) => subscriptionView(r.s, r.name));
}

export async function planRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/plans/available', async (req): Promise<ChargePackage[]> => {
    const access = await authOf(req).access();
    const groupIds = [...new Set([...access.buckets.values()].map((b) => b.groupId))];
    return (await packagesOf(db, groupIds, ['plan'])).map((p) => packageView(p));
  });

  app.get('/plans/check', async (req): Promise<PlanCheck> => {
    const { orderId } = parse(planCheckQuery, req.query);
    const access = await authOf(req).access();
    const row = await orderRow(db, orderId);
    const targets = await targetBucketIds(db, orderId);
    assertReads(access, row, targets);
    const [first] = await subscriptions(db, live(row.groupId, deps.clock.now()));
    return { covered: Boolean(first) && row.paymentStatus === 0 && row.progress !== 'withdrawn' && row.amountFen > 0, subscription: first ?? null };
  });

  app.get('/plans/group-available', async (req): Promise<PlanSubscription[]> => {
    const { groupId } = parse(planGroupQuery, req.query);
    assertGroupMoneyReader(await authOf(req).access(), groupId);
    return subscriptions(db, live(groupId, deps.clock.now()));
  });

  /** The group's plans that are spent: every report used, or past their end. */
  app.get('/plans/dried', async (req): Promise<PlanSubscription[]> => {
    const { groupId } = parse(planGroupQuery, req.query);
    assertGroupMoneyReader(await authOf(req).access(), groupId);
    const now = deps.clock.now();
    return subscriptions(db, and(eq(planSubscriptions.groupId, groupId), or(lte(planSubscriptions.expiresAt, now), sql`${planSubscriptions.reportsUsed} >= ${planSubscriptions.reportsTotal}`)));
  });

  app.post('/plans/use', async (req, reply) => {
    const { orderId } = parse(planUseInput, req.body);
    const access = await authOf(req).access();
    const answer = await withIdempotency(req, 'plans/use', async () => {
      const targets = await targetBucketIds(db, orderId);
      await db.transaction(async (tx) => {
        const row = await orderRow(tx, orderId, { lock: true });
        assertPaymentAction(access, row, targets, 'pay', { channel: 'plan' });
        if (row.amountFen === 0) throw new ApiError('OrderInvalid', 'A free application needs no plan', { reason: 'free' });
        const now = deps.clock.now();
        const [sub] = await tx.select().from(planSubscriptions).where(live(row.groupId, now))
          .orderBy(asc(planSubscriptions.expiresAt), asc(planSubscriptions.id)).limit(1).for('update');
        if (!sub) throw new ApiError('OrderInvalid', 'The group has no plan with a report left', { reason: 'noPlan' });
        await payFromPlan(tx, deps, row.id, sub.id, access.accountId, now);
      });
      return { status: 200, body: await orderDetail(db, access, orderId) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });
}
