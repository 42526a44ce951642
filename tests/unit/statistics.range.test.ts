import { describe, expect, it } from 'vitest';
import { addMonths, lastDayWithin, periodsOf, periodStart, quickRange, rangeLimitOf, rangeProblem } from '../../contract/statistics';

/** The statistics range rules (contract/statistics.ts): pure functions the server, the client and the tests share. */
describe('addMonths', () => {
  it('moves by whole months and clamps to the month\'s last day', () => {
    expect(addMonths('2026-01-05', 1)).toBe('2026-02-05');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29'); // leap year
    expect(addMonths('2026-03-31', 1)).toBe('2026-04-30');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2028-02-29', 12)).toBe('2029-02-28');
    expect(addMonths('2026-01-31', 60)).toBe('2031-01-31');
  });
});

describe('lastDayWithin', () => {
  it('ends a month from Jan 5 on Feb 4, a year on the day before, five years likewise', () => {
    expect(lastDayWithin('2026-01-05', 'month')).toBe('2026-02-04');
    expect(lastDayWithin('2026-01-31', 'month')).toBe('2026-02-27'); // Feb 28 (clamped) − 1
    expect(lastDayWithin('2026-03-01', 'month')).toBe('2026-03-31');
    expect(lastDayWithin('2026-01-01', 'year')).toBe('2026-12-31');
    expect(lastDayWithin('2026-06-15', 'fiveYears')).toBe('2031-06-14');
  });
});

describe('rangeLimitOf', () => {
  it('holds device workload and any day unit to a month, note-taker and remote-report to a year', () => {
    expect(rangeLimitOf('modality', 'month')).toBe('month');
    expect(rangeLimitOf('study', 'day')).toBe('month');
    expect(rangeLimitOf('note-taker', 'week')).toBe('year');
    expect(rangeLimitOf('remote-report', 'month')).toBe('year');
    expect(rangeLimitOf('note-taker', 'day')).toBe('month');
    expect(rangeLimitOf('study', 'week')).toBe('fiveYears');
    expect(rangeLimitOf('overview-total', 'year')).toBe('fiveYears');
  });
});

describe('rangeProblem', () => {
  it('wants both days, in order, within the limit', () => {
    expect(rangeProblem('study', 'day', undefined, '2026-01-10')).toEqual({ code: 'StatisticsPeriodRequired' });
    expect(rangeProblem('study', 'day', '2026-01-10', null)).toEqual({ code: 'StatisticsPeriodRequired' });
    expect(rangeProblem('study', 'day', '2026-01-11', '2026-01-10')).toEqual({ code: 'StatisticsPeriodInvalid' });
    expect(rangeProblem('study', 'day', '2026-01-10', '2026-01-10')).toBeNull();
    expect(rangeProblem('modality', 'week', '2026-01-05', '2026-02-04')).toBeNull();
    expect(rangeProblem('modality', 'week', '2026-01-05', '2026-02-05')).toEqual({ code: 'StatisticsRangeTooLong', limit: 'month', lastDay: '2026-02-04' });
    expect(rangeProblem('study', 'day', '2026-01-01', '2026-02-01')).toEqual({ code: 'StatisticsRangeTooLong', limit: 'month', lastDay: '2026-01-31' });
    expect(rangeProblem('note-taker', 'month', '2026-01-01', '2026-12-31')).toBeNull();
    expect(rangeProblem('note-taker', 'month', '2026-01-01', '2027-01-01')).toEqual({ code: 'StatisticsRangeTooLong', limit: 'year', lastDay: '2026-12-31' });
    expect(rangeProblem('study', 'month', '2026-01-01', '2030-12-31')).toBeNull();
    expect(rangeProblem('study', 'month', '2026-01-01', '2031-01-01')).toEqual({ code: 'StatisticsRangeTooLong', limit: 'fiveYears', lastDay: '2030-12-31' });
  });
});

describe('quickRange', () => {
  it('ends yesterday, or today for 7 and 30 days (today included)', () => {
    expect(quickRange('yesterday', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(quickRange('7d', '2026-01-03')).toEqual({ from: '2025-12-28', to: '2026-01-03' });
    expect(quickRange('30d', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });
});

describe('periodsOf', () => {
  it('lists every day', () => {
    expect(periodsOf('2026-02-27', '2026-03-02', 'day')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });
  it('lists weeks from the Monday holding the first day, across a year end', () => {
    // 2025-12-24 is a Wednesday: its week starts Monday 22 December; 2026-01-11 is a Sunday (the week of Jan 5).
    expect(periodStart('2025-12-24', 'week')).toBe('2025-12-22');
    expect(periodStart('2026-01-11', 'week')).toBe('2026-01-05');
    expect(periodStart('2026-01-12', 'week')).toBe('2026-01-12');
    expect(periodsOf('2025-12-24', '2026-01-11', 'week')).toEqual(['2025-12-22', '2025-12-29', '2026-01-05']);
  });
  it('lists months and years by their first days', () => {
    expect(periodsOf('2025-11-15', '2026-02-01', 'month')).toEqual(['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01']);
    expect(periodsOf('2024-06-30', '2026-01-01', 'year')).toEqual(['2024-01-01', '2025-01-01', '2026-01-01']);
    expect(periodsOf('2026-01-31', '2026-01-31', 'month')).toEqual(['2026-01-01']);
  });
});
