/**
 * What the worklist shows, as plain data, and its spelling in the URL query: every filter lives in the URL so a
 * view can be bookmarked and shared, and Back/Forward restore it. Parsing is forgiving (a hand-edited or old
 * link never breaks the screen: unknown values are dropped); writing is canonical (defaults left out, a fixed
 * order), so one view has one URL.
 */
import { PATIENT_SOURCES } from '../../../contract/constants';
import type { ReportStatus } from '../../../contract/reports';

export type Tab = 'all' | 'mine';
export const QUICK_MODALITIES = ['xray', 'ct', 'mr', 'us'] as const;
export type QuickModality = (typeof QUICK_MODALITIES)[number];
/** Who writes the report: an expert centre, a remote reading request, or the exam's own organisation. */
export const REPORT_ORIGINS = ['expert', 'remote', 'inhouse'] as const;
export type ReportOrigin = (typeof REPORT_ORIGINS)[number];
/** Quick filters by where the report stands: not yet reported (no final report), or submitted and awaiting approval. */
export const WORK_FILTERS = ['unreported', 'pending'] as const;
export type WorkFilter = (typeof WORK_FILTERS)[number];
export type PatientSource = (typeof PATIENT_SOURCES)[number];

/**
 * The report statuses (contract/reports.ts), as a complete map so the compiler checks it against the contract's
 * type: importing the contract's list would bring its zod schemas (25 KB gzipped) into the worklist's chunk.
 */
const REPORT_STATUS_SET: Record<ReportStatus, true> = {
  locked: true, partial: true, final: true, corrected: true, hold: true, cancelled: true, printed: true, advised: true, none: true,
};
const isReportStatus = (s: string): s is ReportStatus => Object.hasOwn(REPORT_STATUS_SET, s);

/** Columns the list can be sorted by (server-side). */
export const SORT_FIELDS = ['examTime', 'created', 'patientName', 'patientId', 'modality', 'bodyPart', 'accessionNumber', 'reportStatus', 'deletedTime'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export interface ViewSort {
  field: SortField;
  direction: 'asc' | 'desc';
}

export interface WorklistView {
  tab: Tab;
  /** Quick filters: exams of today, and one modality group. */
  today: boolean;
  quick: QuickModality | null;
  work: WorkFilter | null;
  /** The deleted exams of the last 30 days instead of the live list. */
  deleted: boolean;
  /**
   * Lines booked at the registry desk and not performed yet (no images) are shown too. Off by default: the list holds
   * the exams a radiologist can report (contract/reportable.ts), and says so on screen.
   */
  booked: boolean;
  origin: ReportOrigin | null;
  /** Free-text search in the reports' findings and conclusions (used from 3 characters). */
  text: string;
  // Advanced search
  patientName: string;
  patientId: string;
  accession: string;
  modalities: string[];
  bodyPart: string;
  /** Exam date range, inclusive local days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
  bucketId: number | null;
  statuses: ReportStatus[];
  sources: PatientSource[];
  urgent: boolean;
  reporterId: number | null;
  /** Null = the default order (newest first). */
  sort: ViewSort | null;
}

export const DEFAULT_VIEW: WorklistView = {
  tab: 'all', today: false, quick: null, work: null, deleted: false, booked: false, origin: null, text: '',
  patientName: '', patientId: '', accession: '', modalities: [], bodyPart: '', from: null, to: null,
  bucketId: null, statuses: [], sources: [], urgent: false, reporterId: null, sort: null,
};

/** URL parameter of each field. Short but readable, since people paste these links to each other. */
const PARAM = {
  tab: 'tab', today: 'today', quick: 'mod', work: 'work', deleted: 'deleted', booked: 'booked', origin: 'origin', text: 'text',
  patientName: 'name', patientId: 'pid', accession: 'acc', modalities: 'modality', bodyPart: 'body', from: 'from', to: 'to',
  bucketId: 'org', statuses: 'status', sources: 'source', urgent: 'urgent', reporterId: 'reporter', sort: 'sort',
} as const satisfies Record<keyof WorklistView, string>;

const TEXT_MAX = 64;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MODALITY = /^[A-Z]{2,4}$/;

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

function listOf<T extends string>(value: string | null, keep: (item: string) => item is T): T[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((s) => s.trim()).filter(keep))].sort();
}

