import type { StatColumn, StatColumnKind, StatSeries } from '../../contract/statistics';

/** Charts over people or organisations show the 8 largest series and `others`; tables keep the 50 first rows. */
export const SERIES_MAX = 8;
export const ROWS_MAX = 50;

/**
 * Small pieces every statistic builds its answer from. Numbers from PostgreSQL arrive as strings when they are
 * bigint or numeric (count(*), sum, avg): `num` reads them.
 */
export function num(v: unknown): number {
  if (v === null || v === undefined) return 0;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** A value that may be absent (a mean over no rows): null stays null. Rounded to one decimal. */
export function maybe(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? Math.round(n * 10) / 10 : null;
}

/** part / whole as a percentage with one decimal, or null when the whole is 0. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
}

/**
 * Series over the periods from rows of (period, key, value): one series per key, zero where a period has no row,
 * in the order of `keys` (or of first appearance). `labelOf` names a key (null: the client translates it).
 */
export function seriesOf(
  periods: readonly string[],
  rows: readonly { period: string; key: string; value: number }[],
  o: { kind: Exclude<StatColumnKind, 'text' | 'code'>; keys?: readonly string[]; labelOf?: (key: string) => string | null },
): StatSeries[] {
  const index = new Map(periods.map((p, i) => [p, i]));
  const keys = o.keys ?? [...new Set(rows.map((r) => r.key))];
  const byKey = new Map(keys.map((k) => [k, new Array<number>(periods.length).fill(0)]));
  for (const r of rows) {
    const i = index.get(r.period);
    const values = byKey.get(r.key);
    if (i !== undefined && values) values[i] = (values[i] ?? 0) + r.value;
  }
  return keys.map((key) => ({ key, label: o.labelOf ? o.labelOf(key) : null, values: byKey.get(key)!, kind: o.kind }));
}

/** The series by their sums descending: the SERIES_MAX largest, and `others` (label null) adding up the rest when there are more. */
export function topSeries(series: StatSeries[], max = SERIES_MAX): StatSeries[] {
  const sum = (s: StatSeries) => s.values.reduce((a, b) => a + b, 0);
  const sorted = [...series].sort((a, b) => sum(b) - sum(a) || a.key.localeCompare(b.key));
  if (sorted.length <= max) return sorted;
  const rest = sorted.slice(max);
  const others = rest[0]!.values.map((_, i) => rest.reduce((a, s) => a + (s.values[i] ?? 0), 0));
  return [...sorted.slice(0, max), { key: 'others', label: null, values: others, kind: rest[0]!.kind }];
}

/** A statistic's table columns in order, each key with its kind (the client words them as statistics.columns.<key>). */
export function statColumns(spec: Record<string, StatColumnKind>): StatColumn[] {
  return Object.entries(spec).map(([key, kind]) => ({ key, kind }));
}

/** The figures `keys` of `items` added up, key by key, in the items' order (a statistic's totals). */
export function addUp<T extends object, const K extends NumberKeys<T>>(items: readonly T[], keys: readonly K[]): Record<K, number> {
  const sums = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const item of items) for (const k of keys) sums[k] += item[k] as number;
  return sums;
}

/** The keys of T whose values are numbers. */
type NumberKeys<T> = { [P in keyof T]: T[P] extends number ? P : never }[keyof T] & string;
