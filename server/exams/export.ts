import type { Language } from '../../contract/constants';
import type { ExamListItem } from '../../contract/exams';
import { writeWorkbook } from '../http/workbook';
import { EXPORT_COLUMNS, SHEET_NAME } from './exportColumns';

/** The exam list as an .xlsx workbook (server/http/workbook.ts: the one shape of every export). */
export function examWorkbook(rows: readonly ExamListItem[], lang: Language, timeZone: string): Promise<Buffer> {
  return writeWorkbook({ sheet: SHEET_NAME, columns: EXPORT_COLUMNS, rows, lang, timeZone });
}
