import { sql } from 'drizzle-orm';
import { buckets, reportOrders, reportOrderTargets } from '../../db/schema';
import { addUp, num, ROWS_MAX, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { inScope, inWindow, periodOf } from '../window';
import { byCountThenName, rowsOf } from './rank';

const TYPES = ['type-expert', 'type-remote'] as const;

const COLUMNS = statColumns({
  type: 'code', target: 'text', applications: 'count', paid: 'count',
  refunded: 'count', withdrawn: 'count', amountFen: 'fen',
});

interface Counts { applications: unknown; paid: unknown; refunded: unknown; withdrawn: unknown; amount_fen: unknown }

/**
 * Expert and remote report applications (statistics/remote-report): report orders of the counted organisations
 * (from_bucket_id) by `created`, on the applying organisation's day. Paid: ever paid (paid_at set, a later refund
 * included); refunded: the refund completed (refund_at is set only then); withdrawn: the request's progress; the
 * money kept is what was paid and not refunded (a refund is always full).
 *
 * Two statements: the orders by period and type (the series and the totals: an application with two expert
 * organisations is one application), and the orders by type and target organisation through report_order_targets
 * (the table: one row per type × target, the target's own price as its money).
 */
export async function remoteReportStat({ db, scope, window: w }: StatContext): Promise<StatBody> {
  const where = sql`${inScope(scope, reportOrders.fromBucketId)} and ${inWindow(w, reportOrders.created, reportOrders.fromBucketId)}`;
  const kept = sql`${reportOrders.paidAt} is not null and ${reportOrders.refundAt} is null`;
  const counts = sql`count(*) as applications,
      count(${reportOrders.paidAt}) as paid,
      count(${reportOrders.refundAt}) as refunded,
      count(*) filter (where ${reportOrders.progress} = 'withdrawn') as withdrawn`;

  const [perPeriod, perTarget] = await Promise.all([
    rowsOf<Counts & { period: string; type: string }>(db, sql`
      select ${periodOf(w, reportOrders.created, reportOrders.fromBucketId)} as period, ${reportOrders.type} as type, ${counts},
        coalesce(sum(${reportOrders.amountFen}) filter (where ${kept}), 0) as amount_fen
      from ${reportOrders}
      where ${where}
      group by 1, 2`),
    rowsOf<Counts & { type: string; target: string }>(db, sql`
      select ${reportOrders.type} as type, ${buckets.name} as target, ${counts},
        coalesce(sum(${reportOrderTargets.priceFen}) filter (where ${kept}), 0) as amount_fen
      from ${reportOrders}
      join ${reportOrderTargets} on ${reportOrderTargets.orderId} = ${reportOrders.id}
      join ${buckets} on ${buckets.id} = ${reportOrderTargets.bucketId}
      where ${where}
      group by ${reportOrders.type}, ${reportOrderTargets.bucketId}, ${buckets.name}`),
  ]);

  const figures = (r: Counts) => ({
    applications: num(r.applications), paid: num(r.paid), refunded: num(r.refunded), withdrawn: num(r.withdrawn), amountFen: num(r.amount_fen),
  });
  const rows = perTarget.map((r) => ({ type: `type-${r.type}`, target: r.target, ...figures(r) }))
    .sort(byCountThenName((r) => r.applications, (r) => `${r.target} ${r.type}`));
  const totals = addUp(perPeriod.map(figures), ['applications', 'paid', 'refunded', 'withdrawn', 'amountFen']);
  return {
    series: seriesOf(w.periods, perPeriod.map((r) => ({ period: r.period, key: `type-${r.type}`, value: num(r.applications) })), { kind: 'count', keys: TYPES }),
    columns: COLUMNS,
    rows: rows.slice(0, ROWS_MAX),
    totals,
  };
}
