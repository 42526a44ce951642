import { and, eq, gte, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Filter, Operator } from '../../contract/common';
import { nameSearchForms } from '../../contract/dicom/personName';
import { DELETED_RECOVERY_DAYS, FREE_TEXT_MIN_CHARS, PATIENT_SOURCES } from '../../contract/constants';
import { EXAM_FILTER_FIELDS, EXAM_GENDERS, REPORT_SOURCES, type ExamFilterField, type FilterKind } from '../../contract/exams';
import { REPORT_STATUSES } from '../../contract/reports';
import { exams } from '../db/schema';
import { ApiError } from '../http/errors';
import { filterId, filterTime } from '../http/filterValues';

type Scalar = Filter['values'][number];

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

const bad = (index: number, part: string, message: string): never => {
  throw new ApiError('ParamsError', undefined, { fields: [{ path: `filters.${index}.${part}`, message }] });
};

/** `%`, `_` and `\` are literal in a like filter (docs/api.md "List queries"). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Columns of the plain fields. */
const COLUMNS: Partial<Record<ExamFilterField, AnyPgColumn>> = {
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
};

/** The report status as shown, with "no report" spelled `none` (for sorting). */
export const reportStatusExpr = sql<string>`coalesce(${exams.reportStatus}, 'none')`;

/**
 * Status conditions written on the bare column (no coalesce), so the planner reads its statistics (null fraction,
 * common values) and the worklist indexes, which carry report_status, answer them.
 */
const noReport = sql`(${exams.reportStatus} is null or ${exams.reportStatus} = 'none')`;
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

/** One value checked against its field's kind; anything else is a 400 naming the filter. */
function valueOf(kind: FilterKind, v: Scalar, nullable: boolean, index: number): string | number | boolean | Date | null {
  if (v === null) return nullable ? null : bad(index, 'values', 'null is not a value of this field');
  switch (kind) {
    case 'text': case 'searchText':
      return typeof v === 'string' ? v : bad(index, 'values', 'a string is expected');
    case 'code':
      return typeof v === 'string' && /^[A-Za-z0-9_]{1,16}$/.test(v) ? v.toUpperCase() : bad(index, 'values', 'a modality code is expected');
    case 'int':
      return filterId(v) ?? bad(index, 'values', 'an integer id is expected');
    case 'time':
      return filterTime(v) ?? bad(index, 'values', 'an ISO date-time with offset is expected');
    case 'bool':
      return typeof v === 'boolean' ? v : bad(index, 'values', 'true or false is expected');
    case 'status':
      return typeof v === 'string' && (REPORT_STATUSES as readonly string[]).includes(v) ? v : bad(index, 'values', `one of ${REPORT_STATUSES.join(', ')}`);
    case 'source':
      return typeof v === 'string' && (PATIENT_SOURCES as readonly string[]).includes(v) ? v : bad(index, 'values', `one of ${PATIENT_SOURCES.join(', ')}`);
    case 'gender':
      return typeof v === 'string' && (EXAM_GENDERS as readonly string[]).includes(v) ? v : bad(index, 'values', `one of ${EXAM_GENDERS.join(', ')}`);
    case 'reportSource':
      return typeof v === 'string' && (REPORT_SOURCES as readonly string[]).includes(v) ? v : bad(index, 'values', `one of ${REPORT_SOURCES.join(', ')}`);
  }
}

function reportSourceCondition(source: string): SQL {
  switch (source) {
    case 'expert': return eq(exams.teleMedFlag, true);
    case 'remote': return and(eq(exams.isRemoteReportRequested, true), eq(exams.teleMedFlag, false))!;
    default: return and(eq(exams.isRemoteReportRequested, false), eq(exams.teleMedFlag, false))!;
  }
}

/** Assigned to the caller, or the caller's own report before approval (contract/exams.ts `myTasks`). */
function myTasksCondition(accountId: number): SQL {
  return sql`(${exams.assigneeId} = ${accountId} or (${exams.reportCreatorId} = ${accountId} and (${exams.reportStatus} is null or ${exams.reportStatus} not in ('corrected', 'printed'))))`;
}

type Value = string | number | boolean | Date | null;

