import type { TemplateNode } from '../../../contract/reports';

/**
 * The management screen's tree as pure functions (tests/unit/reportTemplatesManage.test.ts): the rows drawn for the
 * open folders, where the arrow keys lead, which folders a node may move into, and what gets the focus after a
 * deletion.
 */

export interface TreeRow {
  node: TemplateNode;
  level: number;
  /** The folder the row sits in (null at the top). */
  parentId: number | null;
}

export function visibleRows(roots: readonly TemplateNode[], open: ReadonlySet<number>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: readonly TemplateNode[], level: number, parentId: number | null) => {
    for (const node of nodes) {
      rows.push({ node, level, parentId });
      if (node.isFolder && open.has(node.id)) walk(node.children, level + 1, node.id);
    }
  };
  walk(roots, 1, null);
  return rows;
}

export function findNode(roots: readonly TemplateNode[], id: number): TemplateNode | null {
  for (const node of roots) {
    if (node.id === id) return node;
    const inner = findNode(node.children, id);
    if (inner) return inner;
  }
  return null;
}

/** The folders from the top down to (not including) node `id`; empty at the top or when it is not there. */
export function ancestorsOf(roots: readonly TemplateNode[], id: number): TemplateNode[] {
  const walk = (nodes: readonly TemplateNode[], trail: TemplateNode[]): TemplateNode[] | null => {
    for (const node of nodes) {
      if (node.id === id) return trail;
      const found = walk(node.children, [...trail, node]);
      if (found) return found;
    }
    return null;
  };
  return walk(roots, []) ?? [];
}

export type TreeKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

export interface TreeCursor {
  /** The active node's id, or null in an empty tree. */
  active: number | null;
  open: ReadonlySet<number>;
}

/**
 * A key in the tree, as a WAI-ARIA tree does it: ↑/↓ the row above or below, → opens a closed folder or enters an
 * open one, ← closes an open folder or climbs to the folder above, Home/End the first and last row.
 */
export function moveCursor(roots: readonly TemplateNode[], cursor: TreeCursor, key: TreeKey): TreeCursor {
  const rows = visibleRows(roots, cursor.open);
  if (rows.length === 0) return { active: null, open: cursor.open };
  const index = rows.findIndex((r) => r.node.id === cursor.active);
  const row = index >= 0 ? rows[index]! : null;
  const at = (i: number): TreeCursor => ({ active: rows[Math.max(0, Math.min(rows.length - 1, i))]!.node.id, open: cursor.open });
  switch (key) {
    case 'ArrowDown': return index < 0 ? at(0) : at(index + 1);
    case 'ArrowUp': return index < 0 ? at(0) : at(index - 1);
    case 'Home': return at(0);
    case 'End': return at(rows.length - 1);
    case 'ArrowRight': {
      if (!row?.node.isFolder) return cursor;
      if (!cursor.open.has(row.node.id)) return { active: row.node.id, open: new Set([...cursor.open, row.node.id]) };
      return row.node.children.length > 0 ? { active: row.node.children[0]!.id, open: cursor.open } : cursor;
    }
    case 'ArrowLeft': {
      if (!row) return cursor;
      if (row.node.isFolder && cursor.open.has(row.node.id)) {
        const open = new Set(cursor.open);
        open.delete(row.node.id);
        return { active: row.node.id, open };
      }
      return row.parentId !== null ? { active: row.parentId, open: cursor.open } : cursor;
    }
  }
}

/** The folder a new node goes into when the cursor stands on `active`: that folder itself, or the template's folder. */
export function targetFolder(roots: readonly TemplateNode[], active: number | null): number | null {
  if (active === null) return null;
  const node = findNode(roots, active);
  if (!node) return null;
  return node.isFolder ? node.id : node.parentId;
}

/** Where node `id` may move: the top (null) and every folder that is not the node itself or inside it, with its path. */
export function moveTargets(roots: readonly TemplateNode[], id: number): { id: number | null; path: string[] }[] {
  const node = findNode(roots, id);
  const targets: { id: number | null; path: string[] }[] = [];
  if (node?.parentId !== null) targets.push({ id: null, path: [] });
  const walk = (nodes: readonly TemplateNode[], path: string[]) => {
    for (const n of nodes) {
      if (!n.isFolder || n.id === id) continue;
      const here = [...path, n.name];
      if (n.id !== node?.parentId) targets.push({ id: n.id, path: here });
      walk(n.children, here);
    }
  };
  walk(roots, []);
  return targets;
}

/** After deleting `id`: the row below it, else the one above, else its folder (the cursor stays near). */
export function focusAfterDelete(roots: readonly TemplateNode[], open: ReadonlySet<number>, id: number): number | null {
  const rows = visibleRows(roots, open);
  const index = rows.findIndex((r) => r.node.id === id);
  if (index < 0) return rows[0]?.node.id ?? null;
  const removed = rows[index]!;
  const below = rows.slice(index + 1).find((r) => r.level <= removed.level);
  if (below) return below.node.id;
  const above = index > 0 ? rows[index - 1] : undefined;
  return above?.node.id ?? removed.parentId;
}

/** Every folder id above each of `ids`, so the tree opens down to them. */
export function openTo(roots: readonly TemplateNode[], open: ReadonlySet<number>, id: number): Set<number> {
  return new Set([...open, ...ancestorsOf(roots, id).map((f) => f.id)]);
}

/** Counts of a subtree's templates and folders (the delete dialog says what goes). */
export function countNodes(roots: readonly TemplateNode[]): { folders: number; templates: number } {
  let folders = 0;
  let templates = 0;
  const walk = (nodes: readonly TemplateNode[]) => {
    for (const n of nodes) {
      if (n.isFolder) {
        folders++;
        walk(n.children);
      } else templates++;
    }
  };
  walk(roots);
  return { folders, templates };
}
