import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { TemplateNode } from '../../contract/reports';
import { assertCan, isGroupAdmin, type Access } from '../access/access';
import type { Db } from '../db/client';
import { groups, reportTemplates } from '../db/schema';
import { ApiError } from '../http/errors';

export type TemplateRow = typeof reportTemplates.$inferSelect;

/**
 * The two trees a template can belong to (docs/decisions.md "Templates"):
 * - an organisation's: read by whoever writes, advises or approves reports there or edits its templates;
 *   written with template_upsert there;
 * - the group's shared tree, only while the group has `isGroupKb`: read by every member of one of the group's
 *   organisations who may read templates there (and by the group's administrators); written by the group's
 *   administrators only, since no organisation's role speaks for the whole group.
 * Outside the account's organisations and groups the tree is not there (404); a group without isGroupKb, or a
 * missing right, is 403.
 */
export type Tree =
  | { kind: 'bucket'; bucketId: number; groupId: null; name: string }
  | { kind: 'group'; bucketId: null; groupId: number; name: string };

/** Templates are read by whoever writes, advises or approves reports in the organisation, and by their editors. */
export const TEMPLATE_READERS = ['report_upsert', 'report_advice', 'report_approval', 'template_upsert'] as const;

export function mayReadBucketTemplates(access: Access, bucketId: number): boolean {
  const grant = access.buckets.get(bucketId);
  return !!grant && TEMPLATE_READERS.some((a) => grant.actions.has(a));
}

export function assertCanReadTemplates(access: Access, bucketId: number): void {
  if (!access.buckets.has(bucketId)) throw new ApiError('NotFound');
  if (!mayReadBucketTemplates(access, bucketId)) throw new ApiError('Forbidden');
}

/** Whether the account belongs to the group at all: as a group member or through one of its organisations. */
export function inGroup(access: Access, groupId: number): boolean {
  return access.groups.has(groupId) || [...access.buckets.values()].some((g) => g.groupId === groupId);
}

export function mayReadGroupTemplates(access: Access, groupId: number): boolean {
  return isGroupAdmin(access, groupId) || [...access.buckets.values()].some((g) => g.groupId === groupId && mayReadBucketTemplates(access, g.bucketId));
}

export interface Owner {
  bucketId?: number | undefined;
  groupId?: number | undefined;
}

async function groupRow(db: Db, groupId: number) {
  const [row] = await db.select({ id: groups.id, displayName: groups.displayName, isGroupKb: groups.isGroupKb }).from(groups).where(eq(groups.id, groupId));
  return row ?? null;
}

/** The tree named by `owner`, after the permission check for reading or writing it. */
export async function resolveTree(db: Db, access: Access, owner: Owner, mode: 'read' | 'write'): Promise<Tree> {
  if (owner.bucketId !== undefined) {
    if (mode === 'read') assertCanReadTemplates(access, owner.bucketId);
    else assertCan(access, 'template_upsert', owner.bucketId);
    return { kind: 'bucket', bucketId: owner.bucketId, groupId: null, name: `${owner.bucketId}` };
  }
  const groupId = owner.groupId!;
  if (!inGroup(access, groupId)) throw new ApiError('NotFound');
  const group = await groupRow(db, groupId);
  if (!group) throw new ApiError('NotFound');
  if (!group.isGroupKb) throw new ApiError('Forbidden', 'The group does not share a template tree');
  const allowed = mode === 'read' ? mayReadGroupTemplates(access, groupId) : isGroupAdmin(access, groupId);
  if (!allowed) throw new ApiError('Forbidden');
  return { kind: 'group', bucketId: null, groupId, name: group.displayName };
}

/** The group's shared tree that goes with organisation `bucketId`'s, when its group has one and the account may read it. */
export async function sharedTreeOf(db: Db, access: Access, bucketId: number): Promise<(Tree & { kind: 'group'; canWrite: boolean }) | null> {
  const grant = access.buckets.get(bucketId);
  if (!grant) return null;
  const group = await groupRow(db, grant.groupId);
  if (!group?.isGroupKb || !mayReadGroupTemplates(access, group.id)) return null;
  return { kind: 'group', bucketId: null, groupId: group.id, name: group.displayName, canWrite: isGroupAdmin(access, group.id) };
}

/** The tree a stored row belongs to, checked for writing; a row of a tree outside the account's is not there. */
export async function treeOfRow(db: Db, access: Access, row: TemplateRow, mode: 'read' | 'write'): Promise<Tree> {
  if (row.bucketId !== null) {
    if (!access.buckets.has(row.bucketId)) throw new ApiError('NotFound');
    return resolveTree(db, access, { bucketId: row.bucketId }, mode);
  }
  if (row.groupId === null || !inGroup(access, row.groupId)) throw new ApiError('NotFound');
  return resolveTree(db, access, { groupId: row.groupId }, mode);
}

export const inTree = (tree: Tree): SQL => (tree.kind === 'bucket'
  ? eq(reportTemplates.bucketId, tree.bucketId)
  : and(eq(reportTemplates.groupId, tree.groupId), isNull(reportTemplates.bucketId))!);

export const sameTree = (tree: Tree, row: TemplateRow): boolean =>
  (tree.kind === 'bucket' ? row.bucketId === tree.bucketId : row.bucketId === null && row.groupId === tree.groupId);

export const node = (r: TemplateRow): TemplateNode => ({
  id: r.id, bucketId: r.bucketId, groupId: r.groupId, parentId: r.parentId, name: r.name, isFolder: r.isFolder, modality: r.modality,
  bodyPart: r.bodyPart, finding: r.finding, diagnosis: r.diagnosis, sort: r.sort, children: [],
});

export function buildTree(rows: readonly TemplateRow[]): TemplateNode[] {
  const byId = new Map(rows.map((r) => [r.id, node(r)]));
  const roots: TemplateNode[] = [];
  for (const n of byId.values()) {
    const parent = n.parentId === null ? undefined : byId.get(n.parentId);
    (parent ? parent.children : roots).push(n);
  }
  const order = (list: TemplateNode[]) => {
    list.sort((a, b) => Number(b.isFolder) - Number(a.isFolder) || a.sort - b.sort || a.name.localeCompare(b.name, 'zh'));
    list.forEach((n) => order(n.children));
  };
  order(roots);
  return roots;
}

export async function readTree(db: Db, tree: Tree): Promise<{ items: TemplateNode[]; total: number }> {
  const rows = await db.select().from(reportTemplates).where(inTree(tree));
  return { items: buildTree(rows), total: rows.length };
}

export const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** What the audit trail keeps of a template: its place and labels, and whether its texts are there (not the texts). */
export const auditView = (r: TemplateRow) => ({
  name: r.name, parentId: r.parentId, isFolder: r.isFolder, modality: r.modality, bodyPart: r.bodyPart,
  findingLength: r.finding.length, diagnosisLength: r.diagnosis.length,
});
