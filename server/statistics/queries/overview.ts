import { sql, type SQL } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import { consultations, reportOrders } from '../../db/schema';
import { maybe, num, percent, seriesOf, statColumns, topSeries } from '../result';
import type { StatBody, StatContext } from '../types';
import { inScope, inWindow, periodOf } from '../window';
import {
  accountNames, EXAM_COUNTS, examsWithReports, grouped, idOf, level, meanOf, medianOf, minutes, ordered, POSITIVE_PARTS, type Row,
} from './shared';

const MAX_PEOPLE = 50;

/**
 * The group overview (statistics.md §10–12, allowOverview): the exams of the window with their reports, and the
 * organisations' activity — consultations they applied for, report orders they sent (created in the window) and the
 * money of those paid in the window (consultations_applied_created_idx, report_orders_from_bucket_created_idx).
 */

/** Consultations, applications and paid orders of the counted organisations, each put in its organisation's period. */
function activity({ scope, window }: StatContext): SQL {
  const c = consultations; const o = reportOrders;
  return sql`select 'consultations' as kind, ${c.appliedBucketId} as bucket_id, ${periodOf(window, c.created, c.appliedBucketId)} as period, 0 as fen
      from ${c} where ${inScope(scope, c.appliedBucketId)} and ${inWindow(window, c.created, c.appliedBucketId)}
    union all
    select 'applications', ${o.fromBucketId}, ${periodOf(window, o.created, o.fromBucketId)}, 0
      from ${o} where ${inScope(scope, o.fromBucketId)} and ${inWindow(window, o.created, o.fromBucketId)}
    union all
    select 'paid', ${o.fromBucketId}, ${periodOf(window, o.paidAt, o.fromBucketId)}, ${o.amountFen}
      from ${o} where ${o.paidAt} is not null and ${inScope(scope, o.fromBucketId)} and ${inWindow(window, o.paidAt, o.fromBucketId)}`;
}
const ACTIVITY = sql`count(*) as n, coalesce(sum(x.fen), 0) as fen`;

/** The positive share of the approved reports among the exams (positive / (positive + negative)). */
const positiveRateOf = (r: Row) => percent(num(r.positive), num(r.positive) + num(r.negative));

export async function overviewTotalStat(ctx: StatContext): Promise<StatBody> {
  const measures = sql`${EXAM_COUNTS}, ${POSITIVE_PARTS},
    ${medianOf(minutes('first_time', 'exam_time'))} as first_median, ${medianOf(minutes('approved_time', 'exam_time'))} as approval_median`;
  const examRows = await grouped(ctx.db, examsWithReports(ctx), ['period'], [['period'], []], measures);
  const acts = await grouped(ctx.db, activity(ctx), ['kind', 'period'], [['kind', 'period'], ['kind']], ACTIVITY);

  const act = (kind: string, period: string | null, field: 'n' | 'fen') =>
    num(acts.find((r) => r.kind === kind && (period === null ? !r.by.has('period') : r.by.has('period') && r.period === period))?.[field]);
  const figures = (r: Row | undefined, period: string | null) => ({
    exams: num(r?.exams), reported: num(r?.reported), approved: num(r?.approved), positiveRate: r ? positiveRateOf(r) : null,
    firstReportMedian: maybe(r?.first_median), approvalMedian: maybe(r?.approval_median),
    consultations: act('consultations', period, 'n'), applications: act('applications', period, 'n'), paidFen: act('paid', period, 'fen'),
  });
  const byPeriod = new Map(level(examRows, 'period').map((r) => [String(r.period), r]));
  // One row per period of the axis, in time order (a table of periods reads by time, not by size).
  const rows: Record<string, StatCell>[] = ctx.window.periods.map((p) => ({ period: p, ...figures(byPeriod.get(p), p) }));
  const series = seriesOf(ctx.window.periods, [...byPeriod.values()].flatMap((r) => [
    { period: String(r.period), key: 'exams', value: num(r.exams) }, { period: String(r.period), key: 'approved', value: num(r.approved) },
  ]), { kind: 'count', keys: ['exams', 'approved'] });
  return {
    series,
    columns: statColumns({
      period: 'text', exams: 'count', reported: 'count', approved: 'count', positiveRate: 'percent',
      firstReportMedian: 'minutes', approvalMedian: 'minutes', consultations: 'count', applications: 'count', paidFen: 'fen',
    }),
    rows,
    totals: figures(level(examRows)[0], null),
  };
}

/**
 * Radiologists: each exam's report counts once for its writer (creator_id: reported when submitted or approved,
 * positive, the mean minutes to the first report) and once for its approver (issuer_id: approved). A lateral pair
 * of rows per report, so both roles come from one aggregate.
 */
