import type { ReactTable } from '@tanstack/react-table';
import { memo, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { alignOf, HEADER_HEIGHT, ROW_HEIGHT, SPEC_BY_ID, type ExamTableRow, type Features } from './gridTable';
import type { ExamRow } from './types';
import type { SortField, ViewSort } from './view';

type ExamHeader = ReturnType<ReactTable<Features, ExamRow>['getHeaderGroups']>[number]['headers'][number];

interface GridHeaderProps {
  headers: ExamHeader[];
  width: number;
  sort: ViewSort | null;
  onSort: (field: SortField) => void;
  /** Column ids and widths: the header renders again when they change (and while a column is being resized). */
  layoutKey: string;
  /** The column being resized, if any (its handle is highlighted). */
  resizing: string | false;
  language: string;
}

/** The sticky header row: labels, sort buttons, resize handles. Memoised: a held j never re-renders it. */
export const GridHeader = memo(
  function GridHeader({ headers, width, sort, onSort }: GridHeaderProps) {
    const { t } = useTranslation();
    return (
  <div role="rowgroup" className="sticky top-0 z-10" style={{ width: Math.max(width, 0), minWidth: '100%' }}>
      <div role="row" aria-rowindex={1} className="flex border-b border-line-strong bg-sunken text-xs font-medium text-fg-muted" style={{ height: HEADER_HEIGHT }}>
        {headers.map((header) => {
          const spec = SPEC_BY_ID.get(header.column.id)!;
          const sorted = spec.sort && sort?.field === spec.sort ? sort.direction : null;
          return (
            <div
              key={header.id}
              role="columnheader"
              aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
              className="relative flex shrink-0 items-center border-r border-line px-2 last:border-r-0"
              style={{ width: header.getSize(), justifyContent: alignOf(spec) }}
            >
              {spec.sort ? (
                <button
                  type="button"
                  tabIndex={-1}
                  className="flex min-w-0 items-center gap-1 truncate hover:text-fg"
                  onClick={() => onSort(spec.sort!)}
                  title={t('worklist.grid.sortBy', { column: t(spec.header as never) })}
                >
                  <span className="truncate">{t(spec.header as never)}</span>
                  <span aria-hidden="true" className="w-2 text-accent">{sorted === 'asc' ? '↑' : sorted === 'desc' ? '↓' : ''}</span>
                </button>
              ) : (
                <span className={spec.id === 'urgent' ? 'sr-only' : 'truncate'}>{t(spec.header as never)}</span>
              )}
              {spec.id === 'urgent' && <span aria-hidden="true">!</span>}
              <div
                aria-hidden="true"
                onMouseDown={header.getResizeHandler()}
                onTouchStart={header.getResizeHandler()}
                onDoubleClick={() => header.column.resetSize()}
                className={`absolute top-0 right-0 h-full w-1.5 cursor-col-resize select-none hover:bg-accent/40 ${header.column.getIsResizing() ? 'bg-accent' : ''}`}
              />
            </div>
          );
        })}
      </div>
    </div>
    );
  },
  (a, b) => a.layoutKey === b.layoutKey && a.resizing === b.resizing && a.sort === b.sort && a.onSort === b.onSort && a.width === b.width && a.language === b.language,
);

export function PlaceholderRow({ index, top, width }: { index: number; top: number; width: number }) {
  return (
    <div role="row" aria-rowindex={index + 2} aria-busy="true" className="absolute left-0 flex items-center border-b border-line/60 px-2" style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)`, width, minWidth: '100%' }}>
      <span className="h-2.5 w-2/5 rounded bg-sunken" />
    </div>
  );
}

interface GridRowProps {
  row: ExamTableRow;
  exam: ExamRow;
  index: number;
  top: number;
  focused: boolean;
  selected: boolean;
  layoutKey: string;
  envKey: string;
  back: string | null;
  fore: string | null;
  onFocusIndex: (index: number) => void;
  onOpen: (index: number) => void;
  FlexRender: ReactTable<Features, ExamRow>['FlexRender'];
}

/**
 * One exam. Re-renders only when what it shows changes: its exam, place, focus, selection, colours, the column
 * layout, the language or the minute. TanStack rebuilds its row objects as the window moves; their cells render
 * the same exam the same way, so a new row object alone is no reason to render again.
 */
export const GridRow = memo(
  function GridRow({ row, exam, index, top, focused, selected, back, fore, onFocusIndex, onOpen, FlexRender }: GridRowProps) {
    // A colour rule tints the row rather than painting it: a rule chosen on a white screen stays readable in the
    // dark theme, and focus and selection still show through.
    const style: CSSProperties = { height: ROW_HEIGHT, transform: `translateY(${top}px)` };
    if (back && !focused) style.backgroundColor = `color-mix(in oklab, ${back} 32%, var(--surface))`;
    if (fore) style.color = `color-mix(in oklab, ${fore} 78%, var(--fg))`;
    const state = focused
      ? 'bg-accent-soft shadow-[inset_4px_0_0_var(--focus),inset_0_0_0_2px_var(--focus)]'
      : selected
        ? 'bg-accent-soft/70 shadow-[inset_4px_0_0_var(--accent)]'
        : 'hover:bg-sunken/70';
    return (
      <div
        id={`wl-row-${index}`}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected}
        data-exam-id={exam.id}
        data-focused={focused || undefined}
        className={`absolute left-0 flex w-full items-center border-b border-line/60 text-[13px] text-fg ${state}`}
        style={style}
        onMouseDown={() => onFocusIndex(index)}
        onDoubleClick={() => onOpen(index)}
      >
        {row.getVisibleCells().map((cell) => {
          const spec = SPEC_BY_ID.get(cell.column.id)!;
          return (
            <div
              key={cell.id}
              role="gridcell"
              className="flex h-full shrink-0 items-center overflow-hidden px-2 whitespace-nowrap"
              style={{ width: cell.column.getSize(), justifyContent: alignOf(spec) }}
            >
              <FlexRender cell={cell} />
            </div>
          );
        })}
      </div>
    );
  },
  (a, b) =>
    a.exam === b.exam && a.index === b.index && a.top === b.top && a.focused === b.focused && a.selected === b.selected &&
    a.layoutKey === b.layoutKey && a.envKey === b.envKey && a.back === b.back && a.fore === b.fore &&
    a.onFocusIndex === b.onFocusIndex && a.onOpen === b.onOpen,
);
