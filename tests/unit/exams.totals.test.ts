import { describe, expect, it } from 'vitest';
import { withPageFacts } from '../../server/exams/query';

/** An estimated total is squared with what the page proves (server/exams/query.ts). */
describe('exam list totals', () => {
  it('keeps an exact count as it is', () => {
    expect(withPageFacts({ total: 42, totalIsEstimate: false }, 40, 20, 2)).toEqual({ total: 42, totalIsEstimate: false });
  });

  it('makes the total exact when the page is not full', () => {
    expect(withPageFacts({ total: 50_000, totalIsEstimate: true }, 0, 20, 7)).toEqual({ total: 7, totalIsEstimate: false });
    expect(withPageFacts({ total: 50_000, totalIsEstimate: true }, 40, 20, 3)).toEqual({ total: 43, totalIsEstimate: false });
    expect(withPageFacts({ total: 50_000, totalIsEstimate: true }, 0, 20, 0)).toEqual({ total: 0, totalIsEstimate: false });
  });

  it('never answers fewer rows than a full page proves', () => {
    expect(withPageFacts({ total: 12_000, totalIsEstimate: true }, 20_000, 20, 20)).toEqual({ total: 20_021, totalIsEstimate: true });
    expect(withPageFacts({ total: 30_000, totalIsEstimate: true }, 0, 20, 20)).toEqual({ total: 30_000, totalIsEstimate: true });
  });

  it('caps the estimate at the offset of an empty page past the end', () => {
    expect(withPageFacts({ total: 30_000, totalIsEstimate: true }, 25_000, 20, 0)).toEqual({ total: 25_000, totalIsEstimate: true });
  });
});
