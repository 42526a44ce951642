import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idValue } from '../../contract/common';
import {
  PRINT_IMAGE_MAX_BYTES, PRINT_IMAGES, printTemplateInput, printTemplateListQuery,
  type PrintImage, type PrintTemplate, type QrMode, type SignatureOf,
} from '../../contract/printTemplates';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { buckets, printTemplates } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { fileBytes, formFile } from '../http/multipart';
import { parse } from '../http/validate';
import type { Storage } from '../storage/types';
import { storedName } from '../storage/types';
import { checkPrintImage } from './printImages';
import { adminWrite, orgOf, type Tx } from './resource';

/**
 * An organisation's print templates (areas §3 "Report template", §5; docs/api.md "Print templates"): read by its
 * members (the print page offers a choice), written by its admins and its group's admins (./access.ts). One default
 * per organisation, layout and modality (modality null = the general default); the print of an exam takes the
 * default of its modality, else the general one (server/reports/print.ts). Logo and stamp are stored files
 * (deps.storage, `print-templates/<bucket>/<template>/<name>`) answered as short-lived signed read links, which local
 * storage serves sandboxed (server/http/headers.ts `storedFileHeaders`).
 */
export type PrintTemplateRow = typeof printTemplates.$inferSelect;
type Reader = Db | Tx;

/** Read links of logos and stamps live an hour, as key images' do (the screens read the template again). */
export const PRINT_IMAGE_URL_TTL = 3600;
const STORED_PREFIX = 'print-templates/';

export function printImageKey(bucketId: number, templateId: number, type: 'image/png' | 'image/jpeg'): string {
  return `${STORED_PREFIX}${bucketId}/${templateId}/${storedName(type === 'image/png' ? 'png' : 'jpg')}`;
}

/** A stored logo or stamp as a signed read link; an address kept from before (http, a site path) as it is. */
export async function printImageUrl(storage: Storage, value: string | null): Promise<string | null> {
  if (!value) return null;
  if (!value.startsWith(STORED_PREFIX)) return value;
  return storage.readUrl(value, { expiresInSeconds: PRINT_IMAGE_URL_TTL, contentType: value.endsWith('.png') ? 'image/png' : 'image/jpeg' });
}

export async function presentPrintTemplate(storage: Storage, row: PrintTemplateRow): Promise<PrintTemplate> {
  return {
    id: row.id, bucketId: row.bucketId, name: row.name, layoutType: row.layoutType === 3 ? 3 : 1, modality: row.modality,
    isDefault: row.isDefault, titles: row.titles,
    logo: await printImageUrl(storage, row.logo), stamp: await printImageUrl(storage, row.stamp),
    signatureOf: (row.signatureOf === 'creator' ? 'creator' : 'approver') satisfies SignatureOf,
    qrMode: (row.qrMode === 'static' || row.qrMode === 'dynamic' ? row.qrMode : 'none') satisfies QrMode,
    qrText: row.qrText, exactTime: row.exactTime, pageNumbers: row.pageNumbers, updated: row.updated?.toISOString() ?? null,
  };
}

/** The audit's view of a row: the fields an admin sets (stored keys, not links). */
function audited(row: PrintTemplateRow): Record<string, unknown> {
  const { id: _id, bucketId: _b, created: _c, updated: _u, ...fields } = row;
  return fields;
}

const templateParams = z.object({ id: idValue, templateId: idValue });

export async function findPrintTemplate(db: Reader, bucketId: number, templateId: number): Promise<PrintTemplateRow | undefined> {
  const [row] = await db.select().from(printTemplates).where(and(eq(printTemplates.bucketId, bucketId), eq(printTemplates.id, templateId)));
  return row;
}

/** Template writes of one organisation run one after another (the default rule reads and writes several rows). */
async function lockOrganization(tx: Tx, bucketId: number): Promise<void> {
  await tx.select({ id: buckets.id }).from(buckets).where(eq(buckets.id, bucketId)).for('update');
}

async function assertNameFree(tx: Tx, bucketId: number, name: string, self: number | null): Promise<void> {
  const [dup] = await tx.select({ id: printTemplates.id }).from(printTemplates).where(and(
    eq(printTemplates.bucketId, bucketId), sql`lower(${printTemplates.name}) = lower(${name})`, self === null ? undefined : ne(printTemplates.id, self),
  ));
  if (dup) throw new ApiError('DuplicateName', undefined, { field: 'name' });
}

