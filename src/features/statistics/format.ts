import type { TFunction } from 'i18next';
import { formatYuan } from '../../../contract/payments';
import type { StatCell, StatColumn, StatColumnKind, StatSeries } from '../../../contract/statistics';

/** A null figure (no report yet, no rating): a dash, never 0. */
export const NONE = '—';

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Minutes as a reader wants them: "42.5 min" under an hour, "1 h 12 min" above. */
export function minutesText(t: TFunction, minutes: number): string {
  if (Math.abs(minutes) < 60) return t('statistics.page.minutes', { n: grouped.format(minutes) });
  const whole = Math.round(minutes);
  return t('statistics.page.hoursMinutes', { h: Math.floor(whole / 60), m: whole % 60 });
}

/** One figure of a numeric kind (count, minutes, percent, fen) as the table and the tooltips show it. */
export function figureText(t: TFunction, kind: StatColumnKind, value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return NONE;
  switch (kind) {
    case 'minutes': return minutesText(t, value);
    case 'percent': return `${grouped.format(value)} %`;
    case 'fen': return t('payments.common.yuan', { amount: formatYuan(Math.round(value)) });
    default: return grouped.format(value);
  }
}

/** A table cell: text as it is, a code translated, numbers by kind. */
export function cellText(t: TFunction, column: StatColumn, value: StatCell): string {
  // A device column's null is an exam recorded without a device; any other name left empty is unknown.
  if (value === null || value === undefined) {
    if (column.key === 'device') return t('statistics.codes.noDevice');
    return column.kind === 'text' || column.kind === 'code' ? t('statistics.codes.unknown') : NONE;
  }
  if (column.kind === 'text') return String(value);
  if (column.kind === 'code') return t(`statistics.codes.${String(value)}`, { defaultValue: String(value) });
  return figureText(t, column.kind, typeof value === 'number' ? value : Number(value));
}

/** A series' name: its label (a person, a device) or its code translated. */
export function seriesName(t: TFunction, series: Pick<StatSeries, 'key' | 'label'>): string {
  return series.label ?? t(`statistics.codes.${series.key}`, { defaultValue: series.key });
}

/** A period's first day as the axis shows it, by unit: 11-26, 2026 W48 as 11-23, 2026-11, 2026. */
export function periodText(day: string, unit: 'day' | 'week' | 'month' | 'year'): string {
  if (unit === 'year') return day.slice(0, 4);
  if (unit === 'month') return day.slice(0, 7);
  return day.slice(5);
}
