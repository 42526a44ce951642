import type { TemplateNode } from '../../../../contract/reports';

/**
 * The template tree as the picker shows it: a flat list of visible rows (folders open or closed) when there
 * is no query, and the matching templates when there is one. Pure, so the picker's keyboard rules are tested.
 */

export interface TemplateRow {
  node: TemplateNode;
  level: number;
  /** Folder names above it, for a search result's context ("CT › 胸部"). */
  path: string[];
}

/** Rows to show for the open folders, depth first in the server's order. */
export function visibleRows(roots: readonly TemplateNode[], open: ReadonlySet<number>): TemplateRow[] {
  const rows: TemplateRow[] = [];
  const walk = (nodes: readonly TemplateNode[], level: number, path: string[]) => {
    for (const node of nodes) {
      rows.push({ node, level, path });
      if (node.isFolder && open.has(node.id)) walk(node.children, level + 1, [...path, node.name]);
    }
  };
  walk(roots, 1, []);
  return rows;
}

const textOf = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ');

/**
 * Templates whose name, body part, modality, folder or text contain every word of the query (case-folded).
 * Name matches come first: a radiologist types the name they know.
 */
export function searchTemplates(roots: readonly TemplateNode[], query: string): TemplateRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const byName: TemplateRow[] = [];
  const byText: TemplateRow[] = [];
  const walk = (nodes: readonly TemplateNode[], path: string[]) => {
    for (const node of nodes) {
      if (node.isFolder) {
        walk(node.children, [...path, node.name]);
        continue;
      }
      const name = node.name.toLowerCase();
      const head = [name, node.bodyPart ?? '', node.modality ?? '', ...path].join(' ').toLowerCase();
      const all = `${head} ${textOf(node.finding)} ${textOf(node.diagnosis)}`.toLowerCase();
      if (words.every((w) => name.includes(w) || head.includes(w))) byName.push({ node, level: 1, path });
      else if (words.every((w) => all.includes(w))) byText.push({ node, level: 1, path });
    }
  };
  walk(roots, []);
  return [...byName, ...byText];
}

/** The folders to open first: the one for the exam's modality, so its templates are one arrow away. */
export function initiallyOpen(roots: readonly TemplateNode[], modality: string | null): Set<number> {
  const open = new Set<number>();
  if (!modality) return open;
  const folder = roots.find((n) => n.isFolder && (n.modality === modality || n.name.toUpperCase() === modality.toUpperCase()));
  if (folder) open.add(folder.id);
  return open;
}
