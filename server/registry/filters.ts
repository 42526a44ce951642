import { sql, type SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../contract/common';
import { PATIENT_SOURCES } from '../../contract/constants';
import {
  REGISTRATION_STATUSES, REGISTRY_FILTER_FIELDS, REGISTRY_SORT_FIELDS, SOURCE_SCOPES, type RegistryFilterField, type SourceScope,
} from '../../contract/registry';
import { exams } from '../db/schema';
import { normalisedLength } from '../http/bigrams';
import { compileListFilters, containsPattern, oneOf, orderOf as listOrder, valueKinds, type ListOrder, type ListQuery, type ValueKind } from '../http/pageQuery';

/** The registry list on the shared page-query engine: the whitelist is contract/registry.ts. */
const modality: ValueKind = {
  read: (v) => (typeof v === 'string' && /^[A-Z0-9]{1,8}$/.test(v) ? v : undefined),
  expects: 'an upper-case modality code',
};

const LIST: ListQuery<RegistryFilterField> = {
  resource: 'registry',
  fields: REGISTRY_FILTER_FIELDS,
  kinds: {
    int: valueKinds.int, time: valueKinds.time, text: valueKinds.text, modality,
    status: oneOf(REGISTRATION_STATUSES), source: oneOf(PATIENT_SOURCES), scope: oneOf(SOURCE_SCOPES),
  },
  columns: {
    examId: exams.id, registrationId: exams.registrationId, scheduledTime: exams.scheduledTime, created: exams.created,
    examStatus: exams.examStatus, patientSource: exams.patientSource, modality: exams.modality,
  },
};

const ORDER: ListOrder<(typeof REGISTRY_SORT_FIELDS)[number]> = {
  resource: 'registry',
  fields: REGISTRY_SORT_FIELDS,
  columns: { created: exams.created, scheduledTime: exams.scheduledTime, id: exams.id },
  defaultSort: { field: 'created', direction: 'desc' },
  tieBreak: 'id',
};

/** Desk registrations, outside orders, or both (contract SOURCE_SCOPES); each line carries its registration's order id. */
function scopeCondition(scope: SourceScope): SQL | undefined {
  if (scope === 'internal') return sql`${exams.orderId} is null`;
  if (scope === 'external') return sql`${exams.orderId} is not null`;
  return undefined;
}

/** The conditions of the filters; the source scope is `internal` unless a filter names another (areas §7). */
export function compileFilters(filters: readonly Filter[]): SQL[] {
  let scope: SourceScope = 'internal';
  const conditions = compileListFilters(LIST, filters, {
    sourceScope: (f) => {
      scope = f.values[0] as SourceScope;
    },
    search: (f) => {
      const text = String(f.values[0]).trim();
      const p = containsPattern(text);
      const matches = sql`(${exams.patientName} ilike ${p} or ${exams.patientId} ilike ${p} or ${exams.patientPhone} ilike ${p} or ${exams.accessionNumber} ilike ${p})`;
      // 2 characters have no trigram: the four columns' bigrams (one GIN index) narrow the rows the ILIKEs decide.
      if ([...text].length !== 2 || normalisedLength(text) !== 2) return matches;
      return sql`(exam_search_bigrams(${exams.patientName}, ${exams.patientId}, ${exams.patientPhone}, ${exams.accessionNumber}) @> exam_name_bigrams(${text}::text) and ${matches})`;
    },
  });
  const own = scopeCondition(scope);
  return own ? [...conditions, own] : conditions;
}

export function orderOf(sorts: readonly Sort[]): SQL[] {
  return listOrder(ORDER, sorts);
}
