import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, type Language } from '../../contract/constants';
import type { StatCell, StatColumn, StatResult } from '../../contract/statistics';
import { writeWorkbook, type CellValue, type Labels, type SheetColumn } from '../http/workbook';

/**
 * One statistic as an .xlsx workbook (POST statistics/export): sheet 1 the table with a total row, sheet 2 the series
 * by period. Headers and codes are the page's own words (locales/<lang>.json statistics.columns / .codes /
 * .export), read once from the files beside the server (tsx runs the sources, so the path holds in tests, `npm
 * start` and a fresh clone). Numbers stay numbers: minutes and percents as they are, fen as yuan.
 */

type Words = Record<string, unknown>;
const localesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'locales');
let cache: Record<Language, Words> | null = null;

function words(): Record<Language, Words> {
  cache ??= Object.fromEntries(LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(path.join(localesDir, `${lang}.json`), 'utf8')) as Words])) as Record<Language, Words>;
  return cache;
}

/** The word at `statistics.<group>.<key>` in every language, or the key itself where one is missing. */
function labels(group: string, key: string): Labels {
  const all = words();
  return Object.fromEntries(LANGUAGES.map((lang) => {
    const stat = all[lang].statistics as Record<string, Record<string, unknown> | undefined> | undefined;
    const word = stat?.[group]?.[key];
    return [lang, typeof word === 'string' ? word : key];
  })) as Labels;
}

type Row = Record<string, StatCell>;
const TOTAL = '\u0000total';

function cell(column: StatColumn, v: StatCell, lang: Language): CellValue {
  // An exam without a recorded scanner: the page's words for it, not an empty cell.
  if ((v === null || v === undefined) && column.key === 'device') return labels('codes', 'noDevice')[lang];
  if (v === null || v === undefined) return null;
  switch (column.kind) {
    case 'code': return labels('codes', String(v))[lang];
    case 'text': return String(v);
    case 'fen': return Number(v) / 100;
    default: return Number(v);
  }
}

export async function statWorkbook(result: StatResult, lang: Language): Promise<Buffer> {
  const first = result.columns[0]?.key;
  const tableColumns: SheetColumn<Row>[] = result.columns.map((c) => ({
    key: c.key, width: c.kind === 'text' || c.kind === 'code' ? 24 : 14, label: labels('columns', c.key),
    value: (row, l) => (row[TOTAL] !== undefined && c.key === first ? labels('export', 'total')[l] : cell(c, row[c.key] ?? null, l)),
  }));
  const totalRow: Row = { ...result.totals, [TOTAL]: 1 };

  // The series sheet: the period, then one column per series (its name, or its code's word).
  const seriesColumns: SheetColumn<Row>[] = [
    { key: 'period', width: 12, label: labels('columns', 'period'), value: (row) => String(row.period) },
    ...result.series.map((s, i): SheetColumn<Row> => ({
      key: `s${i}`, width: 16,
      label: s.label === null ? labels('codes', s.key) : { chs: s.label, en: s.label, tib: s.label },
      value: (row) => { const v = Number(row[`s${i}`] ?? 0); return s.kind === 'fen' ? v / 100 : v; },
    })),
  ];
  const seriesRows: Row[] = result.periods.map((period, p) => ({ period, ...Object.fromEntries(result.series.map((s, i) => [`s${i}`, s.values[p] ?? 0])) }));

  return writeWorkbook<Row>({
    sheet: labels('export', 'sheetTable'), columns: tableColumns, rows: [...result.rows, totalRow], lang, timeZone: result.range.timeZone,
    moreSheets: [{ sheet: labels('export', 'sheetSeries'), columns: seriesColumns, rows: seriesRows }],
  });
}
