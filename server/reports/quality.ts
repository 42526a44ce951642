import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { qualityInput, type QualityView } from '../../contract/reports';
import { presentedStatus } from '../../machines/reportTransitions';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { accounts, reportQuality, reportTraces } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { loadReport, readableReport } from './load';
import { traceSnapshot } from './traceSnapshot';

/** Quality is judged on what was issued: approved reports, printed or not. */
const RATED_STATUSES: readonly string[] = ['corrected', 'printed'];

async function qualityView(db: Db, reportId: number): Promise<QualityView | null> {
  const [row] = await db.select({ q: reportQuality, reviewerName: accounts.name }).from(reportQuality)
    .leftJoin(accounts, eq(accounts.id, reportQuality.reviewerId)).where(eq(reportQuality.reportId, reportId));
  if (!row) return null;
  const { q } = row;
  return {
    reportId: q.reportId, grade: q.grade as QualityView['grade'], score: q.score, comment: q.comment, items: q.items,
    reviewer: q.reviewerId === null ? null : { id: q.reviewerId, name: row.reviewerName ?? '' }, updated: q.updated.toISOString(),
  };
}

/** Core §3 quality record of a report: read by its readers, written with quality_upsert by someone other than its writer. */
export async function qualityRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/reports/:id/quality', async (req) => {
    const { id } = parse(idParam, req.params);
    await readableReport(db, await authOf(req).access(), id);
    return (await qualityView(db, id)) ?? null;
  });

  app.post('/reports/:id/quality/upsert', async (req) => {
    const { id } = parse(idParam, req.params);
    const input = parse(qualityInput, req.body);
    const access = await authOf(req).access();
    await db.transaction(async (tx) => {
      const loaded = await loadReport(tx, id, { forUpdate: true });
      if (!loaded) throw new ApiError('NotFound');
      assertCan(access, 'quality_upsert', loaded.row.bucketId);
      if (loaded.row.creatorId === access.accountId) throw new ApiError('Forbidden', 'A report is rated by someone other than its writer');
      if (loaded.state.deleted || !RATED_STATUSES.includes(loaded.row.status)) {
        throw new ApiError('InvalidTransition', 'Only an approved report is rated', { status: presentedStatus(loaded.state) });
      }
      const now = deps.clock.now();
      const values = {
        grade: input.grade, score: input.score ?? null, comment: input.comment || null, items: input.items ?? {}, reviewerId: access.accountId, updated: now,
      };
      await tx.insert(reportQuality).values({ reportId: id, bucketId: loaded.row.bucketId, created: now, ...values })
        .onConflictDoUpdate({ target: reportQuality.reportId, set: values });
      const status = presentedStatus(loaded.state);
      await tx.insert(reportTraces).values({
        reportId: id, accountId: access.accountId, action: 'quality', fromStatus: status, toStatus: status,
        reason: `${input.grade}${input.score != null ? ` ${input.score}` : ''}`, snapshot: traceSnapshot(loaded.row), created: now,
      });
    });
    return qualityView(db, id);
  });
}
