import { sql, type SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../contract/common';
import {
  CONSULTATION_FILTER_FIELDS, CONSULTATION_SORT_FIELDS, CONSULTATION_STATUSES, PAYMENT_STATUSES, type ConsultationFilterField,
} from '../../contract/consultations';
import { consultationMembers, consultations } from '../db/schema';
import { nameBigramsCondition } from '../http/bigrams';
import { compare, compileListFilters, oneOf, orderOf as listOrder, valueKinds, type ListOrder, type ListQuery } from '../http/pageQuery';

/** The consultation list on the shared page-query engine: the whitelist is contract/consultations.ts. */
const LIST: ListQuery<ConsultationFilterField> = {
  resource: 'consultations',
  fields: CONSULTATION_FILTER_FIELDS,
  kinds: {
    int: valueKinds.int, time: valueKinds.time, text: valueKinds.text, bool: valueKinds.bool,
    status: oneOf(CONSULTATION_STATUSES), payment: oneOf(PAYMENT_STATUSES),
  },
  columns: {
    id: consultations.id, status: consultations.status, created: consultations.created, patientName: consultations.patientName,
    reason: consultations.reason, appliedBucketId: consultations.appliedBucketId, targetBucketId: consultations.targetBucketId,
    examId: consultations.examId, scheduledTime: consultations.scheduledTime, paymentStatus: consultations.paymentStatus,
  },
};

const ORDER: ListOrder<(typeof CONSULTATION_SORT_FIELDS)[number]> = {
  resource: 'consultations',
  fields: CONSULTATION_SORT_FIELDS,
  columns: { id: consultations.id, created: consultations.created },
  defaultSort: { field: 'id', direction: 'desc' },
  tieBreak: 'id',
};

/** Who asks: the `mine` filter reads it. */
export interface FilterContext {
  accountId: number;
}

/** "My consultations": applied for by the account, or one it takes part in (member or expert). */
function mine(accountId: number): SQL {
  // `offset 0` keeps the EXISTS a probe per row (the members' primary key): without it the planner hashes every
  // consultation the account takes part in on each query, though a page needs twenty rows.
  return sql`(${consultations.createdBy} = ${accountId} or exists (select 1 from ${consultationMembers}
    where ${consultationMembers.consultationId} = ${consultations.id} and ${consultationMembers.accountId} = ${accountId} offset 0))`;
}

export function compileFilters(filters: readonly Filter[], ctx: FilterContext): SQL[] {
  return compileListFilters(LIST, filters, {
    mine: (f) => (f.values[0] === true ? mine(ctx.accountId) : sql`not ${mine(ctx.accountId)}`),
    patientName: (f) => {
      const matches = compare(consultations.patientName, f.operator, f.values);
      if (f.operator !== 'like') return matches;
      // Two characters (王芳) have no trigram: the bigram pre-filter of server/http/bigrams.ts, which a GIN index on
      // exam_name_bigrams(patient_name) answers; the ILIKE decides.
      const bigrams = nameBigramsCondition(consultations.patientName, String(f.values[0]));
      return bigrams ? sql`(${bigrams} and ${matches})` : matches;
    },
  });
}

/** The sorts asked for (default: newest id first), then the id in the first sort's direction so pages are stable. */
export function orderOf(sorts: readonly Sort[]): SQL[] {
  return listOrder(ORDER, sorts);
}
