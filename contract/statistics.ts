import { z } from 'zod';
import { idValue, isoDay } from './common';
import { LANGUAGES } from './constants';
import { addDays } from './days';

/**
 * Statistics (areas §2 /group-statistics and /groups/{groupId}/statistics, §5 statistics rules, §6 statistics_report,
 * enableStat, allowOverview, "statistics are limited to allowed buckets", §7 "Statistics", §9 quick ranges and units).
 *
 * Every chart asks one endpoint, `POST statistics/<name>` (GET with the same fields in the query string answers the
 * same), with a period (`from`/`to` days, both included, in the organisation's time zone, or a `quick` range), a
 * `unit` for the time axis and the group whose organisations it counts. Every answer has one shape
 * (`StatResult`): the periods of the time axis, series over them, and a table (columns and rows) beside the chart.
 * The range rules are pure functions here, so the server, the client's range machine (machines/statisticsRange.ts)
 * and the tests read the same ones.
 */

export const STAT_NAMES = [
  'study', 'modality', 'report', 'report-positive', 'note-taker', 'registrar', 'remote-report', 'group-payment', 'consul',
  'overview-total', 'overview-user', 'overview-bucket',
] as const;
export type StatName = (typeof STAT_NAMES)[number];

/** The URL path of each statistic under /api (areas §7: statistics/overview/{total,user,bucket}). */
export const STAT_PATHS: Record<StatName, string> = {
  study: 'statistics/study', modality: 'statistics/modality', report: 'statistics/report',
  'report-positive': 'statistics/report-positive', 'note-taker': 'statistics/note-taker', registrar: 'statistics/registrar',
  'remote-report': 'statistics/remote-report', 'group-payment': 'statistics/group-payment', consul: 'statistics/consul',
  'overview-total': 'statistics/overview/total', 'overview-user': 'statistics/overview/user', 'overview-bucket': 'statistics/overview/bucket',
};

/** Overview statistics need the group's allowOverview flag besides enableStat (areas §6). */
export const OVERVIEW_STATS: readonly StatName[] = ['overview-total', 'overview-user', 'overview-bucket'];

export const STAT_UNITS = ['day', 'week', 'month', 'year'] as const;
export type StatUnit = (typeof STAT_UNITS)[number];

/** Areas §9 quick ranges: yesterday, the last 7 days and the last 30 days (both ending today, today included). */
export const QUICK_RANGES = ['yesterday', '7d', '30d'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

/**
 * How long a period may be (areas §5): device workload (`modality`) and every range counted by day at most one
 * month; note-taker and remote-report at most one year. The rest at most five years, so no question reads the
 * whole history by accident (the spec sets no bound there; docs/decisions.md).
 */
export type RangeLimit = 'month' | 'year' | 'fiveYears';

export function rangeLimitOf(name: StatName, unit: StatUnit): RangeLimit {
  if (name === 'modality' || unit === 'day') return 'month';
  if (name === 'note-taker' || name === 'remote-report') return 'year';
  return 'fiveYears';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `day` moved by whole months, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return `${first.getUTCFullYear()}-${pad(first.getUTCMonth() + 1)}-${pad(Math.min(d, last))}`;
}

/** The last day a period starting at `from` may end on under `limit` (a month from Jan 5 ends Feb 4). */
export function lastDayWithin(from: string, limit: RangeLimit): string {
  const months = limit === 'month' ? 1 : limit === 'year' ? 12 : 60;
  return addDays(addMonths(from, months), -1);
}

/** The days of a quick range, given today in the organisation's time zone. */
export function quickRange(quick: QuickRange, today: string): { from: string; to: string } {
  switch (quick) {
    case 'yesterday': { const y = addDays(today, -1); return { from: y, to: y }; }
    case '7d': return { from: addDays(today, -6), to: today };
    case '30d': return { from: addDays(today, -29), to: today };
  }
}

/** What is wrong with a period, as the catalogue code the server answers, or null when it may be asked. */
export type RangeProblem =
  | { code: 'StatisticsPeriodRequired' }
  | { code: 'StatisticsPeriodInvalid' }
  | { code: 'StatisticsRangeTooLong'; limit: RangeLimit; lastDay: string };

export function rangeProblem(name: StatName, unit: StatUnit, from: string | null | undefined, to: string | null | undefined): RangeProblem | null {
  if (!from || !to) return { code: 'StatisticsPeriodRequired' };
  if (from > to) return { code: 'StatisticsPeriodInvalid' };
  const limit = rangeLimitOf(name, unit);
  const lastDay = lastDayWithin(from, limit);
  return to > lastDay ? { code: 'StatisticsRangeTooLong', limit, lastDay } : null;
}

/** The first day of the period (of `unit`) that holds `day`; weeks start on Monday (ISO, as date_trunc('week')). */
export function periodStart(day: string, unit: StatUnit): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  switch (unit) {
    case 'day': return day;
    case 'week': { const dow = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; return addDays(day, -dow); }
    case 'month': return `${y}-${pad(m)}-01`;
    case 'year': return `${y}-01-01`;
  }
}

