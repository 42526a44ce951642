import { z } from 'zod';
import { ACTIONS, type Action } from './actions';
import { idValue } from './common';
import { REPORT_HTML_MAX } from './reports';

/**
 * The knowledge base (areas §3 "Knowledge-base item", §4 "drag-sorting only within the same folder level", §7): one
 * tree per organisation of folders, links to the organisation's report templates and texts. The pure tree rules
 * (tree order, descendants, where a move may go, the new order of a level) live here too: the server orders and
 * checks with them, the client shows a move at once with the same answer.
 */
export const KB_ITEM_TYPES = ['folder', 'template', 'text'] as const;
export type KbItemType = (typeof KB_ITEM_TYPES)[number];

/** Who reads an organisation's knowledge base: its members with any report action, and its template editors. */
export const KB_READ_ACTIONS: readonly Action[] = [...ACTIONS.report, 'template_upsert'];
/** Who writes it: the template editors (docs/decisions.md "Knowledge base"). */
export const KB_WRITE_ACTION: Action = 'template_upsert';

export const KB_NAME_MAX = 128;
/** A tree deeper than this is refused on create and move: the screen indents every level. */
export const KB_DEPTH_MAX = 12;

const name = z.string().trim().min(1).max(KB_NAME_MAX);
const parentId = idValue.nullable().default(null);
const content = z.string().max(REPORT_HTML_MAX);

export const kbQuery = z.object({ bucketId: idValue });

export const kbCreateInput = z.discriminatedUnion('type', [
  z.object({ bucketId: idValue, parentId, type: z.literal('folder'), name }).strict(),
  /** A link to a report template of the organisation; its name is the template's unless given. */
  z.object({ bucketId: idValue, parentId, type: z.literal('template'), referenceId: idValue, name: name.optional() }).strict(),
  z.object({ bucketId: idValue, parentId, type: z.literal('text'), name, content: content.default('') }).strict(),
]);
export type KbCreateInput = z.input<typeof kbCreateInput>;
export type KbCreate = z.infer<typeof kbCreateInput>;

/** Rename, new content (texts only), or a move to another folder (null = the top level): at least one of them. */
export const kbPatchInput = z.object({
  name: name.optional(),
  content: content.optional(),
  parentId: idValue.nullable().optional(),
}).strict().refine((v) => v.name !== undefined || v.content !== undefined || v.parentId !== undefined, { message: 'nothing to change' });
export type KbPatchInput = z.input<typeof kbPatchInput>;
export type KbPatch = z.infer<typeof kbPatchInput>;

/** Put the item right after `preId` among its siblings; null puts it first. */
export const kbResortInput = z.object({ preId: idValue.nullable() }).strict();
export type KbResortInput = z.input<typeof kbResortInput>;

/** What a template link shows: the linked template as it is now (null when it has been deleted since). */
export interface KbTemplate {
  id: number;
  name: string;
  modality: string | null;
  bodyPart: string | null;
  finding: string;
  diagnosis: string;
}

export interface KbItem {
  id: number;
  bucketId: number;
  parentId: number | null;
  type: KbItemType;
  name: string;
  /** The report template a 'template' item links to. */
  referenceId: number | null;
  /** Sanitised HTML of a 'text' item ('' for the others). */
  content: string;
  /** 1-based place among its siblings. */
  sort: number;
  createdBy: number | null;
  created: string;
  updated: string | null;
  template: KbTemplate | null;
}

/** GET kb-items/query: the organisation's items in tree order (each parent before its children, siblings by sort). */
export interface KbPage {
  items: KbItem[];
  total: number;
}

export interface KbDeleteResult {
  /** The item and its descendants: how many went, and which. */
  removed: number;
  ids: number[];
}

/* ── pure tree rules ── */

export interface TreeNode {
  id: number;
  parentId: number | null;
  sort: number;
}

