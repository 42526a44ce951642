/**
 * Report-table colour rules (areas §3 "Colour rule"): a rule names a column of the list, a value (or a range with
 * gte/lte), and a fore and back colour. The matching rule with the smallest priority number wins; a row no rule
 * matches keeps the theme's colours.
 */
import type { ColourRule as StoredRule } from '../../../contract/exams';

/**
 * What resolution reads of a stored rule: `column` names an exam field of the row; `value` is an equality match
 * used when neither bound is given; `gte`/`lte` are inclusive bounds for numbers, times and ISO dates.
 */
export type ColourRule = Pick<StoredRule, 'id' | 'name' | 'priority' | 'column' | 'value' | 'gte' | 'lte' | 'foreColor' | 'backColor'>;

export interface RowColours {
  fore: string | null;
  back: string | null;
  rule: string;
}

type Cell = string | number | boolean | null | undefined;

function compare(a: Cell, b: string): number | null {
  if (a === null || a === undefined) return null;
  if (typeof a === 'number') {
    const n = Number(b);
    return Number.isFinite(n) ? a - n : null;
  }
  const left = String(a);
  // Numbers written as text ("45" years, a bed number) compare as numbers; dates and words as text.
  if (/^-?\d+(\.\d+)?$/.test(left) && /^-?\d+(\.\d+)?$/.test(b)) return Number(left) - Number(b);
  return left < b ? -1 : left > b ? 1 : 0;
}

export function ruleMatches(rule: ColourRule, row: Record<string, unknown>): boolean {
  const cell = row[rule.column] as Cell;
  if (rule.gte === null && rule.lte === null) {
    if (rule.value === null) return cell === null || cell === undefined || cell === '';
    if (typeof cell === 'boolean') return String(cell) === rule.value.trim().toLowerCase() || (rule.value === '1') === cell;
    return cell !== null && cell !== undefined && String(cell).toLowerCase() === rule.value.trim().toLowerCase();
  }
  if (rule.gte !== null) {
    const c = compare(cell, rule.gte);
    if (c === null || c < 0) return false;
  }
  if (rule.lte !== null) {
    const c = compare(cell, rule.lte);
    if (c === null || c > 0) return false;
  }
  return true;
}

/** Rules in the order they are tried: priority, then id so two rules of one priority always resolve the same way. */
export function orderRules(rules: readonly ColourRule[]): ColourRule[] {
  return [...rules].sort((a, b) => a.priority - b.priority || a.id - b.id);
}

/** The colours of the first matching rule of `ordered` (from orderRules), or null. */
export function resolveColours(ordered: readonly ColourRule[], row: Record<string, unknown>): RowColours | null {
  for (const rule of ordered) {
    if (!rule.foreColor && !rule.backColor) continue;
    if (ruleMatches(rule, row)) return { fore: rule.foreColor, back: rule.backColor, rule: rule.name };
  }
  return null;
}

/** Only CSS colours a rule may carry: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl() with numbers; anything else is dropped. */
export function safeColour(value: string | null): string | null {
  if (!value) return null;
  const v = value.trim();
  if (/^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(v)) return v;
  if (/^(rgb|rgba|hsl|hsla)\(\s*[\d.%\s,/-]+\)$/i.test(v)) return v;
  return null;
}
