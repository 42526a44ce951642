import { isReportable } from '../../../contract/reportable';
import type { ExamRow } from './types';

/**
 * "Next case I can report" (`n`): the first exam after the focused one, in the view's order and round past the end,
 * that can be reported (performed or with images: contract/reportable.ts, the rule of the list's default view too)
 * and whose report this account can write now — the server's `canWrite`, the report machine's answer for the account.
 * Rows not loaded yet are fetched in batches with the view's own query (at most `maxBatches` per press, so a press
 * on a list of a million rows stays a few requests); they are handed back to the caller to keep.
 */
export interface NextCaseEnv {
  from: number;
  total: number;
  rowAt(index: number): ExamRow | undefined;
  fetchRows(skip: number, limit: number): Promise<ExamRow[]>;
  /** Rows fetched here, for the page cache. */
  keep?(skip: number, rows: ExamRow[]): void;
  batch?: number;
  maxBatches?: number;
}

export function isWritableCase(exam: ExamRow): boolean {
  return exam.canWrite && !exam.deletedTime && isReportable(exam);
}

/** The position of the next writable case, or null when none is within reach. */
export async function findNextWritable(env: NextCaseEnv): Promise<number | null> {
  const batch = env.batch ?? 100;
  let batchesLeft = env.maxBatches ?? 10;
  const fetched = new Map<number, ExamRow>();
  for (let step = 1; step < env.total; step++) {
    const index = (env.from + step) % env.total;
    let exam = env.rowAt(index) ?? fetched.get(index);
    if (!exam) {
      if (batchesLeft === 0) return null;
      batchesLeft -= 1;
      const skip = Math.floor(index / batch) * batch;
      const rows = await env.fetchRows(skip, batch);
      rows.forEach((row, i) => fetched.set(skip + i, row));
      env.keep?.(skip, rows);
      exam = fetched.get(index);
      if (!exam) return null; // the list is shorter than it was: stop rather than walk empty positions
    }
    if (isWritableCase(exam)) return index;
  }
  return null;
}
