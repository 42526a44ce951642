import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';
import { chargeRoutes } from './chargeRoutes';
import { creditRoutes } from './credits';
import { planRoutes } from './plans';
import { startReconciler } from './reconcile';
import { refundRoutes } from './refund';

/**
 * Payments area, money part (/work/notes/payments.md "Money"): charges and packages, plans, credits, refunds, and the
 * reconciler that settles what the channel took while the server was down (started when the app is ready, stopped
 * when it closes).
 */
export async function moneyRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await chargeRoutes(app, { deps });
  await planRoutes(app, { deps });
  await creditRoutes(app, { deps });
  await refundRoutes(app, { deps });
  let reconciler: { stop(): Promise<void> } | null = null;
  app.addHook('onReady', async () => {
    reconciler = startReconciler(deps, app.log);
  });
  app.addHook('onClose', async () => {
    await reconciler?.stop();
  });
}
