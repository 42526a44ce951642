import { childrenMap, type KbItem } from '../../../contract/kb';
import { treeKey as sharedTreeKey, type TreeKey } from '@/lib/treeKeys';

/**
 * The screen's pure rules over the tree the server answers (tree order, contract/kb.ts): which rows show with some
 * folders open, where the keys lead, where a new item goes, and the search the palette runs.
 */
export interface Row {
  item: KbItem;
  depth: number;
  /** The folder has children (it shows an open/close mark). */
  hasChildren: boolean;
}

/** The rows shown: every top-level item and the children of open folders, in tree order. */
export function visibleRows(items: readonly KbItem[], open: ReadonlySet<number>): Row[] {
  const children = childrenMap(items);
  const out: Row[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const item of children.get(parent) ?? []) {
      const kids = children.get(item.id) ?? [];
      out.push({ item, depth, hasChildren: kids.length > 0 });
      if (item.type === 'folder' && open.has(item.id)) walk(item.id, depth + 1);
    }
  };
  walk(null, 1);
  return out;
}

/** The folders above `id`, outermost first: opened so that an item chosen from elsewhere shows. */
export function ancestorIds(items: readonly KbItem[], id: number): number[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const out: number[] = [];
  for (let at = byId.get(id)?.parentId ?? null, guard = 0; at !== null && guard < items.length; guard++) {
    out.unshift(at);
    at = byId.get(at)?.parentId ?? null;
  }
  return out;
}

/** Where a new item goes from the selection: into a selected folder, beside anything else, at the top otherwise. */
export function parentForNew(items: readonly KbItem[], selected: number | null): number | null {
  const item = selected === null ? undefined : items.find((i) => i.id === selected);
  if (!item) return null;
  return item.type === 'folder' ? item.id : item.parentId;
}

export type { TreeKey } from '@/lib/treeKeys';

/** What an arrow does in the tree: the shared tree keys (src/lib/treeKeys.ts) over the shown rows. */
export function treeKey(rows: readonly Row[], open: ReadonlySet<number>, focused: number | null, key: TreeKey): { focus: number | null; open?: number; close?: number } {
  return sharedTreeKey(rows.map((r) => ({ id: r.item.id, parentId: r.item.parentId, isFolder: r.item.type === 'folder', hasChildren: r.hasChildren })), open, focused, key);
}

/** The folder names above an item, joined: where a search result lives. */
export function folderPath(items: readonly KbItem[], id: number, separator = ' / '): string {
  const byId = new Map(items.map((i) => [i.id, i]));
  return ancestorIds(items, id).map((a) => byId.get(a)?.name ?? '').join(separator);
}

const fold = (text: string) => text.normalize('NFKC').toLocaleLowerCase();

/** The visible words of stored HTML, for searching only (never rendered). */
export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

/**
 * Items whose name, or text content, holds every typed word: name matches first, then texts found by their
 * content; folders are found by name only.
 */
export function searchItems(items: readonly KbItem[], query: string): KbItem[] {
  const terms = fold(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  const scored: { item: KbItem; score: number }[] = [];
  for (const item of items) {
    const name = fold(item.name);
    const body = item.type === 'text' ? fold(plainText(item.content)) : item.type === 'template' && item.template ? fold(item.template.name) : '';
    let score = 2;
    for (const term of terms) {
      if (name.includes(term)) continue;
      if (body.includes(term)) score = 1;
      else { score = 0; break; }
    }
    if (score > 0) scored.push({ item, score: score + (name.startsWith(terms[0]!) ? 0.5 : 0) });
  }
  return scored.sort((a, b) => b.score - a.score).map((s) => s.item);
}
