import { inDateRange, type Filter } from '../../contract/common';

type Scalar = Filter['values'][number];

/** A date-time with its offset: one without would mean the server's zone. Up to microseconds, as PostgreSQL keeps. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** A day of the calendar: `Date` quietly rolls 2026-02-30 over to 2026-03-02 instead of refusing it. */
function realDay(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return days !== undefined && d >= 1 && d <= days;
}

/**
 * The values every list query's filters share (exams, consultations): each answers the value, or null when it is not
 * one (the caller names the filter in its 400).
 */
export function filterTime(v: Scalar): Date | null {
  if (typeof v !== 'string' || !ISO.test(v) || !realDay(v) || !inDateRange(v)) return null;
  const t = new Date(v);
  return Number.isNaN(t.getTime()) ? null : t;
}

/** A row id: a non-negative 32-bit integer (the columns' type), so a bigger one is a 400, not a database error. */
/** A calendar day YYYY-MM-DD that exists, in the stored years (contract/common.ts). */
export function filterDay(v: Scalar): string | null {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && realDay(v) && inDateRange(v) ? v : null;
}

export function filterId(v: Scalar): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2_147_483_647 ? v : null;
}
