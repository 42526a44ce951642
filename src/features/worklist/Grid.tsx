import { createColumnHelper, useTable, type Updater } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle, useMemo, useRef, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveColours, safeColour, type ColourRule } from './colourRules';
import type { ColumnPrefs } from './columnPrefs';
import { COLUMN_SPECS, type CellEnv } from './columns';
import { GridHeader, GridRow, PlaceholderRow } from './GridRows';
import { features, HEADER_HEIGHT, ROW_HEIGHT, type ExamTableRow, type Features } from './gridTable';
import type { PageCache } from './pageCache';
import type { ExamRow } from './types';
import type { SortField, ViewSort } from './view';

export { ROW_HEIGHT } from './gridTable';

/** Rows rendered beyond the viewport on each side: enough for a held j to never reach a blank row. */
const OVERSCAN = 12;
/** Rows fetched ahead of the viewport, so a held j runs into loaded rows. */
const PREFETCH = 40;

const helper = createColumnHelper<Features, ExamRow>();

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
