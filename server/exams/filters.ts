import { and, eq, gte, isNotNull, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Filter, Operator } from '../../contract/common';
import { DELETED_RECOVERY_DAYS, FREE_TEXT_MIN_CHARS, PATIENT_SOURCES } from '../../contract/constants';
import { nameSearchForms } from '../../contract/dicom/personName';
import { EXAM_FILTER_FIELDS, EXAM_GENDERS, REPORT_SOURCES, type ExamFilterField, type FilterKind } from '../../contract/exams';
import { PERFORMED_EXAM_STATUS } from '../../contract/reportable';
import { REPORT_STATUSES } from '../../contract/reports';
import { exams } from '../db/schema';
import { nameBigramsCondition } from '../http/bigrams';
import { ApiError } from '../http/errors';
import { compare, compileListFilters, containsPattern, oneOf, refuseFilter, valueKinds, type ListQuery, type ValueKind } from '../http/pageQuery';

/** What the filters of one page query mean: SQL conditions plus the facts the query planner of ours needs. */
export interface CompiledFilters {
  /** The user's conditions (scope and the live/deleted view are added by the caller). */
  conditions: SQL[];
  /** Some filter named deletedTime: list the deleted exams of the last 30 days instead of the live ones. */
  deletedView: boolean;
  /** Organisations a bucketId filter narrowed to (null = no such filter). */
  bucketIds: number[] | null;
  /** The `like` pattern of a reportText filter: resolved against the reports by the query (server/exams/textSearch.ts). */
  reportText: string | null;
}

export interface FilterContext {
  accountId: number;
  now: Date;
}

export { containsPattern };

/** The exam list on the shared page-query engine: the whitelist is contract/exams.ts EXAM_FILTER_FIELDS. */
export const EXAM_LIST: ListQuery<ExamFilterField> = {
  resource: 'exams',
  fields: EXAM_FILTER_FIELDS,
  kinds: {
    ...valueKinds,
    searchText: valueKinds.text,
    code: { read: (v) => (typeof v === 'string' && /^[A-Za-z0-9_]{1,16}$/.test(v) ? v.toUpperCase() : undefined), expects: 'a modality code is expected' },
    status: oneOf(REPORT_STATUSES),
    source: oneOf(PATIENT_SOURCES),
    gender: oneOf(EXAM_GENDERS),
    reportSource: oneOf(REPORT_SOURCES),
  } satisfies Record<FilterKind, ValueKind>,
  columns: {
    id: exams.id,
    patientName: exams.patientName,
    patientId: exams.patientId,
    accessionNumber: exams.accessionNumber,
    serviceRequestId: exams.serviceRequestId,
    bodyPart: exams.bodyPart,
    applyDept: exams.applyDept,
    modality: exams.modality,
    created: exams.created,
    examTime: exams.examTime,
    uploadTime: exams.uploadTime,
    deletedTime: exams.deletedTime,
    bucketId: exams.bucketId,
    patientSource: exams.patientSource,
    patientGender: exams.patientGender,
    urgentFlag: exams.urgentFlag,
    hasImage: exams.hasImage,
    isRemoteReportRequested: exams.isRemoteReportRequested,
    teleMedFlag: exams.teleMedFlag,
    reportCreatorId: exams.reportCreatorId,
    assigneeId: exams.assigneeId,
  },
};

/** The report status as shown, with "no report" spelled `none` (for sorting). */
export const reportStatusExpr = sql<string>`coalesce(${exams.reportStatus}, 'none')`;

/**
 * Status conditions written on the bare column (no coalesce), so the planner reads its statistics (null fraction,
 * common values) and the worklist indexes, which carry report_status, answer them.
 */
export const noReport = sql`(${exams.reportStatus} is null or ${exams.reportStatus} = 'none')`;
function statusIn(values: readonly string[]): SQL {
  const named = [...new Set(values.filter((v) => v !== 'none'))];
  const parts: SQL[] = [];
  if (named.length === 1) parts.push(sql`${exams.reportStatus} = ${named[0]}`);
  else if (named.length > 1) parts.push(sql`${exams.reportStatus} in (${sql.join(named.map((v) => sql`${v}`), sql`, `)})`);
  if (values.includes('none')) parts.push(noReport);
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
}
function statusCondition(op: Operator, values: readonly string[]): SQL {
  if (op !== 'notEqual') return statusIn(values);
  const [value] = values;
  return value === 'none'
    ? sql`(${exams.reportStatus} is not null and ${exams.reportStatus} <> 'none')`
    : sql`(${exams.reportStatus} is null or ${exams.reportStatus} <> ${value})`;
}

