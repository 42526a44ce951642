import { z } from 'zod';
import { idValue } from './common';
import { REPORT_HTML_MAX, type TemplateNode } from './reports';

/**
 * Template management (areas §3 "Report template", §5 names do not repeat, §6 template_upsert): the two trees a
 * template can live in — an organisation's, or its group's shared tree when the group has `isGroupKb` — and the
 * JSON document trees are exported to and imported from.
 */

/** Which tree: exactly one of an organisation (bucketId) or a group (groupId). */
export type TemplateOwner = { bucketId: number; groupId?: undefined } | { groupId: number; bucketId?: undefined };

const exactlyOne = (v: { bucketId?: number | undefined; groupId?: number | undefined }, ctx: z.RefinementCtx) => {
  if ((v.bucketId === undefined) === (v.groupId === undefined)) {
    ctx.addIssue({ code: 'custom', path: v.bucketId === undefined ? ['bucketId'] : ['groupId'], message: 'give exactly one of bucketId and groupId' });
  }
};

/** GET report-templates and report-templates/export: `?bucketId=` or `?groupId=`. */
export const templateOwnerQuery = z.object({ bucketId: idValue.optional(), groupId: idValue.optional() }).superRefine(exactlyOne);

/** The group's shared tree as GET report-templates?bucketId= adds it when the organisation's group has isGroupKb. */
export interface GroupTemplateTree {
  groupId: number;
  groupName: string;
  /** Whether the asking account may change it (the group's administrators). */
  canWrite: boolean;
  items: TemplateNode[];
}

export interface TemplateTreeAnswer {
  items: TemplateNode[];
  total: number;
  /** The group's shared tree, or null when the group does not share one (isGroupKb off) or the tree asked was the group's. */
  group: GroupTemplateTree | null;
}

/* ── the exchange document ── */

export const TEMPLATE_DOCUMENT_FORMAT = 'report-templates';
export const TEMPLATE_DOCUMENT_VERSION = 1;
/** Bounds of an imported document: nodes in all, folder depth, and the lengths of its strings. */
export const TEMPLATE_IMPORT_MAX_NODES = 2000;
export const TEMPLATE_IMPORT_MAX_DEPTH = 8;
export const TEMPLATE_NAME_MAX = 128;
export const TEMPLATE_MODALITY_MAX = 8;
export const TEMPLATE_BODY_PART_MAX = 64;

/** One node of the document: a folder (with children) or a template (with its texts). */
export interface TemplateDocumentNode {
  name: string;
  folder?: boolean;
  modality?: string | null;
  bodyPart?: string | null;
  finding?: string;
  diagnosis?: string;
  children?: TemplateDocumentNode[];
}

const documentNode: z.ZodType<TemplateDocumentNode> = z.lazy(() => z.strictObject({
  name: z.string().trim().min(1).max(TEMPLATE_NAME_MAX),
  folder: z.boolean().optional(),
  modality: z.string().trim().max(TEMPLATE_MODALITY_MAX).nullable().optional(),
  bodyPart: z.string().trim().max(TEMPLATE_BODY_PART_MAX).nullable().optional(),
  finding: z.string().max(REPORT_HTML_MAX).optional(),
  diagnosis: z.string().max(REPORT_HTML_MAX).optional(),
  children: z.array(documentNode).max(TEMPLATE_IMPORT_MAX_NODES).optional(),
}).superRefine((n, ctx) => {
  if (!n.folder && n.children !== undefined) ctx.addIssue({ code: 'custom', path: ['children'], message: 'only a folder has children' });
  if (n.folder && (n.finding || n.diagnosis)) ctx.addIssue({ code: 'custom', path: ['finding'], message: 'a folder has no text' });
}));

export const templateDocument = z.strictObject({
  format: z.literal(TEMPLATE_DOCUMENT_FORMAT),
  version: z.literal(TEMPLATE_DOCUMENT_VERSION),
  exportedAt: z.string().max(64).optional(),
  source: z.string().max(256).optional(),
  items: z.array(documentNode).max(TEMPLATE_IMPORT_MAX_NODES),
});
export type TemplateDocument = z.infer<typeof templateDocument>;

