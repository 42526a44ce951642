import { sql } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import { num, seriesOf, statColumns } from '../result';
import type { StatBody, StatContext } from '../types';
import { deviceNames, examsWithReports, grouped, idOf, level, ordered } from './shared';

/**
 * Device workload (statistics.md §2, at most a month): exams per period of each device (`device-<id>`, or `noDevice`
 * for exams without one), and one row per (device, modality) with the exams, the body parts (the workload) and the
 * exams with images. The aggregate reads exams_stat_idx alone (no report is needed).
 */
export async function modalityStat(ctx: StatContext): Promise<StatBody> {
  const measures = sql`count(*) as exams, coalesce(sum(x.body_parts), 0) as body_parts, count(*) filter (where x.has_image) as with_images`;
  const all = await grouped(ctx.db, examsWithReports(ctx, { noReport: true }), ['device_id', 'modality', 'period'],
    [['device_id', 'period'], ['device_id', 'modality'], []], measures);
  const names = await deviceNames(ctx.db, all.map((r) => idOf(r.device_id)));

  const keyOf = (id: number | null) => (id === null ? 'noDevice' : `device-${id}`);
  const rows: Record<string, StatCell>[] = ordered(level(all, 'device_id', 'modality').map((r) => {
    const id = idOf(r.device_id);
    return {
      device: id === null ? null : (names.get(id) ?? String(id)), modality: String(r.modality),
      exams: num(r.exams), bodyParts: num(r.body_parts), withImages: num(r.with_images),
    };
  }), 'exams', 'device');

  // Series in the order of each device's exams, the exams without a device last.
  const cells = level(all, 'device_id', 'period');
  const sums = new Map<string, number>();
  for (const r of cells) sums.set(keyOf(idOf(r.device_id)), (sums.get(keyOf(idOf(r.device_id))) ?? 0) + num(r.exams));
  const keys = [...sums.keys()].sort((a, b) => Number(a === 'noDevice') - Number(b === 'noDevice') || sums.get(b)! - sums.get(a)! || a.localeCompare(b));
  const series = seriesOf(ctx.window.periods, cells.map((r) => ({ period: String(r.period), key: keyOf(idOf(r.device_id)), value: num(r.exams) })), {
    kind: 'count', keys, labelOf: (key) => (key === 'noDevice' ? null : (names.get(Number(key.slice('device-'.length))) ?? key)),
  });
  const total = level(all)[0] ?? {};
  return {
    series,
    columns: statColumns({ device: 'text', modality: 'text', exams: 'count', bodyParts: 'count', withImages: 'count' }),
    rows,
    totals: { exams: num(total.exams), bodyParts: num(total.body_parts), withImages: num(total.with_images) },
  };
}
