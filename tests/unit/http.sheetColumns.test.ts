import { describe, expect, it } from 'vitest';
import { dateCell, PAYMENT_STATUS, sheetColumns, wordList, wordOf, wordTable, words, YES_NO } from '../../server/http/sheetColumns';

describe('sheetColumns: the one way an export spells its columns', () => {
  it('turns a line into a column with its header in the three languages', () => {
    const [column] = sheetColumns<{ n: number }>([['n', 9, ['数', 'Number', 'གྲངས།'], (r) => r.n * 2]]);
    expect(column).toMatchObject({ key: 'n', width: 9, label: { chs: '数', en: 'Number', tib: 'གྲངས།' } });
    expect(column!.value({ n: 21 }, 'en')).toBe(42);
  });

  it('words a code, keeps an unknown code as text and leaves no code empty', () => {
    const table = wordTable<string>({ M: ['男', 'Male', 'ཕོ།'] });
    expect(wordOf(table, 'M', 'chs')).toBe('男');
    expect(wordOf(table, 'X', 'en')).toBe('X');
    expect(wordOf(table, null, 'en')).toBeNull();
    expect(wordOf(wordList([['零', 'Zero', 'ཀླད་ཀོར།']]), 7, 'en')).toBe('7');
  });

  it('reads ISO times as date cells and nothing as an empty cell', () => {
    expect(dateCell('2026-01-02T03:04:05.000Z')?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(dateCell(null)).toBeNull();
    expect(dateCell('')).toBeNull();
  });

  it('shares the payment status and yes / no words', () => {
    expect(PAYMENT_STATUS.map((w) => w.en)).toEqual(['Unpaid', 'Paid', 'Refunding', 'Refunded']);
    expect(YES_NO.yes).toEqual(words(['是', 'Yes', 'ཡིན།']));
  });
});
