import {
  columnOrderingFeature,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  tableFeatures,
  useTable,
  type ReactTable,
  type Row,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useImperativeHandle, useMemo, useRef, type CSSProperties, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveColours, safeColour, type ColourRule } from './colourRules';
import type { ColumnPrefs } from './columnPrefs';
import { COLUMN_SPECS, type CellEnv, type ColumnSpec } from './columns';
import type { PageCache } from './pageCache';
import type { ExamRow } from './types';
import type { SortField, ViewSort } from './view';

export const ROW_HEIGHT = 28;
const HEADER_HEIGHT = 30;
/** Rows rendered beyond the viewport on each side: enough for a held j to never reach a blank row. */
const OVERSCAN = 12;
/** Rows fetched ahead of the viewport, so a held j runs into loaded rows. */
const PREFETCH = 40;

const features = tableFeatures({ columnSizingFeature, columnResizingFeature, columnOrderingFeature, columnVisibilityFeature });
type Features = typeof features;
type ExamTableRow = Row<Features, ExamRow>;
const helper = createColumnHelper<Features, ExamRow>();
const SPEC_BY_ID = new Map(COLUMN_SPECS.map((spec) => [spec.id, spec]));

export interface GridHandle {
  /** Rows that fit in the viewport (PgUp/PgDn move by this). */
  pageRows(): number;
  focus(): void;
}

interface GridProps {
  cache: PageCache<ExamRow>;
  /** Changes whenever the cache does; the grid re-reads its rows then. */
  version: number;
  total: number;
  focusIndex: number;
  selected: ReadonlySet<number>;
  prefs: ColumnPrefs;
  onPrefs: (change: (current: ColumnPrefs) => ColumnPrefs) => void;
  rules: readonly ColourRule[];
  sort: ViewSort | null;
  onSort: (field: SortField) => void;
  onFocusIndex: (index: number) => void;
  onOpen: (index: number) => void;
  now: number;
  label: string;
  handle: Ref<GridHandle>;
}

function apply<T>(updater: Updater<T>, current: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater;
}

/**
 * The dense exam grid: TanStack Table owns the columns (order, visibility, widths, resizing, kept per user);
 * TanStack Virtual renders only the rows in view over the whole view's total, and the page cache fills them in.
 * The table's data is the rendered window, so its row model stays a few dozen rows however long the list is.
 * Focus is one row of the grid (aria-activedescendant); keys come from the command registry.
 */
