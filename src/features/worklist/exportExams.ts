import { EXAM_EXPORT_MAX } from '../../../contract/constants';
import type { Filter, Sort } from '../../../contract/common';
import type { ExamExportInput } from '../../../contract/exams';
import { saveBlob, stampedName } from '@/lib/download';
import { currentLanguage } from '@/lib/i18n';
import { http } from '@/lib/http';

/** Core §5: at most 3000 rows per export; the screen says so before the user tries. */
export function exportAllowed(total: number): boolean {
  return total > 0 && total <= EXAM_EXPORT_MAX;
}

/**
 * POST exports/exams with the view's own query, saved as an .xlsx download. Column names follow the screen's
 * language and times the browser's zone, so the file reads like the list it came from.
 */
export async function downloadExport(query: { filters: Filter[]; sorts: Sort[] }, now = new Date()): Promise<void> {
  const body: ExamExportInput = {
    filters: query.filters,
    sorts: query.sorts,
    lang: currentLanguage(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  const blob = await http.blob('POST', 'exports/exams', body);
  saveBlob(blob, stampedName('exams', now));
}
