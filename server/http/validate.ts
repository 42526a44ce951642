import type { z } from 'zod';
import { ApiError } from './errors';

/** Parses input with its contract schema; anything off is a 400 ParamsError naming the fields. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data ?? {});
  if (!result.success) {
    const fields = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new ApiError('ParamsError', undefined, { fields });
  }
  // PostgreSQL text cannot hold U+0000: a string carrying it would fail in the database as a 500.
  const nul = findNul(result.data, []);
  if (nul) throw new ApiError('ParamsError', undefined, { fields: [{ path: nul.join('.'), message: 'contains a NUL character' }] });
  return result.data;
}

function findNul(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      const found = findNul(v, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