export async function overviewUserStat(ctx: StatContext): Promise<StatBody> {
  const inner = sql`select x.*, p.account_id, p.as_writer from (${examsWithReports(ctx, { innerJoin: true })}) x
    cross join lateral (values (x.creator_id, true), (x.issuer_id, false)) as p(account_id, as_writer) where p.account_id is not null`;
  const measures = sql`count(*) filter (where x.as_writer and x.first_time is not null) as reported,
    count(*) filter (where not x.as_writer and x.approved_time is not null) as approved,
    count(*) filter (where x.as_writer and x.first_time is not null and x.positive) as positive,
    ${meanOf(minutes('first_time', 'exam_time'))} filter (where x.as_writer) as first_mean`;
  const all = await grouped(ctx.db, inner, ['account_id', 'period'], [['account_id', 'period'], ['account_id'], []], measures);
  const names = await accountNames(ctx.db, level(all, 'account_id').map((r) => idOf(r.account_id)));
  const nameOf = (id: number) => names.get(id) ?? String(id);

  const figures = (r: Row | undefined) => ({ reported: num(r?.reported), approved: num(r?.approved), positive: num(r?.positive), firstReportMean: maybe(r?.first_mean) });
  const people = level(all, 'account_id').filter((r) => num(r.reported) + num(r.approved) > 0);
  const rows: Record<string, StatCell>[] = ordered(people.map((r) => ({ radiologist: nameOf(idOf(r.account_id)!), ...figures(r) })), 'reported', 'radiologist')
    .slice(0, MAX_PEOPLE);
  const writers = new Set(people.filter((r) => num(r.reported) > 0).map((r) => idOf(r.account_id)));
  const series = topSeries(seriesOf(ctx.window.periods, level(all, 'account_id', 'period').filter((r) => writers.has(idOf(r.account_id))).map((r) => ({
    period: String(r.period), key: `account-${idOf(r.account_id)}`, value: num(r.reported),
  })), { kind: 'count', labelOf: (key) => nameOf(Number(key.slice('account-'.length))) }));
  return {
    series,
    columns: statColumns({ radiologist: 'text', reported: 'count', approved: 'count', positive: 'count', firstReportMean: 'minutes' }),
    rows,
    totals: figures(level(all)[0]),
  };
}

/** Organisations: every counted organisation's exams, reports and activity; the series are the 8 busiest (and `others`). */
export async function overviewBucketStat(ctx: StatContext): Promise<StatBody> {
  const examRows = await grouped(ctx.db, examsWithReports(ctx), ['bucket_id', 'period'], [['bucket_id', 'period'], ['bucket_id'], []], sql`${EXAM_COUNTS}, ${POSITIVE_PARTS}`);
  const acts = await grouped(ctx.db, activity(ctx), ['kind', 'bucket_id'], [['kind', 'bucket_id'], ['kind']], ACTIVITY);
  const act = (kind: string, bucketId: number | null) =>
    num(acts.find((r) => r.kind === kind && (bucketId === null ? !r.by.has('bucket_id') : r.by.has('bucket_id') && idOf(r.bucket_id) === bucketId))?.n);

  const byBucket = new Map(level(examRows, 'bucket_id').map((r) => [idOf(r.bucket_id)!, r]));
  const figures = (r: Row | undefined, bucketId: number | null) => ({
    exams: num(r?.exams), reported: num(r?.reported), approved: num(r?.approved), positiveRate: r ? positiveRateOf(r) : null,
    consultations: act('consultations', bucketId), applications: act('applications', bucketId),
  });
  const rows: Record<string, StatCell>[] = ordered(ctx.scope.bucketIds.map((id) => ({ organization: ctx.scope.names.get(id) ?? String(id), ...figures(byBucket.get(id), id) })), 'exams', 'organization');
  const series = topSeries(seriesOf(ctx.window.periods, level(examRows, 'bucket_id', 'period').map((r) => ({
    period: String(r.period), key: `bucket-${idOf(r.bucket_id)}`, value: num(r.exams),
  })), { kind: 'count', keys: ctx.scope.bucketIds.map((id) => `bucket-${id}`), labelOf: (key) => ctx.scope.names.get(Number(key.slice('bucket-'.length))) ?? key }));
  return {
    series,
    columns: statColumns({
      organization: 'text', exams: 'count', reported: 'count', approved: 'count',
      positiveRate: 'percent', consultations: 'count', applications: 'count',
    }),
    rows,
    totals: figures(level(examRows)[0], null),
  };
}