/** A comparison of a column (or expression) with one value, or with a set for `in`. */
function compare(column: AnyPgColumn | SQL, op: Operator, values: Value[]): SQL {
  const [first] = values;
  const nonNull = values.filter((v): v is Exclude<Value, null> => v !== null);
  switch (op) {
    case 'equal': return first === null ? sql`${column} is null` : sql`${column} = ${first}`;
    case 'notEqual': return first === null ? sql`${column} is not null` : sql`(${column} <> ${first} or ${column} is null)`;
    case 'in': {
      const parts: SQL[] = [];
      if (nonNull.length === 1) parts.push(sql`${column} = ${nonNull[0]}`);
      else if (nonNull.length > 1) parts.push(sql`${column} in (${sql.join(nonNull.map((v) => sql`${v}`), sql`, `)})`);
      if (values.includes(null)) parts.push(sql`${column} is null`);
      return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
    }
    case 'gt': return sql`${column} > ${first}`;
    case 'gte': return sql`${column} >= ${first}`;
    case 'lt': return sql`${column} < ${first}`;
    case 'lte': return sql`${column} <= ${first}`;
    case 'like': return sql`${column} ilike ${containsPattern(String(first))}`;
  }
}

/** The whitelist applied: each filter checked (field, operator, values) and turned into a condition. */
export function compileFilters(filters: readonly Filter[], ctx: FilterContext): CompiledFilters {
  const conditions: SQL[] = [];
  let deletedView = false;
  let bucketIds: number[] | null = null;
  let reportText: string | null = null;
  filters.forEach((f, index) => {
    if (!Object.hasOwn(EXAM_FILTER_FIELDS, f.field)) bad(index, 'field', `not a filter of exams: ${f.field}`);
    const field = f.field as ExamFilterField;
    const spec = EXAM_FILTER_FIELDS[field];
    if (!(spec.operators as readonly Operator[]).includes(f.operator)) bad(index, 'operator', `${field} takes ${spec.operators.join(', ')}`);
    if (f.values.length === 0) bad(index, 'values', 'at least one value');
    if (f.operator !== 'in' && f.values.length !== 1) bad(index, 'values', 'exactly one value');
    // null means "absent", which only equal, notEqual and in can ask about.
    const nullable = 'nullable' in spec && spec.nullable === true && ['equal', 'notEqual', 'in'].includes(f.operator);
    const values: Value[] = f.values.map((v) => valueOf(spec.kind, v, nullable, index));
    if (f.operator === 'like' && String(values[0]).trim() === '') bad(index, 'values', 'an empty search');

    switch (field) {
      case 'reportText': {
        const text = String(values[0]).trim();
        // Core §5: free-text report search needs more than 2 characters.
        if ([...text].length < FREE_TEXT_MIN_CHARS) throw new ApiError('SearchTooShort', undefined, { fields: [{ path: `filters.${index}.values`, message: 'more than 2 characters' }] });
        if (reportText !== null) bad(index, 'field', 'one reportText filter at most');
        reportText = containsPattern(text);
        return;
      }
      case 'reportStatus':
        conditions.push(statusCondition(f.operator, values as string[]));
        return;
      case 'reportSource': {
        const parts = [...new Set(values as string[])].map(reportSourceCondition);
        conditions.push(parts.length === 1 ? parts[0]! : or(...parts)!);
        return;
      }
      case 'myTasks':
        conditions.push(values[0] ? myTasksCondition(ctx.accountId) : sql`not coalesce(${myTasksCondition(ctx.accountId)}, false)`);
        return;
      case 'patientName': {
        if (f.operator !== 'like') {
          conditions.push(compare(exams.patientName, f.operator, values));
          return;
        }
        // A name typed as read also finds it stored the DICOM way (Wang^XiaoDong, 王^小东); each form is one more
        // ILIKE on the same column, which its trigram index serves.
        const forms = nameSearchForms(String(values[0]));
        const parts = forms.map((form) => sql`${exams.patientName} ilike ${containsPattern(form)}`);
        conditions.push(parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`);
        return;
      }
      case 'deletedTime':
        deletedView = true;
        conditions.push(compare(exams.deletedTime, f.operator, values));
        return;
      case 'bucketId': {
        const ids = values as number[];
        bucketIds = bucketIds === null ? [...new Set(ids)] : bucketIds.filter((id) => ids.includes(id));
        return;
      }
      default:
        conditions.push(compare(COLUMNS[field]!, f.operator, values));
    }
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
