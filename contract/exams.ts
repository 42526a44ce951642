import { z } from 'zod';
import { COLOUR_RULE_BOOLEAN_COLUMNS } from './colourRules';
import { idValue, isoDateTime, isoDay, pageQuerySchema, type Filter, type Operator } from './common';
import { EXAM_GENDERS, LANGUAGES, PAST_EXAMS_MAX, PATIENT_SOURCES, POLL_PAGE_SIZE } from './constants';
import type { RegistrationStatus } from './registry';
import type { ReportStatus } from './reports';
import { COLOUR_RULE_COLUMNS } from './exams/colourRuleInputs';
export * from './exams/colourRuleInputs';

/**
 * Exams (core §2 exam list and exam detail, §3 Exam/study, §7 "Exams"). Names, shapes and the page-query
 * whitelist; the server turns the whitelist into SQL (server/exams/filters.ts), the worklist builds its filters
 * from the same names.
 */

/** Who writes the report (the worklist's expert, remote and in-house filters): see `reportSource` below. */
export const REPORT_SOURCES = ['expert', 'remote', 'inhouse'] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

export { EXAM_GENDERS } from './constants';

/** The value a filter compares with; the server checks each against the field's kind. */
export type FilterKind = 'text' | 'code' | 'int' | 'time' | 'bool' | 'status' | 'source' | 'gender' | 'reportSource' | 'searchText';

export interface FilterFieldSpec {
  kind: FilterKind;
  operators: readonly Operator[];
  /** A value may be null (equal/notEqual/in: "absent"). */
  nullable?: boolean;
}

const TEXT_OPS = ['equal', 'in', 'like'] as const;
const RANGE_OPS = ['gte', 'lte', 'gt', 'lt'] as const;
const SET_OPS = ['equal', 'notEqual', 'in'] as const;

/**
 * The page-query whitelist: every field an exam filter may name, with its operators. Anything else is
 * 400 ParamsError. Meanings that are not plain columns:
 * - `reportStatus`: the current report's status as shown (`locked` while edited); `none` also matches an
 *   exam without any report.
 * - `reportSource`: `expert` = sent to an expert organisation (teleMedFlag), `remote` = a remote report was
 *   requested and it was not sent to an expert (isRemoteReportRequested and not teleMedFlag), `inhouse` = neither.
 * - `myTasks` (equal true): assigned to the caller, or the caller's own report not yet approved
 *   (its status is not corrected or printed).
 * - `deletedTime`: any filter on it switches to the deleted view (exams deleted within the last 30 days);
 *   without it only live exams are listed.
 * - `reportText` (like): more than 2 characters, searched in the current report's findings and conclusion.
 * - `reportable` (equal): whether a radiologist can report the exam — performed (or never booked at the registry
 *   desk), or with images (contract/reportable.ts `isReportable`). The worklist's default view asks for `true`, so
 *   lines booked for later (Registered, Scheduled, Arrived, Cancelled without images) stay out of it until asked for.
 */
export const EXAM_FILTER_FIELDS = {
  id: { kind: 'int', operators: ['equal', 'in', 'gt', 'gte', 'lt', 'lte'] },
  patientName: { kind: 'text', operators: TEXT_OPS },
  patientId: { kind: 'text', operators: TEXT_OPS },
  accessionNumber: { kind: 'text', operators: TEXT_OPS, nullable: true },
  serviceRequestId: { kind: 'text', operators: TEXT_OPS, nullable: true },
  bodyPart: { kind: 'text', operators: TEXT_OPS, nullable: true },
  applyDept: { kind: 'text', operators: TEXT_OPS, nullable: true },
  modality: { kind: 'code', operators: SET_OPS },
  created: { kind: 'time', operators: RANGE_OPS },
  examTime: { kind: 'time', operators: RANGE_OPS },
  uploadTime: { kind: 'time', operators: RANGE_OPS },
  bucketId: { kind: 'int', operators: ['equal', 'in'] },
  reportStatus: { kind: 'status', operators: SET_OPS },
  patientSource: { kind: 'source', operators: SET_OPS, nullable: true },
  patientGender: { kind: 'gender', operators: SET_OPS },
  urgentFlag: { kind: 'bool', operators: ['equal'] },
  hasImage: { kind: 'bool', operators: ['equal'] },
  isRemoteReportRequested: { kind: 'bool', operators: ['equal'] },
  teleMedFlag: { kind: 'bool', operators: ['equal'] },
  reportSource: { kind: 'reportSource', operators: ['equal', 'in'] },
  reportCreatorId: { kind: 'int', operators: SET_OPS, nullable: true },
  assigneeId: { kind: 'int', operators: SET_OPS, nullable: true },
  myTasks: { kind: 'bool', operators: ['equal'] },
  deletedTime: { kind: 'time', operators: RANGE_OPS },
  reportText: { kind: 'searchText', operators: ['like'] },
  reportable: { kind: 'bool', operators: ['equal'] },
} as const satisfies Record<string, FilterFieldSpec>;
export type ExamFilterField = keyof typeof EXAM_FILTER_FIELDS;

