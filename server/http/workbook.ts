import ExcelJS from 'exceljs';
import type { Language } from '../../contract/constants';

/** A text in the three languages (a column's header, a sheet's name, a coded value's word). */
export type Labels = Record<Language, string>;

export type CellValue = string | number | boolean | Date | null | undefined;

/** One column of an export: its key, its width in characters, its header and how a row fills it. */
export interface SheetColumn<R> {
  key: string;
  width: number;
  label: Labels;
  value(row: R, lang: Language): CellValue;
}

/** The wall-clock time of `date` in `timeZone`, as a Date whose UTC fields hold it (Excel cells have no zone). */
export function wallClock(date: Date, timeZone: string): Date {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(date).map((p) => [p.type, p.value]));
  return new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)));
}

/**
 * Every export of the product as one .xlsx shape: one sheet, a frozen bold header in the reader's language, times as
 * real date cells (yyyy-mm-dd hh:mm) in the reader's time zone, and a filter on the header when asked.
 */
export async function writeWorkbook<R>(o: {
  sheet: Labels;
  columns: readonly SheetColumn<R>[];
  rows: readonly R[];
  lang: Language;
  timeZone: string;
  autoFilter?: boolean;
  /** Further sheets of the same shape after the first (the statistics export: its table, then its series). */
  moreSheets?: readonly { sheet: Labels; columns: readonly SheetColumn<R>[]; rows: readonly R[] }[];
}): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'rad-workstation';
  for (const part of [{ sheet: o.sheet, columns: o.columns, rows: o.rows }, ...(o.moreSheets ?? [])]) {
    const sheet = book.addWorksheet(part.sheet[o.lang], { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = part.columns.map((c) => ({ header: c.label[o.lang], key: c.key, width: c.width }));
    sheet.getRow(1).font = { bold: true };
    for (const row of part.rows) {
      const added = sheet.addRow(Object.fromEntries(part.columns.map((c) => {
        const value = c.value(row, o.lang);
        return [c.key, value instanceof Date ? wallClock(value, o.timeZone) : value];
      })));
      added.eachCell((cell) => {
        if (cell.value instanceof Date) cell.numFmt = 'yyyy-mm-dd hh:mm';
      });
    }
    if (o.autoFilter !== false) sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: part.columns.length } };
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
