import { sql } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import { num, percent, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { approvedReports, grouped, level, ordered } from './shared';

/**
 * Positive rate (statistics.md §4): reports approved in the window, by the modality of their exam: positive,
 * negative, not said (positive is null), and positive / (positive + negative). One statement over
 * reports_stat_approved_idx.
 */
export async function reportPositiveStat(ctx: StatContext): Promise<StatBody> {
  const measures = sql`count(*) as approved, count(*) filter (where x.positive) as positive,
    count(*) filter (where x.positive = false) as negative, count(*) filter (where x.positive is null) as unknown`;
  const all = await grouped(ctx.db, approvedReports(ctx), ['modality', 'period'], [['modality'], ['period'], []], measures);

  const figures = (r: Record<string, unknown>) => {
    const positive = num(r.positive); const negative = num(r.negative);
    return { approved: num(r.approved), positive, negative, unknown: num(r.unknown), positiveRate: percent(positive, positive + negative) };
  };
  const rows: Record<string, StatCell>[] = ordered(level(all, 'modality').map((r) => ({ modality: String(r.modality), ...figures(r) })), 'approved', 'modality');
  const periods = level(all, 'period').map((r) => ({ period: String(r.period), ...figures(r) }));
  const series = [
    ...seriesOf(ctx.window.periods, periods.map((p) => ({ period: p.period, key: 'positive', value: p.positive })), { kind: 'count', keys: ['positive'] }),
    ...seriesOf(ctx.window.periods, periods.map((p) => ({ period: p.period, key: 'negative', value: p.negative })), { kind: 'count', keys: ['negative'] }),
    ...seriesOf(ctx.window.periods, periods.map((p) => ({ period: p.period, key: 'positiveRate', value: p.positiveRate ?? 0 })), { kind: 'percent', keys: ['positiveRate'] }),
  ];
  return {
    series,
    columns: statColumns({ modality: 'text', approved: 'count', positive: 'count', negative: 'count', unknown: 'count', positiveRate: 'percent' }),
    rows,
    totals: figures(level(all)[0] ?? {}),
  };
}
