import { and, asc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { sanitizeReportHtml } from '../../contract/reportHtml';
import { templateSearchQuery, templateTreeQuery, templateUpsertInput, type TemplateNode } from '../../contract/reports';
import { assertCan, type Access } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { reportTemplates } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';

type TemplateRow = typeof reportTemplates.$inferSelect;

/** Templates are read by whoever writes, advises or approves reports in the organisation, and by their editors. */
const TEMPLATE_READERS = ['report_upsert', 'report_advice', 'report_approval', 'template_upsert'] as const;

function assertCanReadTemplates(access: Access, bucketId: number): void {
  const grant = access.buckets.get(bucketId);
  if (!grant) throw new ApiError('NotFound');
  if (!TEMPLATE_READERS.some((a) => grant.actions.has(a))) throw new ApiError('Forbidden');
}

const node = (r: TemplateRow): TemplateNode => ({
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

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** The writing templates of the report workspace (areas §3 "Report template" screens, §5 names must not repeat). */
export async function templateRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/report-templates', async (req) => {
    const { bucketId } = parse(templateTreeQuery, req.query);
    assertCanReadTemplates(await authOf(req).access(), bucketId);
    const rows = await db.select().from(reportTemplates).where(eq(reportTemplates.bucketId, bucketId));
    return { items: buildTree(rows), total: rows.length };
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
    assertCan(await authOf(req).access(), 'template_upsert', input.bucketId);
    try {
      return await db.transaction(async (tx) => node(await upsert(tx, input)));
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
      if (!row || row.bucketId === null) throw new ApiError('NotFound');
      assertCan(access, 'template_upsert', row.bucketId);
      const [child] = await tx.select({ id: reportTemplates.id }).from(reportTemplates).where(eq(reportTemplates.parentId, id)).limit(1);
      // A folder is emptied first: one mistaken key must not take a whole folder of templates with it.
      if (child) throw new ApiError('TemplateFolderNotEmpty');
      await tx.delete(reportTemplates).where(eq(reportTemplates.id, id));
    });
    return reply.status(204).send();
  });
}

type UpsertInput = ReturnType<typeof templateUpsertInput.parse>;

async function upsert(tx: Db, input: UpsertInput): Promise<TemplateRow> {
  if (input.parentId !== null) {
    const [parent] = await tx.select().from(reportTemplates).where(eq(reportTemplates.id, input.parentId));
    if (!parent || parent.bucketId !== input.bucketId || !parent.isFolder) {
      throw new ApiError('ParamsError', undefined, { fields: [{ path: 'parentId', message: 'not a folder of this organisation' }] });
    }
  }
  const [clash] = await tx.select({ id: reportTemplates.id }).from(reportTemplates).where(and(
    eq(reportTemplates.bucketId, input.bucketId),
    input.parentId === null ? isNull(reportTemplates.parentId) : eq(reportTemplates.parentId, input.parentId),
    sql`lower(${reportTemplates.name}) = lower(${input.name})`,
    input.id ? sql`${reportTemplates.id} <> ${input.id}` : undefined,
  ));
  if (clash) throw new ApiError('DuplicateName', undefined, { name: input.name });
  const values = {
    bucketId: input.bucketId, parentId: input.parentId, name: input.name, isFolder: input.isFolder,
    modality: input.modality ?? null, bodyPart: input.bodyPart ?? null,
    finding: input.isFolder ? '' : sanitizeReportHtml(input.finding), diagnosis: input.isFolder ? '' : sanitizeReportHtml(input.diagnosis),
    ...(input.sort !== undefined ? { sort: input.sort } : {}),
  };
  if (!input.id) return (await tx.insert(reportTemplates).values(values).returning())[0]!;

  const [existing] = await tx.select().from(reportTemplates).where(eq(reportTemplates.id, input.id)).for('update');
  // Another organisation's template is not there for this account.
  if (!existing || existing.bucketId !== input.bucketId) throw new ApiError('NotFound');
  if (existing.isFolder !== input.isFolder) {
    throw new ApiError('ParamsError', undefined, { fields: [{ path: 'isFolder', message: 'a folder stays a folder and a template a template' }] });
  }
  await assertNoCycle(tx, input.id, input.parentId);
  return (await tx.update(reportTemplates).set(values).where(eq(reportTemplates.id, input.id)).returning())[0]!;
}

/** Moving a folder under itself or under one of its own descendants would cut it off from the tree. */
async function assertNoCycle(tx: Db, id: number, parentId: number | null): Promise<void> {
  for (let at = parentId, depth = 0; at !== null && depth < 100; depth++) {
    if (at === id) throw new ApiError('ParamsError', undefined, { fields: [{ path: 'parentId', message: 'a folder cannot move into itself' }] });
    const [up] = await tx.select({ parentId: reportTemplates.parentId }).from(reportTemplates).where(eq(reportTemplates.id, at));
    at = up?.parentId ?? null;
  }
}
