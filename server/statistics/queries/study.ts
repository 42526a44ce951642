import { sql } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import { num, percent, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { EXAM_COUNTS, examsWithReports, grouped, level, ordered } from './shared';

/**
 * Exams by modality (statistics.md §1): exams per period of each modality, and per modality the exams, body parts,
 * exams with images, reported, approved and the approved share. One statement: the cells (modality × period), the
 * rows (modality) and the total are grouping sets of one aggregate.
 */
export async function studyStat(ctx: StatContext): Promise<StatBody> {
  const measures = sql`${EXAM_COUNTS}, coalesce(sum(x.body_parts), 0) as body_parts, count(*) filter (where x.has_image) as with_images`;
  const all = await grouped(ctx.db, examsWithReports(ctx), ['modality', 'period'], [['modality', 'period'], ['modality'], []], measures);

  const line = (r: Record<string, unknown>) => {
    const exams = num(r.exams); const approved = num(r.approved);
    return {
      exams, bodyParts: num(r.body_parts), withImages: num(r.with_images), reported: num(r.reported), approved,
      approvedRate: percent(approved, exams),
    };
  };
  const rows: Record<string, StatCell>[] = ordered(level(all, 'modality').map((r) => ({ modality: String(r.modality), ...line(r) })), 'exams', 'modality');
  const total = level(all)[0];
  const series = seriesOf(ctx.window.periods, level(all, 'modality', 'period').map((r) => ({ period: String(r.period), key: String(r.modality), value: num(r.exams) })), {
    kind: 'count', keys: rows.map((r) => String(r.modality)), labelOf: (key) => key,
  });
  return {
    series,
    columns: statColumns({
      modality: 'text', exams: 'count', bodyParts: 'count', withImages: 'count',
      reported: 'count', approved: 'count', approvedRate: 'percent',
    }),
    rows,
    totals: line(total ?? {}),
  };
}
