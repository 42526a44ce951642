import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParam, idValue } from '../../contract/common';
import { rtcTokenQuery, type ConsultationDetail, type ConsultationPrintData, type RtcToken } from '../../contract/consultations';
import { authOf } from '../auth/plugin';
import { accounts, consultationLinks } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { buildDetail } from './detail';
import { assertConsultationAction, loadConsultation } from './load';
import { consultationPrintTemplate } from './printTemplate';
import { rtcToken } from './rtc';

const relatedParams = z.object({ id: idValue, linkId: idValue });

/** What a reader of a consultation sees besides its detail: the video room's token, the print, a linked one. */
export async function consultationViewRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;

  // Areas §3 "Report template": the consultation prints on its applicant's layout-3 template; any reader prints.
  app.get('/consultations/:id/print-data', async (req): Promise<ConsultationPrintData> => {
    const { id } = parse(idParam, req.params);
    const c = await loadConsultation(db, await authOf(req).access(), id);
    assertConsultationAction(c, 'print');
    return {
      consultation: await buildDetail(db, storage, c),
      template: await consultationPrintTemplate(db, storage, c.row.appliedBucketId),
      printedAt: deps.clock.now().toISOString(),
    };
  });

  // /consultations/{id}/related/{linkId}: a linked (history) consultation, while linked and readable by the account.
  app.get('/consultations/:id/related/:linkId', async (req): Promise<ConsultationDetail> => {
    const { id, linkId } = parse(relatedParams, req.params);
    const access = await authOf(req).access();
    await loadConsultation(db, access, id);
    const [link] = await db.select({ linkedId: consultationLinks.linkedId }).from(consultationLinks)
      .where(and(eq(consultationLinks.consultationId, id), eq(consultationLinks.linkedId, linkId)));
    if (!link) throw new ApiError('NotFound');
    return buildDetail(db, storage, await loadConsultation(db, access, linkId));
  });

  // Video (areas §7 "GET consultations/rtc/access-token?room"): only readers of the room's consultation join it.
  app.get('/consultations/rtc/access-token', async (req): Promise<RtcToken> => {
    const { room } = parse(rtcTokenQuery, req.query);
    // The room names its consultation; an id past the column's range is bad input, not a database error.
    const { id } = parse(idParam, { id: room.slice('consultation-'.length) });
    const access = await authOf(req).access();
    await loadConsultation(db, access, id);
    const config = deps.config.livekit;
    if (!config) return { configured: false };
    const [me] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, access.accountId));
    return rtcToken(config, { room, accountId: access.accountId, name: me?.name ?? '', now: deps.clock.now() });
  });
}
