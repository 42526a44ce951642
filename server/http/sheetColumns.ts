import type { Language } from '../../contract/constants';
import type { CellValue, Labels, SheetColumn } from './workbook';

/**
 * The one way an export declares its columns (exams, orders, consultations, the credit ledger, the registry's
 * schedule): a line a column, its key, width in characters, header in the three languages and the cell it takes
 * from a row. writeWorkbook (./workbook.ts) makes the file; this only spells the columns.
 */
export type Words = readonly [chs: string, en: string, tib: string];

export type ColumnLine<R> = readonly [key: string, width: number, header: Words, value: (row: R, lang: Language) => CellValue];

export const words = ([chs, en, tib]: Words): Labels => ({ chs, en, tib });

export function sheetColumns<R>(lines: readonly ColumnLine<R>[]): SheetColumn<R>[] {
  return lines.map(([key, width, header, value]) => ({ key, width, label: words(header), value }));
}

/** Codes and their words (a status, a gender, a channel), each code's word in the three languages. */
export function wordTable<K extends string | number>(table: Record<K, Words>): Record<K, Labels> {
  return Object.fromEntries(Object.entries(table).map(([code, w]) => [code, words(w as Words)])) as Record<K, Labels>;
}

/** Words by position (a status stored as 0, 1, 2 …). */
export const wordList = (lines: readonly Words[]): Labels[] => lines.map(words);

/** A code's word in `lang`; a code the table lacks as itself (as text); no code, no cell. */
export function wordOf(table: Partial<Record<string, Labels>> | readonly Labels[], code: string | number | null | undefined, lang: Language): string | null {
  if (code === null || code === undefined) return null;
  return (table as Partial<Record<string | number, Labels>>)[code]?.[lang] ?? String(code);
}

/** An ISO time as a date cell (writeWorkbook puts it in the reader's zone); none, an empty cell. */
export const dateCell = (iso: string | null | undefined): Date | null => (iso ? new Date(iso) : null);

export const YES_NO = { yes: words(['是', 'Yes', 'ཡིན།']), no: words(['否', 'No', 'མིན།']) } as const;

/** paymentStatus 0–3 of an order or a consultation. */
export const PAYMENT_STATUS = wordList([
  ['未支付', 'Unpaid', 'རིན་མ་སྤྲད།'],
  ['已支付', 'Paid', 'རིན་སྤྲད་ཟིན།'],
  ['退款中', 'Refunding', 'ཕྱིར་སློག་བྱེད་བཞིན།'],
  ['已退款', 'Refunded', 'ཕྱིར་སློག་ཟིན།'],
]);
