import { inArray, sql, type SQL } from 'drizzle-orm';
import type { StatCell } from '../../../contract/statistics';
import type { Db } from '../../db/client';
import { accounts, devices, exams, reports } from '../../db/schema';
import { inScope, inWindow, periodOf } from '../window';
import type { StatContext } from '../types';
import { rowsOf } from './rank';

/**
 * Pieces the exam and report statistics share (study, modality, report, report-positive, note-taker, overview):
 * the rows they count as one sub-select, one aggregate over GROUPING SETS (the series' cells, the table's rows and
 * the totals in one statement) and the ordering rules of docs (statistics.md "Definitions").
 */

export type Row = Record<string, unknown>;

export { rowsOf };

/** Minutes between two timestamps (exam → first report, exam → approval). */
export const minutes = (later: string, earlier: string) => sql.raw(`extract(epoch from (x.${later} - x.${earlier})) / 60.0`);

/** The mean and the median of a minutes expression over the rows where it is defined (null over none). */
export const meanOf = (m: SQL) => sql`avg(${m})`;
export const medianOf = (m: SQL) => sql`percentile_cont(0.5) within group (order by ${m})`;

/**
 * Live exams of the counted organisations whose exam time falls in the window, each with its current report (the one
 * exams.report_id names: the exam's own or a joint one; core §5) when that report is live. "Reported" = the report
 * was submitted or approved (first time = coalesce(submitted, approved)); "approved" = approved_time is set
 * (docs/report-lifecycle.md: cancelSubmit clears submitted_time; a reapproval moves approved_time to the last one).
 * The range on (bucket_id, exam_time) is served by exams_stat_idx; the report is one primary-key probe per exam.
 */
export function examsWithReports({ scope, window }: StatContext, o: { innerJoin?: boolean; noReport?: boolean } = {}): SQL {
  const where = sql`${exams.deletedTime} is null and ${inScope(scope, exams.bucketId)} and ${inWindow(window, exams.examTime, exams.bucketId)}`;
  const examCols = sql`${exams.bucketId} as bucket_id, ${exams.modality} as modality, ${exams.deviceId} as device_id,
      ${exams.bodyPartCount} as body_parts, ${exams.hasImage} as has_image, ${exams.examTime} as exam_time,
      ${periodOf(window, exams.examTime, exams.bucketId)} as period`;
  // Device workload needs no report: the exams alone, from the index.
  if (o.noReport) return sql`select ${examCols} from ${exams} where ${where}`;
  const join = o.innerJoin ? sql`join` : sql`left join`;
  return sql`select ${examCols},
      ${reports.id} as report_id, ${reports.creatorId} as creator_id, ${reports.issuerId} as issuer_id, ${reports.positive} as positive,
      coalesce(${reports.submittedTime}, ${reports.approvedTime}) as first_time, ${reports.approvedTime} as approved_time
    from ${exams} ${join} ${reports} on ${reports.id} = ${exams.reportId} and ${reports.deletedTime} is null
    where ${where}`;
}

/**
 * Live reports of the counted organisations approved on a day of the window (reports_stat_approved_idx), with the
 * modality of the exam they were written for.
 */
export function approvedReports({ scope, window }: StatContext, extra?: SQL): SQL {
  return sql`select ${reports.bucketId} as bucket_id, ${exams.modality} as modality, ${reports.noteTakerId} as note_taker_id,
      ${reports.positive} as positive, ${reports.bodypartCount} as body_parts,
      ${periodOf(window, reports.approvedTime, reports.bucketId)} as period
    from ${reports} join ${exams} on ${exams.id} = ${reports.examId}
    where ${reports.deletedTime} is null and ${reports.approvedTime} is not null and ${inScope(scope, reports.bucketId)}
      and ${inWindow(window, reports.approvedTime, reports.bucketId)}${extra ? sql` and ${extra}` : sql``}`;
}

/** The counts every exam statistic reads, over the sub-select `x` of examsWithReports. */
export const EXAM_COUNTS = sql`count(*) as exams, count(x.first_time) as reported, count(x.approved_time) as approved`;
/** Positive rate's parts among the approved reports of the exams. */
export const POSITIVE_PARTS = sql`count(*) filter (where x.approved_time is not null and x.positive) as positive,
  count(*) filter (where x.approved_time is not null and x.positive = false) as negative`;

/**
 * One aggregate over `inner` (aliased x) grouped by GROUPING SETS of its columns: `sets` lists the column names of each
 * set; every answer row says which columns it is grouped by (grouping() = 0) as `by`. The columns of `keys` are
 * selected (null where a set does not group by them).
 */
export async function grouped(db: Db, inner: SQL, keys: readonly string[], sets: readonly (readonly string[])[], measures: SQL): Promise<(Row & { by: Set<string> })[]> {
  const cols = sql.raw(keys.map((k) => `x.${k}`).join(', '));
  const flags = sql.raw(keys.map((k) => `grouping(x.${k}) as g_${k}`).join(', '));
  const groupingSets = sql.raw(sets.map((s) => `(${s.map((k) => `x.${k}`).join(', ')})`).join(', '));
  const rows = await rowsOf<Row>(db, sql`select ${cols}, ${flags}, ${measures} from (${inner}) x group by grouping sets (${groupingSets})`);
  return rows.map((r) => ({ ...r, by: new Set(keys.filter((k) => Number(r[`g_${k}`]) === 0)) }));
}

/** The rows grouped by exactly the columns named. */
export function level<R extends { by: Set<string> }>(rows: readonly R[], ...cols: string[]): R[] {
  return rows.filter((r) => r.by.size === cols.length && cols.every((c) => r.by.has(c)));
}

/** Rows by their first count column descending, then by their name (the first column), nulls last. */
export function ordered(rows: Record<string, StatCell>[], countKey: string, nameKey: string): Record<string, StatCell>[] {
  return [...rows].sort((a, b) => {
    const d = Number(b[countKey] ?? 0) - Number(a[countKey] ?? 0);
    if (d !== 0) return d;
    const an = a[nameKey]; const bn = b[nameKey];
    if (an === null || an === undefined) return bn === null || bn === undefined ? 0 : 1;
    if (bn === null || bn === undefined) return -1;
    return String(an).localeCompare(String(bn));
  });
}

/** Accounts' names by id (people named in rows and series). */
export async function accountNames(db: Db, ids: readonly (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Devices' names by id. */
export async function deviceNames(db: Db, ids: readonly (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: devices.id, name: devices.name }).from(devices).where(inArray(devices.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** An id column's value as a number or null. */
export const idOf = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