export function Grid(props: GridProps) {
  const { cache, version, total, focusIndex, selected, prefs, onPrefs, rules, sort, onSort, onFocusIndex, onOpen, now, label, handle } = props;
  const { t, i18n } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);

  // TanStack Virtual hands out functions the React Compiler cannot memoise; this component is not compiled.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // Scrolling re-renders with the next batch rather than synchronously inside the scroll handler: a held j
    // scrolls on every press, and a flushSync per scroll event doubled the work of each frame.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useImperativeHandle(handle, () => ({
    pageRows: () => Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) - HEADER_HEIGHT) / ROW_HEIGHT) - 1),
    focus: () => scrollRef.current?.focus({ preventScroll: true }),
  }));

  // The rows in view and around the focus, and those just ahead, are fetched.
  useEffect(() => {
    const from = Math.min(first, focusIndex) - OVERSCAN;
    const to = Math.max(last, focusIndex) + PREFETCH;
    cache.ensure(Math.max(0, from), to);
  }, [cache, first, last, focusIndex, version]);

  // Keeps the focused row in view, written in the next animation frame: the write needs a layout, and there it
  // shares the frame's own instead of forcing one more on every press of a held j. Worked out from the
  // virtualizer's last known offset and viewport (no layout read), and only when the row is outside.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || total === 0 || focusIndex < 0 || focusIndex >= total) return;
    const frame = requestAnimationFrame(() => {
      const offset = virtualizer.scrollOffset ?? element.scrollTop;
      const height = virtualizer.scrollRect?.height ?? element.clientHeight;
      const rowTop = HEADER_HEIGHT + focusIndex * ROW_HEIGHT;
      if (rowTop < offset + HEADER_HEIGHT) element.scrollTop = rowTop - HEADER_HEIGHT;
      else if (rowTop + ROW_HEIGHT > offset + height) element.scrollTop = rowTop + ROW_HEIGHT - height;
    });
    return () => cancelAnimationFrame(frame);
  }, [virtualizer, focusIndex, total]);

  const windowRows = useMemo(() => {
    const rows: ExamRow[] = [];
    for (let i = first; i <= last; i++) {
      const row = cache.rowAt(i);
      if (row) rows.push(row);
    }
    return rows;
    // `version` stands for the cache's content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cache, version, first, last]);

  const env = useMemo<CellEnv>(() => ({ t, now }), [t, now]);
  const language = i18n.language;
  const columns = useMemo(
    () =>
      COLUMN_SPECS.map((spec) =>
        helper.display({
          id: spec.id,
          header: () => t(spec.header as never),
          size: spec.sizes?.[language as 'en' | 'tib'] ?? spec.size,
          minSize: spec.minSize ?? 32,
          maxSize: 600,
          enableHiding: !spec.fixed,
          cell: (info) => spec.render(info.row.original, env),
        }),
      ),
    [t, env, language],
  );

  const columnVisibility = useMemo(() => Object.fromEntries(prefs.hidden.map((id) => [id, false])), [prefs.hidden]);
  const table = useTable({
    features,
    columns,
    data: windowRows,
    getRowId: (row) => String(row.id),
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    state: { columnSizing: prefs.sizing, columnOrder: prefs.order, columnVisibility },
    onColumnSizingChange: (updater) => onPrefs((p) => ({ ...p, sizing: apply(updater, p.sizing) })),
    onColumnOrderChange: (updater) => onPrefs((p) => ({ ...p, order: apply(updater, p.order) })),
    onColumnVisibilityChange: (updater) =>
      onPrefs((p) => {
        const next = apply(updater, columnVisibility);
        return { ...p, hidden: Object.entries(next).filter(([, visible]) => !visible).map(([id]) => id) };
      }),
  });

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const visibleColumns = table.getVisibleLeafColumns();
  const width = table.getTotalSize();
  // One string for the layout: a row re-renders when it changes (resize, reorder, hide) and otherwise not.
  const layoutKey = visibleColumns.map((c) => `${c.id}:${c.getSize()}`).join(',');
  const rowsById = new Map<number, ExamTableRow>();
  for (const row of table.getRowModel().rows) rowsById.set(row.original.id, row);
  const orderedRules = rules;
  const focused = cache.rowAt(focusIndex);

  return (
    <div
      ref={scrollRef}
      role="grid"
      tabIndex={0}
      aria-label={label}
      aria-rowcount={total + 1}
      aria-colcount={visibleColumns.length}
      aria-activedescendant={focused ? `wl-row-${focusIndex}` : undefined}
      aria-multiselectable="true"
      data-testid="worklist-grid"
      className="relative min-h-0 flex-1 overflow-auto bg-surface outline-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus"
      style={{ contain: 'strict' }}
    >
      <GridHeader headers={headers} width={width} sort={sort} onSort={onSort} layoutKey={layoutKey} resizing={table.state.columnResizing.isResizingColumn} language={i18n.language} />
      <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() - HEADER_HEIGHT, width: Math.max(width, 0), minWidth: '100%' }}>
        {items.map((item) => {
          const exam = cache.rowAt(item.index);
          const top = item.start - HEADER_HEIGHT;
          const row = exam ? rowsById.get(exam.id) : undefined;
          if (!exam || !row) return <PlaceholderRow key={`p${item.index}`} index={item.index} top={top} width={width} />;
          const colours = orderedRules.length ? resolveColours(orderedRules, exam as unknown as Record<string, unknown>) : null;
          return (
            <GridRow
              key={exam.id}
              row={row}
              exam={exam}
              index={item.index}
              top={top}
              focused={item.index === focusIndex}
              selected={selected.has(exam.id)}
              layoutKey={layoutKey}
              envKey={`${i18n.language}|${now}`}
              back={safeColour(colours?.back ?? null)}
              fore={safeColour(colours?.fore ?? null)}
              onFocusIndex={onFocusIndex}
              onOpen={onOpen}
              FlexRender={table.FlexRender}
            />
          );
        })}
      </div>
    </div>
  );
}

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
const GridHeader = memo(
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

function alignOf(spec: ColumnSpec): CSSProperties['justifyContent'] {
  return spec.align === 'end' ? 'flex-end' : spec.align === 'center' ? 'center' : 'flex-start';
}

function PlaceholderRow({ index, top, width }: { index: number; top: number; width: number }) {
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
const GridRow = memo(
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