/**
 * Tree order: depth first, siblings by sort then id. An item whose parent is missing is left out (it cannot be shown
 * anywhere), and so is a cycle — neither can be stored, but a reader must not loop on one.
 */
export function treeOrder<T extends TreeNode>(items: readonly T[]): T[] {
  const children = childrenMap(items);
  const out: T[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null) => {
    for (const item of children.get(parent) ?? []) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
      walk(item.id);
    }
  };
  walk(null);
  return out;
}

export function childrenMap<T extends TreeNode>(items: readonly T[]): Map<number | null, T[]> {
  const map = new Map<number | null, T[]>();
  for (const item of items) {
    const list = map.get(item.parentId) ?? [];
    list.push(item);
    map.set(item.parentId, list);
  }
  for (const list of map.values()) list.sort((a, b) => a.sort - b.sort || a.id - b.id);
  return map;
}

/** The ids under `id` (not itself), at any depth. */
export function descendantIds(items: readonly TreeNode[], id: number): number[] {
  const children = childrenMap(items);
  const out: number[] = [];
  const seen = new Set<number>([id]);
  const stack = [id];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      out.push(child.id);
      stack.push(child.id);
    }
  }
  return out;
}

/** How deep `id` sits: 1 at the top level. */
export function depthOf(items: readonly TreeNode[], id: number | null): number {
  const byId = new Map(items.map((i) => [i.id, i]));
  let depth = 0;
  for (let at = id; at !== null && depth <= items.length; depth++) at = byId.get(at)?.parentId ?? null;
  return depth;
}

/** Whether moving `id` under `parentId` would put it inside itself (a cycle). */
export function wouldCycle(items: readonly TreeNode[], id: number, parentId: number | null): boolean {
  if (parentId === null) return false;
  return parentId === id || descendantIds(items, id).includes(parentId);
}

export type ResortPlan =
  | { ok: true; order: number[] }
  | { ok: false; reason: 'notFound' | 'otherLevel' | 'self' };

/**
 * The new order of `id`'s level when it goes right after `preId` (null: first). `preId` must be a sibling — another
 * level is refused (areas §4: sorting only within one folder level). The answer lists the level's ids in their new
 * order; the caller numbers them 1…n.
 */
export function resortPlan(items: readonly TreeNode[], id: number, preId: number | null): ResortPlan {
  const item = items.find((i) => i.id === id);
  if (!item) return { ok: false, reason: 'notFound' };
  if (preId === id) return { ok: false, reason: 'self' };
  const level = (childrenMap(items).get(item.parentId) ?? []).map((i) => i.id);
  const rest = level.filter((i) => i !== id);
  if (preId === null) return { ok: true, order: [id, ...rest] };
  const at = rest.indexOf(preId);
  if (at < 0) return { ok: false, reason: 'otherLevel' };
  return { ok: true, order: [...rest.slice(0, at + 1), id, ...rest.slice(at + 1)] };
}

/** The sibling `id` would go after to move one place up (-1) or down (+1); undefined when it cannot move that way. */
export function neighbourPreId(items: readonly TreeNode[], id: number, step: -1 | 1): { preId: number | null } | undefined {
  const item = items.find((i) => i.id === id);
  if (!item) return undefined;
  const level = (childrenMap(items).get(item.parentId) ?? []).map((i) => i.id);
  const at = level.indexOf(id);
  const to = at + step;
  if (to < 0 || to >= level.length) return undefined;
  const rest = level.filter((i) => i !== id);
  return { preId: to === 0 ? null : rest[to - 1]! };
}

/** Items with the order of a plan applied (sort 1…n on the level), the others unchanged. */
export function applyOrder<T extends TreeNode>(items: readonly T[], order: readonly number[]): T[] {
  const place = new Map(order.map((id, i) => [id, i + 1]));
  return items.map((item) => (place.has(item.id) ? { ...item, sort: place.get(item.id)! } : item));
}
