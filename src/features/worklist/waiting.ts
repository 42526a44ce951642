/**
 * How long an exam has waited for its report, and whether that is too long. The limits follow the usual
 * turnaround promises of a radiology department: urgent and emergency cases within an hour, inpatients within a
 * day, everyone else within two days. A case turns "due" at three quarters of its limit so it stands out before
 * it is late.
 */
import type { PatientSource } from './view';

export type WaitLevel = 'ok' | 'due' | 'overdue';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function waitLimitMs(exam: { urgentFlag: boolean; patientSource: PatientSource | string | null }): number {
  if (exam.urgentFlag || exam.patientSource === 'E') return HOUR;
  if (exam.patientSource === 'I') return DAY;
  return 2 * DAY;
}

export function waitLevel(waitedMs: number, limitMs: number): WaitLevel {
  if (waitedMs >= limitMs) return 'overdue';
  if (waitedMs >= limitMs * 0.75) return 'due';
  return 'ok';
}

export interface WaitParts {
  days: number;
  hours: number;
  minutes: number;
}

/** Whole units, rounded down: a case is never shown as having waited longer than it has. Future times count as 0. */
export function waitParts(waitedMs: number): WaitParts {
  const ms = Math.max(0, waitedMs);
  return { days: Math.floor(ms / DAY), hours: Math.floor((ms % DAY) / HOUR), minutes: Math.floor((ms % HOUR) / MINUTE) };
}

/** Past this many days the column says only "> 30d": an old study's exact age is noise ("8604d16h" was). */
export const WAIT_CAP_DAYS = 30;

/**
 * Compact and the same width in every language, so the column stays narrow and aligned: "<1m", "42m", "3h05",
 * "2d04h", "> 30d". Two units at most; a radiologist reading "2d04h" does not need the minutes.
 */
export function formatWait(waitedMs: number): string {
  const { days, hours, minutes } = waitParts(waitedMs);
  if (days >= WAIT_CAP_DAYS) return `> ${WAIT_CAP_DAYS}d`;
  if (days > 0) return `${days}d${String(hours).padStart(2, '0')}h`;
  if (hours > 0) return `${hours}h${String(minutes).padStart(2, '0')}`;
  if (minutes > 0) return `${minutes}m`;
  return '<1m';
}
