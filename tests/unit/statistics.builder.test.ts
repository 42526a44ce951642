import { describe, expect, it } from 'vitest';
import { addUp, statColumns } from '../../server/statistics/result';

describe('statistics: the one builder of columns and totals', () => {
  it('lists the columns in the order written, each with its kind', () => {
    expect(statColumns({ target: 'text', requested: 'count', amountFen: 'fen' })).toEqual([
      { key: 'target', kind: 'text' }, { key: 'requested', kind: 'count' }, { key: 'amountFen', kind: 'fen' },
    ]);
  });

  it('adds up only the figures named, zero over no rows', () => {
    const rows = [{ name: 'a', paid: 2, refunds: 1 }, { name: 'b', paid: 3, refunds: 0 }];
    expect(addUp(rows, ['paid', 'refunds'])).toEqual({ paid: 5, refunds: 1 });
    expect(addUp([] as { paid: number }[], ['paid'])).toEqual({ paid: 0 });
  });
});
