import { sql } from 'drizzle-orm';
import { CONSULTATION_STATUS } from '../../../contract/consultations';
import { buckets, consultations } from '../../db/schema';
import { addUp, maybe, num, ROWS_MAX, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { inScope, inWindow, periodOf } from '../window';
import { byCountThenName, rowsOf } from './rank';

const STATUS_KEYS = [0, 1, 2, 3, 4].map((s) => `status-${s}`);

// ratingMean, a mean of 1..5 stars: a number shown as it is, one decimal.
const COLUMNS = statColumns({
  target: 'text', requested: 'count', completed: 'count', canceled: 'count',
  open: 'count', completionMean: 'minutes', ratingMean: 'count',
});

interface Raw {
  period: string; status: number; target_id: number; target: string; n: unknown;
  done_minutes: unknown; done_n: unknown; rating_sum: unknown; rating_n: unknown;
}

interface Target { target: string; requested: number; completed: number; canceled: number; open: number; doneMinutes: number; doneN: number; ratingSum: number; ratingN: number }

/**
 * Consultations (statistics/consul) created in the period whose applying or target organisation is counted. Two
 * scans joined by UNION ALL, so each is an index range of its own (consultations_applied_created_idx,
 * consultations_target_created_idx): those applied by a counted organisation (on its day), and those asked of one
 * that were applied elsewhere (on the target's day) — none counted twice. One statement grouped by period, status
 * and target; the series, the table and the totals fold from it (sums and counts, so the means over the whole range
 * are means over consultations, not of the rows).
 */
export async function consulStat({ db, scope, window: w }: StatContext): Promise<StatBody> {
  const c = consultations;
  const fields = sql`${c.status} as status, ${c.targetBucketId} as target_id, ${c.created} as created, ${c.approvedAt} as approved_at, ${c.rating} as rating`;
  const raw = await rowsOf<Raw>(db, sql`
    select x.period, x.status, x.target_id, ${buckets.name} as target, count(*) as n,
      sum(extract(epoch from (x.approved_at - x.created)) / 60) filter (where x.status = ${CONSULTATION_STATUS.completed} and x.approved_at is not null) as done_minutes,
      count(*) filter (where x.status = ${CONSULTATION_STATUS.completed} and x.approved_at is not null) as done_n,
      sum(x.rating) as rating_sum, count(x.rating) as rating_n
    from (
      select ${periodOf(w, c.created, c.appliedBucketId)} as period, ${fields}
      from ${c}
      where ${inScope(scope, c.appliedBucketId)} and ${inWindow(w, c.created, c.appliedBucketId)}
      union all
      select ${periodOf(w, c.created, c.targetBucketId)}, ${fields}
      from ${c}
      where ${inScope(scope, c.targetBucketId)} and not (${inScope(scope, c.appliedBucketId)}) and ${inWindow(w, c.created, c.targetBucketId)}
    ) x
    join ${buckets} on ${buckets.id} = x.target_id
    group by x.period, x.status, x.target_id, ${buckets.name}`);

  const targets = new Map<number, Target>();
  for (const r of raw) {
    const t = targets.get(r.target_id) ?? { target: r.target, requested: 0, completed: 0, canceled: 0, open: 0, doneMinutes: 0, doneN: 0, ratingSum: 0, ratingN: 0 };
    const n = num(r.n);
    const status = Number(r.status);
    t.requested += n;
    if (status === CONSULTATION_STATUS.completed) t.completed += n;
    else if (status === CONSULTATION_STATUS.canceled) t.canceled += n;
    else t.open += n;
    t.doneMinutes += num(r.done_minutes);
    t.doneN += num(r.done_n);
    t.ratingSum += num(r.rating_sum);
    t.ratingN += num(r.rating_n);
    targets.set(r.target_id, t);
  }
  const all = [...targets.values()];
  const figures = (t: Omit<Target, 'target'>) => ({
    requested: t.requested, completed: t.completed, canceled: t.canceled, open: t.open,
    completionMean: t.doneN > 0 ? maybe(t.doneMinutes / t.doneN) : null,
    ratingMean: t.ratingN > 0 ? maybe(t.ratingSum / t.ratingN) : null,
  });
  const whole = addUp(all, ['requested', 'completed', 'canceled', 'open', 'doneMinutes', 'doneN', 'ratingSum', 'ratingN']);
  return {
    series: seriesOf(w.periods, raw.map((r) => ({ period: r.period, key: `status-${Number(r.status)}`, value: num(r.n) })), { kind: 'count', keys: STATUS_KEYS }),
    columns: COLUMNS,
    rows: all.sort(byCountThenName((t) => t.requested, (t) => t.target)).slice(0, ROWS_MAX).map((t) => ({ target: t.target, ...figures(t) })),
    totals: figures(whole),
  };
}
