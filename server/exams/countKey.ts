import type { Filter } from '../../contract/common';
import { EXAM_FILTER_FIELDS, type ExamFilterField } from '../../contract/exams';

/**
 * The name of an exam list's count statement for the estimate cache (server/http/estimate.ts), made from what the
 * statement is built of rather than from its text: building the text (`toSQL()`) only to look it up was most of the
 * cache's cost. The statement (server/exams/query.ts buildQuery, countOf) is a function of exactly:
 * - the organisations after a bucketId filter narrowed them (in scope order, as the statement lists them);
 * - the live or deleted view, and for the deleted view the moment "30 days ago" is counted from;
 * - each filter as asked (field, operator, values; compileFilters is a pure function of them), with the caller's
 *   account for `myTasks`, the one filter that reads it.
 * Instants (time filters, the deleted view's start) are cut to the minute as the statement keys cut theirs: two
 * openings of the same view in one minute share the planner's estimate. A report text search is not keyed here
 * (its statement holds report ids found at that moment): the caller falls back to the statement's own key.
 * tests/unit/exams.countKey.test.ts holds the rule "same key, same statement" against the real statements.
 */
export function examCountKey(bucketIds: readonly number[], filters: readonly Filter[], deletedView: boolean, ctx: { accountId: number; now: Date }): string {
  const minute = (t: number) => Math.floor(t / 60_000);
  const parts = filters.map((f) => {
    const kind = EXAM_FILTER_FIELDS[f.field as ExamFilterField]?.kind;
    const values = kind === 'time' ? f.values.map((v) => (typeof v === 'string' ? minute(Date.parse(v)) : v)) : f.values;
    return [f.field, f.operator, values];
  });
  const account = filters.some((f) => f.field === 'myTasks') ? ctx.accountId : null;
  return JSON.stringify(['exams', bucketIds, deletedView ? minute(ctx.now.getTime()) : null, account, parts]);
}
