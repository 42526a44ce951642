/**
 * What a report-table colour rule means (areas §3 "Colour rule"), once for both sides: the server refuses a rule that
 * could never match as its admin meant (`colourRuleProblems`, read by the create and update schemas of
 * contract/exams.ts), and the worklist paints a row with the same matcher (`colourRuleMatches`, read by
 * src/features/worklist/colourRules.ts). No zod here: the worklist's chunk imports this file.
 */
/** The rule's condition: a column of the worklist row, and a value (equality) or inclusive bounds. */
export interface ColourRuleCondition {
  column: string;
  value: string | null;
  gte: string | null;
  lte: string | null;
}

/** The yes/no columns a rule may read (`ExamListItem` booleans; reportPositive is null while there is no report). */
export const COLOUR_RULE_BOOLEAN_COLUMNS = [
  'urgentFlag', 'reportPositive', 'teleMedFlag', 'isRemoteReportRequested', 'hasImage',
] as const; // contract/exams.ts checks that each is an ExamListItem column

export function isBooleanColourColumn(column: string): boolean {
  return (COLOUR_RULE_BOOLEAN_COLUMNS as readonly string[]).includes(column);
}

/**
 * A yes/no rule's value as the boolean it stands for: `true`/`1` and `false`/`0` (any case, spaces around ignored);
 * anything else is null (and refused by the server for a yes/no column).
 */
export function colourRuleBoolean(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return null;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

type Cell = string | number | boolean | null | undefined;

function compare(a: Cell, b: string): number | null {
  if (a === null || a === undefined) return null;
  if (typeof a === 'number') {
    const n = Number(b);
    return Number.isFinite(n) ? a - n : null;
  }
  const left = String(a);
  // Numbers written as text ("45" years, a bed number) compare as numbers; dates and words as text.
  if (NUMBER.test(left) && NUMBER.test(b)) return Number(left) - Number(b);
  return left < b ? -1 : left > b ? 1 : 0;
}

/**
 * Whether `row` meets the rule: with neither bound, the cell equals `value` (text without regard to case; a yes/no
 * cell by the boolean the value stands for; a null value matches an empty cell); with bounds, the cell lies within
 * them (numbers as numbers, ISO times and other text as text).
 */
export function colourRuleMatches(rule: ColourRuleCondition, row: Readonly<Record<string, unknown>>): boolean {
  const cell = row[rule.column] as Cell;
  if (rule.gte === null && rule.lte === null) {
    if (rule.value === null) return cell === null || cell === undefined || cell === '';
    if (typeof cell === 'boolean') return colourRuleBoolean(rule.value) === cell;
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

/** What makes a rule's condition unusable, by field (the server answers them as 400 ParamsError). */
export function colourRuleProblems(r: ColourRuleCondition & { foreColor: string | null; backColor: string | null }): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (r.foreColor === null && r.backColor === null) problems.push({ path: 'foreColor', message: 'a fore or back colour is needed' });
  if (r.value !== null && (r.gte !== null || r.lte !== null)) problems.push({ path: 'value', message: 'either a value or a range, not both' });
  if (isBooleanColourColumn(r.column)) {
    if (r.value !== null && colourRuleBoolean(r.value) === null) problems.push({ path: 'value', message: 'true or false for a yes/no column' });
    if (r.gte !== null || r.lte !== null) problems.push({ path: r.gte !== null ? 'gte' : 'lte', message: 'a yes/no column takes a value, not a range' });
  }
  if (r.gte !== null && r.lte !== null) {
    const reversed = NUMBER.test(r.gte) && NUMBER.test(r.lte) ? Number(r.gte) > Number(r.lte) : r.gte > r.lte;
    if (reversed) problems.push({ path: 'lte', message: 'lte is below gte' });
  }
  return problems;
}