/** Sortable columns; every order ends with the id (in the first sort's direction) so pages are stable. */
export const EXAM_SORT_FIELDS = [
  'created', 'examTime', 'deletedTime', 'uploadTime', 'id', 'patientName', 'patientId', 'accessionNumber', 'modality', 'bodyPart',
  'reportStatus', 'urgentFlag', 'bucketId',
] as const;
export type ExamSortField = (typeof EXAM_SORT_FIELDS)[number];

/** Quick filters of the exam list (core §2). "Today" is the caller's day by exam time; X-ray is CR and DX. */
export const QUICK_FILTER_MODALITIES = { xray: ['CR', 'DX'], ct: ['CT'], mr: ['MR'], us: ['US'] } as const;

/** POST exams/page-query and exams/query/count: the common page query (contract/common.ts). */
export const examPageQuery = pageQuerySchema;
export type ExamPageQuery = z.input<typeof examPageQuery>;
export type ExamFilter = Filter & { field: ExamFilterField };

/** Counts above this are the planner's estimate rather than an exact count (docs/decisions.md "Exams"). */
export const EXAM_COUNT_EXACT_LIMIT = 10_000;

/** One row of the worklist: the exam of core §3 with its organisation, current report and the colour-rule inputs. */
export interface ExamListItem {
  id: number;
  bucketId: number;
  bucketName: string;
  targetBucketId: number | null;
  orderId: string | null;
  patientKeyId: string | null;
  patientName: string;
  patientId: string;
  patientGender: string;
  patientDob: string | null;
  visitAge: string | null;
  weight: number | null;
  height: number | null;
  patientClass: string | null;
  patientSource: string | null;
  inpatientId: string | null;
  bedNum: string | null;
  outpatientId: string | null;
  physicalExamId: string | null;
  serviceRequestId: string | null;
  accessionNumber: string | null;
  modality: string;
  bodyPart: string | null;
  bodyPartCount: number;
  studyDescription: string | null;
  clinicImpression: string | null;
  applyDept: string | null;
  urgentFlag: boolean;
  teleMedFlag: boolean;
  isRemoteReportRequested: boolean;
  reportSource: ReportSource;
  storeUid: string | null;
  openPath: string | null;
  hasImage: boolean;
  /** The registry status of a line booked at the desk (areas §4); null for an exam that never went through it. */
  examStatus: RegistrationStatus | null;
  showVideo: boolean;
  formImgUrls: string[];
  extensions: Record<string, unknown>;
  AIStatus: string | null;
  assigneeId: number | null;
  assigneeName: string | null;
  reportType: string;
  reportId: number | null;
  /** The current report's status as shown; `none` when there is no report. */
  reportStatus: ReportStatus;
  reportCreatorId: number | null;
  reportCreatorName: string | null;
  /**
   * Whether the asking account can write this exam's report now: the report machine's answer for it (save allowed:
   * not another's lock or draft, not recalled or advised to someone else…), or, with no report yet, whether it may
   * start one. The worklist's "next case I can report" walks this.
   */
  canWrite: boolean;
  /** The current report's positive flag (a colour-rule input). */
  reportPositive: boolean | null;
  examTime: string;
  uploadTime: string | null;
  created: string;
  deletedTime: string | null;
  /** Raised by each edit of the exam's information; POST exams/{id} compares it. */
  version: number;
}

// The colour rules' yes/no columns are columns of this row; checked here, so that colourRules.ts needs nothing from this file.
void (COLOUR_RULE_BOOLEAN_COLUMNS satisfies readonly (keyof ExamListItem)[]);
void (COLOUR_RULE_COLUMNS satisfies readonly (keyof ExamListItem)[]);

export interface ExamPage {
  items: ExamListItem[];
  total: number;
  /** True when `total` is above EXAM_COUNT_EXACT_LIMIT and was estimated. */
  totalIsEstimate: boolean;
}

export interface ExamCount {
  total: number;
  totalIsEstimate: boolean;
}

/** POST exams/newly: the notification poll (core §7 "Polling"); the newest exams first. */
export const examNewlyQuery = pageQuerySchema.extend({
  limit: z.number().int().min(1).max(POLL_PAGE_SIZE).default(POLL_PAGE_SIZE),
});

/** POST exams/{id}/past: the same patient's other exams, latest first (core §2: latest 15). */
export const pastExamsQuery = z.object({
  skip: z.number().int().min(0).max(PAST_EXAMS_MAX).default(0),
  limit: z.number().int().min(1).max(PAST_EXAMS_MAX).default(PAST_EXAMS_MAX),
}).strict();

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
const isoTime = isoDateTime;

