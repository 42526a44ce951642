import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../contract/common';
import type { ExamListItem } from '../../contract/exams';
import type { Access } from '../access/access';
import type { Db } from '../db/client';
import { accountCheckColumn } from '../access/snapshot';
import { withFastRows } from '../db/fastRows';
import { preparedOnce } from '../db/preparedOnce';
import { buckets, exams, reports } from '../db/schema';
import { checkFilter, type Value } from '../http/pageQuery';
import { EXAM_LIST, myTasksCondition, noReport, reportableCondition } from './filters';
import { assignee, joins, listColumns, reportCreator, toListItem, type ListRow } from './present';
import { orderOf } from './query';

/**
 * The worklist's most frequent pages as prepared statements (issue 18): building the page's SQL text (≈60 columns,
 * two selects, four joins) on every request was most of drizzle's share of a list request's CPU. A shape is fixed
 * SQL whose values are placeholders; PostgreSQL parses and plans a named statement once per connection (PGlite runs
 * it as an ordinary parameterised query). Every shape is the live view of the caller's whole scope with the
 * snapshot filter the worklist always sends (created lte the moment the view was opened), with or without its default
 * `reportable equal true` (contract/reportable.ts), plus at most one quick filter, ordered by created or exam time,
 * newest first. A request takes a shape only when its filters and sorts are
 * exactly that (tests/unit/exams.preparedShapes.test.ts); anything else, however near, goes to the general builder
 * (server/exams/query.ts pageOf), which this must answer exactly as.
 */
export type ShapeFilter = 'none' | 'modality' | 'statusNamed' | 'statusNone' | 'statusNoneOrNamed' | 'myTasks';
export type ShapeOrder = 'created' | 'examTime';

export interface PageShape {
  filter: ShapeFilter;
  order: ShapeOrder;
  /** The view's default: only exams a radiologist can report (`reportable equal true`). */
  reportable: boolean;
  /** The snapshot instant and the quick filter's values, read as the builder reads them. */
  snapshot: Date;
  values: string[];
}

function shapeOrder(sorts: readonly Sort[]): ShapeOrder | null {
  if (sorts.length === 0) return 'created';
  if (sorts.length !== 1 || sorts[0]!.direction !== 'desc') return null;
  const field = sorts[0]!.field;
  return field === 'created' || field === 'examTime' ? field : null;
}

/** The quick filter a (checked) filter is, or null. Values are never null here: the fields' kinds refuse null. */
function quickFilter(field: string, operator: string, values: readonly Value[]): { filter: ShapeFilter; values: string[] } | null {
  if (values.some((v) => typeof v !== 'string' && typeof v !== 'boolean')) return null;
  if (field === 'modality' && operator === 'in') return { filter: 'modality', values: values as string[] };
  if (field === 'reportStatus' && operator === 'in') {
    const named = (values as string[]).filter((v) => v !== 'none');
    const none = named.length < values.length;
    return { filter: none ? (named.length === 0 ? 'statusNone' : 'statusNoneOrNamed') : 'statusNamed', values: named };
  }
  if (field === 'myTasks' && operator === 'equal' && values.length === 1 && values[0] === true) return { filter: 'myTasks', values: [] };
  return null;
}

/**
 * The shape a page request is, or null (the builder's). Call it after buildQuery, which has refused bad filters
 * with the builder's own 400s; the values are read here by the same readers.
 */
export function pageShape(filters: readonly Filter[], sorts: readonly Sort[]): PageShape | null {
  const order = shapeOrder(sorts);
  if (!order || filters.length < 1 || filters.length > 3) return null;
  let snapshot: Date | null = null;
  let reportable = false;
  let quick: { filter: ShapeFilter; values: string[] } | null = null;
  for (const [index, f] of filters.entries()) {
    const checked = checkFilter(EXAM_LIST, f, index);
    if (checked.field === 'created' && checked.operator === 'lte' && snapshot === null && checked.values[0] instanceof Date) {
      snapshot = checked.values[0];
      continue;
    }
    if (checked.field === 'reportable' && checked.operator === 'equal' && !reportable && checked.values.length === 1 && checked.values[0] === true) {
      reportable = true;
      continue;
    }
    if (quick !== null) return null;
    quick = quickFilter(checked.field, checked.operator, checked.values);
    if (quick === null) return null;
  }
  if (snapshot === null) return null;
  return { filter: quick?.filter ?? 'none', order, reportable, snapshot, values: quick?.values ?? [] };
}

