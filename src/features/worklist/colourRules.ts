/**
 * Report-table colour rules (areas §3 "Colour rule"): a rule names a column of the list, a value (or a range with
 * gte/lte), and a fore and back colour. The matching rule with the smallest priority number wins; a row no rule
 * matches keeps the theme's colours. Whether a rule matches a row is the contract's `colourRuleMatches`, the rule the
 * server checks a rule against when it is saved.
 */
import { colourRuleMatches } from '../../../contract/colourRules';
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

/** Rules in the order they are tried: priority, then id so two rules of one priority always resolve the same way. */
export function orderRules(rules: readonly ColourRule[]): ColourRule[] {
  return [...rules].sort((a, b) => a.priority - b.priority || a.id - b.id);
}

/** The colours of the first matching rule of `ordered` (from orderRules), or null. */
export function resolveColours(ordered: readonly ColourRule[], row: Record<string, unknown>): RowColours | null {
  for (const rule of ordered) {
    if (!rule.foreColor && !rule.backColor) continue;
    if (colourRuleMatches(rule, row)) return { fore: rule.foreColor, back: rule.backColor, rule: rule.name };
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