/**
 * POST exams/{id}: the editable fields (absent = unchanged, null clears). The patient-source rule of core §3
 * holds on the result: I needs inpatientId and bedNum, O and NO need outpatientId, P needs physicalExamId.
 */
export const examUpdateInput = z.object({
  patientName: z.string().trim().min(1).max(128).optional(),
  patientId: z.string().trim().min(1).max(64).optional(),
  patientGender: z.enum(EXAM_GENDERS).optional(),
  patientDob: isoDay.nullable().optional(),
  visitAge: z.string().regex(/^\d{1,3}[YMWD]$/, 'a number and one of Y, M, W, D').nullable().optional(),
  weight: z.number().positive().max(1000).nullable().optional(),
  height: z.number().positive().max(300).nullable().optional(),
  patientClass: optionalText(16),
  patientSource: z.enum(PATIENT_SOURCES).nullable().optional(),
  inpatientId: optionalText(64),
  bedNum: optionalText(16),
  outpatientId: optionalText(64),
  physicalExamId: optionalText(64),
  serviceRequestId: optionalText(64),
  accessionNumber: optionalText(64),
  orderId: optionalText(64),
  modality: z.string().trim().regex(/^[A-Z0-9]{1,8}$/, 'an upper-case modality code').optional(),
  bodyPart: optionalText(64),
  bodyPartCount: z.number().int().min(1).max(99).optional(),
  studyDescription: optionalText(256),
  clinicImpression: optionalText(1024),
  applyDept: optionalText(64),
  urgentFlag: z.boolean().optional(),
  examTime: isoTime.optional(),
  extensions: z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
    .refine((o) => Object.keys(o).length <= 100, 'at most 100 extension fields').optional(),
  /**
   * The exam's `version` as the editor read it: another edit since answers 409 VersionConflict. Optional for the spec's
   * callers (the fields alone); the product's edit screen always sends it.
   */
  version: z.number().int().min(0).max(2_147_483_647).optional(),
}).strict();
export type ExamUpdateInput = z.input<typeof examUpdateInput>;

/** Core §3: the extra fields each patient source needs. */
export const SOURCE_REQUIRED_FIELDS = {
  I: ['inpatientId', 'bedNum'],
  O: ['outpatientId'],
  NO: ['outpatientId'],
  P: ['physicalExamId'],
  E: [],
} as const satisfies Record<(typeof PATIENT_SOURCES)[number], readonly string[]>;

/** The fields the patient source `source` needs that `exam` leaves empty. */
export function missingSourceFields(exam: Partial<Record<string, unknown>> & { patientSource?: string | null }): string[] {
  const source = exam.patientSource;
  if (!source || !(source in SOURCE_REQUIRED_FIELDS)) return [];
  const required: readonly string[] = SOURCE_REQUIRED_FIELDS[source as keyof typeof SOURCE_REQUIRED_FIELDS];
  return required.filter((field) => {
    const value = exam[field];
    return typeof value !== 'string' || value.trim() === '';
  });
}

export const examDetailQuery = z.object({ reportId: idValue.optional() }).strict();

/** A report of the exam as the detail drawer lists it. */
export interface ExamReportSummary {
  id: number;
  examId: number;
  status: ReportStatus;
  type: string;
  creator: { id: number; name: string } | null;
  issuer: { id: number; name: string } | null;
  positive: boolean | null;
  /** Another exam's report that covers this one jointly. */
  joint: boolean;
  savedTime: string | null;
  approvedTime: string | null;
  created: string;
}

/** GET exams/{id}/detail?reportId: what the exam-detail drawer shows (core §2 exam detail). */
export interface ExamDetail {
  exam: ExamListItem;
  reports: ExamReportSummary[];
  /** The report the drawer shows: the one asked for, else the exam's current report. */
  reportId: number | null;
  counts: {
    reports: number;
    pastExams: number;
    coExams: number;
    series: number;
    instances: number;
    /** Of the shown report. */
    keyImages: number;
    attachments: number;
    traces: number;
  };
}

/* ── export ── */

export const EXPORT_LANGUAGES = LANGUAGES;
/** POST exports/exams: the list's filters and order; columns are named in `lang` (chs by default). */
export const examExportInput = z.object({
  filters: pageQuerySchema.shape.filters,
  sorts: pageQuerySchema.shape.sorts,
  lang: z.enum(LANGUAGES).default('chs'),
  /** The IANA time zone times are written in (the browser's); the server's own when absent. */
  timeZone: z.string().max(64).refine(isTimeZone, 'an IANA time zone such as Asia/Shanghai').optional(),
}).strict();

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
export type ExamExportInput = z.input<typeof examExportInput>;
