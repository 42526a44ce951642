import { sql } from 'drizzle-orm';
import { chargeOrders, reportOrders } from '../../db/schema';
import { addUp, num, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { inScope, inWindow, periodOf } from '../window';
import { byCountThenName, rowsOf } from './rank';

const COLUMNS = statColumns({ channel: 'code', payments: 'count', paidFen: 'fen', refunds: 'count', refundedFen: 'fen' });

type Kind = 'paid' | 'refunded' | 'recharged';
interface Raw { period: string; kind: Kind; channel: string | null; n: unknown; fen: unknown }

/**
 * The group's money (statistics/group-payment), one statement of three parts:
 *  - applications of the group from the counted organisations paid in the period (paid_at, on the applying
 *    organisation's day), by the channel that paid them, with the application's amount (a plan's or a free one's
 *    amount is the application's price it covered, as the order list shows it);
 *  - the same applications refunded in the period (refund_at: set when the refund completed), by their channel;
 *  - the group's credit recharges paid in the period: charge orders with no application (orderId null), on the
 *    scope's day (group-level rows have no organisation). Paying an application by QR is counted once, as the
 *    application's weixin payment, not again as its charge order.
 */
export async function groupPaymentStat({ db, scope, window: w }: StatContext): Promise<StatBody> {
  const ofGroup = sql`${reportOrders.groupId} = ${scope.groupId} and ${inScope(scope, reportOrders.fromBucketId)}`;
  const raw = await rowsOf<Raw>(db, sql`
    select ${periodOf(w, reportOrders.paidAt, reportOrders.fromBucketId)} as period, 'paid' as kind, ${reportOrders.channel} as channel,
      count(*) as n, sum(${reportOrders.amountFen}) as fen
    from ${reportOrders}
    where ${ofGroup} and ${reportOrders.paidAt} is not null and ${inWindow(w, reportOrders.paidAt, reportOrders.fromBucketId)}
    group by 1, 2, 3
    union all
    select ${periodOf(w, reportOrders.refundAt, reportOrders.fromBucketId)}, 'refunded', ${reportOrders.channel},
      count(*), sum(${reportOrders.amountFen})
    from ${reportOrders}
    where ${ofGroup} and ${reportOrders.refundAt} is not null and ${inWindow(w, reportOrders.refundAt, reportOrders.fromBucketId)}
    group by 1, 2, 3
    union all
    select ${periodOf(w, chargeOrders.paidAt)}, 'recharged', 'recharge', count(*), sum(${chargeOrders.amountFen})
    from ${chargeOrders}
    where ${chargeOrders.groupId} = ${scope.groupId} and ${chargeOrders.status} = 'paid' and ${chargeOrders.orderId} is null
      and ${chargeOrders.paidAt} is not null and ${inWindow(w, chargeOrders.paidAt)}
    group by 1, 2, 3`);

  const channels = new Map<string, { channel: string; payments: number; paidFen: number; refunds: number; refundedFen: number }>();
  for (const r of raw) {
    // A paid application always has its channel; 'unknown' only guards a row an old system left without one.
    const channel = `channel-${r.channel ?? 'unknown'}`;
    const c = channels.get(channel) ?? { channel, payments: 0, paidFen: 0, refunds: 0, refundedFen: 0 };
    if (r.kind === 'refunded') { c.refunds += num(r.n); c.refundedFen += num(r.fen); } else { c.payments += num(r.n); c.paidFen += num(r.fen); }
    channels.set(channel, c);
  }
  const rows = [...channels.values()].sort(byCountThenName((c) => c.payments, (c) => c.channel));
  return {
    series: seriesOf(w.periods, raw.map((r) => ({ period: r.period, key: r.kind, value: num(r.fen) })), { kind: 'fen', keys: ['paid', 'refunded', 'recharged'] }),
    columns: COLUMNS,
    rows,
    totals: addUp(rows, ['payments', 'paidFen', 'refunds', 'refundedFen']),
  };
}
