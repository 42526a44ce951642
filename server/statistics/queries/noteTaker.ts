import { sql } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import { reports } from '../../db/schema';
import { num, seriesOf, statColumns, topSeries } from '../result';
import type { StatBody, StatContext } from '../types';
import { accountNames, approvedReports, grouped, idOf, level, ordered } from './shared';

const MAX_PEOPLE = 50;

/**
 * Note-takers (statistics.md §5, at most a year): reports approved in the window that a note-taker began (core §4:
 * the first writer of a report of an exam without images), per note-taker: reports, their body parts and how many
 * are positive; the series are the 8 busiest note-takers (and `others`).
 */
export async function noteTakerStat(ctx: StatContext): Promise<StatBody> {
  const measures = sql`count(*) as reports, coalesce(sum(x.body_parts), 0) as body_parts, count(*) filter (where x.positive) as positive`;
  const all = await grouped(ctx.db, approvedReports(ctx, sql`${reports.noteTakerId} is not null`), ['note_taker_id', 'period'],
    [['note_taker_id', 'period'], ['note_taker_id'], []], measures);
  const names = await accountNames(ctx.db, level(all, 'note_taker_id').map((r) => idOf(r.note_taker_id)));
  const nameOf = (id: number) => names.get(id) ?? String(id);

  const figures = (r: Record<string, unknown>) => ({ reports: num(r.reports), bodyParts: num(r.body_parts), positive: num(r.positive) });
  const rows: Record<string, StatCell>[] = ordered(level(all, 'note_taker_id').map((r) => ({ noteTaker: nameOf(idOf(r.note_taker_id)!), ...figures(r) })), 'reports', 'noteTaker')
    .slice(0, MAX_PEOPLE);
  const series = topSeries(seriesOf(ctx.window.periods, level(all, 'note_taker_id', 'period').map((r) => ({
    period: String(r.period), key: `account-${idOf(r.note_taker_id)}`, value: num(r.reports),
  })), { kind: 'count', labelOf: (key) => nameOf(Number(key.slice('account-'.length))) }));
  return {
    series,
    columns: statColumns({ noteTaker: 'text', reports: 'count', bodyParts: 'count', positive: 'count' }),
    rows,
    totals: figures(level(all)[0] ?? {}),
  };
}
