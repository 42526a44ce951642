import { asc, eq } from 'drizzle-orm';
import type { KeyImage } from '../../contract/images';
import type { Db } from '../db/client';
import { keyImages } from '../db/schema';
import type { Storage } from '../storage/types';

/** Read links of key images live an hour (the workspace refetches the list; the print page its print data). */
export const KEY_IMAGE_URL_TTL = 3600;

/** One key image as the API answers it, with a short-lived signed read link (Storage.readUrl). */
export async function toKeyImage(storage: Storage, row: typeof keyImages.$inferSelect): Promise<KeyImage> {
  return {
    id: row.id, reportId: row.reportId, contentType: row.contentType, size: row.size,
    url: await storage.readUrl(row.storageKey, { expiresInSeconds: KEY_IMAGE_URL_TTL, contentType: row.contentType }),
    instanceId: row.instanceId, frame: row.frame, description: row.description, sort: row.sort, created: row.created.toISOString(),
  };
}

/**
 * A report's key images in their order (capture order, `sort`), each with its read link: the one way the
 * workspace's list (GET reports/{id}/images) and the print data get them. The caller has checked access.
 */
export async function listKeyImages(db: Db, storage: Storage, reportId: number): Promise<KeyImage[]> {
  const rows = await db.select().from(keyImages).where(eq(keyImages.reportId, reportId)).orderBy(asc(keyImages.sort), asc(keyImages.id));
  return Promise.all(rows.map((row) => toKeyImage(storage, row)));
}