/** A real calendar day: '2026-02-31' is refused rather than rolled over into March. */
function day(value: string | null): string | null {
  if (!value || !DAY.test(value)) return null;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d ? value : null;
}

function id(value: string | null): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 && n <= 2_147_483_647 ? n : null;
}

const text = (value: string | null) => (value ?? '').trim().slice(0, TEXT_MAX);
const flag = (value: string | null) => value === '1';

/** The view a URL query describes; anything unknown or malformed is left at its default. */
export function parseView(search: string): WorklistView {
  const p = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const get = (field: keyof WorklistView) => p.get(PARAM[field]);
  const sortParam = get('sort')?.split('.') ?? [];
  const sortField = oneOf(sortParam[0] ?? null, SORT_FIELDS);
  const sortDir = oneOf(sortParam[1] ?? null, ['asc', 'desc'] as const);
  let from = day(get('from'));
  let to = day(get('to'));
  if (from && to && from > to) [from, to] = [to, from];
  return {
    tab: oneOf(get('tab'), ['all', 'mine'] as const) ?? 'all',
    today: flag(get('today')),
    quick: oneOf(get('quick'), QUICK_MODALITIES),
    work: oneOf(get('work'), WORK_FILTERS),
    deleted: flag(get('deleted')),
    booked: flag(get('booked')),
    origin: oneOf(get('origin'), REPORT_ORIGINS),
    text: text(get('text')),
    patientName: text(get('patientName')),
    patientId: text(get('patientId')),
    accession: text(get('accession')),
    modalities: listOf(get('modalities')?.toUpperCase() ?? null, (m): m is string => MODALITY.test(m)),
    bodyPart: text(get('bodyPart')),
    from,
    to,
    bucketId: id(get('bucketId')),
    statuses: listOf(get('statuses'), isReportStatus),
    sources: listOf(get('sources'), (s): s is PatientSource => (PATIENT_SOURCES as readonly string[]).includes(s)),
    urgent: flag(get('urgent')),
    reporterId: id(get('reporterId')),
    sort: sortField && sortDir ? { field: sortField, direction: sortDir } : null,
  };
}

/** The canonical query of a view ('' for the default view), without the leading '?'. */
export function viewToSearch(view: WorklistView): string {
  const p = new URLSearchParams();
  const put = (field: keyof WorklistView, value: string | null) => {
    if (value) p.set(PARAM[field], value);
  };
  put('tab', view.tab === 'all' ? null : view.tab);
  put('today', view.today ? '1' : null);
  put('quick', view.quick);
  put('work', view.work);
  put('deleted', view.deleted ? '1' : null);
  put('booked', view.booked ? '1' : null);
  put('origin', view.origin);
  put('text', view.text.trim());
  put('patientName', view.patientName.trim());
  put('patientId', view.patientId.trim());
  put('accession', view.accession.trim());
  put('modalities', [...view.modalities].sort().join(','));
  put('bodyPart', view.bodyPart.trim());
  put('from', view.from);
  put('to', view.to);
  put('bucketId', view.bucketId ? String(view.bucketId) : null);
  put('statuses', [...view.statuses].sort().join(','));
  put('sources', [...view.sources].sort().join(','));
  put('urgent', view.urgent ? '1' : null);
  put('reporterId', view.reporterId ? String(view.reporterId) : null);
  put('sort', view.sort ? `${view.sort.field}.${view.sort.direction}` : null);
  return p.toString();
}

/** Filters the user set beyond the tab (what Esc clears and the "clear filters" button shows for). */
export function hasFilters(view: WorklistView): boolean {
  return viewToSearch({ ...view, tab: 'all' }) !== '';
}

/** Filters of the advanced search panel that are set (for the count on its button). */
export function advancedCount(view: WorklistView): number {
  return [
    view.patientName, view.patientId, view.accession, view.bodyPart,
    view.modalities.length > 0, view.from || view.to, view.bucketId, view.statuses.length > 0, view.sources.length > 0,
    view.urgent, view.reporterId,
  ].filter(Boolean).length;
}

/** The view with every filter cleared; the tab and the deleted view stay, they are places rather than filters. */
export function clearedView(view: WorklistView): WorklistView {
  return { ...DEFAULT_VIEW, tab: view.tab, deleted: view.deleted };
}
