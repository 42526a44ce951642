import { and, asc, eq } from 'drizzle-orm';
import type { PrintTemplate } from '../../contract/printTemplates';
import type { Db } from '../db/client';
import { printTemplates } from '../db/schema';
import { presentPrintTemplate } from '../organizations/printTemplates';
import type { Storage } from '../storage/types';

/** Areas §3 "Report template": layout type 3 is the consultation's. */
export const CONSULTATION_LAYOUT = 3;

/**
 * The organisation's default consultation print template: the general default (modality null) first, else the
 * oldest default of the layout; none → null, and the print view prints plainly (unlike a report, whose print
 * refuses without a template: a consultation record is printable from its first day). Logo and stamp come as
 * short-lived signed read links, made as the print-template screens make them.
 */
export async function consultationPrintTemplate(db: Pick<Db, 'select'>, storage: Storage, bucketId: number): Promise<PrintTemplate | null> {
  const defaults = await db.select().from(printTemplates)
    .where(and(eq(printTemplates.bucketId, bucketId), eq(printTemplates.layoutType, CONSULTATION_LAYOUT), eq(printTemplates.isDefault, true)))
    .orderBy(asc(printTemplates.id));
  const chosen = defaults.find((t) => t.modality === null) ?? defaults[0];
  return chosen ? presentPrintTemplate(storage, chosen) : null;
}
