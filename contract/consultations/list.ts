import { z } from 'zod';
import { pageQuerySchema, type Operator } from '../common';
import { DEFAULT_QUERY_LIMIT } from '../constants';

/**
 * The consultation list (the page query the notification poll reads too: core §7 "Polling"): statuses, the
 * whitelist, a list row, and the payment status numbers a row carries. Re-exported by `contract/consultations.ts`.
 */

/** Areas §4, in the spec's order: pending (0), scheduled, discussed (awaiting approval), completed (approved), canceled. */
export const CONSULTATION_STATUS = { pending: 0, scheduled: 1, discussed: 2, completed: 3, canceled: 4 } as const;
export type ConsultationStatus = (typeof CONSULTATION_STATUS)[keyof typeof CONSULTATION_STATUS];
export const CONSULTATION_STATUSES: readonly ConsultationStatus[] = Object.values(CONSULTATION_STATUS);

export function isConsultationStatus(value: unknown): value is ConsultationStatus {
  return typeof value === 'number' && (CONSULTATION_STATUSES as readonly number[]).includes(value);
}

export type ConsultationFilterKind = 'int' | 'status' | 'time' | 'text' | 'bool' | 'payment';

/**
 * The page-query whitelist: every field a consultation filter may name, with its operators. Anything else is
 * 400 ParamsError. `status` takes the numbers of CONSULTATION_STATUS; `created` an ISO date-time with offset.
 */
export const CONSULTATION_FILTER_FIELDS = {
  id: { kind: 'int', operators: ['equal', 'in', 'gt', 'gte', 'lt', 'lte'] },
  status: { kind: 'status', operators: ['equal', 'in'] },
  created: { kind: 'time', operators: ['gte', 'lte'] },
  // The list screen's filters (issue 12).
  patientName: { kind: 'text', operators: ['equal', 'like'] },
  reason: { kind: 'text', operators: ['like'] },
  appliedBucketId: { kind: 'int', operators: ['equal', 'in'] },
  targetBucketId: { kind: 'int', operators: ['equal', 'in'] },
  examId: { kind: 'int', operators: ['equal', 'in'] },
  scheduledTime: { kind: 'time', operators: ['gte', 'lte'] },
  paymentStatus: { kind: 'payment', operators: ['equal', 'in'] },
  /** true: "my consultations", the ones I applied for or take part in (as member or expert); false: the others. */
  mine: { kind: 'bool', operators: ['equal'] },
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
  /** The target organisation's name (list answers carry it; the detail always does). */
  targetBucketName?: string;
  paymentStatus?: PaymentStatus;
  /** The rating given (1..5), or null; the detail's `rating` has the whole of it. */
  ratingScore?: number | null;
}

export interface ConsultationPage {
  items: ConsultationListItem[];
  total: number;
  /**
   * The total is the planner's estimate (more than CONSULTATION_COUNT_EXACT_LIMIT matches: counting them exactly
   * would cost more than the page, as for exams); absent or false, it is exact.
   */
  totalIsEstimate?: boolean;
}

/** Totals up to this many are counted exactly; above, estimated (the notification's pending count is always exact). */
export const CONSULTATION_COUNT_EXACT_LIMIT = 1000;

/** Areas §4 payment status: 0 unpaid, 1 paid, 2 refunding, 3 refunded; set by hand on a consultation. */
export const PAYMENT_STATUS = { unpaid: 0, paid: 1, refunding: 2, refunded: 3 } as const;
export type PaymentStatus = (typeof PAYMENT_STATUS)[keyof typeof PAYMENT_STATUS];
export const PAYMENT_STATUSES: readonly PaymentStatus[] = Object.values(PAYMENT_STATUS);
