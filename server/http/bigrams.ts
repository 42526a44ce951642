import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Searches of 2 characters (李明) have no trigram, so the trigram indexes cannot answer them; the exams carry GIN
 * indexes of their characters' bigrams instead (server/db/schema/exams.ts, functions in migration 0020). A bigram
 * condition is only a pre-filter: the caller keeps its ILIKE, which decides.
 *
 * exam_name_bigrams(t) is the set of 2-character pieces of lower(t) once every whitespace character (JavaScript's
 * `\s`, spelled out so no locale changes it) and '^' are taken out. Taking the same characters out of a text and of
 * a piece of it keeps the piece a piece, and ILIKE compares lower-cased texts; so a name matching
 * `ilike '%form%'` has every bigram of the form. The forms of one name search (nameSearchForms) differ only in
 * spaces and '^', so they share their bigrams.
 */
export function normalisedLength(text: string): number {
  return [...text.toLowerCase().replace(/[\s^]+/gu, '')].length;
}

/** `exam_name_bigrams(column) @> exam_name_bigrams(text)`, or nothing when the text has fewer than 2 characters. */
export function nameBigramsCondition(column: AnyPgColumn, text: string): SQL | null {
  if (normalisedLength(text) < 2) return null;
  return sql`exam_name_bigrams(${column}) @> exam_name_bigrams(${text}::text)`;
}
