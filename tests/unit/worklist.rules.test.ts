import { describe, expect, it } from 'vitest';
import { orderRules, resolveColours, ruleMatches, safeColour, type ColourRule } from '@/features/worklist/colourRules';
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
