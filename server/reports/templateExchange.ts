import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sanitizeReportHtml } from '../../contract/reportHtml';
import {
  documentClash, documentSizeProblem, templateDocument, templateImportEnvelope, templateOwnerQuery, toDocument,
  type TemplateDocumentNode, type TemplateImportAnswer,
} from '../../contract/templates';
import { recordAudit } from '../audit/record';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { buckets, reportTemplates } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { buildTree, inTree, isUniqueViolation, readTree, resolveTree, sameTree, type Tree, type TemplateRow } from './templateTrees';

const documentBody = z.object({ document: templateDocument });

/** The export's file name: the tree and the day, ASCII only (the tree's own name is inside the document). */
function fileName(tree: Tree, at: Date): string {
  return `report-templates-${tree.kind}-${tree.kind === 'bucket' ? tree.bucketId : tree.groupId}-${at.toISOString().slice(0, 10)}.json`;
}

/**
 * Export and import of a whole tree as one JSON document (contract/templates.ts: format "report-templates",
 * version 1, folders with their children, templates with modality, body part, finding and diagnosis).
 * Export is open to the tree's readers; import writes like upsert and is all or nothing: one transaction, every
 * text sanitised, every name checked against its folder, the document's size bounded before it is read.
 */
export async function templateExchangeRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/report-templates/export', async (req, reply) => {
    const owner = parse(templateOwnerQuery, req.query);
    const tree = await resolveTree(db, await authOf(req).access(), owner, 'read');
    const source = tree.kind === 'bucket'
      ? (await db.select({ name: buckets.name }).from(buckets).where(eq(buckets.id, tree.bucketId)))[0]?.name ?? ''
      : tree.name;
    const at = deps.clock.now();
    const document = toDocument((await readTree(db, tree)).items, source, at.toISOString());
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName(tree, at)}"`)
      .send(JSON.stringify(document, null, 2));
  });

  app.post('/report-templates/import', async (req): Promise<TemplateImportAnswer> => {
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw paramsError('document', 'a template document is required');
    // The envelope first, without the document: the document is measured before anything walks it recursively.
    const { document: raw, ...rest } = body as Record<string, unknown>;
    const envelope = parse(templateImportEnvelope, rest);
    const access = await authOf(req).access();
    const tree = await resolveTree(db, access, envelope, 'write');
    const size = documentSizeProblem(raw);
    if (size) throw paramsError(size.path, size.message);
    const { document } = parse(documentBody, { document: raw });
    const twin = documentClash(document.items);
    if (twin) throw new ApiError('DuplicateName', undefined, { name: twin.name, path: twin.path });

    try {
      return await db.transaction(async (tx) => {
        const created = await importInto(tx, tree, envelope.parentId, document.items);
        const answer = { created: created.length, items: buildTree(created).filter((n) => n.parentId === envelope.parentId) };
        await recordAudit(tx, {
          at: deps.clock.now(), actorId: authOf(req).account.id, bucketId: tree.bucketId, area: 'templates', action: 'import',
          objectType: 'reportTemplateTree', objectId: tree.kind === 'bucket' ? `bucket:${tree.bucketId}` : `group:${tree.groupId}`,
          before: null,
          after: { parentId: envelope.parentId, created: created.length, ids: created.map((r) => r.id), source: document.source ?? null },
        });
        return answer;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('DuplicateName', undefined, { name: null });
      throw err;
    }
  });
}

const paramsError = (path: string, message: string) => new ApiError('ParamsError', undefined, { fields: [{ path, message }] });
const key = (parentId: number, name: string) => `${parentId}\u0001${name.trim().toLowerCase()}`;

/**
 * Adds the document under `parentId` one level at a time (one insert per level), after checking the top level's
 * names against the folder's present children. Inside the caller's transaction: any refusal leaves nothing.
 */
async function importInto(tx: Db, tree: Tree, parentId: number | null, items: readonly TemplateDocumentNode[]): Promise<TemplateRow[]> {
  if (parentId !== null) {
    const [parent] = await tx.select().from(reportTemplates).where(eq(reportTemplates.id, parentId)).for('update');
    if (!parent || !sameTree(tree, parent) || !parent.isFolder) throw paramsError('parentId', 'not a folder of this tree');
  }
  const present = await tx.select({ name: reportTemplates.name, sort: reportTemplates.sort }).from(reportTemplates)
    .where(and(inTree(tree), parentId === null ? isNull(reportTemplates.parentId) : eq(reportTemplates.parentId, parentId)));
  const taken = new Set(present.map((r) => r.name.trim().toLowerCase()));
  for (const [i, item] of items.entries()) {
    if (taken.has(item.name.trim().toLowerCase())) throw new ApiError('DuplicateName', undefined, { name: item.name.trim(), path: `document.items.${i}.name` });
  }
  const after = present.reduce((max, r) => Math.max(max, r.sort + 1), 0);

  const created: TemplateRow[] = [];
  let level: { parentId: number | null; nodes: readonly TemplateDocumentNode[]; sortFrom: number }[] = [{ parentId, nodes: items, sortFrom: after }];
  while (level.length > 0) {
    const values = level.flatMap(({ parentId: p, nodes, sortFrom }) => nodes.map((n, i) => ({
      bucketId: tree.bucketId, groupId: tree.groupId, parentId: p, name: n.name.trim(), isFolder: !!n.folder,
      modality: n.modality?.trim() || null, bodyPart: n.bodyPart?.trim() || null,
      finding: n.folder ? '' : sanitizeReportHtml(n.finding ?? ''), diagnosis: n.folder ? '' : sanitizeReportHtml(n.diagnosis ?? ''),
      sort: Math.min(sortFrom + i, 100_000),
    })));
    if (values.length === 0) break;
    const rows = await tx.insert(reportTemplates).values(values).returning();
    created.push(...rows);
    // (parent, name) is unique in a tree: it finds each new folder's row whatever order the database answered in.
    const byKey = new Map(rows.map((r) => [key(r.parentId ?? 0, r.name), r.id]));
    level = level.flatMap(({ parentId: p, nodes }) => nodes
      .filter((n) => n.folder && (n.children?.length ?? 0) > 0)
      .map((n) => ({ parentId: byKey.get(key(p ?? 0, n.name))!, nodes: n.children!, sortFrom: 0 })));
  }
  return created;
}
