/**
 * The keyboard of a tree list (WAI-ARIA tree view), one rule for every tree on screen (templates, the knowledge
 * base): ↑/↓ the row above or below, → opens a closed folder or enters an open one, ← closes an open folder or
 * climbs to the folder above, Home/End the first and last row. Pure: each tree maps its shown rows to these.
 */
export type TreeKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

export interface TreeKeyRow {
  id: number;
  /** The folder the row sits in (null at the top). */
  parentId: number | null;
  isFolder: boolean;
  hasChildren: boolean;
}

/**
 * What `key` does with the shown `rows` (in order, children of open folders after their folder) and the row
 * `focused`: the row to focus, and a folder to open or close. A focus that is on no row goes to the first.
 */
export function treeKey(rows: readonly TreeKeyRow[], open: ReadonlySet<number>, focused: number | null, key: TreeKey): { focus: number | null; open?: number; close?: number } {
  if (rows.length === 0) return { focus: null };
  const at = rows.findIndex((r) => r.id === focused);
  if (at < 0) return { focus: rows[0]!.id };
  const row = rows[at]!;
  switch (key) {
    case 'ArrowUp': return { focus: rows[Math.max(0, at - 1)]!.id };
    case 'ArrowDown': return { focus: rows[Math.min(rows.length - 1, at + 1)]!.id };
    case 'Home': return { focus: rows[0]!.id };
    case 'End': return { focus: rows[rows.length - 1]!.id };
    case 'ArrowRight':
      if (!row.isFolder) return { focus: row.id };
      if (!open.has(row.id)) return { focus: row.id, open: row.id };
      return { focus: row.hasChildren ? rows[at + 1]!.id : row.id };
    case 'ArrowLeft':
      if (row.isFolder && open.has(row.id)) return { focus: row.id, close: row.id };
      return { focus: row.parentId ?? row.id };
  }
}