const p = sql.placeholder;

function quickCondition(filter: ShapeFilter): SQL | null {
  switch (filter) {
    case 'none': return null;
    case 'modality': return sql`${exams.modality} = any(${p('values')})`;
    case 'statusNamed': return sql`${exams.reportStatus} = any(${p('values')})`;
    case 'statusNone': return noReport;
    case 'statusNoneOrNamed': return sql`(${exams.reportStatus} = any(${p('values')}) or ${noReport})`;
    case 'myTasks': return myTasksCondition(p('account'));
  }
}

function prepare(db: Db, filter: ShapeFilter, order: ShapeOrder, reportable: boolean, oneBucket: boolean, checked: boolean, name: string) {
  const where = and(
    // One organisation as `=`, as the builder writes it: the planner reads `bucket_id = any($1)` of a one-element
    // array through the created index with a filter (a deep page 9 → 26 ms on the bench), not the (bucket, order) one.
    oneBucket ? sql`${exams.bucketId} = ${p('bucket')}` : sql`${exams.bucketId} = any(${p('buckets')})`,
    isNull(exams.deletedTime),
    sql`${exams.created} <= ${p('snapshot')}`,
    ...[reportable ? reportableCondition : null, quickCondition(filter)].filter((c): c is SQL => c !== null),
  );
  // The builder's own order (a shape has no deletedTime sort, so the view does not matter).
  const orderBy = orderOf(order === 'created' ? [] : [{ field: 'examTime', direction: 'desc' }], false);
  const page = db.select({ id: exams.id }).from(exams).where(where).orderBy(...orderBy)
    .limit(p('limit')).offset(p('skip')).as('page');
  // A checked page carries the caller's account as the auth statement reads it, read in the page's own snapshot.
  return db.select(checked ? { ...listColumns, accountCheck: accountCheckColumn(p('account')) } : listColumns).from(exams)
    .innerJoin(page, eq(page.id, exams.id))
    .leftJoin(buckets, joins.bucket)
    .leftJoin(reportCreator, joins.reportCreator)
    .leftJoin(assignee, joins.assignee)
    .leftJoin(reports, joins.report)
    .orderBy(...orderBy)
    .prepare(name);
}

/**
 * One page of a shape: the rows pageOf would answer for the caller's whole scope `bucketIds` (not empty). `checked`:
 * the statement also reads the caller's account (accountCheckColumn), answered as `check` — undefined when the page
 * has no row to carry it.
 */
export async function preparedPage(
  db: Db, shape: PageShape, bucketIds: readonly number[], accountId: number, skip: number, limit: number, access: Access | null,
  opts: { checked?: boolean } = {},
): Promise<{ items: ExamListItem[]; check: string | null | undefined }> {
  const oneBucket = bucketIds.length === 1;
  const checked = opts.checked === true;
  const name = `exam_page_${shape.filter}_${shape.order}${shape.reportable ? '_reportable' : ''}_${oneBucket ? 'one' : 'many'}${checked ? '_checked' : ''}`;
  // One organisation's pages run on their generic plan (preparedOnce: the index in the page's order, whatever the
  // values). Several organisations' `bucket_id = any($1)` needs the values to plan: a generic plan took 370 ms.
  // "Unreported, by exam time" too (issue 37, bench:department): its generic plan reads every unreported exam of the
  // organisation by a bitmap of the created index and sorts them (221,000 rows at 1,000,000 exams: 1.4 s), where a
  // plan made with the values walks the exam-time index backward (0.9 ms).
  const make = (on: Db) => withFastRows(prepare(on, shape.filter, shape.order, shape.reportable, oneBucket, checked, name));
  const statement = preparedOnce(db, name, make, { planned: oneBucket && !(shape.filter === 'statusNone' && shape.order === 'examTime') });
  const rows = await statement.execute({
    bucket: bucketIds[0], buckets: [...bucketIds], snapshot: shape.snapshot, values: shape.values, account: accountId, limit, skip,
  });
  const first = rows[0] as { accountCheck?: string | null } | undefined;
  return { items: rows.map((r) => toListItem(r as ListRow, access)), check: first?.accountCheck };
}
