import type { RegistryRow } from '../../../../contract/registry';
import { dayIn } from '../../../../contract/days';

/**
 * Areas §5: labels print together only for exams on the same day. Null when `rows` may print together; otherwise
 * the days they fall on.
 */
export function sameDayProblem(rows: readonly Pick<RegistryRow, 'scheduledTime'>[], timeZone: string): string[] | null {
  const days = [...new Set(rows.map((r) => dayIn(new Date(r.scheduledTime), timeZone)))].sort();
  return days.length > 1 ? days : null;
}
