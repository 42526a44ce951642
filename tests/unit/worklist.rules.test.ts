import { describe, expect, it } from 'vitest';
import { colourRuleMatches as ruleMatches, colourRuleProblems, COLOUR_RULE_BOOLEAN_COLUMNS } from '../../contract/colourRules';
import { COLOUR_RULE_COLUMNS, colourRuleCreateInput } from '../../contract/exams';
import { orderRules, resolveColours, safeColour, type ColourRule } from '@/features/worklist/colourRules';
import { formatWait, waitLevel, waitLimitMs } from '@/features/worklist/waiting';

const rule = (patch: Partial<ColourRule>): ColourRule => ({
  id: 1, name: 'r', priority: 10, column: 'modality', value: null, gte: null, lte: null, foreColor: '#000000', backColor: '#ffffff', ...patch,
});

describe('colour rules', () => {
  const row = { modality: 'CT', urgentFlag: true, patientSource: 'E', visitAge: '45', examTime: '2026-11-23T08:00:00.000Z' };

  it('lets the smaller priority number win when several rules match', () => {
    const rules = orderRules([
      rule({ id: 1, name: 'ct', priority: 20, value: 'CT', backColor: '#eeeeee' }),
      rule({ id: 2, name: 'urgent', priority: 5, column: 'urgentFlag', value: 'true', backColor: '#ffdddd' }),
    ]);
    expect(resolveColours(rules, row)).toEqual({ fore: '#000000', back: '#ffdddd', rule: 'urgent' });
  });

  it('resolves a tie of priorities the same way every time (older rule first)', () => {
    const a = rule({ id: 7, name: 'a', value: 'CT' });
    const b = rule({ id: 3, name: 'b', value: 'CT' });
    expect(resolveColours(orderRules([a, b]), row)?.rule).toBe('b');
    expect(resolveColours(orderRules([b, a]), row)?.rule).toBe('b');
  });

  it('matches values without regard to case and ranges inclusively, numbers as numbers', () => {
    expect(ruleMatches(rule({ value: 'ct' }), row)).toBe(true);
    expect(ruleMatches(rule({ column: 'visitAge', gte: '45', lte: '120' }), row)).toBe(true);
    expect(ruleMatches(rule({ column: 'visitAge', gte: '5', lte: '9' }), row)).toBe(false);
    expect(ruleMatches(rule({ column: 'examTime', gte: '2026-11-23T00:00:00.000Z' }), row)).toBe(true);
    expect(ruleMatches(rule({ column: 'bodyPart', gte: '1' }), row)).toBe(false);
  });

  it('matches a yes/no column by its value: "urgentFlag = true" paints the urgent rows only', () => {
    const rows = [true, false, true, false, false].map((urgentFlag, id) => ({ id, urgentFlag }));
    const urgent = rule({ column: 'urgentFlag', value: 'true' });
    expect(rows.filter((r) => ruleMatches(urgent, r)).map((r) => r.id)).toEqual([0, 2]);
    const calm = rule({ column: 'urgentFlag', value: 'false' });
    expect(rows.filter((r) => ruleMatches(calm, r)).map((r) => r.id)).toEqual([1, 3, 4]);
    for (const [value, cell, matches] of [['TRUE', true, true], [' 1 ', true, true], ['1', false, false], ['0', false, true], ['0', true, false], ['False', false, true]] as const) {
      expect(ruleMatches(rule({ column: 'urgentFlag', value }), { urgentFlag: cell }), `${value} vs ${cell}`).toBe(matches);
    }
    // A word that is not a yes/no value matches nothing (and the server refuses it).
    expect(ruleMatches(rule({ column: 'urgentFlag', value: 'yes' }), { urgentFlag: false })).toBe(false);
    expect(ruleMatches(rule({ column: 'urgentFlag', value: 'yes' }), { urgentFlag: true })).toBe(false);
    // No report yet: the positive flag is empty, neither true nor false.
    expect(ruleMatches(rule({ column: 'reportPositive', value: 'false' }), { reportPositive: null })).toBe(false);
    expect(ruleMatches(rule({ column: 'reportPositive', value: null }), { reportPositive: null })).toBe(true);
  });

  it('refuses, with the same rule the painting reads, a yes/no rule that could never match as meant', () => {
    const fields = { groupId: 1, name: 'r', priority: 1, foreColor: '#000000' };
    const problems = (patch: object) => colourRuleProblems({ column: 'urgentFlag', value: null, gte: null, lte: null, foreColor: '#000000', backColor: null, ...patch });
    expect(problems({ value: 'true' })).toEqual([]);
    expect(problems({ value: '0' })).toEqual([]);
    expect(problems({ value: 'yes' }).map((p) => p.path)).toEqual(['value']);
    expect(problems({ gte: '1' }).map((p) => p.path)).toEqual(['gte']);
    expect(colourRuleCreateInput.safeParse({ ...fields, column: 'hasImage', value: 'yes' }).success).toBe(false);
    expect(colourRuleCreateInput.safeParse({ ...fields, column: 'hasImage', value: 'FALSE' }).success).toBe(true);
    // Text columns keep any value.
    expect(colourRuleCreateInput.safeParse({ ...fields, column: 'modality', value: 'yes' }).success).toBe(true);
    for (const column of COLOUR_RULE_BOOLEAN_COLUMNS) expect(COLOUR_RULE_COLUMNS).toContain(column);
  });

  it('leaves a row no rule matches with the theme colours', () => {
    expect(resolveColours(orderRules([rule({ value: 'MR' })]), row)).toBeNull();
  });

  it('accepts only plain colour values from a rule', () => {
    expect(safeColour('#1f5fcc')).toBe('#1f5fcc');
    expect(safeColour('rgb(10, 20, 30)')).toBe('rgb(10, 20, 30)');
    expect(safeColour('red; background: url(x)')).toBeNull();
    expect(safeColour('url(javascript:alert(1))')).toBeNull();
  });
});

