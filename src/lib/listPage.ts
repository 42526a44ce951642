import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The pieces every keyboard list page shares (orders, consultations, registry, publishing): the page that belongs to
 * its filters, the row in hand, and the range the pager shows. The page keeps its own filters, commands and table.
 */

/** The page belongs to the filters it was turned under: new filters start again at the first page. */
export function useListPaging(filtersKey: string) {
  const [paging, setPaging] = useState<{ of: string; skip: number }>({ of: '', skip: 0 });
  const skip = paging.of === filtersKey ? paging.skip : 0;
  return { skip, setSkip: (next: number) => setPaging({ of: filtersKey, skip: next }) };
}

/**
 * A page held in the address (?skip=…) rather than in state: the skip one page that way, or null where there is none
 * (before the first, or past the last row). The caller navigates to it.
 */
export function turnedPage(skip: number, step: 1 | -1, pageSize: number, total: number): number | null {
  const next = Math.max(0, skip + step * pageSize);
  return next !== skip && (step < 0 || next < total) ? next : null;
}

/**
 * The row in hand: held by the key of the page it was taken on (another page or filter lets it go), kept inside the
 * rows there are, and moved by ↑/↓ with the focus. The focus goes to the row element, or to what stands for it
 * (`Focus`: a list whose rows are links focuses each row's link).
 */
export function useHeldRow<Row, Focus extends HTMLElement = HTMLTableRowElement>(listKey: string, rows: readonly Row[]) {
  const [held, setHeld] = useState<{ key: string; index: number } | null>(null);
  const active = held && held.key === listKey && rows.length > 0 ? Math.min(held.index, rows.length - 1) : null;
  const rowRefs = useRef<(Focus | null)[]>([]);
  const hold = useCallback((index: number) => setHeld({ key: listKey, index }), [listKey]);
  return {
    active,
    activeRow: active === null ? null : rows[active] ?? null,
    rowRefs,
    /** Whether a row of this page is in hand (the first-row focus leaves it be). */
    holding: held?.key === listKey,
    hold,
    move: (step: 1 | -1) => {
      if (rows.length === 0) return;
      const from = active ?? (step > 0 ? -1 : rows.length);
      const next = Math.min(rows.length - 1, Math.max(0, from + step));
      hold(next);
      rowRefs.current[next]?.focus();
    },
    focusList: () => rowRefs.current[active ?? 0]?.focus(),
  };
}

/** A fresh page gives the keyboard to its first row unless the user is typing in the bar. */
export function useFirstRowFocus({ stale, rows, listKey, held }: { stale: boolean; rows: number; listKey: string; held: ReturnType<typeof useHeldRow<unknown, HTMLElement>> }) {
  const firstLoad = useRef(true);
  const { holding, hold, rowRefs } = held;
  useEffect(() => {
    if (stale || rows === 0) return;
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLSelectElement;
    if (!firstLoad.current && typing) return;
    firstLoad.current = false;
    if (holding) return;
    // Held explicitly: the row may already have the focus (the same row heads the new page), so no focus event
    // would say so.
    const frame = requestAnimationFrame(() => {
      hold(0);
      rowRefs.current[0]?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [stale, rows, listKey, holding, hold, rowRefs]);
}

/** What the pager says: rows from–to of total (null until the first answer). */
export function pageRange(total: number | null, skip: number, rows: number): { from: number; to: number; total: number } | null {
  return total === null ? null : { from: total === 0 ? 0 : skip + 1, to: skip + rows, total };
}
