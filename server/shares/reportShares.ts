import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { idParam } from '../../contract/common';
import { createShareInput, shareQuery, type ShareLink, type SharedReport } from '../../contract/shares';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import { exams, reportShares, reports } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { liveReport } from '../images/reportAccess';
import { examHeader, isApproved, organisationNames, reportContents, sharedView } from './present';
import { limitRequest } from '../http/rateLimit';

type ShareRow = typeof reportShares.$inferSelect;
const revokeParams = idParam.extend({ link: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/) });
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A share link id: 192 random bits, so links cannot be guessed or enumerated. */
export const newLinkId = () => randomBytes(24).toString('base64url');

const toLink = (row: ShareRow): ShareLink => ({
  link: row.id, path: `/reports/s?link=${row.id}`, expires: seconds(row.expiresAt), created: row.created.toISOString(),
  revoked: row.revokedAt !== null, createdBy: row.createdBy,
});

/**
 * Report share links (core §2 /reports/s?link, §7 share/report). Making, listing and revoking a link
 * needs report_print in the report's organisation: handing a report out is releasing it, as printing is.
 */
export async function reportShareRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.post('/reports/:id/share', async (req, reply): Promise<ShareLink> => {
    const { id } = parse(idParam, req.params);
    const { ttlDays } = parse(createShareInput, req.body);
    const auth = authOf(req);
    const { row } = await liveReport(db, id);
    assertCan(await auth.access(), 'report_print', row.bucketId);
    const now = deps.clock.now();
    const [share] = await db.insert(reportShares).values({
      id: newLinkId(), reportId: id, bucketId: row.bucketId, createdBy: auth.account.id,
      approvedTimeAtShare: isApproved(row) ? row.approvedTime : null,
      expiresAt: new Date(now.getTime() + ttlDays * 86_400_000), created: now,
    }).returning();
    reply.status(201);
    return toLink(share!);
  });

  app.get('/reports/:id/shares', async (req): Promise<ShareLink[]> => {
    const { id } = parse(idParam, req.params);
    const { row } = await liveReport(db, id);
    assertCan(await authOf(req).access(), 'report_print', row.bucketId);
    const rows = await db.select().from(reportShares).where(eq(reportShares.reportId, id)).orderBy(desc(reportShares.created));
    return rows.map(toLink);
  });

  app.post('/reports/:id/shares/:link/revoke', async (req, reply) => {
    const { id, link } = parse(revokeParams, req.params);
    const auth = authOf(req);
    const { row } = await liveReport(db, id);
    assertCan(await auth.access(), 'report_print', row.bucketId);
    const [share] = await db.select().from(reportShares).where(and(eq(reportShares.id, link), eq(reportShares.reportId, id)));
    if (!share) throw new ApiError('NotFound');
    await db.update(reportShares).set({ revokedAt: deps.clock.now(), revokedBy: auth.account.id })
      .where(and(eq(reportShares.id, link), isNull(reportShares.revokedAt)));
    reply.status(204).send();
  });

  // Public: exactly what the link grants, and per address no more than the public limit.
  app.get('/share/report', { config: { public: true } }, async (req): Promise<SharedReport> => {
    const now = deps.clock.now();
    await limitRequest(db, `share:${req.ip}`, now);
    const { link } = parse(shareQuery, req.query);
    const [share] = /^[A-Za-z0-9_-]{16,64}$/.test(link) ? await db.select().from(reportShares).where(eq(reportShares.id, link)) : [];
    if (!share) throw new ApiError('NotFound');
    if (share.revokedAt) throw new ApiError('LinkExpired', undefined, { reason: 'revoked' });
    if (share.expiresAt <= now) throw new ApiError('LinkExpired', undefined, { reason: 'expired' });
    const [found] = await db.select({ report: reports, exam: exams }).from(reports).innerJoin(exams, eq(exams.id, reports.examId))
      .where(eq(reports.id, share.reportId));
    if (!found || found.report.deletedTime || found.exam.deletedTime) throw new ApiError('LinkExpired', undefined, { reason: 'withdrawn' });
    const { state, changedSinceShared } = await sharedView(db, found.report, { sharedAt: share.created, approvedTimeAtShare: share.approvedTimeAtShare });
    const organisation = (await organisationNames(db, [found.exam.bucketId])).get(found.exam.bucketId) ?? '';
    return {
      state,
      exam: examHeader(found.exam, organisation),
      report: state === 'final' ? (await reportContents(db, [found.report])).get(found.report.id)! : null,
      changedSinceShared,
      expires: seconds(share.expiresAt),
    };
  });
}