describe('waiting time', () => {
  const m = 60_000;
  it('prints minutes, hours and days compactly, rounded down', () => {
    expect(formatWait(0)).toBe('<1m');
    expect(formatWait(59_999)).toBe('<1m');
    expect(formatWait(42 * m)).toBe('42m');
    expect(formatWait(3 * 60 * m + 5 * m + 59_000)).toBe('3h05');
    expect(formatWait(2 * 1440 * m + 4 * 60 * m + 59 * m)).toBe('2d04h');
    expect(formatWait(-5 * m)).toBe('<1m');
  });

  it('caps an old study at "> 30d" instead of counting thousands of days', () => {
    const day = 1440 * m;
    expect(formatWait(29 * day + 23 * 60 * m)).toBe('29d23h');
    expect(formatWait(30 * day)).toBe('> 30d');
    expect(formatWait(8604 * day + 16 * 60 * m)).toBe('> 30d');
  });

  it('gives urgent and emergency cases an hour, inpatients a day, others two days', () => {
    expect(waitLimitMs({ urgentFlag: true, patientSource: 'O' })).toBe(60 * m);
    expect(waitLimitMs({ urgentFlag: false, patientSource: 'E' })).toBe(60 * m);
    expect(waitLimitMs({ urgentFlag: false, patientSource: 'I' })).toBe(1440 * m);
    expect(waitLimitMs({ urgentFlag: false, patientSource: null })).toBe(2 * 1440 * m);
  });

  it('marks a case due at three quarters of its limit and overdue at the limit', () => {
    expect(waitLevel(44 * m, 60 * m)).toBe('ok');
    expect(waitLevel(45 * m, 60 * m)).toBe('due');
    expect(waitLevel(60 * m, 60 * m)).toBe('overdue');
  });
});