/** POST report-templates/import: the document itself is checked apart (its shape and size, see documentProblem). */
export const templateImportEnvelope = z.object({
  bucketId: z.number().int().positive().optional(),
  groupId: z.number().int().positive().optional(),
  parentId: z.number().int().positive().nullable().default(null),
}).superRefine(exactlyOne);
export type TemplateImportInput = z.input<typeof templateImportEnvelope> & { document: unknown };

export interface TemplateImportAnswer {
  /** Folders and templates added. */
  created: number;
  /** The added top-level nodes with their subtrees. */
  items: TemplateNode[];
}

export interface DocumentProblem {
  path: string;
  message: string;
}

/**
 * The size of a document before its shape is read (an iterative walk, so a document nested thousands deep is
 * refused instead of overflowing the stack): at most TEMPLATE_IMPORT_MAX_NODES nodes and TEMPLATE_IMPORT_MAX_DEPTH
 * levels. Returns the first problem with its path, or null.
 */
export function documentSizeProblem(document: unknown): DocumentProblem | null {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return { path: 'document', message: 'not a template document' };
  const items = (document as { items?: unknown }).items;
  if (!Array.isArray(items)) return { path: 'document.items', message: 'a list of folders and templates is required' };
  const stack: { list: unknown[]; path: string; depth: number }[] = [{ list: items, path: 'document.items', depth: 1 }];
  let count = 0;
  while (stack.length > 0) {
    const { list, path, depth } = stack.pop()!;
    if (depth > TEMPLATE_IMPORT_MAX_DEPTH) return { path, message: `folders nest at most ${TEMPLATE_IMPORT_MAX_DEPTH} deep` };
    count += list.length;
    if (count > TEMPLATE_IMPORT_MAX_NODES) return { path, message: `at most ${TEMPLATE_IMPORT_MAX_NODES} folders and templates` };
    list.forEach((node, i) => {
      const children = node && typeof node === 'object' ? (node as { children?: unknown }).children : undefined;
      if (Array.isArray(children)) stack.push({ list: children, path: `${path}.${i}.children`, depth: depth + 1 });
    });
  }
  return null;
}

/** The same name twice among one folder's children (case and surrounding spaces do not count): its path and name. */
export function documentClash(items: readonly TemplateDocumentNode[], path = 'document.items'): { path: string; name: string } | null {
  const seen = new Set<string>();
  for (const [i, node] of items.entries()) {
    const key = node.name.trim().toLowerCase();
    if (seen.has(key)) return { path: `${path}.${i}.name`, name: node.name.trim() };
    seen.add(key);
    const inner = node.children ? documentClash(node.children, `${path}.${i}.children`) : null;
    if (inner) return inner;
  }
  return null;
}

/** Folders and templates in a (checked) document. */
export function documentCounts(items: readonly TemplateDocumentNode[]): { folders: number; templates: number } {
  let folders = 0;
  let templates = 0;
  const walk = (list: readonly TemplateDocumentNode[]) => {
    for (const n of list) {
      if (n.folder) {
        folders++;
        walk(n.children ?? []);
      } else templates++;
    }
  };
  walk(items);
  return { folders, templates };
}

/** A tree as the exchange document (export), the nodes' ids and places left out. */
export function toDocument(roots: readonly TemplateNode[], source: string, exportedAt: string): TemplateDocument {
  const convert = (n: TemplateNode): TemplateDocumentNode => n.isFolder
    ? { name: n.name, folder: true, modality: n.modality, children: n.children.map(convert) }
    : { name: n.name, modality: n.modality, bodyPart: n.bodyPart, finding: n.finding, diagnosis: n.diagnosis };
  return { format: TEMPLATE_DOCUMENT_FORMAT, version: TEMPLATE_DOCUMENT_VERSION, exportedAt, source, items: roots.map(convert) };
}
