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

const fold = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

/** True when two body parts name the same region ("盆腔" and "盆腔/子宫", "Knee" and "knee"). */
function sameBodyPart(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = fold(a);
  const y = fold(b);
  return x !== '' && y !== '' && (x === y || x.includes(y) || y.includes(x));
}

/**
 * Where the picker opens: on the first template of the exam's modality whose body part is the exam's (a
 * gynaecology ultrasound opens on the pelvic template, not the abdominal one that comes first), with the folders
 * above it open; else on the modality folder's first template. `active` is the template's id, or null.
 */
export function preselect(roots: readonly TemplateNode[], modality: string | null, bodyPart: string | null): { open: Set<number>; active: number | null } {
  const modalityOf = (node: TemplateNode, inherited: string | null) => node.modality ?? inherited;
  let best: { node: TemplateNode; folders: number[] } | null = null;
  const walk = (nodes: readonly TemplateNode[], folders: number[], inherited: string | null) => {
    for (const node of nodes) {
      if (best) return;
      const nodeModality = modalityOf(node, inherited);
      if (node.isFolder) walk(node.children, [...folders, node.id], nodeModality);
      else if ((!modality || fold(nodeModality) === fold(modality)) && sameBodyPart(node.bodyPart, bodyPart)) best = { node, folders };
    }
  };
  if (bodyPart) walk(roots, [], null);
  if (best) {
    const found: { node: TemplateNode; folders: number[] } = best;
    return { open: new Set(found.folders), active: found.node.id };
  }
  const open = initiallyOpen(roots, modality);
  const first = visibleRows(roots, open).find((r) => !r.node.isFolder && r.level > 1);
  return { open, active: first?.node.id ?? null };
}

/** The folders to open first: the one for the exam's modality, so its templates are one arrow away. */
export function initiallyOpen(roots: readonly TemplateNode[], modality: string | null): Set<number> {
  const open = new Set<number>();
  if (!modality) return open;
  const folder = roots.find((n) => n.isFolder && (n.modality === modality || n.name.toUpperCase() === modality.toUpperCase()));
  if (folder) open.add(folder.id);
  return open;
}
