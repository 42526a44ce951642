import { z } from 'zod';
import { pageQuerySchema, type Operator } from './common';
import { DEFAULT_QUERY_LIMIT } from './constants';

/**
 * Consultations (areas §3 "Consultation", §4 statuses, §7 "Consultations"). So far the list query the notification
 * poll reads (core §7 "Polling": status equal 0, limit 5, skip 0); the rest of the area builds on these names.
 */

/** Areas §4, in the spec's order: pending (0), scheduled, discussed (awaiting approval), completed (approved), canceled. */
export const CONSULTATION_STATUS = { pending: 0, scheduled: 1, discussed: 2, completed: 3, canceled: 4 } as const;
export type ConsultationStatus = (typeof CONSULTATION_STATUS)[keyof typeof CONSULTATION_STATUS];
export const CONSULTATION_STATUSES: readonly ConsultationStatus[] = Object.values(CONSULTATION_STATUS);

export function isConsultationStatus(value: unknown): value is ConsultationStatus {
  return typeof value === 'number' && (CONSULTATION_STATUSES as readonly number[]).includes(value);
}

export type ConsultationFilterKind = 'int' | 'status' | 'time';

/**
 * The page-query whitelist: every field a consultation filter may name, with its operators. Anything else is
 * 400 ParamsError. `status` takes the numbers of CONSULTATION_STATUS; `created` an ISO date-time with offset.
 */
export const CONSULTATION_FILTER_FIELDS = {
  id: { kind: 'int', operators: ['equal', 'in', 'gt', 'gte', 'lt', 'lte'] },
  status: { kind: 'status', operators: ['equal', 'in'] },
  created: { kind: 'time', operators: ['gte', 'lte'] },
} as const satisfies Record<string, { kind: ConsultationFilterKind; operators: readonly Operator[] }>;
export type ConsultationFilterField = keyof typeof CONSULTATION_FILTER_FIELDS;

/** Sortable fields; the default is the newest id first, and the id always ends the order so pages are stable. */
export const CONSULTATION_SORT_FIELDS = ['id', 'created'] as const;
export type ConsultationSortField = (typeof CONSULTATION_SORT_FIELDS)[number];

/** A consultation list is read by people, not exported: a page holds at most 100. */
export const CONSULTATION_QUERY_MAX_LIMIT = 100;

/** POST consultations/query-page: the common page query with its own limit (default 50, at most 100). */
export const consultationPageQuery = pageQuerySchema.extend({
  limit: z.number().int().min(1).max(CONSULTATION_QUERY_MAX_LIMIT).default(DEFAULT_QUERY_LIMIT),
});
export type ConsultationPageQuery = z.input<typeof consultationPageQuery>;

export interface ConsultationBucketRef {
  id: number;
  name: string;
}

/** One row of a consultation list (areas §3): what the list and the notification toast show. */
export interface ConsultationListItem {
  id: number;
  patientName: string;
  /** ISO date-time of the application. */
  created: string;
  reason: string;
  status: ConsultationStatus;
  /** The applicant organisation. */
  appliedBucketName: string;
  /** The organisations taking part, by id. */
  joinedBuckets: ConsultationBucketRef[];
  scheduledTime: string | null;
}

export interface ConsultationPage {
  items: ConsultationListItem[];
  total: number;
}
