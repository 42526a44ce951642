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

export const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Trimmed, non-empty, bounded text; the common shape of names and labels. */
export const text = (max: number) => z.string().trim().min(1).max(max);
