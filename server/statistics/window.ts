import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { addDays, dayIn, instantOf } from '../../contract/days';
import {
  periodsOf, quickRange, rangeProblem, type StatName, type StatQueryParsed, type StatUnit,
} from '../../contract/statistics';
import { ApiError } from '../http/errors';
import type { StatScope } from './scope';

/**
 * The period a statistic counts and the SQL that puts rows into it. Days are the organisation's: a row belongs to
 * day D when its organisation's clock read D (areas: "date_trunc in the organisation's time zone"). Every helper
 * takes the row's time column and its organisation column, so one question can count organisations of several
 * zones correctly.
 */
export interface StatWindow {
  from: string;
  to: string;
  unit: StatUnit;
  /** The first day of each period of the time axis. */
  periods: string[];
  zones: ReadonlyMap<number, string>;
  /** The zone of rows that belong to the group rather than to an organisation (charge orders): the scope's. */
  timeZone: string;
}

/** The question's period by the range rules (contract/statistics.ts rangeProblem), or the catalogue's 400. */
export function windowOf(name: StatName, input: StatQueryParsed, scope: StatScope, now: Date): StatWindow {
  const { from, to } = input.quick ? quickRange(input.quick, dayIn(now, scope.timeZone)) : { from: input.from, to: input.to };
  const problem = rangeProblem(name, input.unit, from, to);
  if (problem) {
    const details = problem.code === 'StatisticsRangeTooLong' ? { limit: problem.limit, lastDay: problem.lastDay } : undefined;
    throw new ApiError(problem.code, undefined, details);
  }
  return { from: from!, to: to!, unit: input.unit, periods: periodsOf(from!, to!, input.unit), zones: scope.zones, timeZone: scope.timeZone };
}

// Zones and units are inlined as literals, never bound: a GROUP BY must repeat the SELECT's expression to the letter,
// and two bound parameters ($1, $2) are not the same expression to PostgreSQL. Zones come from the buckets table
// and are checked against this pattern first; units are the contract's enum.
const ZONE = /^[A-Za-z0-9_+\-/]{1,64}$/;
const literal = (zone: string) => {
  if (!ZONE.test(zone)) throw new Error(`unexpected time zone name: ${zone}`);
  return sql.raw(`'${zone}'`);
};

type Column = AnyPgColumn | SQL;

/**
 * The row's organisation's zone: one literal when every counted organisation shares it, else a CASE on the column.
 * Without a column (rows of the group, not of an organisation) the scope's zone.
 */
export function zoneOf(w: StatWindow, bucketCol?: Column): SQL {
  if (!bucketCol) return literal(w.timeZone);
  const zones = [...new Set(w.zones.values())];
  if (zones.length <= 1) return literal(zones[0] ?? 'UTC');
  const arms = [...w.zones].map(([id, zone]) => sql.raw(`when ${Number(id)} then `).append(literal(zone)));
  return sql`(case ${bucketCol} ${sql.join(arms, sql` `)} end)`;
}

/** The first day of the row's period as 'YYYY-MM-DD' text: the key of `periods`. */
export function periodOf(w: StatWindow, timeCol: Column, bucketCol?: Column): SQL<string> {
  return sql<string>`to_char(date_trunc(${sql.raw(`'${w.unit}'`)}, ${timeCol} at time zone ${zoneOf(w, bucketCol)}), 'YYYY-MM-DD')`;
}

/**
 * The row's time falls on a day of the window. The bounds in UTC (the earliest start and the latest end over the
 * zones) let an index on the time column serve the range; with several zones each row is then held to its own
 * organisation's days.
 */
export function inWindow(w: StatWindow, timeCol: Column, bucketCol?: Column): SQL {
  const zones = bucketCol ? [...new Set(w.zones.values())] : [w.timeZone];
  const starts = zones.map((z) => instantOf(w.from, '00:00', z).getTime());
  const ends = zones.map((z) => instantOf(addDays(w.to, 1), '00:00', z).getTime());
  const lo = new Date(Math.min(...starts)).toISOString();
  const hi = new Date(Math.max(...ends)).toISOString();
  const coarse = sql`${timeCol} >= ${lo}::timestamptz and ${timeCol} < ${hi}::timestamptz`;
  if (zones.length <= 1) return coarse;
  return sql`${coarse} and (${timeCol} at time zone ${zoneOf(w, bucketCol)})::date between ${w.from}::date and ${w.to}::date`;
}

/** `bucketCol in (…)` for the counted organisations (never empty: statScope refuses an empty scope). */
export function inScope(scope: StatScope, bucketCol: Column): SQL {
  return sql`${bucketCol} in (${sql.join(scope.bucketIds.map((id) => sql`${id}`), sql`, `)})`;
}
