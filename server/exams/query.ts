import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Filter, Sort } from '../../contract/common';
import { EXAM_COUNT_EXACT_LIMIT, EXAM_SORT_FIELDS, type ExamCount, type ExamListItem, type ExamSortField } from '../../contract/exams';
import type { Db } from '../db/client';
import { buckets, exams, reports } from '../db/schema';
import { cachedEstimate, cappedCount, raiseCachedEstimate } from '../http/estimate';
import { orderOf as listOrder } from '../http/pageQuery';
import { examCountKey } from './countKey';
import { compileFilters, reportStatusExpr, viewCondition } from './filters';
import type { Access } from '../access/access';
import { assignee, joins, listColumns, reportCreator, toListItem, type ListRow } from './present';
import { planReportText } from './textSearch';

/** A page query made SQL: the condition (scope, view, filters) and the order. Null when nothing can match. */
export interface ExamQuery {
  where: SQL;
  orderBy: SQL[];
  /** An exact count would read far more than the page (a common free-text phrase): count by the planner's estimate. */
  countByEstimate: boolean;
  /** The count statement's name in the estimate cache (server/exams/countKey.ts); null: key it by its text. */
  countKey: string | null;
}

const SORT_EXPR: Record<ExamSortField, AnyPgColumn | SQL> = {
  created: exams.created,
  examTime: exams.examTime,
  deletedTime: exams.deletedTime,
  uploadTime: exams.uploadTime,
  id: exams.id,
  patientName: exams.patientName,
  patientId: exams.patientId,
  accessionNumber: exams.accessionNumber,
  modality: exams.modality,
  bodyPart: exams.bodyPart,
  reportStatus: reportStatusExpr,
  urgentFlag: exams.urgentFlag,
  bucketId: exams.bucketId,
};

/**
 * The order of a page (the shared engine): the sorts asked for (default created desc), a deletedTime sort outside the
 * deleted view falling back to created (core §9), and the id last in the first sort's direction, so that pages are
 * stable and the default order is exactly the (created, id) index read backwards.
 */
export function orderOf(sorts: readonly Sort[], deletedView: boolean): SQL[] {
  return listOrder({
    resource: 'exams', fields: EXAM_SORT_FIELDS, columns: SORT_EXPR, defaultSort: { field: 'created', direction: 'desc' }, tieBreak: 'id',
    rewrite: (field) => (field === 'deletedTime' && !deletedView ? 'created' : field),
  }, sorts);
}

/**
 * Scope first (the organisations the caller may read, narrowed by a bucketId filter, never widened), then the
 * live or deleted view, then the filters.
 */
export async function buildQuery(db: Db, scope: readonly number[], input: { filters: readonly Filter[]; sorts: readonly Sort[] }, ctx: { accountId: number; now: Date }): Promise<ExamQuery | null> {
  const compiled = compileFilters(input.filters, ctx);
  const orderBy = orderOf(input.sorts, compiled.deletedView);
  const narrowed = compiled.bucketIds;
  const bucketIds = narrowed === null ? [...scope] : scope.filter((id) => narrowed.includes(id));
  if (bucketIds.length === 0) return null;
  const conditions = [...compiled.conditions];
  let countByEstimate = false;
  if (compiled.reportText !== null) {
    const text = await planReportText(db, compiled.reportText);
    if (text.kind === 'nothing') return null;
    conditions.push(text.condition);
    countByEstimate = text.kind === 'many';
  }
  const bucketCondition = bucketIds.length === 1 ? eq(exams.bucketId, bucketIds[0]!) : inArray(exams.bucketId, bucketIds);
  const countKey = compiled.reportText === null ? examCountKey(bucketIds, input.filters, compiled.deletedView, ctx) : null;
  return { where: and(bucketCondition, viewCondition(compiled.deletedView, ctx.now), ...conditions)!, orderBy, countByEstimate, countKey };
}

/**
 * One page. The ids are found first by the indexes alone (a deep page skips index entries, not table rows),
 * then only the page's rows are read with their joins.
 */
export async function pageOf(db: Db, q: ExamQuery, skip: number, limit: number, access: Access | null = null): Promise<ExamListItem[]> {
  const page = db.select({ id: exams.id }).from(exams).where(q.where).orderBy(...q.orderBy).limit(limit).offset(skip).as('page');
  const rows = await db.select(listColumns).from(exams)
    .innerJoin(page, eq(page.id, exams.id))
    .leftJoin(buckets, joins.bucket)
    .leftJoin(reportCreator, joins.reportCreator)
    .leftJoin(assignee, joins.assignee)
    .leftJoin(reports, joins.report)
    .orderBy(...q.orderBy);
  return rows.map((r) => toListItem(r as ListRow, access));
}

/**
 * The number of matches. Counting a whole list (400,000 exams of one hospital) on every page would cost more than
 * the page, so: when the planner expects more than EXAM_COUNT_EXACT_LIMIT, its estimate is the answer;
 * otherwise the count is exact up to the limit (it stops there, so its cost is bounded) and the estimate above
 * it (never below the limit). `exact` (the export's limit check) always counts, up to its limit.
 */
export async function countOf(db: Db, q: ExamQuery | null, opts: { exactLimit?: number; exact?: boolean } = {}): Promise<ExamCount> {
  if (!q) return { total: 0, totalIsEstimate: false };
  const exactLimit = opts.exactLimit ?? EXAM_COUNT_EXACT_LIMIT;
  const all = db.select({ one: sql`1` }).from(exams).where(q.where);
  if (opts.exact) return cappedCount(db, exams, q.where, exactLimit);
  const expected = await cachedEstimate(db, all, Date.now(), q.countKey ?? undefined);
  if (q.countByEstimate || expected > exactLimit) return { total: Math.max(expected, 1), totalIsEstimate: true };
  const counted = await cappedCount(db, exams, q.where, exactLimit);
  // The planner expected fewer rows than there are: its cached estimate learns so (see raiseCachedEstimate).
  if (counted.totalIsEstimate) raiseCachedEstimate(db, all, counted.total, q.countKey ?? undefined);
  return counted;
}

/**
 * An estimated total squared with what the page itself proves: a page that is not full ends the list, so the total
 * is exact; a full one means there are at least skip + limit rows.
 */
export function withPageFacts(count: ExamCount, skip: number, limit: number, rows: number): ExamCount {
  if (!count.totalIsEstimate) return count;
  if (rows < limit && (rows > 0 || skip === 0)) return { total: skip + rows, totalIsEstimate: false };
  // An empty page past the end: there are at most `skip` rows.
  if (rows === 0) return { total: Math.min(count.total, skip), totalIsEstimate: true };
  return { total: Math.max(count.total, skip + rows + 1), totalIsEstimate: true };
}

/** One exam as a worklist row (any organisation: the caller checks access). */
export async function loadListItem(db: Db, id: number, access: Access | null = null): Promise<ExamListItem | null> {
  const [row] = await db.select(listColumns).from(exams)
    .leftJoin(buckets, joins.bucket)
    .leftJoin(reportCreator, joins.reportCreator)
    .leftJoin(assignee, joins.assignee)
    .leftJoin(reports, joins.report)
    .where(eq(exams.id, id));
  return row ? toListItem(row as ListRow, access) : null;
}