/** Makes `row` the only default of its slot (organisation, layout, modality): the others of the slot stop being one. */
async function takeDefault(tx: Tx, row: { id: number; bucketId: number; layoutType: number; modality: string | null }): Promise<number[]> {
  const cleared = await tx.update(printTemplates).set({ isDefault: false }).where(and(
    eq(printTemplates.bucketId, row.bucketId), eq(printTemplates.layoutType, row.layoutType),
    row.modality === null ? isNull(printTemplates.modality) : eq(printTemplates.modality, row.modality),
    eq(printTemplates.isDefault, true), ne(printTemplates.id, row.id),
  )).returning({ id: printTemplates.id });
  await tx.update(printTemplates).set({ isDefault: true }).where(eq(printTemplates.id, row.id));
  return cleared.map((c) => c.id);
}

export function printTemplateRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, storage } = deps;
  const base = '/buckets/:id/print-templates';
  const itemOf = (req: FastifyRequest) => parse(templateParams, req.params).templateId;

  app.get(base, async (req): Promise<PrintTemplate[]> => {
    const { bucketId } = await orgOf(deps, req, 'read');
    const { layoutType } = parse(printTemplateListQuery, req.query);
    const rows = await db.select().from(printTemplates)
      .where(and(eq(printTemplates.bucketId, bucketId), layoutType === undefined ? undefined : eq(printTemplates.layoutType, layoutType)))
      .orderBy(asc(printTemplates.layoutType), asc(printTemplates.name), asc(printTemplates.id));
    return Promise.all(rows.map((row) => presentPrintTemplate(storage, row)));
  });

  app.get(`${base}/:templateId`, async (req): Promise<PrintTemplate> => {
    const templateId = itemOf(req);
    const { bucketId } = await orgOf(deps, req, 'read');
    const row = await findPrintTemplate(db, bucketId, templateId);
    if (!row) throw new ApiError('NotFound');
    return presentPrintTemplate(storage, row);
  });

  app.post(base, async (req, reply): Promise<PrintTemplate> => {
    const row = await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const input = parse(printTemplateInput, req.body);
      await lockOrganization(tx, bucketId);
      await assertNameFree(tx, bucketId, input.name, null);
      const [created] = await tx.insert(printTemplates).values({ bucketId, ...input, isDefault: false, updated: deps.clock.now() }).returning();
      await audit({ action: 'print-template-create', objectType: 'print-template', objectId: created!.id, after: audited(created!) });
      return created!;
    });
    reply.status(201);
    return presentPrintTemplate(storage, row);
  });

  app.put(`${base}/:templateId`, async (req): Promise<PrintTemplate> => {
    const templateId = itemOf(req);
    const row = await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      const input = parse(printTemplateInput, req.body);
      await lockOrganization(tx, bucketId);
      const before = await findPrintTemplate(tx, bucketId, templateId);
      if (!before) throw new ApiError('NotFound');
      await assertNameFree(tx, bucketId, input.name, templateId);
      const [updated] = await tx.update(printTemplates).set({ ...input, updated: deps.clock.now() }).where(eq(printTemplates.id, templateId)).returning();
      // A default moved to another modality or layout stays the default there, the one that was stops being one.
      const cleared = updated!.isDefault && (before.modality !== updated!.modality || before.layoutType !== updated!.layoutType) ? await takeDefault(tx, updated!) : [];
      await audit({ action: 'print-template-update', objectType: 'print-template', objectId: templateId, before: audited(before), after: { ...audited(updated!), ...(cleared.length ? { clearedDefaults: cleared } : {}) } });
      return updated!;
    });
    return presentPrintTemplate(storage, row);
  });

  // Deleting the default is allowed: the print then answers NoPrintTemplate ("no default chosen") until another is chosen.
  app.delete(`${base}/:templateId`, async (req, reply) => {
    const templateId = itemOf(req);
    const gone = await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      await lockOrganization(tx, bucketId);
      const before = await findPrintTemplate(tx, bucketId, templateId);
      if (!before) throw new ApiError('NotFound');
      await tx.delete(printTemplates).where(eq(printTemplates.id, templateId));
      await audit({ action: 'print-template-delete', objectType: 'print-template', objectId: templateId, before: audited(before) });
      return before;
    });
    await removeStored(storage, gone.logo, gone.stamp);
    return reply.status(204).send();
  });

  app.post(`${base}/:templateId/default`, async (req): Promise<PrintTemplate> => {
    const templateId = itemOf(req);
    const row = await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
      await lockOrganization(tx, bucketId);
      const before = await findPrintTemplate(tx, bucketId, templateId);
      if (!before) throw new ApiError('NotFound');
      const cleared = await takeDefault(tx, before);
      await audit({ action: 'print-template-default', objectType: 'print-template', objectId: templateId, before: { isDefault: before.isDefault }, after: { isDefault: true, clearedDefaults: cleared } });
      return (await findPrintTemplate(tx, bucketId, templateId))!;
    });
    return presentPrintTemplate(storage, row);
  });

  // Multipart with one file, in a plugin of their own (the form parser stays with these two routes).
  void app.register(async (forms) => {
    await forms.register(multipart);
    for (const kind of PRINT_IMAGES) imageUploadRoute(forms, deps, base, kind);
  });

  for (const kind of PRINT_IMAGES) {
    app.delete(`${base}/:templateId/${kind}`, async (req): Promise<PrintTemplate> => {
      const templateId = itemOf(req);
      const [before, after] = await adminWrite(deps, req, async (tx, { bucketId }, audit) => {
        await lockOrganization(tx, bucketId);
        const found = await findPrintTemplate(tx, bucketId, templateId);
        if (!found) throw new ApiError('NotFound');
        const [updated] = await tx.update(printTemplates).set({ [kind]: null, updated: deps.clock.now() }).where(eq(printTemplates.id, templateId)).returning();
        await audit({ action: `print-template-${kind}-remove`, objectType: 'print-template', objectId: templateId, before: { [kind]: found[kind] }, after: { [kind]: null } });
        return [found, updated!] as const;
      });
      await removeStored(storage, before[kind]);
      return presentPrintTemplate(storage, after);
    });
  }
}

