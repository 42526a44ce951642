import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import { estimatedRows } from '../http/estimate';

/**
 * Free-text report search (core §2, §5): the current report's findings or conclusion contain the text. Two plans,
 * chosen by how many reports the trigram statistics expect to match:
 * - few (a rare word, a name): the matching report ids come from the trigram GIN indexes first, and their exams
 *   from exams_report_id_idx — cost grows with the hits, not with the list;
 * - many (a common phrase): the list is walked newest first and each exam's report checked by primary key until
 *   the page is full — cost grows with the inverse of the hit rate, so the more common the faster.
 * Either way the planner is not left to guess between them: it tends to walk for rare words too, reading the
 * whole list. With many hits the count is the planner's estimate (an exact one would read every report).
 */
export const TEXT_FEW_HITS = 5000;

export type TextPlan =
  | { kind: 'nothing' }
  | { kind: 'few'; condition: SQL }
  | { kind: 'many'; condition: SQL };

// search_text: findings and conclusion as plain text (see the reports table), with one trigram index.
const matches = (pattern: string) => sql`r.search_text ilike ${pattern}`;

export async function planReportText(db: Db, pattern: string): Promise<TextPlan> {
  const expected = await estimatedRows(db, sql`select r.id from reports r where ${matches(pattern)}`);
  if (expected <= TEXT_FEW_HITS) {
    const result = await db.execute(sql`select r.id from reports r where ${matches(pattern)} limit ${TEXT_FEW_HITS + 1}`);
    const ids = (result as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
    if (ids.length === 0) return { kind: 'nothing' };
    // One text parameter rather than thousands: the planner still sees the list (the function is immutable).
    if (ids.length <= TEXT_FEW_HITS) return { kind: 'few', condition: sql`${exams.reportId} = any(string_to_array(${ids.join(',')}, ',')::int[])` };
  }
  return { kind: 'many', condition: sql`exists (select 1 from reports r where r.id = ${exams.reportId} and ${matches(pattern)})` };
}
