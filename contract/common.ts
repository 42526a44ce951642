import { z } from 'zod';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT } from './constants';

/** Operators of the page-query language (DESIGN "Lists"). Fields are whitelisted per resource. */
export const OPERATORS = ['equal', 'notEqual', 'in', 'gt', 'gte', 'lt', 'lte', 'like'] as const;
export type Operator = (typeof OPERATORS)[number];

const scalar = z.union([z.string().max(200), z.number(), z.boolean(), z.null()]);

export const filterSchema = z.object({
  field: z.string().min(1).max(64),
  values: z.array(scalar).max(200),
  operator: z.enum(OPERATORS),
});
export type Filter = z.infer<typeof filterSchema>;

export const sortSchema = z.object({
  field: z.string().min(1).max(64),
  direction: z.enum(['asc', 'desc']),
});
export type Sort = z.infer<typeof sortSchema>;

export const pageQuerySchema = z.object({
  filters: z.array(filterSchema).max(40).default([]),
  skip: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).default(DEFAULT_QUERY_LIMIT),
  sorts: z.array(sortSchema).max(5).default([]),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;
export type PageQueryInput = z.input<typeof pageQuerySchema>;

export interface Page<T> {
  items: T[];
  total: number;
}

/** The largest row id: the columns are 32-bit integers. */
export const ID_MAX = 2_147_483_647;

/**
 * A whole number as it comes in a path, a query or a form field: decimal digits only. `Number()` (and so
 * z.coerce.number) would also read `0x1F`, `1e3`, ` 1`, `1.0` and `+1`; those are refused. A JSON number is taken
 * as it is. Every id and count read from text goes through this one rule.
 */
export const decimalInt = (min: number, max: number) => z
  .union([z.number(), z.string().regex(/^[0-9]{1,16}$/, 'decimal digits only').transform(Number)])
  .pipe(z.number().int().min(min).max(max));

/** A row id from text: decimal digits, 1 to ID_MAX. */
export const idValue = decimalInt(1, ID_MAX);

export const idParam = z.object({ id: idValue });

/**
 * Dates the product stores: timestamptz and date columns hold years far outside this, but PGlite and PostgreSQL
 * disagree at the edges (year 0000 is no year of either), and no exam, birth or schedule falls outside. Every date
 * that comes in (bodies, list filters, form fields) is checked here.
 */
export const DATE_MIN_YEAR = 1900;
export const DATE_MAX_YEAR = 2200;

/** Whether an ISO date or date-time (YYYY-MM-DD…) falls in the stored years, by the year as written. */
export function inDateRange(iso: string): boolean {
  const year = Number(iso.slice(0, 4));
  return /^\d{4}-/.test(iso) && year >= DATE_MIN_YEAR && year <= DATE_MAX_YEAR;
}

const RANGE_MESSAGE = `a date from ${DATE_MIN_YEAR} to ${DATE_MAX_YEAR} is expected`;

/** An ISO date-time with its offset (one without would mean the server's zone), in the stored years. */
export const isoDateTime = z.iso.datetime({ offset: true }).refine(inDateRange, RANGE_MESSAGE);
/** A calendar day YYYY-MM-DD that exists (no 2026-02-30), in the stored years. */
export const isoDay = z.iso.date().refine(inDateRange, RANGE_MESSAGE);

/** Trimmed, non-empty, bounded text; the common shape of names and labels. */
export const text = (max: number) => z.string().trim().min(1).max(max);
