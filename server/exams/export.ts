import ExcelJS from 'exceljs';
import type { Language } from '../../contract/constants';
import type { ExamListItem } from '../../contract/exams';
import { EXPORT_COLUMNS, SHEET_NAME } from './exportColumns';

/** The wall-clock time of `date` in `timeZone`, as a Date whose UTC fields hold it (Excel cells have no zone). */
export function wallClock(date: Date, timeZone: string): Date {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(date).map((p) => [p.type, p.value]));
  return new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)));
}

/** The exam list as an .xlsx workbook: one sheet, a frozen bold header, dates as real date cells. */
export async function examWorkbook(rows: readonly ExamListItem[], lang: Language, timeZone: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'rad-workstation';
  const sheet = book.addWorksheet(SHEET_NAME[lang], { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c.label[lang], key: c.key, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    sheet.addRow(Object.fromEntries(EXPORT_COLUMNS.map((c) => {
      const value = c.value(row, lang);
      return [c.key, value instanceof Date ? wallClock(value, timeZone) : value];
    })));
  }
  for (const c of EXPORT_COLUMNS) {
    if (c.key === 'examTime' || c.key === 'created') sheet.getColumn(c.key).numFmt = 'yyyy-mm-dd hh:mm';
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: EXPORT_COLUMNS.length } };
  return Buffer.from(await book.xlsx.writeBuffer());
}