function reportSourceCondition(source: string): SQL {
  switch (source) {
    case 'expert': return eq(exams.teleMedFlag, true);
    case 'remote': return and(eq(exams.isRemoteReportRequested, true), eq(exams.teleMedFlag, false))!;
    default: return and(eq(exams.isRemoteReportRequested, false), eq(exams.teleMedFlag, false))!;
  }
}

/**
 * contract/reportable.ts `isReportable` in SQL: with images, or never booked at the desk, or performed. No part is
 * null-valued where it decides (exam_status = 'Performed' is null only when `is null` already holds), so `not` of it
 * is the exact complement. tests/api/exams.reportable.test.ts checks both against the function row by row.
 */
// The status is a constant of the contract, written as a literal: the same SQL text for every request (prepared shapes).
export const reportableCondition = sql`(${exams.hasImage} or ${exams.examStatus} is null or ${exams.examStatus} = ${sql.raw(`'${PERFORMED_EXAM_STATUS}'`)})`;

/** Assigned to the caller, or the caller's own report before approval (contract/exams.ts `myTasks`). */
export function myTasksCondition(accountId: number | Placeholder): SQL {
  return sql`(${exams.assigneeId} = ${accountId} or (${exams.reportCreatorId} = ${accountId} and (${exams.reportStatus} is null or ${exams.reportStatus} not in ('corrected', 'printed'))))`;
}

/** The whitelist applied: the engine checks every filter; the fields that are not plain columns say what they mean. */
export function compileFilters(filters: readonly Filter[], ctx: FilterContext): CompiledFilters {
  let deletedView = false;
  let bucketIds: number[] | null = null;
  let reportText: string | null = null;
  const conditions = compileListFilters(EXAM_LIST, filters, {
    reportText: ({ values, index }) => {
      const text = String(values[0]).trim();
      // Core §5: free-text report search needs more than 2 characters.
      if ([...text].length < FREE_TEXT_MIN_CHARS) throw new ApiError('SearchTooShort', undefined, { fields: [{ path: `filters.${index}.values`, message: 'more than 2 characters' }] });
      if (reportText !== null) refuseFilter(index, 'field', 'one reportText filter at most');
      reportText = containsPattern(text);
    },
    patientName: ({ operator, values }) => {
      if (operator !== 'like') return compare(exams.patientName, operator, values);
      // A name typed as read also finds it stored the DICOM way (Wang^XiaoDong, 王^小东); each form is one more
      // ILIKE on the same column, which its trigram index serves from 3 characters. The forms share their bigrams
      // (server/http/bigrams.ts), so one bigram condition serves them all, 2 characters (李明) included.
      const forms = nameSearchForms(String(values[0]));
      const parts = forms.map((form) => sql`${exams.patientName} ilike ${containsPattern(form)}`);
      const matches = parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
      const bigrams = nameBigramsCondition(exams.patientName, forms[0]!);
      return bigrams ? sql`(${bigrams} and ${matches})` : matches;
    },
    reportStatus: ({ operator, values }) => statusCondition(operator, values as string[]),
    reportSource: ({ values }) => {
      const parts = [...new Set(values as string[])].map(reportSourceCondition);
      return parts.length === 1 ? parts[0]! : or(...parts)!;
    },
    reportable: ({ values }) => (values[0] ? reportableCondition : sql`not ${reportableCondition}`),
    myTasks: ({ values }) => (values[0] ? myTasksCondition(ctx.accountId) : sql`not coalesce(${myTasksCondition(ctx.accountId)}, false)`),
    deletedTime: ({ operator, values }) => {
      deletedView = true;
      return compare(exams.deletedTime, operator, values);
    },
    bucketId: ({ values }) => {
      const ids = values as number[];
      bucketIds = bucketIds === null ? [...new Set(ids)] : bucketIds.filter((id) => ids.includes(id));
    },
  });
  return { conditions, deletedView, bucketIds, reportText };
}

/** Live exams, or the deleted view: deleted within the last 30 days (core §4, §9). */
export function viewCondition(deletedView: boolean, now: Date): SQL {
  if (!deletedView) return isNull(exams.deletedTime);
  return and(isNotNull(exams.deletedTime), gte(exams.deletedTime, deletedSince(now)))!;
}

export function deletedSince(now: Date): Date {
  return new Date(now.getTime() - DELETED_RECOVERY_DAYS * 86_400_000);
}
