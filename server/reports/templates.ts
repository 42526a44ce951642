import { and, asc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { sanitizeReportHtml } from '../../contract/reportHtml';
import { templateSearchQuery, templateUpsertInput, type TemplateNode } from '../../contract/reports';
import { templateOwnerQuery, type TemplateTreeAnswer } from '../../contract/templates';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { reportTemplates } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { templateExchangeRoutes } from './templateExchange';
import {
  assertCanReadTemplates, auditView, inGroup, inTree, isUniqueViolation, node, readTree, resolveTree, sameTree, sharedTreeOf,
  treeOfRow, type Tree, type TemplateRow,
} from './templateTrees';

export { buildTree } from './templateTrees';

/**
 * The writing templates of the report workspace and their management (areas §3 "Report template" screens, §5 names
 * must not repeat, §6 template_upsert): an organisation's tree, and the group's shared tree when the group has
 * isGroupKb (server/reports/templateTrees.ts says who reads and writes which).
 */
export async function templateRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/report-templates', async (req): Promise<TemplateTreeAnswer> => {
    const owner = parse(templateOwnerQuery, req.query);
    const access = await authOf(req).access();
    const tree = await resolveTree(db, access, owner, 'read');
    const own = await readTree(db, tree);
    if (tree.kind === 'group') return { ...own, group: null };
    // An organisation's tree comes with its group's shared one, so the picker offers both.
    const shared = await sharedTreeOf(db, access, tree.bucketId);
    const group = shared ? { groupId: shared.groupId, groupName: shared.name, canWrite: shared.canWrite, items: (await readTree(db, shared)).items } : null;
    return { ...own, group };
  });

  app.get('/report-templates/search', async (req) => {
    const { bucketId, q, modality, limit } = parse(templateSearchQuery, req.query);
    assertCanReadTemplates(await authOf(req).access(), bucketId);
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await db.select().from(reportTemplates).where(and(
      eq(reportTemplates.bucketId, bucketId),
      eq(reportTemplates.isFolder, false),
      modality ? eq(reportTemplates.modality, modality) : undefined,
      or(ilike(reportTemplates.name, like), ilike(reportTemplates.bodyPart, like), ilike(reportTemplates.finding, like), ilike(reportTemplates.diagnosis, like)),
    )).orderBy(sql`(${reportTemplates.name} ilike ${like}) desc`, asc(reportTemplates.sort), asc(reportTemplates.id)).limit(limit);
    return { items: rows.map(node), total: rows.length };
  });

  app.post('/report-templates/upsert', async (req) => {
    const input = parse(templateUpsertInput, req.body);
    const access = await authOf(req).access();
    const tree = await resolveTree(db, access, input, 'write');
    const actorId = authOf(req).account.id;
    try {
      return await db.transaction(async (tx) => node(await upsert(tx, access, tree, input, { at: deps.clock.now(), actorId })));
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('DuplicateName', undefined, { name: input.name });
      throw err;
    }
  });

  app.delete('/report-templates/:id', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(reportTemplates).where(eq(reportTemplates.id, id)).for('update');
      if (!row) throw new ApiError('NotFound');
      const tree = await treeOfRow(tx, access, row, 'write');
      const [child] = await tx.select({ id: reportTemplates.id }).from(reportTemplates).where(eq(reportTemplates.parentId, id)).limit(1);
      // A folder is emptied first: one mistaken key must not take a whole folder of templates with it.
      if (child) throw new ApiError('TemplateFolderNotEmpty');
      await tx.delete(reportTemplates).where(eq(reportTemplates.id, id));
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: authOf(req).account.id, bucketId: tree.bucketId, area: 'templates', action: 'delete',
        objectType: 'reportTemplate', objectId: id, before: { ...auditView(row), groupId: row.groupId }, after: null,
      });
    });
    return reply.status(204).send();
  });

  await app.register(templateExchangeRoutes, { deps });
}

type UpsertInput = ReturnType<typeof templateUpsertInput.parse>;

const paramsError = (path: string, message: string) => new ApiError('ParamsError', undefined, { fields: [{ path, message }] });

async function upsert(tx: Db, access: Access, tree: Tree, input: UpsertInput, who: { at: Date; actorId: number }): Promise<TemplateRow> {
  if (input.parentId !== null) {
    const [parent] = await tx.select().from(reportTemplates).where(eq(reportTemplates.id, input.parentId));
    if (!parent || !sameTree(tree, parent) || !parent.isFolder) throw paramsError('parentId', 'not a folder of this tree');
  }
  const [clash] = await tx.select({ id: reportTemplates.id }).from(reportTemplates).where(and(
    inTree(tree),
    input.parentId === null ? isNull(reportTemplates.parentId) : eq(reportTemplates.parentId, input.parentId),
    sql`lower(${reportTemplates.name}) = lower(${input.name})`,
    input.id ? sql`${reportTemplates.id} <> ${input.id}` : undefined,
  ));
  if (clash) throw new ApiError('DuplicateName', undefined, { name: input.name });
  const values = {
    bucketId: tree.bucketId, groupId: tree.groupId, parentId: input.parentId, name: input.name, isFolder: input.isFolder,
    modality: input.modality ?? null, bodyPart: input.bodyPart ?? null,
    finding: input.isFolder ? '' : sanitizeReportHtml(input.finding), diagnosis: input.isFolder ? '' : sanitizeReportHtml(input.diagnosis),
    ...(input.sort !== undefined ? { sort: input.sort } : {}),
  };
  const audit = { at: who.at, actorId: who.actorId, bucketId: tree.bucketId, area: 'templates', objectType: 'reportTemplate' };
  if (!input.id) {
    const created = (await tx.insert(reportTemplates).values(values).returning())[0]!;
    await recordAudit(tx, { ...audit, action: 'create', objectId: created.id, after: { ...auditView(created), groupId: created.groupId } });
    return created;
  }

  const [existing] = await tx.select().from(reportTemplates).where(eq(reportTemplates.id, input.id)).for('update');
  // Another organisation's template is not there for this account.
  if (!existing) throw new ApiError('NotFound');
  if (!sameTree(tree, existing)) {
    const visible = existing.bucketId !== null ? access.buckets.has(existing.bucketId) : existing.groupId !== null && inGroup(access, existing.groupId);
    if (!visible || (existing.bucketId !== null && tree.kind === 'bucket')) throw new ApiError('NotFound');
    // Between an organisation's tree and the group's: a template stays in its tree (export and import copy it).
    throw paramsError(tree.kind === 'group' ? 'groupId' : 'bucketId', 'a template cannot move to another tree');
  }
  if (existing.isFolder !== input.isFolder) throw paramsError('isFolder', 'a folder stays a folder and a template a template');
  await assertNoCycle(tx, input.id, input.parentId);
  const updated = (await tx.update(reportTemplates).set(values).where(eq(reportTemplates.id, input.id)).returning())[0]!;
  await recordAudit(tx, { ...audit, action: 'update', objectId: updated.id, before: auditView(existing), after: auditView(updated) });
  return updated;
}

/** Moving a folder under itself or under one of its own descendants would cut it off from the tree. */
async function assertNoCycle(tx: Db, id: number, parentId: number | null): Promise<void> {
  for (let at = parentId, depth = 0; at !== null && depth < 100; depth++) {
    if (at === id) throw paramsError('parentId', 'a folder cannot move into itself');
    const [up] = await tx.select({ parentId: reportTemplates.parentId }).from(reportTemplates).where(eq(reportTemplates.id, at));
    at = up?.parentId ?? null;
  }
}

export type { TemplateNode };
