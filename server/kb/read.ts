import { and, eq, inArray } from 'drizzle-orm';
import { treeOrder, type KbItem, type KbItemType, type KbTemplate } from '../../contract/kb';
import type { Db } from '../db/client';
import { kbItems, reportTemplates } from '../db/schema';

export type KbRow = typeof kbItems.$inferSelect;
type Reader = Pick<Db, 'select'>;

/** The organisation's items in tree order. */
export async function loadItems(db: Reader, bucketId: number): Promise<KbRow[]> {
  return treeOrder(await db.select().from(kbItems).where(eq(kbItems.bucketId, bucketId)));
}

/** Rows as the API answers them, each template link with its template as it is now (null once deleted). */
export async function presentItems(db: Reader, bucketId: number, rows: readonly KbRow[]): Promise<KbItem[]> {
  const refs = [...new Set(rows.filter((r) => r.type === 'template' && r.referenceId !== null).map((r) => r.referenceId!))];
  const templates = refs.length === 0 ? [] : await db.select({
    id: reportTemplates.id, name: reportTemplates.name, modality: reportTemplates.modality, bodyPart: reportTemplates.bodyPart,
    finding: reportTemplates.finding, diagnosis: reportTemplates.diagnosis,
  }).from(reportTemplates).where(and(eq(reportTemplates.bucketId, bucketId), eq(reportTemplates.isFolder, false), inArray(reportTemplates.id, refs)));
  const byId = new Map<number, KbTemplate>(templates.map((t) => [t.id, t]));
  return rows.map((r) => ({
    id: r.id, bucketId: r.bucketId, parentId: r.parentId, type: r.type as KbItemType, name: r.name, referenceId: r.referenceId,
    content: r.content, sort: r.sort, createdBy: r.createdBy, created: r.created.toISOString(), updated: r.updated?.toISOString() ?? null,
    template: r.type === 'template' && r.referenceId !== null ? byId.get(r.referenceId) ?? null : null,
  }));
}
