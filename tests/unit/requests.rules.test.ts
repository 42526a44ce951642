import { describe, expect, it } from 'vitest';
import { isPastStart, nextHalfHour } from '../../contract/consultations';
import { isReportable } from '../../contract/reportable';
import type { ExpertProduct } from '../../contract/payments';
import { submitRefusal } from '../../machines/expertRequestTransitions';
import { toggleTarget } from '../../src/features/payments/apply/selection';

/** Issue 32's small rules, asked directly: what may be sold, to whom once, and when a consultation may start. */
const product = (bucketId: number, openOrderId: number | null = null): ExpertProduct => ({
  bucketId, bucketName: `B${bucketId}`, free: false, productName: 'P', priceFen: 8000, openOrderId,
});
const facts = { type: 'expert' as const, targets: [{ bucketId: 7, free: false }], targetsValid: true, termsAgreed: true, examWritingBegun: false, remoteRequested: false, copiesWritten: false };

describe('reportable exam', () => {
  it('is one with images, a performed one, or one that never was a registry line', () => {
    expect(isReportable({ examStatus: null, hasImage: false })).toBe(true);
    expect(isReportable({ examStatus: 'Performed', hasImage: false })).toBe(true);
    expect(isReportable({ examStatus: 'Registered', hasImage: true })).toBe(true);
    for (const examStatus of ['Registered', 'Scheduled', 'Arrived', 'Cancelled']) expect(isReportable({ examStatus, hasImage: false })).toBe(false);
  });
});

describe('the request machine refuses', () => {
  it('an exam with nothing to read (ExamNotReportable), and a second open request to one organisation (ExpertRequestOpen)', () => {
    expect(submitRefusal(facts)).toBeNull();
    expect(submitRefusal({ ...facts, examReportable: false })).toBe('ExamNotReportable');
    expect(submitRefusal({ ...facts, type: 'remote', examReportable: false })).toBe('ExamNotReportable');
    expect(submitRefusal({ ...facts, openTargets: [7] })).toBe('ExpertRequestOpen');
    expect(submitRefusal({ ...facts, openTargets: [8] })).toBeNull();
    // Terms first, as always.
    expect(submitRefusal({ ...facts, termsAgreed: false, openTargets: [7] })).toBe('TermsNotAgreed');
  });

  it('in the form: an organisation already asked is not chosen, and the refusal names its request', () => {
    expect(toggleTarget([], [product(7, 41), product(8)], 7)).toEqual({ refused: 'ExpertRequestOpen', orderId: 41 });
    expect(toggleTarget([], [product(7, 41), product(8)], 8)).toEqual({ chosen: [8] });
  });
});

describe('consultation start', () => {
  it('proposes the next whole half hour and refuses a start already past', () => {
    expect(nextHalfHour(new Date('2030-03-04T09:05:10Z')).toISOString()).toBe('2030-03-04T09:30:00.000Z');
    expect(nextHalfHour(new Date('2030-03-04T09:30:00Z')).toISOString()).toBe('2030-03-04T10:00:00.000Z');
    const now = new Date('2030-03-04T09:05:00Z');
    expect(isPastStart(new Date('2030-03-04T00:00:00Z'), now)).toBe(true);
    expect(isPastStart(now, now)).toBe(true);
    expect(isPastStart(new Date('2030-03-04T09:06:00Z'), now)).toBe(false);
  });
});
