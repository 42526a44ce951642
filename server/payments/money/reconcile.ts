import { and, asc, eq, gt, lt } from 'drizzle-orm';
import { chargeOrders } from '../../db/schema';
import type { Deps } from '../../deps';
import { settleFromChannel } from './charges';

/**
 * The reconciler: a crash (or a lost notification) can leave a trade the channel took money for while its charge
 * order still says 'created'. On start and every minute it asks the channel about each 'created' charge order
 * younger than a day, and settles what was paid through the one path (applyChannelEvent) or closes what expired.
 * Charge orders younger than GRACE_MS are left to the live flow (the page's paid-confirm, the notification).
 */
export const RECONCILE_EVERY_MS = 60_000;
const MAX_AGE_MS = 24 * 3600_000;
const GRACE_MS = 5_000;
const BATCH = 200;

/** One pass; returns how many charge orders it asked about. Errors of one trade do not stop the others. */
export async function reconcileOnce(deps: Deps, log?: { warn(obj: unknown, msg: string): void }): Promise<number> {
  const now = deps.clock.now().getTime();
  const rows = await deps.db.select().from(chargeOrders).where(and(
    eq(chargeOrders.status, 'created'),
    gt(chargeOrders.created, new Date(now - MAX_AGE_MS)),
    lt(chargeOrders.created, new Date(now - GRACE_MS)),
  )).orderBy(asc(chargeOrders.id)).limit(BATCH);
  for (const row of rows) {
    try {
      await settleFromChannel(deps, row);
    } catch (err) {
      log?.warn({ err, outTradeNo: row.outTradeNo }, 'payments: reconciling a charge order failed; tried again next minute');
    }
  }
  return rows.length;
}

/** Starts the reconciler: a pass now, then every minute; the timer is unref'd and `stop` waits for a pass under way. */
export function startReconciler(deps: Deps, log?: { warn(obj: unknown, msg: string): void }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const pass = () => {
    if (stopped) return;
    running = running.then(() => (stopped ? 0 : reconcileOnce(deps, log))).catch((err) => log?.warn({ err }, 'payments: reconciling failed'));
  };
  pass();
  const timer = setInterval(pass, RECONCILE_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
