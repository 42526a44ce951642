import { sql } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import { maybe, num, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { accountNames, EXAM_COUNTS, examsWithReports, grouped, idOf, level, meanOf, medianOf, minutes, ordered } from './shared';

/** Tables of people show at most this many rows (statistics.md "Definitions"). */
const MAX_PEOPLE = 50;

/**
 * Turnaround (statistics.md §3): exams of the window that have a (live) report, by modality or by the report's
 * creator, with the mean and median minutes from the exam to the first report and to the approval; the series are
 * the two means of each period. One statement: rows, periods and the total are grouping sets of one aggregate.
 */
export async function reportStat(ctx: StatContext): Promise<StatBody> {
  const byRadiologist = ctx.input.by === 'radiologist';
  const key = byRadiologist ? 'creator_id' : 'modality';
  const first = minutes('first_time', 'exam_time');
  const approval = minutes('approved_time', 'exam_time');
  const measures = sql`${EXAM_COUNTS},
    ${meanOf(first)} as first_mean, ${medianOf(first)} as first_median,
    ${meanOf(approval)} as approval_mean, ${medianOf(approval)} as approval_median`;
  const all = await grouped(ctx.db, examsWithReports(ctx, { innerJoin: true }), [key, 'period'], [[key], ['period'], []], measures);
  const names = byRadiologist ? await accountNames(ctx.db, level(all, key).map((r) => idOf(r[key]))) : new Map<number, string>();

  const figures = (r: Record<string, unknown>) => ({
    exams: num(r.exams), reported: num(r.reported), approved: num(r.approved),
    firstReportMean: maybe(r.first_mean), firstReportMedian: maybe(r.first_median),
    approvalMean: maybe(r.approval_mean), approvalMedian: maybe(r.approval_median),
  });
  const firstCol = byRadiologist ? 'radiologist' : 'modality';
  const nameOf = (v: unknown): string | null => {
    if (!byRadiologist) return String(v);
    const id = idOf(v);
    return id === null ? null : (names.get(id) ?? String(id));
  };
  const rows: Record<string, StatCell>[] = ordered(level(all, key).map((r) => ({ [firstCol]: nameOf(r[key]), ...figures(r) })), 'exams', firstCol)
    .slice(0, byRadiologist ? MAX_PEOPLE : undefined);
  const periods = level(all, 'period');
  const series = seriesOf(ctx.window.periods, [
    ...periods.map((r) => ({ period: String(r.period), key: 'firstReport', value: maybe(r.first_mean) ?? 0 })),
    ...periods.map((r) => ({ period: String(r.period), key: 'approval', value: maybe(r.approval_mean) ?? 0 })),
  ], { kind: 'minutes', keys: ['firstReport', 'approval'] });
  return {
    series,
    columns: statColumns({
      [firstCol]: 'text', exams: 'count', reported: 'count', approved: 'count',
      firstReportMean: 'minutes', firstReportMedian: 'minutes', approvalMean: 'minutes', approvalMedian: 'minutes',
    }),
    rows,
    totals: figures(level(all)[0] ?? {}),
  };
}
