/**
 * A worklist view as the server's page query (filters AND-ed, sorts). One place knows the server's field names,
 * so the screen, the export and the case order all ask for the same rows.
 */
import { DELETED_RECOVERY_DAYS, FREE_TEXT_MIN_CHARS, UNREPORTED_STATUSES } from '../../../contract/constants';
import type { Filter, Sort } from '../../../contract/common';
import type { ExamSortField, QUICK_FILTER_MODALITIES } from '../../../contract/exams';
import type { ReportStatus } from '../../../contract/reports';
import type { QuickModality, ViewSort, WorkFilter, WorklistView } from './view';

/**
 * Modalities behind each quick filter: the contract's (X-ray is computed and digital radiography), typed by it so
 * the two cannot drift; a value import would bring the contract's zod schemas into the worklist's chunk.
 */
export const QUICK_MODALITY_CODES: typeof QUICK_FILTER_MODALITIES & Record<QuickModality, readonly string[]> = {
  xray: ['CR', 'DX'],
  ct: ['CT'],
  mr: ['MR'],
  us: ['US'],
};

/** Statuses behind the two work filters: anything short of a submitted or approved report, and submitted ones. */
export const WORK_FILTER_STATUSES: Record<WorkFilter, readonly ReportStatus[]> = {
  unreported: UNREPORTED_STATUSES,
  pending: ['final'],
};

export interface QueryContext {
  /** The clock of the view: "today" and the 30-day window of deleted exams are counted from it. */
  now: Date;
  /**
   * Rows created after this instant are left out, so pages fetched while the user scrolls line up with the first
   * (a new exam at the top would otherwise shift every later page by one). Refreshing moves it to now.
   */
  snapshot: Date;
}

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function localDay(value: string): Date {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

function nextDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);
}

const iso = (date: Date) => date.toISOString();

export function viewFilters(view: WorklistView, ctx: QueryContext): Filter[] {
  const filters: Filter[] = [];
  const add = (field: string, operator: Filter['operator'], values: Filter['values']) => filters.push({ field, operator, values });

  if (view.deleted) {
    add('deletedTime', 'gte', [iso(new Date(ctx.now.getTime() - DELETED_RECOVERY_DAYS * 86_400_000))]);
  }
  add('created', 'lte', [iso(ctx.snapshot)]);
  // The default view holds what a radiologist can report (contract/reportable.ts); booked lines only when asked for.
  if (!view.booked) add('reportable', 'equal', [true]);
  if (view.tab === 'mine') add('myTasks', 'equal', [true]);
  if (view.today) {
    const start = startOfDay(ctx.now);
    add('examTime', 'gte', [iso(start)]);
    add('examTime', 'lt', [iso(nextDay(start))]);
  }
  if (view.quick) add('modality', 'in', [...QUICK_MODALITY_CODES[view.quick]]);
  if (view.work) add('reportStatus', 'in', [...WORK_FILTER_STATUSES[view.work]]);
  if (view.origin) add('reportSource', 'equal', [view.origin]);
  if (view.text.trim().length >= FREE_TEXT_MIN_CHARS) add('reportText', 'like', [view.text.trim()]);
  if (view.patientName.trim()) add('patientName', 'like', [view.patientName.trim()]);
  if (view.patientId.trim()) add('patientId', 'like', [view.patientId.trim()]);
  if (view.accession.trim()) add('accessionNumber', 'like', [view.accession.trim()]);
  if (view.modalities.length) add('modality', 'in', [...view.modalities]);
  if (view.bodyPart.trim()) add('bodyPart', 'like', [view.bodyPart.trim()]);
  if (view.from) add('examTime', 'gte', [iso(localDay(view.from))]);
  if (view.to) add('examTime', 'lt', [iso(nextDay(localDay(view.to)))]);
  if (view.bucketId) add('bucketId', 'equal', [view.bucketId]);
  if (view.statuses.length) add('reportStatus', 'in', [...view.statuses]);
  if (view.sources.length) add('patientSource', 'in', [...view.sources]);
  if (view.urgent) add('urgentFlag', 'equal', [true]);
  if (view.reporterId) add('reportCreatorId', 'equal', [view.reporterId]);
  return filters;
}

/**
 * The order the list is in: the chosen one, else the latest exam time first (a column people see, so the list
 * reads as sorted); the deleted view lists the latest deleted first. The grid's header marks this column.
 */
export function effectiveSort(view: WorklistView): ViewSort {
  if (view.sort && (view.sort.field !== 'deletedTime' || view.deleted)) return view.sort;
  return { field: view.deleted ? 'deletedTime' : 'examTime', direction: 'desc' };
}

export function viewSorts(view: WorklistView): (Sort & { field: ExamSortField })[] {
  const sort = effectiveSort(view);
  return [{ field: sort.field, direction: sort.direction }];
}

/** True when the free-text search is long enough to be sent (core §5: more than 2 characters). */
export function textSearchActive(view: WorklistView): boolean {
  return view.text.trim().length >= FREE_TEXT_MIN_CHARS;
}