/** PUT …/{logo|stamp}: the bytes decide (./printImages.ts); over PRINT_IMAGE_MAX_BYTES UploadTooLarge. */
function imageUploadRoute(app: FastifyInstance, deps: Deps, base: string, kind: PrintImage): void {
  const { db, storage } = deps;
  app.put(`${base}/:templateId/${kind}`, async (req): Promise<PrintTemplate> => {
    const templateId = parse(templateParams, req.params).templateId;
    const ctx = await orgOf(deps, req, 'admin');
    if (!(await findPrintTemplate(db, ctx.bucketId, templateId))) throw new ApiError('NotFound');
    const { file } = await formFile(req, PRINT_IMAGE_MAX_BYTES);
    const bytes = await fileBytes(file, () => new ApiError('UploadTooLarge', undefined, { maxBytes: PRINT_IMAGE_MAX_BYTES }));
    const { type, width, height } = checkPrintImage(kind, bytes);
    const key = printImageKey(ctx.bucketId, templateId, type);
    await storage.put(key, bytes, { contentType: type });
    let before: PrintTemplateRow;
    let after: PrintTemplateRow;
    try {
      [before, after] = await db.transaction(async (tx) => {
        await lockOrganization(tx, ctx.bucketId);
        const found = await findPrintTemplate(tx, ctx.bucketId, templateId);
        if (!found) throw new ApiError('NotFound');
        const [updated] = await tx.update(printTemplates).set({ [kind]: key, updated: deps.clock.now() }).where(eq(printTemplates.id, templateId)).returning();
        await recordAudit(tx, {
          at: deps.clock.now(), actorId: ctx.actorId, bucketId: ctx.bucketId, area: 'organizations', action: `print-template-${kind}`,
          objectType: 'print-template', objectId: templateId, before: { [kind]: found[kind] }, after: { [kind]: key, type, width, height, size: bytes.length },
        });
        return [found, updated!] as const;
      });
    } catch (err) {
      await storage.delete(key);
      throw err;
    }
    await removeStored(storage, before[kind]);
    return presentPrintTemplate(storage, after);
  });
}

/** Stored logos and stamps no row names any more (an address kept from before is not a stored file). */
async function removeStored(storage: Storage, ...values: (string | null)[]): Promise<void> {
  for (const value of values) if (value?.startsWith(STORED_PREFIX)) await storage.delete(value);
}

