import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { publicationsQuery, type Publication, type PublicationState } from '../../contract/shares';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import { accounts, exams, reportPublications, reports } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { liveReport } from '../images/reportAccess';
import { isApproved } from './present';

/**
 * Report publishing (core §2 /report-publish, order_report_publish): a report is put on (or taken off)
 * its organisation's patient-facing list. Only an approved report can be published; one that is recalled
 * later stays published but is not shown until it is approved again.
 */
export async function publishRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/reports/:id/publish', async (req): Promise<PublicationState> => {
    const { id } = parse(idParam, req.params);
    const { row } = await liveReport(db, id);
    assertCan(await authOf(req).access(), 'order_report_publish', row.bucketId);
    const [found] = await db.select({ publishedAt: reportPublications.publishedAt, name: accounts.name }).from(reportPublications)
      .leftJoin(accounts, eq(accounts.id, reportPublications.publishedBy)).where(eq(reportPublications.reportId, id));
    return { reportId: id, published: found !== undefined, publishedAt: found?.publishedAt.toISOString() ?? null, publishedByName: found?.name ?? null };
  });

  app.post('/reports/:id/publish', async (req) => {
    const { id } = parse(idParam, req.params);
    const auth = authOf(req);
    const { row } = await liveReport(db, id);
    assertCan(await auth.access(), 'order_report_publish', row.bucketId);
    if (!isApproved(row)) throw new ApiError('InvalidTransition', 'Only an approved report can be published');
    const now = deps.clock.now();
    const [publication] = await db.insert(reportPublications).values({ reportId: id, bucketId: row.bucketId, publishedBy: auth.account.id, publishedAt: now })
      .onConflictDoUpdate({ target: reportPublications.reportId, set: { publishedBy: auth.account.id, publishedAt: now } }).returning();
    return { reportId: id, publishedAt: publication!.publishedAt.toISOString() };
  });

  app.delete('/reports/:id/publish', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const { row } = await liveReport(db, id);
    assertCan(await authOf(req).access(), 'order_report_publish', row.bucketId);
    await db.delete(reportPublications).where(eq(reportPublications.reportId, id));
    reply.status(204).send();
  });

  app.get('/report-publish/list', async (req): Promise<{ items: Publication[]; total: number }> => {
    const q = parse(publicationsQuery, req.query);
    assertCan(await authOf(req).access(), 'order_report_publish', q.bucketId);
    const where = and(eq(reportPublications.bucketId, q.bucketId));
    const rows = await db.select({ p: reportPublications, exam: exams, status: reports.status, publisher: accounts.name }).from(reportPublications)
      .innerJoin(reports, eq(reports.id, reportPublications.reportId)).innerJoin(exams, eq(exams.id, reports.examId))
      .leftJoin(accounts, eq(accounts.id, reportPublications.publishedBy))
      // The report id breaks ties, so pages do not overlap when several reports were published in the same instant.
      .where(where).orderBy(desc(reportPublications.publishedAt), desc(reportPublications.reportId)).offset(q.skip).limit(q.limit);
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(reportPublications).where(where);
    return {
      items: rows.map((r) => ({
        reportId: r.p.reportId, examId: r.exam.id, patientName: r.exam.patientName, modality: r.exam.modality,
        examTime: r.exam.examTime.toISOString(), status: r.status, publishedAt: r.p.publishedAt.toISOString(),
        publishedByName: r.publisher ?? null,
      })),
      total,
    };
  });
}