/** Every period of the time axis from the one holding `from` to the one holding `to`, as their first days. */
export function periodsOf(from: string, to: string, unit: StatUnit): string[] {
  const out: string[] = [];
  for (let p = periodStart(from, unit); p <= to;) {
    out.push(p);
    p = unit === 'day' ? addDays(p, 1) : unit === 'week' ? addDays(p, 7) : addMonths(p, unit === 'month' ? 1 : 12);
  }
  return out;
}

// ── The question ───────────────────────────────────────────────────────────────────────────────────────────────

const idList = z.union([
  z.array(idValue).max(200),
  // GET: bucketIds=1,2,3
  z.string().regex(/^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,199}$/).transform((s) => s.split(',').map(Number)),
]);

/**
 * The question every statistic takes. `from`/`to` or `quick` (which wins when both come); the server checks the
 * range rules by name (rangeProblem) and answers StatisticsPeriodRequired / StatisticsPeriodInvalid /
 * StatisticsRangeTooLong. `bucketIds` narrows to some of the allowed organisations (one outside them: 404).
 * `by` picks the table's rows where a statistic offers two (report: by modality or by radiologist).
 */
export const statQuery = z.object({
  groupId: idValue,
  from: isoDay.optional(),
  to: isoDay.optional(),
  quick: z.enum(QUICK_RANGES).optional(),
  unit: z.enum(STAT_UNITS).default('day'),
  bucketIds: idList.optional(),
  by: z.enum(['modality', 'radiologist']).default('modality'),
}).strict();
export type StatQuery = z.input<typeof statQuery>;
export type StatQueryParsed = z.output<typeof statQuery>;

/** The export: one statistic's table (and its series) as an .xlsx workbook, column titles in `lang`. */
export const statExportInput = statQuery.extend({
  name: z.enum(STAT_NAMES),
  lang: z.enum(LANGUAGES).default('chs'),
}).strict();
export type StatExportInput = z.input<typeof statExportInput>;

// ── The answer ─────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * How a column's values read: text (data: a name), code (translated by the client as statistics.codes.<value>),
 * count, minutes (a mean or median duration), percent (0..100, one decimal), fen (money, shown as yuan).
 */
export const STAT_COLUMN_KINDS = ['text', 'code', 'count', 'minutes', 'percent', 'fen'] as const;
export type StatColumnKind = (typeof STAT_COLUMN_KINDS)[number];

export interface StatColumn {
  /** Translated by the client as statistics.columns.<key>. */
  key: string;
  kind: StatColumnKind;
}

export type StatCell = string | number | null;

export interface StatSeries {
  /** Stable id: a modality code ('CT'), a status ('status:2'), 'account:12'. */
  key: string;
  /** Data to show as it is (a person's or an organisation's name), or null: the client translates statistics.codes.<key>. */
  label: string | null;
  /** One value per period of `periods`, in the unit of `kind`. */
  values: number[];
  kind: Exclude<StatColumnKind, 'text' | 'code'>;
}

export interface StatResult {
  name: StatName;
  range: { from: string; to: string; unit: StatUnit; timeZone: string };
  /** The first day of every period of the time axis (periodsOf), zero-filled in the series. */
  periods: string[];
  series: StatSeries[];
  columns: StatColumn[];
  rows: Record<string, StatCell>[];
  /** The whole range's figures (the table's total row, the overview's cards), by column key. */
  totals: Record<string, number | null>;
}

/** The organisations a statistics page may count (the scope picker), from `GET statistics/scope?groupId`. */
export interface StatScopeAnswer {
  groupId: number;
  groupName: string;
  timeZone: string;
  today: string;
  allowOverview: boolean;
  buckets: { id: number; name: string; timeZone: string }[];
}
export const statScopeQuery = z.object({ groupId: idValue }).strict();

/** The groups the account may see statistics of (enableStat and an organisation with statistics_report, or admin). */
export interface StatGroupsAnswer { groups: { id: number; name: string }[] }
