import type { TemplateNode } from '../../../contract/reports';
import { treeKey, type TreeKey } from '@/lib/treeKeys';

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

export type { TreeKey } from '@/lib/treeKeys';

export interface TreeCursor {
  /** The active node's id, or null in an empty tree. */
  active: number | null;
  open: ReadonlySet<number>;
}

/** A key in the tree: the shared tree keys (src/lib/treeKeys.ts) over the shown rows, as a cursor. */
export function moveCursor(roots: readonly TemplateNode[], cursor: TreeCursor, key: TreeKey): TreeCursor {
  const rows = visibleRows(roots, cursor.open);
  if (rows.length === 0) return { active: null, open: cursor.open };
  // A cursor on no row: ↑/↓/Home go to the first row and End to the last; → and ← do nothing.
  if (!rows.some((r) => r.node.id === cursor.active)) {
    if (key === 'ArrowLeft' || key === 'ArrowRight') return cursor;
    return { active: rows[key === 'End' ? rows.length - 1 : 0]!.node.id, open: cursor.open };
  }
  const shown = rows.map((r) => ({ id: r.node.id, parentId: r.parentId, isFolder: r.node.isFolder, hasChildren: r.node.children.length > 0 }));
  const answer = treeKey(shown, cursor.open, cursor.active, key);
  if (answer.open !== undefined) return { active: answer.focus, open: new Set([...cursor.open, answer.open]) };
  if (answer.close !== undefined) {
    const open = new Set(cursor.open);
    open.delete(answer.close);
    return { active: answer.focus, open };
  }
  return answer.focus === cursor.active ? cursor : { active: answer.focus, open: cursor.open };
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
